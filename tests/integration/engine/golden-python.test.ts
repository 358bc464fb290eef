// PyPI extractors against trivy's goldens: requirements.txt, Pipfile.lock, poetry.lock, uv.lock
// and pylock.toml fixture projects (package F1 >= 0.98, edge F1 >= 0.95).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadExtractors, scanTree } from '../../../server/engine/index.ts';
import { ourSets, score, TRIVY } from '../../support/golden.ts';
import { EDGE_F1, expectGolden, PACKAGE_F1 } from '../../support/golden-check.ts';

const { python: extractors } = (await loadExtractors()).families;

/**
 * pip.json.golden lists its packages without `ID`, which readGolden keys by, so all seven collapse
 * into one there. Until tests/support keys ID-less packages by purl, score this golden by purl here.
 */
async function expectGoldenByPurl(golden: string, repo: string): Promise<void> {
  const result = await scanTree(path.join(TRIVY, 'repo', repo), { extractors });
  expect(result.problems).toEqual([]);
  const report = JSON.parse(readFileSync(path.join(TRIVY, 'golden', golden), 'utf8')) as {
    Results: Array<{ Target: string; Packages?: Array<{ Identifier: { PURL: string } }> }>;
  };
  for (const r of report.Results.filter((x) => x.Packages?.length)) {
    const target = result.targets.find((t) => t.file === r.Target);
    expect(target, `没有找到目标 ${r.Target}`).toBeDefined();
    const expected = new Set(r.Packages!.map((p) => decodeURIComponent(p.Identifier.PURL)));
    // trivy leaves out what pins no version (`MarkupSafe>2.0.0`); we report it with version '' and its range.
    const ours = ourSets({ ...target!, components: target!.components.filter((c) => c.scope !== 'development' && c.version !== '') }, false);
    const pkg = score(expected, ours.packages);
    const edge = score(new Set(), ours.edges);
    console.log(`${golden.padEnd(32)} ${r.Target.padEnd(28)} 组件 F1 ${pkg.f1.toFixed(3)}（${expected.size}）  依赖边 F1 ${edge.f1.toFixed(3)}（0）`);
    expect(pkg.f1, `缺少 ${pkg.missing.join(', ')} 多出 ${pkg.extra.join(', ')}`).toBeGreaterThanOrEqual(PACKAGE_F1);
    expect(edge.f1).toBeGreaterThanOrEqual(EDGE_F1);
  }
}

describe('PyPI 提取器与 trivy 黄金结果一致', () => {
  it('pip requirements.txt', () => expectGoldenByPurl('pip.json.golden', 'pip'));
  it('Pipfile.lock', () => expectGolden({ golden: 'pipenv.json.golden', repo: 'pipenv' }, extractors));
  it('Pipfile.lock（按 purl 计分）', () => expectGoldenByPurl('pipenv.json.golden', 'pipenv'));
  it('poetry.lock', () => expectGolden({ golden: 'poetry.json.golden', repo: 'poetry' }, extractors));
  it('uv.lock', () => expectGolden({ golden: 'uv.json.golden', repo: 'uv' }, extractors));
  it('pylock.toml', () => expectGolden({ golden: 'pylock.json.golden', repo: 'pylock' }, extractors));
});
