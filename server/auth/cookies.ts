// Cookie attributes shared by the session and CSRF cookies.
import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyRequest } from 'fastify';

export const CSRF_COOKIE = 'cairn_csrf';
const CSRF_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/**
 * The session cookie: HttpOnly and SameSite=Strict always; Secure whenever the request itself came
 * over https. No Max-Age: the browser forgets it on exit, the server's idle expiry ends it sooner.
 */
export const sessionCookie = (request: FastifyRequest): CookieSerializeOptions => ({
  path: '/',
  httpOnly: true,
  sameSite: 'strict',
  secure: request.protocol === 'https',
});

/** The session cookie's attributes, long-lived, so a token fetched before login still matches after it. */
export const csrfCookie = (request: FastifyRequest): CookieSerializeOptions => ({
  ...sessionCookie(request),
  maxAge: CSRF_COOKIE_MAX_AGE_SECONDS,
});
