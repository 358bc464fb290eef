// Issue 4's acceptance test: with trivy's test database loaded into the knowledge base (through
// the real importer, into a real SQLite file), scanning each trivy fixture project and matching
// its components reproduces the golden (package, installed version, vulnerability id) triples.
// F1 is computed over all triples together and printed per golden.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAdvisoryIndex, loadExtractors, matchPackage, normalizePackageName, scanTree, type AdvisoryIndex } from '../../../server/engine/index.ts';
import { importKnowledge } from '../../../server/kb/import.ts';
import { loadAdvisories } from '../../../server/db/repositories/knowledge-base.ts';
import { openKnowledgeBase } from '../../../server/kb/open.ts';
import { score, TRIVY } from '../../support/golden.ts';

const { allExtractors } = await loadExtractors();

interface Case { golden: string; repo: string; includeDev?: boolean }

// The ecosystems issue 4 names, then the other fixtures trivy's database covers.
const REQUIRED: Case[] = [
  { golden: 'npm.json.golden', repo: 'npm' },
  { golden: 'npm-with-dev.json.golden', repo: 'npm', includeDev: true },
  { golden: 'yarn.json.golden', repo: 'yarn' },
  { golden: 'pnpm.json.golden', repo: 'pnpm' },
  { golden: 'poetry.json.golden', repo: 'poetry' },
  { golden: 'pipenv.json.golden', repo: 'pipenv' },
  { golden: 'pip.json.golden', repo: 'pip' },
  { golden: 'gomod.json.golden', repo: 'gomod' },
  { golden: 'cargo.lock.json.golden', repo: 'cargo' },
  { golden: 'test-repo.json.golden', repo: 'trivy-ci-test' },
  { golden: 'composer.lock.json.golden', repo: 'composer' },
  { golden: 'composer.vendor.json.golden', repo: 'composer-vendor' },
  { golden: 'pom.json.golden', repo: 'pom' },
  { golden: 'gradle.json.golden', repo: 'gradle' },
  { golden: 'nuget.json.golden', repo: 'nuget' },
  { golden: 'dotnet.json.golden', repo: 'dotnet' },
  { golden: 'packagesprops.json.golden', repo: 'packagesprops' },
];
const OTHERS: Case[] = [
  { golden: 'bun.json.golden', repo: 'bun' },
  { golden: 'uv.json.golden', repo: 'uv' },
  { golden: 'pylock.json.golden', repo: 'pylock' },
  { golden: 'mix.lock.json.golden', repo: 'mixlock' },
  { golden: 'pubspec.lock.json.golden', repo: 'pubspec' },
  { golden: 'cocoapods.json.golden', repo: 'cocoapods' },
  { golden: 'swift.json.golden', repo: 'swift' },
  { golden: 'conan.json.golden', repo: 'conan' },
];

interface GoldenVulnerability { VulnerabilityID: string; PkgName: string; InstalledVersion: string; PkgIdentifier?: { PURL?: string } }
interface GoldenResult { Target: string; Vulnerabilities?: GoldenVulnerability[] }

const purlType = (purl: string | undefined) => /^pkg:([^/]+)\//.exec(purl ?? '')?.[1] ?? '';
const triple = (ecosystem: string, name: string, version: string, id: string) => `${ecosystem}:${normalizePackageName(ecosystem, name)}@${version} ${id}`;

function expectedTriples(golden: string): Map<string, Set<string>> {
  const report = JSON.parse(readFileSync(path.join(TRIVY, 'golden', golden), 'utf8')) as { Results?: GoldenResult[] };
  const byTarget = new Map<string, Set<string>>();
  for (const result of report.Results ?? []) {
    const set = byTarget.get(result.Target) ?? new Set<string>();
    for (const v of result.Vulnerabilities ?? []) {
      set.add(triple(purlType(v.PkgIdentifier?.PURL), v.PkgName, v.InstalledVersion, v.VulnerabilityID));
    }
    byTarget.set(result.Target, set);
  }
  return byTarget;
}

/** Our triples for a golden's targets. A finding counts under any of its ids (aliases merge). */
async function ourTriples(c: Case, index: AdvisoryIndex, expected: Map<string, Set<string>>): Promise<Map<string, Set<string>>> {
  const scan = await scanTree(path.join(TRIVY, 'repo', c.repo), { extractors: allExtractors });
  const ours = new Map<string, Set<string>>();
  for (const [file, wanted] of expected) {
    const set = new Set<string>();
    const target = scan.targets.find((t) => t.file === file);
    for (const component of target?.components ?? []) {
      if (!c.includeDev && component.scope === 'development') continue;
      for (const finding of matchPackage(index, component)) {
        const ids = [finding.id, ...finding.aliases];
        // Report the finding under the id trivy uses when it is one of ours, else the primary.
        const id = ids.find((x) => [...wanted].some((w) => w.endsWith(` ${x}`))) ?? finding.id;
        set.add(triple(component.ecosystem, component.name, component.version, id));
      }
    }
    ours.set(file, set);
  }
  return ours;
}

describe('trivy 漏洞库导入知识库后，漏洞匹配与 trivy 金标准一致', () => {
  let dir: string;
  let index: AdvisoryIndex;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'cairn-kb-trivy-'));
    const kb = await openKnowledgeBase(path.join(dir, 'kb.db'));
    try {
      const summary = await importKnowledge(kb.db, path.join(TRIVY, 'db'));
      expect(summary.errors).toEqual([]);
      index = buildAdvisoryIndex(await loadAdvisories(kb.db));
    } finally {
      await kb.close();
    }
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const run = async (cases: Case[]) => {
    const all = { expected: new Set<string>(), ours: new Set<string>() };
    for (const c of cases) {
      const expected = expectedTriples(c.golden);
      const ours = await ourTriples(c, index, expected);
      for (const [file, set] of expected) {
        const mine = ours.get(file) ?? new Set<string>();
        const s = score(set, mine);
        console.log(`${c.golden.padEnd(30)} ${file.padEnd(26)} 漏洞三元组 F1 ${s.f1.toFixed(3)}（${set.size}）${s.missing.length ? ` 缺少 ${s.missing.join('，')}` : ''}${s.extra.length ? ` 多出 ${s.extra.join('，')}` : ''}`);
        for (const t of set) all.expected.add(`${c.golden} ${file} ${t}`);
        for (const t of mine) all.ours.add(`${c.golden} ${file} ${t}`);
      }
    }
    return score(all.expected, all.ours);
  };

  it('issue 4 列出的生态：npm、yarn、pnpm、poetry、pipenv、pip、gomod、cargo、composer、pom、gradle、nuget、dotnet（F1 ≥ 0.99）', async () => {
    const s = await run(REQUIRED);
    console.log(`合计 F1 ${s.f1.toFixed(4)}，精确率 ${s.precision.toFixed(4)}，召回率 ${s.recall.toFixed(4)}`);
    expect(s.f1, `缺少 ${s.missing.join('；')} 多出 ${s.extra.join('；')}`).toBeGreaterThanOrEqual(0.99);
  }, 120_000);

  it('其他生态：bun、uv、pylock、mix、pub、cocoapods、swift、conan', async () => {
    const s = await run(OTHERS);
    expect(s.f1, `缺少 ${s.missing.join('；')} 多出 ${s.extra.join('；')}`).toBeGreaterThanOrEqual(0.99);
  }, 120_000);
});
