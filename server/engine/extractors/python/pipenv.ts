// Pipfile.lock: `default` (runtime) and `develop` (development) sections, `"version": "==x"`.
// The lock records no edges; direct dependencies come from the Pipfile beside it when present.
// Git and path entries carry no version: git ones are reported with version '', paths skipped.
import path from 'node:path';
import type { ExtractContext, Extractor, InputFile, Location, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { parse as parseToml } from 'smol-toml';
import { component, isTable, normalizePypiName, str, TargetBuilder } from './common.ts';

/** Line spans of `"name": {...}` entries, by section, for pipenv's 4-space JSON layout. */
function entryLines(text: string): Map<string, { startLine: number; endLine: number }> {
  const spans = new Map<string, { startLine: number; endLine: number }>();
  const lines = text.split(/\r?\n/);
  let section = '';
  let open: { key: string; startLine: number; indent: number } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const sec = /^ {4}"([^"]+)":\s*\{/.exec(line);
    if (sec) { section = sec[1]; open = undefined; continue; }
    const start = /^( {8})"([^"]+)":\s*\{\s*(\},?)?\s*$/.exec(line);
    if (start) {
      if (start[3]) spans.set(`${section}\u0000${start[2]}`, { startLine: i + 1, endLine: i + 1 });
      else open = { key: `${section}\u0000${start[2]}`, startLine: i + 1, indent: 8 };
      continue;
    }
    if (open && /^ {8}\}/.test(line)) {
      spans.set(open.key, { startLine: open.startLine, endLine: i + 1 });
      open = undefined;
    }
  }
  return spans;
}

async function pipfileDirect(ctx: ExtractContext, lockPath: string): Promise<{ main: Set<string>; dev: Set<string> } | undefined> {
  const dir = path.posix.dirname(lockPath);
  const text = await ctx.readText(dir === '.' ? 'Pipfile' : `${dir}/Pipfile`).catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    const doc = parseToml(text) as Record<string, unknown>;
    const keys = (t: unknown) => new Set(isTable(t) ? Object.keys(t).map(normalizePypiName) : []);
    return { main: keys(doc.packages), dev: keys(doc['dev-packages']) };
  } catch {
    return undefined;
  }
}

export const pipenv: Extractor = {
  name: 'pipenv',
  ecosystem: 'pypi',
  reads: ['Pipfile.lock'],
  matches: (p) => path.posix.basename(p) === 'Pipfile.lock',
  async extract(file: InputFile, ctx: ExtractContext): Promise<Target[]> {
    const text = await file.text();
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (error) {
      throw new ExtractError(`Pipfile.lock 文件 ${file.path} 不是有效的 JSON：${error instanceof Error ? error.message : String(error)}`);
    }
    if (!isTable(doc)) throw new ExtractError(`Pipfile.lock 文件 ${file.path} 的顶层不是对象`);
    const spans = entryLines(text);
    const declared = await pipfileDirect(ctx, file.path);
    const builder = new TargetBuilder();
    for (const section of ['default', 'develop'] as const) {
      const entries = doc[section];
      if (entries === undefined) continue;
      if (!isTable(entries)) {
        builder.problems.push(`${file.path}：${section} 不是对象，已跳过该段`);
        continue;
      }
      for (const [name, entry] of Object.entries(entries)) {
        const span = spans.get(`${section}\u0000${name}`);
        const where = span ? ` 第 ${span.startLine} 行` : '';
        // pipenv passes over an entry it cannot install from (no version, no VCS, not an object): so do we, and say so.
        if (!isTable(entry)) { builder.problems.push(`${file.path}${where}：${section} 中的“${name}”不是对象，已跳过`); continue; }
        const raw = str(entry.version);
        const version = raw.replace(/^===?\s*/, '');
        if (!raw && !entry.git && !entry.hg && !entry.svn && !entry.bzr) {
          if (entry.path !== undefined || entry.file !== undefined) continue; // local code (the project itself), not a component
          builder.problems.push(`${file.path}${where}：${section} 中的“${name}”没有 version，已跳过`);
          continue;
        }
        const location: Location = span ? { file: file.path, ...span } : { file: file.path };
        const key = normalizePypiName(name);
        const direct = declared ? (section === 'default' ? declared.main.has(key) : declared.dev.has(key)) : false;
        builder.add(component({ name, version, direct, scope: section === 'default' ? 'runtime' : 'development', location }));
      }
    }
    return [builder.target(file.path, 'pipenv', null)];
  },
};
