// A generated project of a given size as a zip to upload (issue 13's 60,000 components): a
// package-lock.json v3 of synthetic npm packages each depending on the next two (the bulk), plus a
// go.mod/go.sum and a requirements.txt naming real Go and PyPI packages of the knowledge base at
// versions their advisories mention, so matching finds thousands of vulnerabilities. Deterministic;
// cached in the temp folder by size.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Advisory } from '../server/engine/index.ts';
import { loadAdvisories } from '../server/db/repositories/knowledge-base.ts';
import { openKnowledgeBase } from '../server/kb/open.ts';

export interface LargeProject {
  zip: string;
  components: number;
  /** Of which real packages of the knowledge base (Go and PyPI). */
  known: number;
}

/** A version an advisory of the package names as affected (or, failing that, any it mentions). */
function affectedVersion(advisories: Advisory[], ecosystem: string, name: string): string | null {
  for (const a of advisories) {
    for (const p of a.affected) {
      if (p.ecosystem !== ecosystem || p.name !== name) continue;
      if (p.versions[0]) return p.versions[0];
      for (const r of p.ranges) for (const e of r.events) if (e.introduced && e.introduced !== '0') return e.introduced;
    }
  }
  return null;
}

function knownPackages(advisories: Advisory[], ecosystem: string, limit: number, accept: (name: string, version: string) => boolean): Array<[string, string]> {
  const byName = new Map<string, Advisory[]>();
  for (const a of advisories) {
    for (const p of a.affected) if (p.ecosystem === ecosystem) byName.set(p.name, [...(byName.get(p.name) ?? []), a]);
  }
  const out: Array<[string, string]> = [];
  for (const [name, list] of [...byName].sort(([a], [b]) => a.localeCompare(b))) {
    const version = affectedVersion(list, ecosystem, name);
    if (version && accept(name, version)) out.push([name, version]);
    if (out.length >= limit) break;
  }
  return out;
}

/** The project as a zip under the temp folder, made once per size from the knowledge base at `kbFile`. */
export async function largeProject(total: number, kbFile: string): Promise<LargeProject> {
  const root = path.join(tmpdir(), `cairn-bench-large-project-v1-${total}`);
  const zip = path.join(root, 'project.zip');
  const meta = path.join(root, 'meta.json');
  if (existsSync(meta)) return { zip, ...(JSON.parse(readFileSync(meta, 'utf8')) as Omit<LargeProject, 'zip'>) };

  const kb = await openKnowledgeBase(kbFile);
  let advisories: Advisory[];
  try {
    advisories = await loadAdvisories(kb.db);
  } finally {
    await kb.close();
  }
  const go = knownPackages(advisories, 'golang', 1500, (name, version) => name.includes('.') && /^\d+\.\d+\.\d+$/.test(version));
  const pypi = knownPackages(advisories, 'pypi', 1500, (name, version) => /^[A-Za-z0-9._-]+$/.test(name) && /^[0-9][0-9a-z.]*$/i.test(version));
  const npm = total - go.length - pypi.length;

  rmSync(root, { recursive: true, force: true });
  const src = path.join(root, 'src');
  const write = (rel: string, text: string) => {
    mkdirSync(path.dirname(path.join(src, rel)), { recursive: true });
    writeFileSync(path.join(src, rel), text);
  };
  const packages: Record<string, unknown> = { '': { name: 'large', version: '1.0.0', dependencies: { 'pkg-0': '1.0.0' } } };
  for (let i = 0; i < npm; i++) {
    const deps = Object.fromEntries([i + 1, i + 2].filter((j) => j < npm).map((j) => [`pkg-${j}`, `^${j % 17}.${j % 101}.0`]));
    const version = `${i % 17}.${i % 101}.${i % 7}`;
    packages[`node_modules/pkg-${i}`] = {
      version, resolved: `https://registry.npmjs.org/pkg-${i}/-/pkg-${i}-${version}.tgz`, license: ['MIT', 'ISC', 'Apache-2.0', 'BSD-3-Clause'][i % 4],
      ...(Object.keys(deps).length && { dependencies: deps }),
    };
  }
  write('web/package.json', JSON.stringify({ name: 'large', version: '1.0.0', dependencies: { 'pkg-0': '1.0.0' } }, null, 2));
  write('web/package-lock.json', JSON.stringify({ name: 'large', version: '1.0.0', lockfileVersion: 3, requires: true, packages }, null, 2));
  write('cmd/go.mod', `module example.com/large\n\ngo 1.22\n\nrequire (\n${go.map(([p, v]) => `\t${p} v${v}`).join('\n')}\n)\n`);
  const h1 = (s: string) => `h1:${createHash('sha256').update(s).digest('base64')}`;
  write('cmd/go.sum', go.flatMap(([p, v]) => [`${p} v${v} ${h1(p + v)}`, `${p} v${v}/go.mod ${h1(p + v + 'mod')}`]).join('\n') + '\n');
  write('tools/requirements.txt', pypi.map(([n, v]) => `${n}==${v}`).join('\n') + '\n');
  write('LICENSE', 'Copyright (c) 2026 Bench Corp\n\nPermission is hereby granted, free of charge, to any person obtaining a copy of this software\n');
  execFileSync('zip', ['-qr', zip, '.'], { cwd: src });
  rmSync(src, { recursive: true, force: true });
  const figures = { components: total, known: go.length + pypi.length };
  writeFileSync(meta, JSON.stringify(figures));
  return { zip, ...figures };
}
