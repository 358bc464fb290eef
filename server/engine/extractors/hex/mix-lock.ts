// Elixir mix.lock: a map from application name to `{:hex, :package, "version", "checksum",
// [build tools], [deps], "repo", "outer checksum"}` (git and path dependencies use `{:git, ...}`
// / `{:path, ...}` and are not Hex packages). Each dep is `{:app, "requirement", [hex: :package,
// repo: "hexpm", optional: bool]}`: edges go to the lock entries of those apps. A sibling mix.exs
// tells which dependencies the project declares and which are only for :dev / :test.
import type { Component, ExtractContext, Extractor, InputFile, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { purlOf } from '../../purl.ts';
import type { Term, Token } from './elixir-terms.ts';
import { readTerm, TermSyntaxError, tokenize } from './elixir-terms.ts';

const baseName = (p: string) => p.slice(p.lastIndexOf('/') + 1);
const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/') + 1) : '');
const scalar = (t: Term | undefined): string | undefined => (t && (t.t === 'str' || t.t === 'atom' || t.t === 'num') ? t.v : undefined);

function hexPurl(name: string, version: string, repo?: string): string {
  const org = repo && repo.startsWith('hexpm:') ? repo.slice('hexpm:'.length).toLowerCase() : undefined;
  return purlOf('hex', { namespace: org, name: name.toLowerCase(), version });
}

interface Parsed { target: Target; children: Map<string, string[]>; byApp: Map<string, Component> }

function parseMixLockDetailed(text: string, file: string): Parsed {
  let root: Term;
  try {
    const tokens = tokenize(text);
    if (!tokens.length) return { target: { file, type: 'hex', ecosystem: 'hex', project: null, roots: [], components: [] }, children: new Map(), byApp: new Map() };
    root = readTerm(tokens);
  } catch (error) {
    if (error instanceof TermSyntaxError) throw new ExtractError(`${file} 不是有效的 mix.lock（第 ${error.line} 行）：${error.message}`);
    throw error;
  }
  if (root.t !== 'map') throw new ExtractError(`${file} 不是有效的 mix.lock：顶层应为 %{...} 映射`);

  const byApp = new Map<string, Component>();
  const children = new Map<string, string[]>();
  // mix passes over a lock entry it cannot read: so do we, and list it with its line.
  const problems: string[] = [];
  for (const { key, value } of root.entries) {
    const app = scalar(key);
    if (!app || value.t !== 'tuple') {
      problems.push(`${file} 第 ${key.line} 行：条目“${app ?? ''}”不是 {:hex, ...} 等形式的元组，已跳过`);
      continue;
    }
    const [kind, pkg, version, , , deps, repo] = value.items;
    if (scalar(kind) !== 'hex') continue; // git and path dependencies: not hex packages
    const name = scalar(pkg) ?? app;
    const v = scalar(version) ?? '';
    let purl: string;
    try {
      purl = hexPurl(name, v, scalar(repo));
    } catch {
      problems.push(`${file} 第 ${key.line} 行：条目“${app}”的包名或版本无效，已跳过`);
      continue;
    }
    byApp.set(app, {
      purl, ecosystem: 'hex', name, version: v, direct: false, scope: 'runtime',
      locations: [{ file, startLine: key.line, endLine: value.endLine }], licenses: [], dependsOn: [],
    });
    const depApps: string[] = [];
    if (deps?.t === 'list') {
      for (const d of deps.items) {
        if (d.t !== 'tuple') continue;
        const depApp = scalar(d.items[0]);
        if (depApp) depApps.push(depApp);
      }
    }
    children.set(app, depApps);
  }
  for (const [app, c] of byApp) {
    c.dependsOn = [...new Set((children.get(app) ?? []).flatMap((d) => { const dep = byApp.get(d); return dep && dep !== c ? [dep.purl] : []; }))];
  }
  const components = new Map<string, Component>();
  for (const c of byApp.values()) if (!components.has(c.purl)) components.set(c.purl, c);
  return { target: { file, type: 'hex', ecosystem: 'hex', project: null, roots: [], components: [...components.values()], ...(problems.length ? { problems } : {}) }, children, byApp };
}

export function parseMixLock(text: string, file: string): Target {
  return parseMixLockDetailed(text, file).target;
}

export interface MixDeclaredDep { app: string; devOnly: boolean }

/** The `deps` list of a mix.exs: every `{:app, ...}` tuple at its top level, with `only:` envs. */
export interface MixExs { deps: MixDeclaredDep[]; project?: { app: string; version: string }; appsPath?: string }

export function parseMixExsDeps(text: string): MixExs | undefined {
  let tokens: Token[];
  try {
    tokens = tokenize(text);
  } catch {
    return undefined;
  }
  const deps: MixDeclaredDep[] = [];
  let found = false;
  for (let i = 0; i + 1 < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind !== 'ident' || (t.value !== 'defp' && t.value !== 'def') || tokens[i + 1]!.value !== 'deps') continue;
    // The body starts at the first `[` after `do` (or `do:`).
    let j = i + 2;
    while (j < tokens.length && !(tokens[j]!.kind === 'punct' && tokens[j]!.value === '[') && tokens[j]!.value !== 'end' && tokens[j]!.value !== 'def' && tokens[j]!.value !== 'defp') j++;
    if (tokens[j]?.value !== '[') continue;
    found = true;
    let depth = 0;
    for (; j < tokens.length; j++) {
      const tok = tokens[j]!;
      if (tok.kind === 'punct' && (tok.value === '[' || tok.value === '{' || tok.value === '(' || tok.value === '%{')) {
        depth++;
        if (depth === 2 && tok.value === '{' && tokens[j + 1]?.kind === 'atom') {
          // Collect this tuple's tokens.
          let k = j + 1;
          let inner = 1;
          const body: Token[] = [];
          for (; k < tokens.length && inner > 0; k++) {
            const x = tokens[k]!;
            if (x.kind === 'punct' && ['[', '{', '(', '%{'].includes(x.value)) inner++;
            else if (x.kind === 'punct' && [']', '}', ')'].includes(x.value)) inner--;
            if (inner > 0) body.push(x);
          }
          deps.push({ app: tokens[j + 1]!.value, devOnly: devOnly(body) });
          j = k - 1;
          depth--;
        }
      } else if (tok.kind === 'punct' && (tok.value === ']' || tok.value === '}' || tok.value === ')')) {
        depth--;
        if (depth === 0) break;
      }
    }
  }
  const appsAt = tokens.findIndex((t) => t.kind === 'kw' && t.value === 'apps_path');
  const appsPath = appsAt >= 0 && tokens[appsAt + 1]?.kind === 'str' ? tokens[appsAt + 1]!.value : undefined;
  if (!found && !appsPath) return undefined;
  let project: { app: string; version: string } | undefined;
  const appAt = tokens.findIndex((t) => t.kind === 'kw' && t.value === 'app');
  const versionAt = tokens.findIndex((t, i) => i > appAt && t.kind === 'kw' && t.value === 'version');
  if (appAt >= 0 && tokens[appAt + 1]?.kind === 'atom') {
    const version = versionAt >= 0 && tokens[versionAt + 1]?.kind === 'str' ? tokens[versionAt + 1]!.value : '';
    project = { app: tokens[appAt + 1]!.value, version };
  }
  return { deps, project, appsPath };
}

function devOnly(body: Token[]): boolean {
  const at = body.findIndex((t) => t.kind === 'kw' && t.value === 'only');
  if (at < 0) return false;
  const envs: string[] = [];
  const first = body[at + 1];
  if (first?.kind === 'atom') envs.push(first.value);
  else if (first?.kind === 'punct' && first.value === '[') {
    for (let k = at + 2; k < body.length && body[k]!.value !== ']'; k++) if (body[k]!.kind === 'atom') envs.push(body[k]!.value);
  }
  return envs.length > 0 && envs.every((e) => e === 'dev' || e === 'test');
}

/** Marks direct dependencies and development scope from the declared deps. An entry nothing else
 * depends on must be declared by some mix.exs of the project, so it is direct too. */
function applyDeclared(parsed: Parsed, declared: MixDeclaredDep[] | undefined): void {
  const { target, byApp, children } = parsed;
  const known = (declared ?? []).filter((d) => byApp.has(d.app));
  const reach = (apps: string[]): Set<string> => {
    const seen = new Set<string>();
    const stack = [...apps];
    while (stack.length) {
      const a = stack.pop()!;
      if (seen.has(a) || !byApp.has(a)) continue;
      seen.add(a);
      stack.push(...(children.get(a) ?? []));
    }
    return seen;
  };
  // A dependency declared both for all environments and only for dev/test is a runtime one.
  const runtimeApps = new Set(known.filter((d) => !d.devOnly).map((d) => d.app));
  const runtime = reach([...runtimeApps]);
  const dev = reach(known.filter((d) => d.devOnly && !runtimeApps.has(d.app)).map((d) => d.app));
  for (const app of dev) if (!runtime.has(app)) byApp.get(app)!.scope = 'development';
  for (const d of known) byApp.get(d.app)!.direct = true;
  const pointed = new Set<string>();
  for (const c of target.components) for (const d of c.dependsOn) pointed.add(d);
  for (const c of target.components) if (!pointed.has(c.purl)) c.direct = true;
  target.roots = target.components.filter((c) => c.direct).map((c) => c.purl);
}

/** Declared deps of the mix.exs beside the lock, plus those of umbrella apps (`apps_path`). */
async function declaredDeps(lockPath: string, ctx: ExtractContext): Promise<MixExs | undefined> {
  const dir = dirOf(lockPath);
  const read = (p: string) => ctx.readText(p).catch(() => undefined);
  const exs = await read(`${dir}mix.exs`);
  const root = exs ? parseMixExsDeps(exs) : undefined;
  if (!root?.appsPath) return root;
  const appsDir = `${dir}${root.appsPath.replace(/^\.\/|\/$/g, '')}`;
  const deps = [...root.deps];
  const apps = (await ctx.list(appsDir).catch(() => [] as string[])).slice(0, 500);
  for (const app of apps) {
    const text = await read(`${appsDir}/${app}/mix.exs`);
    const parsed = text ? parseMixExsDeps(text) : undefined;
    if (parsed) deps.push(...parsed.deps);
  }
  return { ...root, deps };
}

export const hexExtractor: Extractor = {
  name: 'hex',
  ecosystem: 'hex',
  reads: ['mix.lock'],
  matches: (p) => baseName(p) === 'mix.lock',
  async extract(file: InputFile, ctx: ExtractContext) {
    const parsed = parseMixLockDetailed(await file.text(), file.path);
    const declared = await declaredDeps(file.path, ctx);
    applyDeclared(parsed, declared?.deps);
    if (declared?.project) {
      const { app, version } = declared.project;
      try {
        parsed.target.project = { purl: hexPurl(app, version), name: app, version };
      } catch {}
    }
    return [parsed.target];
  },
};
