// Records every contract call of a token-opened session in the open-API log once its answer is
// sent (onResponse: the caller never waits on it). The guard names the session's token
// (request.auth.tokenId); the call handler notes the envelope's code (request.resultCode).
import type { FastifyInstance } from 'fastify';
import type { OpenApiLogRecorder } from '../services/open-api-log.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The code of the envelope a call answered (1 success, 0 refused); unset for a file or an error. */
    resultCode?: number;
  }
}

export function registerOpenApiLog(app: FastifyInstance, recorder: OpenApiLogRecorder): void {
  app.addHook('onResponse', async (request, reply) => {
    const auth = request.auth;
    if (!auth?.tokenId) return;
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
