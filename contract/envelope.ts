// The response envelope every platform call answers with (spec §7 of both documents).
// code 1 is success, 3 an invalid session; any other code carries a message to show.
import { Type, type Static, type TSchema } from 'typebox';
import { ResultCode } from './result-code.ts';

export { ResultCode };

export interface Envelope<T = unknown> {
  code: number;
  message: string;
  data: T;
}

/** A page of a list: rows and the total count. */
export interface Page<T> {
  content: T[];
  total: number;
}

/** Paging query: page counts from 1, size rows a page, sort like `name,asc`. */
export interface PageQuery {
  page?: number;
  size?: number;
  sort?: string;
}

export const EnvelopeSchema = <T extends TSchema>(data: T) =>
  Type.Object({ code: Type.Integer(), message: Type.String(), data });

export const PageSchema = <T extends TSchema>(row: T) =>
  Type.Object({ content: Type.Array(row), total: Type.Integer({ minimum: 0 }) });

export const PageQuerySchema = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  size: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 15 })),
  sort: Type.Optional(Type.String({ maxLength: 100 })),
});
export type PageQueryStatic = Static<typeof PageQuerySchema>;

export const ok = <T>(data: T, message = '操作成功'): Envelope<T> => ({ code: ResultCode.SUCCESS, message, data });
export const fail = (message: string, code: number = ResultCode.FAILURE): Envelope<null> => ({ code, message, data: null });
