// Navigation rules the renderer's guard and shell apply (spec doc 1 §2 "Route guard", "Home
// redirect"; doc 2 §2 "Guard"; both §9 constants). Pure functions of the path, the session
// state and a `has(code)` permission predicate.
import type { PermissionCode } from './permissions.ts';
import type { Product } from './enums.ts';
import { cleanPath, routeInfo } from './routes.ts';

export type Has = (code: string) => boolean;

// ---------------------------------------------------------------------------------------------
// Constants (doc 1 §9, doc 2 §9)

/** The bug-remind count is polled this often. */
export const REMINDER_POLL_MS = 60_000;
/** A button stays disabled this long after a click. */
export const CLICK_GUARD_MS = 2_000;
/** Screenshot image capture waits up to this long for images. */
export const IMAGE_CAPTURE_TIMEOUT_MS = 10_000;
/** Default page sizes. Task-list page size is set by the caller. */
export const PAGE_SIZE = {
  /** Statistics lists and rankings (page 1, size 10). */
  statistics: 10,
  /** Component library. */
  componentLibrary: 15,
  /** Vulnerability, licence and component impact lists. */
  impactList: 15,
  /** Members offered for adding to a subject. */
  addMember: 10,
} as const;

/** One page of a list held client-side (impact lists are sliced by page and size; page from 1). */
export function slicePage<T>(rows: readonly T[], page: number, size: number): T[] {
  const p = Math.max(1, Math.floor(page) || 1);
  const s = Math.max(1, Math.floor(size) || 1);
  return rows.slice((p - 1) * s, p * s);
}

// ---------------------------------------------------------------------------------------------
// Home redirect: the first permission held wins.

export interface RedirectTarget {
  path: string;
  permission: PermissionCode;
}

/**
 * Products 1 and 2 without project:list, in the spec's order. The spec names the targets only;
 * the gating codes are ours, chosen from the spec's code list:
 */
export const HOME_REDIRECT_ORDER: readonly RedirectTarget[] = [
  // the home dashboard summarises the user's projects (component statistics, top 10, latest vulns)
  { path: '/home/result', permission: 'project-summary' },
  // the task list's own code
  { path: '/project/taskList', permission: 'analysis:task:list' },
  // report management's own code
  { path: '/project/report', permission: 'report:list' },
  // the component area's code
  { path: '/subassembly/componentList', permission: 'component' },
  // offline change-impact records belong to the component area (no narrower code in the spec),
  // so a user reaching it would already have gone to componentList: kept for the spec's order
  { path: '/subassembly/offlineList', permission: 'component' },
  // component query: the component-information code
  { path: '/subassembly/knowledge', permission: 'cominfo' },
  // private components, which come from remote (private) repositories
  { path: '/subassembly/privateComponent', permission: 'remote' },
  // the vulnerability area's code
  { path: '/bug/bugKanban', permission: 'vul' },
  // the only licence-list code the spec names
  { path: '/license', permission: 'statistic-project:license:list' },
  // system-wide statistics
  { path: '/statistics', permission: 'stastistic-system:see' },
];

/** Product 3 (private repository service), in the spec's order: all gated by the service's code. */
export const PRIVATE_SERVICE_REDIRECT_ORDER: readonly RedirectTarget[] = [
  { path: '/privateService/warehouse', permission: 'repository-security:manager' },
  { path: '/privateService/component', permission: 'repository-security:manager' },
  { path: '/privateService/statistics', permission: 'repository-security:manager' },
  { path: '/privateService/intercept', permission: 'repository-security:manager' },
];

/** Where everyone without any of the codes above lands. */
const HOME_FALLBACK = '/knowledge';

/**
 * The landing screen after sign-in or on '/'. Product 1 or 2: the project list (with
 * ?product=) when project:list is held, else the first held target of HOME_REDIRECT_ORDER.
 * Product 3: the first held target of PRIVATE_SERVICE_REDIRECT_ORDER. Otherwise /knowledge.
 */
export function homeRedirect(product: Product, has: Has): string {
  if (product === 1 || product === 2) {
    if (has('project:list')) return `/project/projectList?product=${product}`;
    for (const t of HOME_REDIRECT_ORDER) if (has(t.permission)) return t.path;
  } else if (product === 3) {
    for (const t of PRIVATE_SERVICE_REDIRECT_ORDER) if (has(t.permission)) return t.path;
  }
  return HOME_FALLBACK;
}

const SUBJECT_LIST_REDIRECT_ORDER: readonly RedirectTarget[] = [
  { path: '/project/projectList', permission: 'project:list' },
  { path: '/project/taskList', permission: 'analysis:task:list' },
  { path: '/project/report', permission: 'report:list' },
];

/** The project area's landing screen: projectList, then taskList, then report; null if none held. */
export function subjectListRedirect(has: Has): string | null {
  for (const t of SUBJECT_LIST_REDIRECT_ORDER) if (has(t.permission)) return t.path;
  return null;
}

// ---------------------------------------------------------------------------------------------
// Route guard

const LOGIN_PATH = '/login';
const CHANGE_PASSWORD_PATH = '/changePassword';

/** Reachable while the password-updated flag is false. */
const PASSWORD_CHANGE_ALLOWED_ROUTES = [LOGIN_PATH, CHANGE_PASSWORD_PATH] as const;

/**
 * Routes that pass without a session when the visit carries a key or token query parameter
 * (the screen then signs in with POST /api/token/login?key=). The spec does not list them; these
 * are the screens that links from outside the app point at:
 */
export const KEY_PASSTHROUGH_ROUTES = [
  // single sign-on hands its token to this screen
  '/handleLogin',
  // CI and IDE plug-ins (subject code sources 1–7) link to the results of the task they launched
  '/project/analysis/details',
  // a subject's statistics and its reports are shared with people outside the project
  '/project/statistics',
  '/project/report',
  // notification mails and reminders link to a vulnerability's details
  '/bug/bugList/details',
] as const;

export type QueryValue = string | number | boolean | null | undefined | readonly (string | null | undefined)[];
export type Query = Readonly<Record<string, QueryValue>>;

export interface GuardInput {
  /** The hash path; a query string on it is read too. */
  path: string;
  authenticated: boolean;
  /** The session's password-updated flag (false: the password must be changed first). */
  updatedPwd: boolean;
  query?: Query;
}

export type GuardDecision = { allow: true } | { redirect: string };

/** Parses '?a=1&b=x' (or a path carrying it) into a record; the first value of a key wins. */
export function parseQuery(pathOrSearch: string): Record<string, string> {
  const i = pathOrSearch.indexOf('?');
  const search = (i >= 0 ? pathOrSearch.slice(i + 1) : '').split('#')[0] ?? '';
  const out: Record<string, string> = {};
  for (const pair of search.split('&')) {
    if (!pair) continue;
    const [k, v = ''] = pair.split('=');
    const decode = (s: string): string => {
      try {
        return decodeURIComponent(s.replace(/\+/g, ' '));
      } catch {
        return s;
      }
    };
    const key = decode(k!);
    if (key && !(key in out)) out[key] = decode(v);
  }
  return out;
}

const filled = (v: QueryValue): boolean => {
  if (Array.isArray(v)) return v.some((x) => typeof x === 'string' && x.trim() !== '');
  return v !== null && v !== undefined && v !== false && String(v).trim() !== '';
};

/** True when the visit carries a non-empty key or token. */
function hasKeyOrToken(query: Query | undefined, path = ''): boolean {
  const q: Record<string, QueryValue> = { ...parseQuery(path), ...(query ?? {}) };
  return filled(q.key) || filled(q.token);
}

const ALLOW: GuardDecision = { allow: true };

/**
 * The guard: a key/token visit to a KEY_PASSTHROUGH_ROUTES screen passes; a visitor without a
 * session reaches only public screens (routes.ts PUBLIC_ROUTES and the desktop server profiles)
 * and is otherwise sent to /login; with the password-updated flag false only /login and
 * /changePassword are reachable, everything else goes to /changePassword.
 */
export function guardDecision(input: GuardInput): GuardDecision {
  const path = cleanPath(input.path);
  if ((KEY_PASSTHROUGH_ROUTES as readonly string[]).includes(path) && hasKeyOrToken(input.query, input.path)) return ALLOW;
  if (!input.authenticated) return routeInfo(path)?.public ? ALLOW : { redirect: LOGIN_PATH };
  if (!input.updatedPwd) {
    return (PASSWORD_CHANGE_ALLOWED_ROUTES as readonly string[]).includes(path) ? ALLOW : { redirect: CHANGE_PASSWORD_PATH };
  }
  return ALLOW;
}

/** The reminder permission. */
export const REMINDER_PERMISSION: PermissionCode = 'risk:vul:list';

/** Poll the bug-remind count: with risk:vul:list, except on /login and the /remind screens. */
export function shouldPollReminders(path: string, has: Has): boolean {
  const p = cleanPath(path);
  if (p === LOGIN_PATH || p === '/remind' || p.startsWith('/remind/')) return false;
  return has(REMINDER_PERMISSION);
}

// ---------------------------------------------------------------------------------------------
// Batch reanalysis

export const BATCH_REANALYSIS_ROUTES = ['/project/taskList/batchReanalysis', '/project/analysis/batchReanalysis'] as const;

const isBatchReanalysisRoute = (path: string): boolean =>
  (BATCH_REANALYSIS_ROUTES as readonly string[]).includes(cleanPath(path));

/**
 * True when navigation leaves the batch-reanalysis screens (stored batch selections are then
 * cleared). Moving between the two batch screens is not leaving.
 */
export const leavesBatchReanalysis = (from: string, to: string): boolean =>
  isBatchReanalysisRoute(from) && !isBatchReanalysisRoute(to);
