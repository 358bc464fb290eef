// Turns a contract call declaration plus arguments into the bridge's request. Path strings come
// only from the declaration (`path`), filled with fillPath; the binary product uses binaryPath
// for calls marked binaryVariant (spec doc 1 §1, §7 "(B)").
import type { ApiRequest } from '../../contract/ipc/desktop-contract.ts';
import { binaryPath, fillPath, type CallSpec, type HttpMethod } from '../../contract/api/define.ts';
import { specCalls } from '../../contract/spec/calls.ts';
import { usesBinaryVariant } from '../../contract/enums.ts';
import { zh } from '../i18n/zh-CN.ts';

/** The part of a call declaration the renderer needs (schemas stay out of the cache keys). */
export interface CallRef {
  name: string;
  method: HttpMethod;
  path: string;
  binaryVariant?: boolean;
}

type QueryRecord = NonNullable<ApiRequest['query']>;

/** What an endpoint hands to the base query: the call and its arguments, before the product is known. */
export interface CallArgs {
  call: CallRef;
  params?: Record<string, string | number>;
  query?: QueryRecord;
  body?: unknown;
}

const callRef = (call: CallSpec | CallRef): CallRef => ({
  name: call.name,
  method: call.method,
  path: call.path,
  ...(call.binaryVariant ? { binaryVariant: true } : {}),
});

/** Endpoint helper: `call(self)`, `call(modifyPassword, { body })`. */
export function call(spec: CallSpec | CallRef, args: Omit<CallArgs, 'call'> = {}): CallArgs {
  return { call: callRef(spec), ...args };
}

/** Drops undefined/null query values (the bridge's schema allows only scalars and arrays). */
function cleanQuery(query: Record<string, unknown> | undefined): QueryRecord | undefined {
  if (!query) return undefined;
  const out: QueryRecord = {};
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null) continue;
    out[k] = v as QueryRecord[string];
  }
  return Object.keys(out).length ? out : undefined;
}

/** The filled request for the bridge, for the current product. */
export function toApiRequest(args: CallArgs, product: number): ApiRequest {
  let path = fillPath(args.call.path, args.params);
  if (args.call.binaryVariant && usesBinaryVariant(product)) path = binaryPath(path);
  const request: ApiRequest = { method: args.call.method, path };
  const query = cleanQuery(args.query);
  if (query) request.query = query;
  if (args.body !== undefined) request.body = args.body;
  return request;
}

/**
 * A spec call that contract/api does not declare yet (its area is not built). Looked up in the
 * spec's call catalogue so a typo fails at start-up rather than at the server.
 */
export function specCallRef(name: string, method: HttpMethod, path: string): CallRef {
  const found = specCalls.find((c) => c.method === method && c.path === path);
  if (!found) throw new Error(zh.app.notInSpec(method, path));
  return { name, method, path: found.path, ...(found.binaryVariant ? { binaryVariant: true } : {}) };
}
