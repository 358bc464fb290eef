// The chunk call's body is raw bytes. Fastify has no parser for application/octet-stream and
// buffers every body it parses; this parser hands the request stream itself to the handler, so
// the app's 1 MiB bodyLimit does not apply and the chunk handler enforces its own limit while
// streaming. It answers only the chunk call: any other route sent octet-stream is refused.
import type { FastifyInstance } from 'fastify';
import { UPLOAD_CHUNK_CONTENT_TYPE, chunk } from '../../contract/api/upload.ts';

export function registerUploadBodyParser(app: FastifyInstance): void {
  if (app.hasContentTypeParser(UPLOAD_CHUNK_CONTENT_TYPE)) return;
  app.addContentTypeParser(UPLOAD_CHUNK_CONTENT_TYPE, (request, payload, done) => {
    if (request.routeOptions.config.call?.name !== chunk.name) {
      const error = Object.assign(new Error('unsupported media type'), { statusCode: 415, code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE' });
      done(error, undefined);
      return;
    }
    done(null, payload);
  });
}
