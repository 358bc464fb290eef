// What the router does on each location: the spec's guard (contract/navigation.ts guardDecision),
// the home redirect for '/' and '/home', and clearing batch selections when leaving the
// batch-reanalysis screens. Pure functions of the location and the session, tested in Node.
import { KEY_PASSTHROUGH_ROUTES, guardDecision, homeRedirect, leavesBatchReanalysis, parseQuery, type GuardDecision } from '../../../contract/navigation.ts';
import { cleanPath } from '../../../contract/routes.ts';
import { permissionChecker } from '../../../contract/permissions.ts';
import type { SessionState } from '../sessionSlice.ts';

interface LocationLike {
  pathname: string;
  /** `?a=b` or empty. */
  search: string;
}

export type RouteDecision =
  /** The start-up session check has not answered yet: show a loading screen. */
  | { kind: 'wait' }
  | { kind: 'allow' }
  | { kind: 'redirect'; to: string };

/** The home screen of the session's user (spec: first permission held wins, per product). */
export function homeOf(session: Pick<SessionState, 'user' | 'product'>): string {
  return homeRedirect(session.product, permissionChecker(session.user?.permissionPOS ?? []));
}

/** Paths that resolve to the home redirect. */
const HOME_ALIASES: readonly string[] = ['/', '/home'];

export function decideRoute(location: LocationLike, session: Pick<SessionState, 'status' | 'user' | 'product'>): RouteDecision {
  if (session.status === 'unknown') return { kind: 'wait' };
  const path = cleanPath(location.pathname) || '/';
  const authenticated = session.status === 'authenticated' && session.user !== null;
  const decision: GuardDecision = guardDecision({
    path: path + location.search,
    authenticated,
    updatedPwd: session.user?.updatedPwd ?? false,
    query: parseQuery(location.search),
  });
  if ('redirect' in decision) return decision.redirect === path ? { kind: 'allow' } : { kind: 'redirect', to: decision.redirect };
  if (authenticated && HOME_ALIASES.includes(path)) return { kind: 'redirect', to: homeOf(session) };
  if (!authenticated && path === '/') return { kind: 'redirect', to: '/login' };
  return { kind: 'allow' };
}

/** Whether moving from one location to the next must clear the stored batch selections. */
export const clearsBatchSelections = (from: string | null, to: string): boolean => from !== null && leavesBatchReanalysis(from, to);

/**
 * The key (or token) of a visit to a key-passthrough screen, which then signs in with it before
 * showing; null otherwise. /handleLogin does its own token login.
 */
export function passthroughToken(location: LocationLike): string | null {
  const path = cleanPath(location.pathname);
  if (path === '/handleLogin' || !(KEY_PASSTHROUGH_ROUTES as readonly string[]).includes(path)) return null;
  const q = parseQuery(location.search);
  const value = (q.key ?? q.token ?? '').trim();
  return value || null;
}
