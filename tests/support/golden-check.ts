// One assertion for every ecosystem: scan a trivy fixture project with the given extractors and
// hold each golden target to package F1 >= 0.98 and edge F1 >= 0.95 (issue 3). Prints the
// figures so a run shows how close each fixture is.
import path from 'node:path';
import { expect } from 'vitest';
import { ourSets, readGolden, score, TRIVY } from './golden.ts';
import { scanTree, type Extractor, type Target } from '../../server/engine/index.ts';

export const PACKAGE_F1 = 0.98;
export const EDGE_F1 = 0.95;

export interface GoldenCase {
  golden: string;
  /** Folder under trivy/repo. */
  repo: string;
  /** Keep development-scope components (trivy's --include-dev-deps goldens). */
  includeDev?: boolean;
}

export async function expectGolden(c: GoldenCase, extractors: readonly Extractor[]): Promise<void> {
  const result = await scanTree(path.join(TRIVY, 'repo', c.repo), { extractors });
  expect(result.problems, `解析问题：${JSON.stringify(result.problems)}`).toEqual([]);
  for (const golden of readGolden(c.golden)) {
    const target = result.targets.find((t) => t.file === golden.file);
    expect(target, `${c.golden}: 没有找到目标 ${golden.file}（找到 ${result.targets.map((t) => t.file).join(', ')}）`).toBeDefined();
    const scoped: Target = { ...target!, components: target!.components.filter((x) => c.includeDev || x.scope !== 'development') };
    const ours = ourSets(scoped, golden.hasRoot);
    const pkg = score(golden.packages, ours.packages);
    const edge = score(golden.edges, ours.edges);
    // A golden with no edges says nothing about them (trivy records none for some formats).
    const edgesKnown = golden.edges.size > 0;
    console.log(`${c.golden.padEnd(32)} ${golden.file.padEnd(28)} 组件 F1 ${pkg.f1.toFixed(3)}（${golden.packages.size}）  依赖边 F1 ${edgesKnown ? edge.f1.toFixed(3) : '不适用'}（${golden.edges.size}）`);
    expect(pkg.f1, `${c.golden} 组件 缺少 ${pkg.missing.join(', ')} 多出 ${pkg.extra.join(', ')}`).toBeGreaterThanOrEqual(PACKAGE_F1);
    if (edgesKnown) expect(edge.f1, `${c.golden} 依赖边 缺少 ${edge.missing.join(', ')} 多出 ${edge.extra.join(', ')}`).toBeGreaterThanOrEqual(EDGE_F1);
  }
}
