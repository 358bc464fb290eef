// The spec's call catalogue against what the server implements: feeds `npm run calls` and decides
// between 501 (a spec call not built yet) and 404 (no such call) for unmatched requests.
import { implementedCalls } from '../contract/api/index.ts';
import { binaryPath, type CallSpec } from '../contract/api/define.ts';
import { specCalls } from '../contract/spec/calls.ts';

export interface ServerRoute {
  /** null where the spec states no method: any method. */
  method: string | null;
  path: string;
  implemented: boolean;
}

/** Parameter names do not matter for matching: `/x/{id}` and `/x/{subjectId}` route alike. */
const shape = (path: string) => path.replace(/\{\w+\}/g, '{}');

const withBinary = (path: string, binary: boolean | undefined) => (binary ? [path, binaryPath(path)] : [path]);

function implementedRoutes(): Array<{ method: string; path: string }> {
  return Object.values(implementedCalls).flatMap((call: CallSpec) =>
    withBinary(call.path, call.binaryVariant).map((path) => ({ method: call.method, path })));
}

/**
 * The spec's paths as it writes them (tracker A, B and C stay three entries even though they
 * route alike), each once, then the server's own calls that the spec does not list.
 */
export function listServerRoutes(): ServerRoute[] {
  const implemented = implementedRoutes();
  const done = new Set(implemented.map((r) => `${r.method} ${shape(r.path)}`));
  const donePaths = new Set(implemented.map((r) => shape(r.path)));
  const routes = new Map<string, ServerRoute>();
  const listed = new Set<string>();
  for (const call of specCalls) {
    for (const path of withBinary(call.path, call.binaryVariant)) {
      const isDone = call.method === null ? donePaths.has(shape(path)) : done.has(`${call.method} ${shape(path)}`);
      routes.set(`${call.method} ${path}`, { method: call.method, path, implemented: isDone });
      listed.add(`${call.method} ${shape(path)}`);
    }
  }
  for (const r of implemented) {
    if (!listed.has(`${r.method} ${shape(r.path)}`)) routes.set(`${r.method} ${r.path}`, { ...r, implemented: true });
  }
  return [...routes.values()];
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
const pathPattern = (path: string) =>
  new RegExp(`^${path.split(/\{\w+\}/).map(escapeRegExp).join('[^/]+')}$`);

let specMatchers: Array<{ method: string | null; pattern: RegExp }> | undefined;

/** True when a request the router did not match is a spec call: it is answered 501, not 404. */
export function isSpecCall(method: string, url: string): boolean {
  specMatchers ??= specCalls.flatMap((call) =>
    withBinary(call.path, call.binaryVariant).map((path) => ({ method: call.method, pattern: pathPattern(path) })));
  const path = url.split('?')[0]!;
  const asMethod = method === 'HEAD' ? 'GET' : method;
  return specMatchers.some((m) => (m.method === null || m.method === asMethod) && m.pattern.test(path));
}
