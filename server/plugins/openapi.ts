// OpenAPI description of every registered call (from its TypeBox schemas), browsable at /api/docs
// by signed-in users only (issue 13, item 10e): the page, its assets and the JSON/YAML description
// answer anyone else 401 with the session envelope, as a contract call without a session does.
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { CSRF_HEADER, SESSION_COOKIE } from '../../contract/api/session.ts';
import { ResultCode, fail } from '../../contract/envelope.ts';
import { findActiveSession } from '../db/repositories/sessions.ts';
import { findUserById } from '../db/repositories/users.ts';
import type { Database } from '../db/schema.ts';
import { MSG } from '../messages.ts';

const DOCS_PREFIX = '/api/docs';

/** Whether a path is the documentation's: the page, its assets, its JSON and YAML. */
const isDocs = (url: string): boolean => {
  const path = url.split('?')[0]!;
  return path === DOCS_PREFIX || path.startsWith(`${DOCS_PREFIX}/`);
};

export async function registerOpenApi(app: FastifyInstance, version: string, db: Kysely<Database>): Promise<void> {
  // Before the documentation's own routes (and its static files, which take no route hooks).
  app.addHook('onRequest', async (request, reply) => {
    if (!isDocs(request.url)) return;
    const token = request.cookies[SESSION_COOKIE];
    const session = token ? await findActiveSession(db, token) : undefined;
    const user = session && await findUserById(db, session.userId);
    // As the guard: a session lives on through the automatic lock, not through an administrator's.
    if (!user || user.lockedByAdmin) return reply.code(401).send(fail(MSG.sessionInvalid, ResultCode.INVALID_SESSION));
  });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Cairn 平台接口', description: '所有响应均为信封 {code, message, data}：code 1 成功，3 会话失效。仅登录用户可查看本文档。', version },
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
