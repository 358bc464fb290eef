// Shared plumbing of the result handlers: the area's handler type and the tree paging default.
import type { resultCallDeclarations } from '../../../contract/api/result/index.ts';
import type { AreaHandlers } from '../register.ts';

export type ResultHandlers = AreaHandlers<typeof resultCallDeclarations>;
export type HandlersOf<K extends keyof ResultHandlers> = Pick<ResultHandlers, K>;

/** Tree levels are paged larger than lists: a directory or component often has hundreds of children. */
export const TREE_PAGE_SIZE = 200;
