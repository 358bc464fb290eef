// What handlers of several areas share: paging of list calls and small readers of request details.
// An area's own helpers stay in its folder; a helper a second area needs moves here (areas never
// import each other).
import type { FastifyRequest } from 'fastify';
import { DEFAULT_PAGE_SIZE } from '../../contract/api/kit.ts';
import { PRODUCT } from '../../contract/enums.ts';
import { visibleSubjectIds } from '../db/repositories/subject-access.ts';
import type { Db } from '../db/transaction.ts';
import { signedIn } from './register.ts';

export interface Paging {
  page: number;
  size: number;
}

/** Paging of the list calls: the spec's page counts from 1; the screens show 15 rows by default. */
export const pagingOf = (query: { page?: number; size?: number } | undefined): Paging =>
  ({ page: query?.page ?? 1, size: query?.size ?? DEFAULT_PAGE_SIZE });

/** One page of rows already in memory (lists grouped or merged after reading). */
export const pageOf = <T>(rows: T[], page: number, size: number): T[] => rows.slice((page - 1) * size, page * size);

/** Binary-variant calls arrive on /api/binary/...: those list and create product-2 subjects. */
export const productOf = (request: FastifyRequest): number =>
  (request.routeOptions.url ?? request.url).startsWith('/api/binary/') ? PRODUCT.BINARY : PRODUCT.SOURCE;

/** `1,2,x,2` → [1, 2]: the positive whole numbers of an id list, each once. */
export const parseIds = (text: string | undefined): number[] =>
  [...new Set((text ?? '').split(',').map((s) => Number(s.trim())).filter((n) => Number.isInteger(n) && n > 0))];

/**
 * The signed-in caller's data scope (subject-access.ts's visibleSubjectIds), using the data
 * permission the guard read with the permissions for this request: one query fewer.
 */
export function visibleSubjectsOf(db: Db, request: FastifyRequest): Promise<number[] | 'all'> {
  const { userId, dataPermission } = signedIn(request);
  return visibleSubjectIds(db, userId, dataPermission);
}
