// Small readers of request details that several areas share.
import type { FastifyRequest } from 'fastify';
import { PRODUCT } from '../../contract/enums.ts';

/** Binary-variant calls arrive on /api/binary/...: those list and create product-2 subjects. */
export const productOf = (request: FastifyRequest): number =>
  (request.routeOptions.url ?? request.url).startsWith('/api/binary/') ? PRODUCT.BINARY : PRODUCT.SOURCE;

export const parseIds = (text: string | undefined): number[] =>
  [...new Set((text ?? '').split(',').map((s) => Number(s.trim())).filter((n) => Number.isInteger(n) && n > 0))];
