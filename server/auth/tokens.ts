// Random bearer secrets (session cookies, personal tokens) and their at-rest digests.
import { createHash, randomBytes } from 'node:crypto';

/** 32 random bytes, URL-safe: fits a cookie or a query string as is. */
export const randomToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');

/** The stored form of a token: unguessable tokens need no salt, only a one-way digest. */
export const digestToken = (token: string): string => createHash('sha256').update(token).digest('hex');
