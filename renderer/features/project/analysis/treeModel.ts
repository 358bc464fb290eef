// The lazily loaded tree of the 依赖树 / 文件树 tab as plain data: each level is paged (200
// children at a time), expansion is per pathId, and only expanded levels are turned into
// Blueprint nodes, so a 10,000-node tree costs what is on screen. Pure, tested in Node.

export interface TreeItem {
  pathId: string;
  /** Whether the node can be expanded. */
  expandable: boolean;
}

export interface Level<N extends TreeItem> {
  items: N[];
  total: number;
  /** Last page loaded (1-based). */
  page: number;
}

export const ROOT = '';
export const TREE_PAGE = 200;

export interface TreeModel<N extends TreeItem> {
  /** Loaded levels by parent pathId (ROOT for the roots). */
  levels: Readonly<Record<string, Level<N>>>;
  expanded: ReadonlySet<string>;
  loading: ReadonlySet<string>;
}

export const emptyModel = <N extends TreeItem>(): TreeModel<N> => ({ levels: {}, expanded: new Set(), loading: new Set() });

/** Adds a loaded page of `parent`'s children (page 1 replaces, later pages append, duplicates dropped). */
export function addPage<N extends TreeItem>(m: TreeModel<N>, parent: string, items: readonly N[], total: number, page: number): TreeModel<N> {
  const old = m.levels[parent];
  const base = page > 1 && old ? old.items : [];
  const seen = new Set(base.map((x) => x.pathId));
  const merged = [...base, ...items.filter((x) => !seen.has(x.pathId))];
  const loading = new Set(m.loading);
  loading.delete(parent);
  return { ...m, levels: { ...m.levels, [parent]: { items: merged, total, page } }, loading };
}

export function setLoading<N extends TreeItem>(m: TreeModel<N>, parent: string, on: boolean): TreeModel<N> {
  const loading = new Set(m.loading);
  if (on) loading.add(parent);
  else loading.delete(parent);
  return { ...m, loading };
}

export function setExpanded<N extends TreeItem>(m: TreeModel<N>, pathId: string, on: boolean): TreeModel<N> {
  const expanded = new Set(m.expanded);
  if (on) expanded.add(pathId);
  else expanded.delete(pathId);
  return { ...m, expanded };
}

/** Children still on the server after the loaded pages. */
export const remaining = <N extends TreeItem>(level: Level<N> | undefined): number => (level ? Math.max(0, level.total - level.items.length) : 0);

/** The ancestors of a hit that are not yet loaded, root first: what to fetch before it is visible. */
export function missingLevels<N extends TreeItem>(m: TreeModel<N>, ancestors: readonly string[]): string[] {
  return ancestors.filter((p) => !m.levels[p]);
}

/** The parent pathId of a node: dependency ids are dot-joined, file paths slash-joined. */
export function parentOf(pathId: string, kind: 'dependence' | 'file'): string {
  const sep = kind === 'dependence' ? '.' : '/';
  const i = pathId.lastIndexOf(sep);
  return i < 0 ? ROOT : pathId.slice(0, i);
}

/** Number of nodes that would be drawn (expanded levels only). */
export function visibleCount<N extends TreeItem>(m: TreeModel<N>, parent: string = ROOT): number {
  const level = m.levels[parent];
  if (!level) return 0;
  let n = 0;
  for (const item of level.items) {
    n += 1;
    if (m.expanded.has(item.pathId)) n += visibleCount(m, item.pathId);
  }
  return n;
}
