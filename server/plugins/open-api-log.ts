// Records every contract call of a token-opened session in the open-API log once its answer is
// sent (onResponse: the caller never waits on it). The guard names the session's token
// (request.auth.tokenId), a successful token login the token it opened a session with
// (request.tokenSignIn); the call handler notes the envelope's code (request.resultCode).
import type { FastifyInstance } from 'fastify';
import type { OpenApiLogRecorder } from '../services/open-api-log.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The code of the envelope a call answered (1 success, 0 refused); unset for a file or an error. */
    resultCode?: number;
    /** Set by a successful token login (exempt from the guard): who the token signed in, logged as its first call. */
    tokenSignIn?: { userId: number; tokenId: number };
  }
}

export function registerOpenApiLog(app: FastifyInstance, recorder: OpenApiLogRecorder): void {
  app.addHook('onResponse', async (request, reply) => {
    const auth = request.auth?.tokenId ? { userId: request.auth.userId, tokenId: request.auth.tokenId } : request.tokenSignIn;
    if (!auth) return;
    const url = request.raw.url ?? request.url;
    const query = url.indexOf('?');
    recorder.record({
      at: new Date().toISOString(),
      userId: auth.userId,
      tokenId: auth.tokenId,
      method: request.method,
      path: query < 0 ? url : url.slice(0, query),
      callName: request.routeOptions.config.call?.name ?? null,
      status: reply.statusCode,
      resultCode: request.resultCode ?? null,
      durationMs: Math.max(0, Math.round(reply.elapsedTime)),
      ip: request.ip,
    });
  });
}
