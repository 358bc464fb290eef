// package.json: the project's name, version, declared dependencies by kind, workspaces, licence.
import { isObject, stringMap } from '../common/values.ts';

export interface Manifest {
  name: string;
  version: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  optionalDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  workspaces: string[];
  licenses: string[];
}

/** Declared licences in any of the shapes npm has accepted over the years. */
export function licensesOf(pkg: Record<string, unknown>): string[] {
  const one = (v: unknown): string | undefined =>
    typeof v === 'string' ? v.trim() || undefined : isObject(v) && typeof v.type === 'string' ? v.type.trim() || undefined : undefined;
  const lic = one(pkg.license);
  // The common case as a one-element array literal: a push onto [] reserves 17 slots, for each of tens of thousands of entries.
  if (lic) return [lic];
  const out: string[] = [];
  if (Array.isArray(pkg.license)) for (const l of pkg.license) { const x = one(l); if (x) out.push(x); }
  if (!out.length && Array.isArray(pkg.licenses)) for (const l of pkg.licenses) { const x = one(l); if (x) out.push(x); }
  return out;
}

export function manifestOf(pkg: unknown): Manifest | undefined {
  if (!isObject(pkg)) return undefined;
  const ws = pkg.workspaces;
  const workspaces = Array.isArray(ws) ? ws : isObject(ws) && Array.isArray(ws.packages) ? ws.packages : [];
  return {
    name: typeof pkg.name === 'string' ? pkg.name : '',
    version: typeof pkg.version === 'string' ? pkg.version : '',
    dependencies: stringMap(pkg.dependencies),
    devDependencies: stringMap(pkg.devDependencies),
    optionalDependencies: stringMap(pkg.optionalDependencies),
    peerDependencies: stringMap(pkg.peerDependencies),
    workspaces: workspaces.filter((w): w is string => typeof w === 'string'),
    licenses: licensesOf(pkg),
  };
}

/** Reads and parses a package.json through the context; undefined when absent or unreadable. */
export async function readManifest(readText: (path: string) => Promise<string | undefined>, path: string): Promise<Manifest | undefined> {
  let text: string | undefined;
  try {
    text = await readText(path);
  } catch {
    return undefined;
  }
  if (text === undefined) return undefined;
  try {
    return manifestOf(JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text));
  } catch {
    return undefined;
  }
}

/** Runtime declarations first (dependencies, optional, peer), then dev-only ones. */
export function declared(m: Manifest): { runtime: Array<[string, string]>; dev: Array<[string, string]> } {
  const runtime = [...Object.entries(m.dependencies), ...Object.entries(m.optionalDependencies), ...Object.entries(m.peerDependencies)];
  const seen = new Set(runtime.map(([n]) => n));
  return { runtime, dev: Object.entries(m.devDependencies).filter(([n]) => !seen.has(n)) };
}
