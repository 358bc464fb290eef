// One declaration per platform call. The server registers routes from these, main's API client
// and the renderer's RTK Query endpoints are typed from them: no path string is written twice.
import type { Static, TSchema } from 'typebox';
import type { PermissionCode } from '../permissions.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface CallSpec<
  Q extends TSchema | undefined = TSchema | undefined,
  B extends TSchema | undefined = TSchema | undefined,
  R extends TSchema = TSchema,
  P extends TSchema | undefined = TSchema | undefined,
> {
  /** Stable name, `area.action`, used for logs and OpenAPI operation ids. */
  name: string;
  method: HttpMethod;
  /** Path as the spec writes it, parameters in braces: `/api/subject/{id}`. */
  path: string;
  /** True when the binary product calls the same path with `/binary` after `/api` (spec `(B)`). */
  binaryVariant?: boolean;
  summary: string;
  params?: P;
  query?: Q;
  body?: B;
  /** Schema of `data` inside the envelope. */
  response: R;
  /** Permission code the caller must hold (a list: any one of them); undefined means any signed-in user. */
  permission?: PermissionCode | readonly PermissionCode[];
  /** Reachable without a session (spec: paths exempt from login). */
  loginExempt?: boolean;
  /** Skips the CSRF header check (only the CSRF call itself and token login). */
  csrfExempt?: boolean;
  /** Success answers the bytes of a file (the handler sends them itself); failures are envelopes. */
  raw?: boolean;
}

type StaticOr<S, D> = S extends TSchema ? Static<S> : D;
export type CallQuery<C> = C extends CallSpec<infer Q, any, any, any> ? StaticOr<Q, undefined> : never;
export type CallBody<C> = C extends CallSpec<any, infer B, any, any> ? StaticOr<B, undefined> : never;
export type CallParams<C> = C extends CallSpec<any, any, any, infer P> ? StaticOr<P, undefined> : never;
export type CallData<C> = C extends CallSpec<any, any, infer R, any> ? Static<R> : never;

export const defineCall = <
  Q extends TSchema | undefined = undefined,
  B extends TSchema | undefined = undefined,
  R extends TSchema = TSchema,
  P extends TSchema | undefined = undefined,
>(spec: CallSpec<Q, B, R, P>): CallSpec<Q, B, R, P> => spec;

/** `/api/subject/{id}` + {id: 3} -> `/api/subject/3` (values URI-encoded). */
export function fillPath(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/\{(\w+)\}/g, (_, key: string) => {
    const value = params[key];
    if (value === undefined) throw new Error(`路径参数缺失：${key}`);
    return encodeURIComponent(String(value));
  });
}

/** The binary product's path: `/api/x` -> `/api/binary/x`. */
export const binaryPath = (path: string): string => path.replace(/^\/api\//, '/api/binary/');

/** Fastify's route syntax: `{id}` -> `:id`. */
export const routerPath = (path: string): string => path.replace(/\{(\w+)\}/g, ':$1');
