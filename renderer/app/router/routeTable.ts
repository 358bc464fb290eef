// The route tree the router registers: every route of the spec plus the desktop-only screens
// (contract/routes.ts ROUTES), nested under their nearest `parent` ancestor. Plain data, no JSX,
// so it can be tested in Node.
import { ROUTES, type RouteInfo } from '../../../contract/routes.ts';
import { builtScreens } from './screens.ts';

/** Screens drawn without the app shell (they exist before or after a session). */
export const BARE_PATHS: readonly string[] = ['/login', '/logout', '/handleLogin'];

export interface RouteNode {
  info: RouteInfo;
  built: boolean;
  children: RouteNode[];
}

/** The nearest ancestor path that is a parent route, or null. */
function parentOf(path: string, parents: ReadonlySet<string>): string | null {
  const parts = path.split('/');
  for (let n = parts.length - 1; n > 1; n -= 1) {
    const candidate = parts.slice(0, n).join('/');
    if (parents.has(candidate)) return candidate;
  }
  return null;
}

/** Routes as a forest: parent routes hold their descendants, everything else is a root. */
export function buildRouteTree(routes: readonly RouteInfo[] = ROUTES): RouteNode[] {
  const parents = new Set(routes.filter((r) => r.parent).map((r) => r.path));
  const nodes = new Map<string, RouteNode>();
  for (const info of routes) nodes.set(info.path, { info, built: Object.prototype.hasOwnProperty.call(builtScreens, info.path), children: [] });
  const roots: RouteNode[] = [];
  for (const info of routes) {
    const node = nodes.get(info.path)!;
    const parent = parentOf(info.path, parents);
    if (parent) nodes.get(parent)!.children.push(node);
    else roots.push(node);
  }
  return roots;
}

/** Every path of a forest, depth first. */
export const treePaths = (nodes: readonly RouteNode[]): string[] => nodes.flatMap((n) => [n.info.path, ...treePaths(n.children)]);

/** Descendant screens of a parent route (for its section index), parents excluded. */
export const descendantScreens = (node: RouteNode): RouteNode[] =>
  node.children.flatMap((c) => (c.info.parent ? descendantScreens(c) : [c, ...descendantScreens(c)]));
