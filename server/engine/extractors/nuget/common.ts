// Shared NuGet helpers: purls, exact versions, JSON parsing with Chinese errors, and a cheap
// line index of JSON objects (one pass over the text) for component locations.
import type { Component, ExtractContext, Location, Scope } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { purlOf } from '../../purl.ts';

export const nugetPurl = (name: string, version: string): string => purlOf('nuget', { name, version });

/** NuGet versions: plain versions are exact, `[1.2.3]` pins; ranges and floating versions are ''. */
export function exactNugetVersion(v: string | undefined): string {
  const s = (v ?? '').trim();
  if (!s || s.includes('$(') || s.includes('*')) return '';
  if (/^[[(]/.test(s)) {
    const pinned = /^\[\s*([^,[\]()]+?)\s*\]$/.exec(s);
    return pinned ? pinned[1]! : '';
  }
  return /[,[\]()\s]/.test(s) ? '' : s;
}

export function parseJson(text: string, file: string, what: string): unknown {
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    throw new ExtractError(`${file} 不是有效的 ${what}：JSON 解析失败（${error instanceof Error ? error.message : String(error)}）`);
  }
}

export type Json = Record<string, unknown>;
export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
export const obj = (v: unknown): Json => (isObject(v) ? v : {});

export const pathKey = (...keys: string[]) => keys.join('\u0000');

/**
 * Start and end lines of every JSON object reached by at most `maxDepth` keys, keyed by the object
 * keys leading to it (pathKey). Assumes text JSON.parse already accepted.
 */
export function jsonObjectLines(text: string, maxDepth: number): Map<string, [number, number]> {
  const out = new Map<string, [number, number]>();
  const stack: Array<{ key: string; line: number; object: boolean }> = [];
  let line = 1;
  let pendingKey = '';
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) line++;
    else if (c === 34) {
      const start = i;
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 92) i++;
        else if (d === 34) break;
        else if (d === 10) line++;
      }
      if (stack.length <= maxDepth && stack[stack.length - 1]?.object) {
        let j = i + 1;
        while (j < n && (text[j] === ' ' || text[j] === '\t' || text[j] === '\r' || text[j] === '\n')) j++;
        if (text[j] === ':') {
          const raw = text.slice(start, i + 1);
          pendingKey = raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1);
        }
      }
    } else if (c === 123 || c === 91) {
      stack.push({ key: pendingKey, line, object: c === 123 });
      pendingKey = '';
    } else if (c === 125 || c === 93) {
      const top = stack.pop();
      if (top?.object && stack.length <= maxDepth) out.set(pathKey(...stack.slice(1).map((s) => s.key), top.key), [top.line, line]);
    }
  }
  return out;
}

export function locationFrom(file: string, lines: Map<string, [number, number]>, ...keys: string[]): Location {
  const span = lines.get(pathKey(...keys));
  return span ? { file, startLine: span[0], endLine: span[1] } : { file };
}

export function newComponent(name: string, version: string, direct: boolean, scope: Scope, location: Location): Component {
  return { purl: nugetPurl(name, version), ecosystem: 'nuget', name, version, direct, scope, locations: [location], licenses: [], dependsOn: [] };
}

/** The project a lock/assets file sits beside: the single *.csproj/*.fsproj/*.vbproj there. */
export async function siblingProject(ctx: ExtractContext, file: string): Promise<{ purl: string; name: string; version: string; file: string } | null> {
  const cut = file.lastIndexOf('/');
  let dir = cut >= 0 ? file.slice(0, cut) : '';
  if (dir.endsWith('/obj') || dir === 'obj') dir = dir.slice(0, -4).replace(/\/$/, '');
  const projects = (await ctx.list(dir)).filter((n) => /\.(cs|fs|vb)proj$/i.test(n));
  if (projects.length !== 1) return null;
  const name = projects[0]!.replace(/\.(cs|fs|vb)proj$/i, '');
  return { purl: nugetPurl(name, ''), name, version: '', file: dir ? `${dir}/${projects[0]}` : projects[0]! };
}

/**
 * Development scope over a resolved graph: what is reachable from a runtime root is runtime,
 * everything else development. `devRoots` are lower-cased names of direct dependencies that are
 * development only; with `allDev` (a test project) everything is.
 */
export function applyScopes(components: Iterable<Component>, devRoots: Set<string>, allDev: boolean): void {
  const list = [...components];
  const byPurl = new Map(list.map((c) => [c.purl, c]));
  const runtime = new Set<string>();
  const stack = allDev ? [] : list.filter((c) => c.direct && !devRoots.has(c.name.toLowerCase())).map((c) => c.purl);
  while (stack.length) {
    const purl = stack.pop()!;
    if (runtime.has(purl)) continue;
    runtime.add(purl);
    stack.push(...(byPurl.get(purl)?.dependsOn ?? []));
  }
  for (const c of list) c.scope = runtime.has(c.purl) ? 'runtime' : 'development';
}
