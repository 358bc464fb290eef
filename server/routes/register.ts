// Binds handlers to the contract's call declarations and registers them as Fastify routes: the
// method, path and schemas come only from contract/, never written here.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type TSchema } from 'typebox';
import { binaryPath, routerPath, type CallBody, type CallData, type CallParams, type CallQuery, type CallSpec } from '../../contract/api/define.ts';
import { EnvelopeSchema, fail, type Envelope } from '../../contract/envelope.ts';
import type { AuthContext } from '../auth/guard.ts';
import { isUserError } from '../errors.ts';
import { health } from '../../contract/api/session.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The contract declaration a route serves; the guard reads its login, CSRF and permission rules. */
    call?: CallSpec;
  }
}

export interface CallContext<C extends CallSpec> {
  request: FastifyRequest;
  reply: FastifyReply;
  query: CallQuery<C>;
  body: CallBody<C>;
  params: CallParams<C>;
}

/**
 * A failure envelope carries null data, so any handler may answer one, or throw a UserError that
 * is answered as one. A raw call's handler answers the reply itself once it has sent the file.
 */
export type CallHandler<C extends CallSpec> = (ctx: CallContext<C>) => Promise<Envelope<CallData<C> | null> | FastifyReply>;
export type AreaHandlers<T extends Record<string, CallSpec>> = { [K in keyof T]: CallHandler<T[K]> };
export type HandlerIndex = Map<string, CallHandler<CallSpec>>;

/** Indexes an area's handlers by call name, the key the registrar looks them up by. */
export function indexHandlers<T extends Record<string, CallSpec>>(calls: T, handlers: AreaHandlers<T>): HandlerIndex {
  return new Map(Object.keys(calls).map((key) => [calls[key]!.name, handlers[key] as CallHandler<CallSpec>]));
}

/** The signed-in user of a call that requires login (the guard has already checked). */
export function signedIn(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new Error('调用需要登录，但守卫未设置会话');
  return request.auth;
}

/** Path parameters as strings, for calls that declare none of their own. */
function paramsSchema(call: CallSpec): TSchema | undefined {
  if (call.params) return call.params;
  const names = [...call.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  return names.length ? Type.Object(Object.fromEntries(names.map((n) => [n, Type.String()]))) : undefined;
}

const ErrorEnvelope = EnvelopeSchema(Type.Null());

function routeSchema(call: CallSpec, operationId: string) {
  const params = paramsSchema(call);
  return {
    operationId,
    summary: call.summary,
    tags: [call.name.split('.')[0]!],
    ...(call.query && { querystring: call.query }),
    ...(call.body && { body: call.body }),
    ...(params && { params }),
    response: {
      // A raw call's success is a file, sent by its handler: only its failures are envelopes.
      ...(!call.raw && { 200: EnvelopeSchema(Type.Union([call.response, Type.Null()])) }),
      '4xx': ErrorEnvelope,
      '5xx': ErrorEnvelope,
    },
  };
}

/** A raw call's handler answers the reply it sent the file on; FastifyReply's `code` is a method. */
const isEnvelope = (answer: Envelope<unknown> | FastifyReply | undefined): answer is Envelope<unknown> => typeof answer?.code === 'number';

export function registerCalls(app: FastifyInstance, calls: Record<string, CallSpec>, handlers: HandlerIndex): void {
  for (const call of Object.values(calls)) {
    const handler = handlers.get(call.name);
    // Fail at start-up rather than answer 500 later: every implemented call needs its handler.
    if (!handler) throw new Error(`调用 ${call.name} 缺少处理函数`);
    const variants: Array<[string, string]> = [[call.path, call.name]];
    if (call.binaryVariant) variants.push([binaryPath(call.path), `${call.name}.binary`]);
    for (const [path, operationId] of variants) {
      app.route({
        method: call.method,
        url: routerPath(path),
        schema: routeSchema(call, operationId),
        config: { call },
        // The supervisor polls health: logging every probe would bury the requests that matter.
        ...(call === health && { logLevel: 'warn' as const }),
        handler: async (request, reply) => {
          let envelope: Envelope<unknown> | FastifyReply;
          try {
            envelope = await handler({ request, reply, query: request.query, body: request.body, params: request.params } as CallContext<CallSpec>);
          } catch (error) {
            // A domain failure is an answer, not a defect: its message goes to the user as is. A
            // refusal (a data scope the caller lacks) answers like the guard's refused permission:
            // HTTP 403, 'Permission denied' shown as 用户无权查看当前项目.
            if (!isUserError(error)) throw error;
            if (error.kind === 'denied') reply.code(403);
            envelope = fail(error.message, undefined, error.field);
          }
          if (!isEnvelope(envelope)) return reply;
          // The open-API log records whether the call succeeded, not only its HTTP status.
          request.resultCode = envelope.code;
          return envelope;
        },
      });
    }
  }
}
