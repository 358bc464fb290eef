// Rust executables built with cargo-auditable (https://github.com/rust-secure-code/cargo-auditable):
// the crates compiled in and their dependency graph, from the `.dep-v0` section (`__DATA,.dep-v0`
// in Mach-O) that holds zlib-compressed JSON: {"format": n, "packages": [{name, version, source,
// kind?, dependencies?: [index], root?}]} (cargo-auditable.schema.json). As cargo audit bin reads it:
//  - the root package (the program itself) is the target's project and a component depending on
//    the crates it uses;
//  - every crates.io, registry or git crate is a pkg:cargo component, `kind: build` (build scripts,
//    proc macros and what only they use) in the development scope, the rest runtime;
//  - other local crates (workspace members, path dependencies) are not published packages: no
//    component, their dependencies are reached through them.
// Exact metadata the build wrote: CONFIDENCE.METADATA.
import { inflateSync } from 'node:zlib';
import type { Component, Extractor, InputFile, Target } from '../../model.ts';
import { CONFIDENCE } from '../../model.ts';
import { purlOf } from '../../purl.ts';
import { isNativeCandidate, openNative } from './files.ts';

/** cargo-auditable's own advice: 8 MiB holds any legitimate audit data. */
const MAX_JSON = 8 << 20;
const MAX_COMPRESSED = 8 << 20;

interface AuditPackage { name: string; version: string; source: string; kind: 'build' | 'runtime'; dependencies: number[]; root: boolean }

const SECTION_NAMES = new Set(['.dep-v0', '__DATA,.dep-v0']);

function parsePackages(json: unknown, problems: string[]): AuditPackage[] | undefined {
  const list = (json as { packages?: unknown } | null)?.packages;
  if (!Array.isArray(list)) return undefined;
  const out: AuditPackage[] = [];
  let skipped = 0;
  for (const raw of list) {
    const p = raw as Record<string, unknown> | null;
    if (!p || typeof p.name !== 'string' || typeof p.version !== 'string' || !p.name) { skipped++; out.push({ name: '', version: '', source: 'invalid', kind: 'runtime', dependencies: [], root: false }); continue; }
    // `source` is a string ("crates.io", "local", "git", "registry") or {"Other": "..."} in newer schemas.
    const source = typeof p.source === 'string' ? p.source : p.source && typeof p.source === 'object' ? 'other' : 'crates.io';
    const deps = Array.isArray(p.dependencies) ? p.dependencies.filter((d): d is number => Number.isInteger(d) && (d as number) >= 0) : [];
    out.push({ name: p.name, version: p.version, source: source.toLowerCase(), kind: p.kind === 'build' ? 'build' : 'runtime', dependencies: deps, root: p.root === true });
  }
  if (skipped) problems.push(`cargo-auditable 依赖信息中有 ${skipped} 个包缺少名称或版本，已跳过`);
  return out;
}

export function componentsFromAudit(packages: AuditPackage[], file: string, sectionOffset: number, problems: string[]): Target {
  const valid = (i: number) => i < packages.length && packages[i]!.source !== 'invalid';
  const bad = packages.reduce((n, p) => n + p.dependencies.filter((d) => !valid(d)).length, 0);
  if (bad) problems.push(`cargo-auditable 依赖信息中有 ${bad} 条依赖指向不存在的包，已忽略`);
  const roots = packages.map((p, i) => (p.root ? i : -1)).filter((i) => i >= 0);
  if (roots.length > 1) problems.push(`cargo-auditable 依赖信息标记了 ${roots.length} 个根包，按第一个处理`);
  const rootIndex = roots[0];
  const isLocal = (i: number) => packages[i]!.source === 'local' && i !== rootIndex;
  const purl = (i: number) => purlOf('cargo', { name: packages[i]!.name, version: packages[i]!.version });

  /** The published packages `i` depends on, through local crates (cycles stop). */
  const published = (i: number): string[] => {
    const out = new Set<string>();
    const seen = new Set<number>([i]);
    const stack = packages[i]!.dependencies.filter(valid);
    while (stack.length) {
      const d = stack.pop()!;
      if (seen.has(d)) continue;
      seen.add(d);
      if (isLocal(d)) stack.push(...packages[d]!.dependencies.filter(valid));
      else if (d !== rootIndex) out.add(purl(d));
    }
    return [...out].sort();
  };

  const direct = new Set(rootIndex === undefined ? [] : published(rootIndex));
  const components = new Map<string, Component>();
  packages.forEach((p, i) => {
    if (!valid(i) || isLocal(i)) return;
    const id = purl(i);
    const dependsOn = published(i);
    const existing = components.get(id);
    if (existing) {
      for (const d of dependsOn) if (!existing.dependsOn.includes(d)) existing.dependsOn.push(d);
      if (p.kind === 'runtime') existing.scope = 'runtime';
      return;
    }
    components.set(id, {
      purl: id, ecosystem: 'cargo', name: p.name, version: p.version,
      direct: i === rootIndex || direct.has(id),
      scope: p.kind === 'build' ? 'development' : 'runtime',
      locations: [{ file }], licenses: [], dependsOn,
      evidence: [{ file, rule: 'cargo-auditable 依赖信息', text: `${p.name} ${p.version} (${p.source}${p.kind === 'build' ? ', build' : ''})`, offset: sectionOffset }],
      confidence: CONFIDENCE.METADATA,
    });
  });
  const root = rootIndex === undefined ? undefined : packages[rootIndex]!;
  return {
    file, type: 'cargo-auditable', ecosystem: 'cargo',
    project: root ? { purl: purl(rootIndex!), name: root.name, version: root.version } : null,
    roots: root ? [purl(rootIndex!)] : [...components.values()].filter((c) => c.scope === 'runtime').map((c) => c.purl),
    components: [...components.values()],
  };
}

async function extractAudit(file: InputFile): Promise<Target[]> {
  const opened = await openNative(file);
  if (!opened) return [];
  const section = opened.exe.images.flatMap((i) => i.sections).find((s) => SECTION_NAMES.has(s.name));
  if (!section) return [];
  const problems: string[] = [];
  const done = (t?: Target): Target[] => (t ? [{ ...t, ...(problems.length ? { problems } : {}) }] : []);
  const fail = (message: string): Target[] => [{ file: file.path, type: 'cargo-auditable', ecosystem: 'cargo', project: null, roots: [], components: [], problems: [message] }];
  if (section.truncated) return fail('cargo-auditable 依赖信息（.dep-v0 节）超出文件末尾：文件被截断或已损坏');
  if (section.size === 0) return fail('cargo-auditable 依赖信息（.dep-v0 节）为空');
  if (section.size > MAX_COMPRESSED) return fail(`cargo-auditable 依赖信息（.dep-v0 节）有 ${section.size} 字节，超过 ${MAX_COMPRESSED >> 20} MiB 上限，未读取`);
  const compressed = await opened.src.read(section.offset, section.size);
  let json: unknown;
  try {
    const text = inflateSync(compressed, { maxOutputLength: MAX_JSON }).toString('utf8');
    json = JSON.parse(text);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ERR_BUFFER_TOO_LARGE') return fail(`cargo-auditable 依赖信息解压后超过 ${MAX_JSON >> 20} MiB 上限，未读取`);
    return fail(error instanceof SyntaxError ? `cargo-auditable 依赖信息不是有效的 JSON：${error.message}` : 'cargo-auditable 依赖信息（.dep-v0 节）不是有效的 zlib 数据');
  }
  const packages = parsePackages(json, problems);
  if (!packages) return fail('cargo-auditable 依赖信息缺少 packages 列表');
  return done(componentsFromAudit(packages, file.path, section.offset, problems));
}

export const cargoAuditableExtractor: Extractor = {
  name: 'cargo-auditable',
  ecosystem: 'cargo',
  reads: ['*.so', '*.dll', '*.dylib', 'Rust 可执行文件'],
  matches: isNativeCandidate,
  extract: extractAudit,
};
