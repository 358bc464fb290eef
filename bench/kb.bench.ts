// Knowledge base: import time of the advisory corpora (../shared/corpora/advisories/*, each
// twice: the second import is the idempotent re-import that finds nothing new), loading the
// matcher's index, and matching 10,000 components against the whole knowledge base.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildAdvisoryIndex, matchComponents, type Advisory, type AdvisoryIndex, type PackageRef } from '../server/engine/index.ts';
import { importKnowledge } from '../server/kb/import.ts';
import { loadAdvisories } from '../server/db/repositories/knowledge-base.ts';
import { openKnowledgeBase } from '../server/kb/open.ts';

const CORPORA = path.resolve(import.meta.dirname, '../../shared/corpora');
const SOURCES = ['advisories/go', 'advisories/crates.io', 'advisories/pypi', 'trivy/db'];

const ms = (start: number) => performance.now() - start;
const countFiles = (dir: string): number =>
  readdirSync(dir, { withFileTypes: true }).reduce((n, e) => n + (e.isDirectory() ? countFiles(path.join(dir, e.name)) : 1), 0);

/** A deterministic pseudo-random sequence, so every run matches the same components. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

interface Universe { packages: { ecosystem: string; name: string; versions: string[] }[]; bounds: PackageRef[] }

/** Every package the knowledge base knows, with the versions its advisories mention. */
function universeOf(advisories: Advisory[]): Universe {
  const byKey = new Map<string, { ecosystem: string; name: string; versions: Set<string> }>();
  const bounds: PackageRef[] = [];
  for (const a of advisories) {
    for (const p of a.affected) {
      const versions = [...p.versions, ...p.fixed, ...p.ranges.flatMap((r) => r.events.flatMap((e) => [e.introduced, e.fixed].filter((v): v is string => !!v && v !== '0')))];
      const key = `${p.ecosystem} ${p.name}`;
      const entry = byKey.get(key) ?? { ecosystem: p.ecosystem, name: p.name, versions: new Set<string>() };
      for (const v of versions) entry.versions.add(v);
      byKey.set(key, entry);
      for (const version of versions.slice(0, 3)) bounds.push({ ecosystem: p.ecosystem, name: p.name, version });
    }
  }
  return { packages: [...byKey.values()].map((p) => ({ ...p, versions: [...p.versions] })), bounds };
}

const unknown = (i: number): PackageRef => ({ ecosystem: ['npm', 'pypi', 'maven', 'golang', 'cargo'][i % 5]!, name: `unknown-package-${i}`, version: `1.${i % 50}.0` });

/**
 * An inventory of 10,000 distinct components, as a large monorepo's: every package the knowledge
 * base has advisories for, once, at one of the versions its advisories mention (so a good share
 * is vulnerable), and the rest packages it has never heard of.
 */
function inventoryOf(universe: Universe, count: number, seed: number): PackageRef[] {
  const next = random(seed);
  const out: PackageRef[] = universe.packages.slice(0, count).map((p) => ({ ecosystem: p.ecosystem, name: p.name, version: p.versions[Math.floor(next() * p.versions.length)] ?? '1.0.0' }));
  for (let i = out.length; i < count; i++) out.push(unknown(i));
  return out;
}

/**
 * The worst case: 70% of the components drawn from the versions advisories mention, weighted by
 * advisory, so the most-advised packages (Go's stdlib, TensorFlow) appear hundreds of times at
 * versions that most of their advisories affect.
 */
function stressOf(universe: Universe, count: number, seed: number): PackageRef[] {
  const next = random(seed);
  const out: PackageRef[] = [];
  for (let i = 0; i < count; i++) out.push(next() < 0.7 ? universe.bounds[Math.floor(next() * universe.bounds.length)]! : unknown(i));
  return out;
}

function timeMatching(label: string, index: AdvisoryIndex, sample: (seed: number) => PackageRef[]): void {
  const times: number[] = [];
  let findings = 0;
  let vulnerable = 0;
  // Round 1 meets a freshly built index (constraints compile lazily, findings are assembled the
  // first time); later rounds are the steady state of a running platform, each on a new sample.
  for (let round = 0; round < 7; round++) {
    const components = sample(100 + round);
    const start = performance.now();
    const matched = matchComponents(index, components);
    times.push(ms(start));
    findings = matched.reduce((n, m) => n + m.findings.length, 0);
    vulnerable = matched.filter((m) => m.findings.length).length;
  }
  const first = times[0]!;
  const steady = times.slice(1).sort((a, b) => a - b);
  console.log(`${label}：首轮 ${first.toFixed(0)} ms，之后中位数 ${steady[3]!.toFixed(0)} ms（最快 ${steady[0]!.toFixed(0)}，最慢 ${steady[5]!.toFixed(0)}）；${vulnerable} 个组件命中 ${findings} 个漏洞`);
}

export async function run(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-kb-'));
  const kb = await openKnowledgeBase(path.join(dir, 'kb.db'));
  try {
    for (const pass of ['首次导入', '重复导入']) {
      for (const source of SOURCES) {
        const input = path.join(CORPORA, source);
        const files = countFiles(input);
        const start = performance.now();
        const summary = await importKnowledge(kb.db, input);
        const took = ms(start);
        console.log(`${pass} ${source.padEnd(22)} ${String(files).padStart(5)} 个文件  ${(took / 1000).toFixed(2).padStart(6)} 秒  ${(files / (took / 1000)).toFixed(0).padStart(6)} 文件/秒  新增 ${summary.imported} 更新 ${summary.updated} 未变 ${summary.unchanged} 失败 ${summary.failed}`);
      }
    }

    let start = performance.now();
    const advisories = await loadAdvisories(kb.db);
    const loadMs = ms(start);
    start = performance.now();
    const index = buildAdvisoryIndex(advisories);
    console.log(`载入知识库 ${advisories.length} 条漏洞 ${loadMs.toFixed(0)} ms，建立匹配索引 ${ms(start).toFixed(0)} ms（${index.byPackage.size} 个软件包）`);

    const universe = universeOf(advisories);
    timeMatching('匹配 10,000 个不同组件（知识库中全部软件包各一个版本 + 未知软件包）', index, (seed) => inventoryOf(universe, 10_000, seed));
    timeMatching('压力：10,000 个组件 70% 取自漏洞边界版本（按漏洞数加权）', buildAdvisoryIndex(advisories), (seed) => stressOf(universe, 10_000, seed));
  } finally {
    await kb.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
