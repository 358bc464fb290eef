// OpenAPI description of every registered call (from its TypeBox schemas), browsable at /api/docs.
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { CSRF_HEADER, SESSION_COOKIE } from '../../contract/api/session.ts';

const DOCS_PREFIX = '/api/docs';

export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: { title: 'Cairn 平台接口', description: '所有响应均为信封 {code, message, data}：code 1 成功，3 会话失效。', version },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE },
          csrf: { type: 'apiKey', in: 'header', name: CSRF_HEADER },
        },
      },
    },
  });
  await app.register(swaggerUi, { routePrefix: DOCS_PREFIX });
}
