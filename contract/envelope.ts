// The response envelope every platform call answers with (spec §7 of both documents).
// code 1 is success, 3 an invalid session; any other code carries a message to show.
// Lists put a page in `data`: its shapes (Page, PageSchema, PagingQuerySchema) are in contract/api/kit.ts.
import { Type, type TSchema } from 'typebox';
import { ResultCode } from './result-code.ts';

export { ResultCode };

export interface Envelope<T = unknown> {
  code: number;
  message: string;
  data: T;
  /**
   * On a failure about one input, the request field it concerns (`subjectTypeName`), so a form
   * shows the message beside that field. An addition to the spec's envelope; absent otherwise.
   */
  field?: string;
}

export const EnvelopeSchema = <T extends TSchema>(data: T) =>
  Type.Object({ code: Type.Integer(), message: Type.String(), data, field: Type.Optional(Type.String()) });

export const ok = <T>(data: T, message = '操作成功'): Envelope<T> => ({ code: ResultCode.SUCCESS, message, data });
export const fail = (message: string, code: number = ResultCode.FAILURE, field?: string): Envelope<null> =>
  (field ? { code, message, data: null, field } : { code, message, data: null });
