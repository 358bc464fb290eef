// 开放接口日志 (spec doc 2 §7 "Versions and logs": GET /api/open/log/list; screen
// /system/log/openApi; permission setup:log): every call made in a session a personal token
// opened, with who made it, with which token, what was called, how it was answered and how long
// it took. Recorded after the answer is sent (never delaying it), kept for a bounded time and
// count (OPEN_API_LOG_RETENTION, settings key openApiLog.retention). The spec's export report of
// this log (/api/open/log/report/list, DELETE /api/open/log/report/{id}) is not built yet.
import { Type, type Static } from 'typebox';
import { defineCall } from './define.ts';
import { Id, Nullable, PageSchema, PagingQuerySchema } from './kit.ts';

/** How long and how many rows the log keeps until an administrator's setting says otherwise. */
export const OPEN_API_LOG_RETENTION = { days: 180, maxRows: 1_000_000 } as const;

/** success: answered below 400 with a success envelope (or a file); failure: anything else. */
export const OPEN_API_OUTCOME = { SUCCESS: 'success', FAILURE: 'failure' } as const;
export const OPEN_API_OUTCOME_LABEL = { success: '成功', failure: '失败' } as const;
export type OpenApiOutcome = (typeof OPEN_API_OUTCOME)[keyof typeof OPEN_API_OUTCOME];

export const OPEN_API_LOG_MSG = {
  rangeReversed: '开始时间不能晚于结束时间',
  timeInvalid: '时间格式不正确',
} as const;

export const OpenApiLogRowSchema = Type.Object({
  id: Type.Integer(),
  /** When the call was answered, ISO-8601. */
  at: Type.String(),
  userId: Type.Integer(),
  /** The username when the call was made (kept after the account is gone). */
  username: Type.String(),
  tokenId: Type.Integer(),
  tokenName: Type.String(),
  method: Type.String(),
  /** The path called, without its query string. */
  path: Type.String(),
  /** The contract call's `area.action` name, and its description (null for a call no longer declared). */
  callName: Nullable(Type.String()),
  callSummary: Nullable(Type.String()),
  /** HTTP status of the answer. */
  status: Type.Integer(),
  /** The envelope's code (1 success, 0 refused); null when the answer was a file. */
  resultCode: Nullable(Type.Integer()),
  outcome: Type.Union([Type.Literal('success'), Type.Literal('failure')]),
  durationMs: Type.Integer(),
  /** The caller's address. */
  ip: Type.String(),
});
export type OpenApiLogRow = Static<typeof OpenApiLogRowSchema>;

const Text = (max: number) => Type.Optional(Type.String({ maxLength: max }));

export const OpenApiLogQuerySchema = Type.Object({
  ...PagingQuerySchema.properties,
  userId: Type.Optional(Id()),
  tokenId: Type.Optional(Id()),
  /** Part of the caller's username, case-insensitive. */
  username: Text(100),
  /** Part of the token's name, case-insensitive. */
  tokenName: Text(100),
  /** The contract call's exact `area.action` name. */
  callName: Text(100),
  /** Part of the path called. */
  path: Text(200),
  status: Type.Optional(Type.Integer({ minimum: 100, maximum: 599 })),
  outcome: Type.Optional(Type.Union([Type.Literal('success'), Type.Literal('failure')])),
  /** ISO-8601 bounds on the call's time, both inclusive. */
  from: Text(40),
  to: Text(40),
});
export type OpenApiLogQuery = Static<typeof OpenApiLogQuerySchema>;

export const list = defineCall({
  name: 'openApiLog.list',
  method: 'GET',
  path: '/api/open/log/list',
  summary: '开放接口调用日志',
  query: OpenApiLogQuerySchema,
  response: Type.Object({
    ...PageSchema(OpenApiLogRowSchema).properties,
    /** What the log keeps: rows older than `days` or beyond the newest `maxRows` are removed. */
    retention: Type.Object({ days: Type.Integer(), maxRows: Type.Integer() }),
  }),
  permission: 'setup:log',
});

export const openApiLogCalls = { list };
