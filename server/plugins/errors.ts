// Every failure leaves as an envelope with the spec's HTTP status and a Chinese message (spec §8).
// Unexpected errors are logged in full but answered only with 服务器内部错误.
import type { FastifyError, FastifyInstance } from 'fastify';
import { fail } from '../../contract/envelope.ts';
import { MSG } from '../messages.ts';
import { isSpecCall } from '../call-catalogue.ts';
import { validationMessage } from './validation-message.ts';

const BY_CODE: Record<string, [number, string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: [413, MSG.bodyTooLarge],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, MSG.invalidJson],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, MSG.invalidJson],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, MSG.unsupportedMediaType],
};

const BY_STATUS: Record<number, string> = {
  400: MSG.badRequest, 401: MSG.unauthorized, 403: MSG.forbidden, 404: MSG.notFound, 408: MSG.timeout,
};

function describeError(error: FastifyError): { status: number; message: string } {
  if (error.validation) {
    return { status: 400, message: `${MSG.badParameters}：${validationMessage(error.validation, error.validationContext)}` };
  }
  const known = BY_CODE[error.code];
  if (known) return { status: known[0], message: known[1] };
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return { status, message: BY_STATUS[status] ?? MSG.badRequest };
  return { status: 500, message: MSG.internalError };
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const { status, message } = describeError(error);
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ code: error.code, status }, message);
    return reply.code(status).send(fail(message));
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    if (isSpecCall(request.method, path)) return reply.code(501).send(fail(MSG.notImplemented));
    return reply.code(404).send(fail(`${MSG.notFound} ${path}`));
  });
}
