// Shared plumbing of the result handlers: the area's handler type and the tree paging default. Each
// module answers one group of contract/api/result/ (AreaHandlers<typeof resultTreeCalls>, …).
import type { resultCalls } from '../../../contract/api/result/index.ts';
import type { AreaHandlers } from '../register.ts';

export type ResultHandlers = AreaHandlers<typeof resultCalls>;

/** Tree levels are paged larger than lists: a directory or component often has hundreds of children. */
export const TREE_PAGE_SIZE = 200;
