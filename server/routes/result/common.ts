// Shared plumbing of the result handlers: the area's handler type and the paging defaults.
import type { resultCallDeclarations } from '../../../contract/api/result/index.ts';
import type { AreaHandlers } from '../register.ts';

export type ResultHandlers = AreaHandlers<typeof resultCallDeclarations>;
export type HandlersOf<K extends keyof ResultHandlers> = Pick<ResultHandlers, K>;

/** Tree levels are paged larger than lists: a directory or component often has hundreds of children. */
export const TREE_PAGE_SIZE = 200;

export const pageOf = <T>(rows: T[], page: number, size: number): T[] => rows.slice((page - 1) * size, page * size);

/** `name,asc` → ['name', 'asc'], or the default. */
export function sortOf(sort: string | undefined, fallback: [string, 'asc' | 'desc']): [string, 'asc' | 'desc'] {
  if (!sort) return fallback;
  const [field, dir] = sort.split(',');
  return [field!, dir === 'desc' ? 'desc' : 'asc'];
}
