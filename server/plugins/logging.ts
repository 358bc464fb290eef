// Structured JSON logs (pino, through Fastify) that never carry credentials: cookies, the CSRF
// header, authorisation, passwords, and the personal token in /api/token/login?key=.
import type { FastifyRequest } from 'fastify';

const CENSOR = '[已隐藏]';
const SECRET_QUERY = /([?&](?:key|token|password)=)[^&]*/gi;

const redactUrl = (url: string): string => url.replace(SECRET_QUERY, `$1${CENSOR}`);

const HEADERS = ['cookie', 'authorization', '["x-csrf-token"]', '["set-cookie"]'];
const PASSWORDS = ['password', 'oldPassword', 'password_hash', 'passwordHash'];

export const loggerOptions = (level: string) => ({
  level,
  redact: {
    paths: [
      ...['req.headers', 'res.headers', 'headers'].flatMap((base) => HEADERS.map((h) => `${base}${h.startsWith('[') ? h : `.${h}`}`)),
      ...PASSWORDS.flatMap((p) => [p, `*.${p}`, `*.*.${p}`]),
    ],
    censor: CENSOR,
  },
  serializers: {
    req: (request: FastifyRequest) => ({
      method: request.method,
      url: redactUrl(request.url),
      host: request.host,
      remoteAddress: request.ip,
    }),
  },
});
