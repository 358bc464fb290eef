// CSRF protection by signed double submit: the token is an HMAC of a random per-browser cookie
// under a server secret. A page on another origin can neither read the cookie nor forge the HMAC.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import { ensureSetting } from '../db/repositories/settings.ts';
import { SETTING } from '../db/seed.ts';
import type { Database } from '../db/schema.ts';
import { randomToken } from './tokens.ts';

/** Generated on the first start and kept in settings, so tokens survive restarts and span servers. */
export const loadCsrfSecret = (db: Kysely<Database>): Promise<string> =>
  ensureSetting(db, SETTING.csrfSecret, randomToken(32));

export const csrfTokenFor = (secret: string, cookieValue: string): string =>
  createHmac('sha256', secret).update(cookieValue).digest('base64url');

export function isValidCsrfToken(secret: string, cookieValue: string | undefined, header: unknown): boolean {
  if (!cookieValue || typeof header !== 'string' || header.length === 0) return false;
  const expected = Buffer.from(csrfTokenFor(secret, cookieValue));
  const actual = Buffer.from(header);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
