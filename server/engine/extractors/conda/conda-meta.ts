// Installed conda packages: every `<prefix>/conda-meta/<name>-<version>-<build>.json` records
// one package (`name`, `version`, `license`, `depends`). Edges go to the packages installed in
// the same prefix (found by file name, without reading them); the prefix's `conda-meta/history`
// tells which packages the user asked for (`# update specs: [...]`), i.e. the direct ones.
import type { Component, ExtractContext, Extractor, InputFile, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { purlOf } from '../../purl.ts';
import { parseCondaSpec } from './environment.ts';

const META_FILE = /(?:^|\/)conda-meta\/[^/]+\.json$/;
const dirOf = (p: string) => p.slice(0, p.lastIndexOf('/') + 1);

interface PrefixInfo { installed: Map<string, string>; requested: Set<string> | undefined }

/** `openssl-1.1.1q-h7f8727e_0.json` -> name `openssl`, version `1.1.1q`. */
export function splitMetaFileName(file: string): { name: string; version: string } | undefined {
  const m = /^(.+)-([^-]+)-([^-]+)\.json$/.exec(file);
  return m ? { name: m[1]!, version: m[2]! } : undefined;
}

/** Names the user asked for, replaying `update specs` / `remove specs` lines of conda-meta/history. */
export function requestedFromHistory(text: string): Set<string> {
  const requested = new Set<string>();
  for (const line of text.split('\n')) {
    const m = /^#\s*(update|install|create|remove|uninstall)\s+specs:\s*\[(.*)\]\s*$/.exec(line.trim());
    if (!m) continue;
    const names = [...m[2]!.matchAll(/'([^']*)'|"([^"]*)"/g)].flatMap((x) => {
      const spec = parseCondaSpec(x[1] ?? x[2] ?? '');
      return spec ? [spec.name] : [];
    });
    const removing = m[1] === 'remove' || m[1] === 'uninstall';
    for (const n of names) {
      if (removing) requested.delete(n);
      else requested.add(n);
    }
  }
  return requested;
}

const prefixCache = new WeakMap<ExtractContext, Map<string, Promise<PrefixInfo>>>();

function prefixInfo(ctx: ExtractContext, dir: string): Promise<PrefixInfo> {
  let perCtx = prefixCache.get(ctx);
  if (!perCtx) prefixCache.set(ctx, (perCtx = new Map()));
  let info = perCtx.get(dir);
  if (!info) {
    info = (async () => {
      const installed = new Map<string, string>();
      for (const entry of await ctx.list(dir.replace(/\/$/, '')).catch(() => [] as string[])) {
        const parts = splitMetaFileName(entry);
        if (parts) installed.set(parts.name, parts.version);
      }
      const history = await ctx.readText(`${dir}history`).catch(() => undefined);
      return { installed, requested: history ? requestedFromHistory(history) : undefined };
    })();
    perCtx.set(dir, info);
  }
  return info;
}

export function parseCondaMeta(text: string, file: string, prefix?: PrefixInfo): Target {
  let meta: unknown;
  try {
    meta = JSON.parse(text);
  } catch (error) {
    throw new ExtractError(`${file} 不是有效的 JSON：${error instanceof Error ? error.message : String(error)}`);
  }
  if (!meta || typeof meta !== 'object' || Array.isArray(meta)) throw new ExtractError(`${file} 不是 conda-meta 包记录：顶层应为对象`);
  const record = meta as Record<string, unknown>;
  const name = typeof record.name === 'string' ? record.name.trim() : '';
  const version = typeof record.version === 'string' ? record.version.trim() : typeof record.version === 'number' ? String(record.version) : '';
  if (!name || !version) throw new ExtractError(`${file} 不是 conda-meta 包记录：缺少 name 或 version`);
  let purl: string;
  try {
    purl = purlOf('conda', { name, version });
  } catch {
    throw new ExtractError(`${file} 的包名或版本无效：${name} ${version}`);
  }
  const license = typeof record.license === 'string' ? record.license.trim() : '';
  const dependsOn: string[] = [];
  if (prefix && Array.isArray(record.depends)) {
    for (const dep of record.depends) {
      if (typeof dep !== 'string') continue;
      const depName = dep.trim().split(/\s+/)[0]!;
      const depVersion = prefix.installed.get(depName);
      if (depVersion === undefined || depName === name) continue;
      try {
        const p = purlOf('conda', { name: depName, version: depVersion });
        if (!dependsOn.includes(p)) dependsOn.push(p);
      } catch {}
    }
  }
  const direct = prefix?.requested?.has(name) ?? false;
  const component: Component = {
    purl, ecosystem: 'conda', name, version, direct, scope: 'runtime',
    locations: [{ file }], licenses: license && license.toLowerCase() !== 'none' ? [license] : [], dependsOn,
  };
  return { file, type: 'conda-meta', ecosystem: 'conda', project: null, roots: direct ? [purl] : [], components: [component] };
}

export const condaMetaExtractor: Extractor = {
  name: 'conda-meta',
  ecosystem: 'conda',
  reads: ['conda-meta/*.json'],
  matches: (p) => META_FILE.test(p),
  async extract(file: InputFile, ctx: ExtractContext) {
    const text = await file.text();
    return [parseCondaMeta(text, file.path, await prefixInfo(ctx, dirOf(file.path)))];
  },
};
