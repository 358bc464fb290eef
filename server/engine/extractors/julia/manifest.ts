// Julia Pkg's `Manifest.toml` (and `Manifest-v1.x.toml`, `JuliaManifest.toml`): every package of
// the resolved environment. Format 2.0 (Julia >= 1.7) nests them under `[[deps.<Name>]]` beside
// `julia_version` and `manifest_format`; format 1.0 has `[[<Name>]]` at the top. Each entry has
// `uuid` (packages are identified by name and UUID: two entries may share a name), `version`
// (absent for standard libraries, which are of the Julia version: as trivy does, they take
// `julia_version`; a format-1.0 manifest does not say it, so they stay unversioned) and `deps`,
// either names (`deps = ["Dates", "Parsers"]`) or, where a name is ambiguous, a name → UUID table
// (`[deps.A.deps]`): the edges. The sibling Project.toml's `[deps]` (name = UUID) are the
// packages the project declares, and its `name` / `version` the project; without one, the
// packages nothing else depends on are the roots. purl: pkg:julia/<Name>@<version>?uuid=<uuid>
// (purl-spec's julia type, as trivy writes it).
import { parse as parseToml } from 'smol-toml';
import type { Component, ExtractContext, Extractor, InputFile, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { purlOf } from '../../purl.ts';

const baseName = (p: string) => p.slice(p.lastIndexOf('/') + 1);
const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/') + 1) : '');
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

const MANIFEST = /^(Julia)?Manifest(-v\d+\.\d+)?\.toml$/;

/** Line spans of each `[[deps.<Name>]]` / `[[<Name>]]` entry, by name, in file order. */
function entrySpans(source: string, v2: boolean): Map<string, Array<{ start: number; end: number }>> {
  const spans = new Map<string, Array<{ start: number; end: number }>>();
  const lines = source.split('\n');
  let current: { start: number; end: number } | undefined;
  let currentHeader = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    const header = /^\[\[\s*(?:"([^"]+)"|([^\]\s]+))\s*\]\]/.exec(line);
    if (header) {
      const raw = header[1] ?? header[2]!;
      const name = v2 ? (raw.startsWith('deps.') ? raw.slice(5).replace(/^"(.*)"$/, '$1') : undefined) : raw;
      current = undefined;
      if (name === undefined) continue;
      current = { start: i + 1, end: i + 1 };
      currentHeader = raw;
      spans.set(name, [...(spans.get(name) ?? []), current]);
    } else if (line.startsWith('[')) {
      // `[deps.A.deps]` (or `[A.deps]`) belongs to the entry above; any other table ends it.
      if (current && line.startsWith(`[${currentHeader}.`)) current.end = i + 1;
      else current = undefined;
    } else if (current && line && !line.startsWith('#')) {
      current.end = i + 1;
    }
  }
  return spans;
}

interface Entry { name: string; uuid: string; component: Component; deps: unknown }

export function parseJuliaManifest(source: string, file: string, declared?: ReadonlySet<string>): Target {
  const target: Target = { file, type: 'julia', ecosystem: 'julia', project: null, roots: [], components: [] };
  let doc: Record<string, unknown>;
  try {
    doc = parseToml(source.replace(/^\uFEFF/, '')) as Record<string, unknown>;
  } catch (error) {
    throw new ExtractError(`无法解析 ${file}：不是有效的 TOML（${(error as Error).message.split('\n')[0]}）`);
  }
  const v2 = typeof doc.manifest_format === 'string';
  const juliaVersion = v2 ? text(doc.julia_version) ?? '' : '';
  const table = v2 ? doc.deps : doc;
  if (table === undefined) return target;
  if (!isObject(table)) throw new ExtractError(`${file} 的 deps 应为表`);
  const spans = entrySpans(source, v2);

  const entries: Entry[] = [];
  for (const [name, list] of Object.entries(table)) {
    if (!Array.isArray(list)) continue;
    list.forEach((raw: unknown, index) => {
      if (!isObject(raw)) return;
      const uuid = text(raw.uuid);
      if (!uuid) throw new ExtractError(`${file} 中的包 ${name} 缺少 uuid`);
      const version = text(raw.version) ?? juliaVersion;
      const span = spans.get(name)?.[index];
      entries.push({
        name, uuid, deps: raw.deps,
        component: {
          purl: purlOf('julia', { name, version, qualifiers: { uuid } }), ecosystem: 'julia', name, version, direct: false, scope: 'runtime',
          locations: [span ? { file, startLine: span.start, endLine: span.end } : { file }], licenses: [], dependsOn: [],
        },
      });
    });
  }
  const byUuid = new Map(entries.map((e) => [e.uuid, e]));
  const byName = new Map<string, Entry[]>();
  for (const e of entries) byName.set(e.name, [...(byName.get(e.name) ?? []), e]);
  const required = new Set<string>();
  for (const e of entries) {
    const children: Entry[] = [];
    if (Array.isArray(e.deps)) {
      for (const dep of e.deps) {
        const candidates = typeof dep === 'string' ? byName.get(dep) ?? [] : [];
        if (candidates.length === 1) children.push(candidates[0]!);
      }
    } else if (isObject(e.deps)) {
      for (const id of Object.values(e.deps)) {
        const child = typeof id === 'string' ? byUuid.get(id) : undefined;
        if (child) children.push(child);
      }
    }
    for (const child of children) {
      if (child === e || e.component.dependsOn.includes(child.component.purl)) continue;
      e.component.dependsOn.push(child.component.purl);
      required.add(child.uuid);
    }
  }
  for (const e of entries) e.component.direct = declared ? declared.has(e.uuid) : !required.has(e.uuid);
  target.components = entries.map((e) => e.component);
  target.roots = target.components.filter((c) => c.direct).map((c) => c.purl);
  return target;
}

/** The sibling Project.toml: its `[deps]` UUIDs and the project's name and version. */
async function projectOf(manifestPath: string, ctx: ExtractContext): Promise<{ declared?: Set<string>; project: Target['project'] }> {
  const dir = dirOf(manifestPath);
  const prefix = baseName(manifestPath).startsWith('Julia') ? 'JuliaProject.toml' : 'Project.toml';
  const source = await ctx.readText(`${dir}${prefix}`).catch(() => undefined);
  if (!source) return { project: null };
  try {
    const doc = parseToml(source) as Record<string, unknown>;
    const deps = isObject(doc.deps) ? doc.deps : {};
    const declared = new Set(Object.values(deps).filter((u): u is string => typeof u === 'string'));
    const name = text(doc.name);
    const version = text(doc.version) ?? '';
    const uuid = text(doc.uuid);
    return { declared, project: name ? { purl: purlOf('julia', { name, version, qualifiers: uuid ? { uuid } : null }), name, version } : null };
  } catch {
    return { project: null };
  }
}

export const juliaManifestExtractor: Extractor = {
  name: 'julia',
  ecosystem: 'julia',
  reads: ['Manifest.toml'],
  matches: (p) => MANIFEST.test(baseName(p)),
  async extract(file: InputFile, ctx: ExtractContext) {
    const { declared, project } = await projectOf(file.path, ctx);
    const target = parseJuliaManifest(await file.text(), file.path, declared);
    target.project = project;
    return [target];
  },
};
