// Declared licences in the inventory: each declaration repaired to SPDX, all joined with AND, and
// null when nothing can be understood.
import { describe, expect, it } from 'vitest';
import type { Component, ScanResult } from '../../../../server/engine/model.ts';
import { inventory, licenseExpressionOf } from '../../../../server/engine/output/inventory.ts';

describe('组件许可证表达式', () => {
  it('把声明的许可证规范化为一个 SPDX 表达式', () => {
    expect(licenseExpressionOf(['MIT'])).toBe('MIT');
    expect(licenseExpressionOf(['Apache 2'])).toBe('Apache-2.0');
    expect(licenseExpressionOf(['(MIT OR GPL-2.0)'])).toBe('MIT OR GPL-2.0-only');
    expect(licenseExpressionOf(['MIT', 'Apache License, Version 2.0', 'MIT'])).toBe('MIT AND Apache-2.0');
    expect(licenseExpressionOf(['GPLv2+', 'MIT OR Apache-2.0'])).toBe('GPL-2.0-or-later AND (MIT OR Apache-2.0)');
  });

  it('无法理解的声明不进入表达式', () => {
    expect(licenseExpressionOf([])).toBeNull();
    expect(licenseExpressionOf(['see LICENSE file'])).toBeNull();
    expect(licenseExpressionOf(['see LICENSE file', 'BSD-3-Clause'])).toBe('BSD-3-Clause');
  });
});

describe('声明的版本范围', () => {
  const unpinned = (file: string, constraint?: string): Component => ({
    purl: 'pkg:pypi/flask', ecosystem: 'pypi', name: 'flask', version: '', direct: true, scope: 'runtime',
    locations: [{ file, startLine: 1, endLine: 1 }], licenses: [], dependsOn: [], ...(constraint ? { constraint } : {}),
  });
  const result = (components: Component[]): ScanResult => ({
    root: '/x', problems: [], stats: { files: 1, bytes: 1, ms: 0 },
    targets: components.map((c) => ({ file: c.locations[0]!.file, type: 'pip', ecosystem: 'pypi', project: null, roots: [], components: [c] })),
  });

  it('未固定版本的组件带着声明的范围进入清单；多个清单声明不同范围时各列一次', () => {
    expect(inventory(result([unpinned('a/requirements.txt', '>=2')]))[0]).toMatchObject({ version: '', constraint: '>=2' });
    const merged = inventory(result([unpinned('a/requirements.txt', '>=2'), unpinned('b/requirements.txt', '>=2'), unpinned('c/requirements.txt', '<3'), unpinned('d/requirements.txt')]));
    expect(merged).toHaveLength(1);
    expect(merged[0]!.constraint).toBe('>=2 | <3');
    expect(inventory(result([unpinned('d/requirements.txt')]))[0]!.constraint).toBeUndefined();
  });
});

describe('二进制识别依据与置信度', () => {
  const jar = (file: string, confidence: number, rule: string, offset?: number): Component => ({
    purl: 'pkg:maven/org.apache.commons/commons-lang3@3.12.0', ecosystem: 'maven', name: 'org.apache.commons:commons-lang3', version: '3.12.0',
    direct: false, scope: 'runtime', locations: [{ file }], licenses: [], dependsOn: [],
    evidence: [{ file: `${file}!/META-INF/x`, rule, text: 'version=3.12.0', ...(offset !== undefined && { offset }) }], confidence,
  });
  const result = (components: Component[]): ScanResult => ({
    root: '/x', problems: [], stats: { files: 1, bytes: 1, ms: 0 },
    targets: components.map((c) => ({ file: c.locations[0]!.file, type: 'jar', ecosystem: 'maven', project: null, roots: [], components: [c] })),
  });

  it('同一组件的多处依据各记一次，置信度取最高', () => {
    const [entry] = inventory(result([jar('a.jar', 0.5, '文件名'), jar('b.war', 1, 'pom.properties', 42), jar('b.war', 1, 'pom.properties', 42)]));
    expect(entry!.confidence).toBe(1);
    expect(entry!.evidence).toEqual([
      { file: 'a.jar!/META-INF/x', rule: '文件名', text: 'version=3.12.0' },
      { file: 'b.war!/META-INF/x', rule: 'pom.properties', text: 'version=3.12.0', offset: 42 },
    ]);
  });

  it('CycloneDX 输出带 evidence.identity（技术、置信度）与带偏移的 occurrences', async () => {
    const { toCycloneDx } = await import('../../../../server/engine/output/formats.ts');
    const bom = toCycloneDx(result([jar('b.war', 1, 'pom.properties', 42)]), { name: 'cairn', version: '0' }, 'app') as {
      components: Array<{ evidence: { identity: Array<{ field: string; confidence: number; methods: Array<{ technique: string }> }>; occurrences: Array<Record<string, unknown>> } }>;
    };
    const evidence = bom.components[0]!.evidence;
    expect(evidence.identity[0]).toMatchObject({ field: 'purl', confidence: 1, methods: [{ technique: 'manifest-analysis' }] });
    expect(evidence.occurrences).toContainEqual({ location: 'b.war' });
    expect(evidence.occurrences).toContainEqual({ location: 'b.war!/META-INF/x', offset: 42, additionalContext: 'version=3.12.0' });
  });

  it('清单与锁文件的组件没有 identity', () => {
    const c: Component = { purl: 'pkg:npm/a@1.0.0', ecosystem: 'npm', name: 'a', version: '1.0.0', direct: true, scope: 'runtime', locations: [{ file: 'package-lock.json', startLine: 3 }], licenses: [], dependsOn: [] };
    const [entry] = inventory({ root: '/x', problems: [], stats: { files: 1, bytes: 1, ms: 0 }, targets: [{ file: 'package-lock.json', type: 'npm', ecosystem: 'npm', project: null, roots: [], components: [c] }] });
    expect(entry!.evidence).toBeUndefined();
    expect(entry!.confidence).toBeUndefined();
  });
});

describe('SBOM 输出中的声明范围与识别依据', () => {
  it('未固定版本的组件在 CycloneDX 属性与 SPDX 注释中带声明的范围；二进制组件在 SPDX 注释中带依据与置信度', async () => {
    const { toCycloneDx, toSpdx } = await import('../../../../server/engine/output/formats.ts');
    const unpinned: Component = { purl: 'pkg:pypi/flask', ecosystem: 'pypi', name: 'flask', version: '', constraint: '>=2', direct: true, scope: 'runtime', locations: [{ file: 'requirements.txt', startLine: 1 }], licenses: [], dependsOn: [] };
    const jar: Component = {
      purl: 'pkg:maven/g/a@1.0', ecosystem: 'maven', name: 'g:a', version: '1.0', direct: false, scope: 'runtime', locations: [{ file: 'x.jar' }], licenses: [], dependsOn: [],
      evidence: [{ file: 'x.jar', rule: '文件名', text: 'a-1.0.jar' }], confidence: 0.5,
    };
    const result: ScanResult = {
      root: '/x', problems: [], stats: { files: 2, bytes: 1, ms: 0 },
      targets: [
        { file: 'requirements.txt', type: 'pip', ecosystem: 'pypi', project: null, roots: [], components: [unpinned] },
        { file: 'x.jar', type: 'jar', ecosystem: 'maven', project: null, roots: [], components: [jar] },
      ],
    };
    const bom = toCycloneDx(result, { name: 'cairn', version: '0' }, 'app') as { components: Array<{ purl: string; properties: Array<{ name: string; value: string }>; evidence?: { identity?: Array<{ methods: Array<{ technique: string }> }> } }> };
    expect(bom.components.find((c) => c.purl === 'pkg:pypi/flask')!.properties).toContainEqual({ name: 'cairn:versionConstraint', value: '>=2' });
    expect(bom.components.find((c) => c.purl === jar.purl)!.evidence!.identity![0]!.methods[0]!.technique).toBe('filename');
    const doc = toSpdx(result, { name: 'cairn', version: '0' }, 'app') as { packages: Array<{ name: string; annotations?: Array<{ comment: string }> }> };
    expect(doc.packages.find((p) => p.name === 'flask')!.annotations![0]!.comment).toBe('cairn:versionConstraint=>=2');
    expect(doc.packages.find((p) => p.name === 'g:a')!.annotations![0]!.comment).toBe('cairn:confidence=0.5\ncairn:evidence=文件名: x.jar (a-1.0.jar)');
  });
});

describe('同一组件在多个清单中的合并', () => {
  const declared = (file: string, startLine: number | undefined, licenses: string[], dependsOn: string[]): Component => ({
    purl: 'pkg:npm/a@1.0.0', ecosystem: 'npm', name: 'a', version: '1.0.0', direct: false, scope: 'development',
    locations: [{ file, ...(startLine !== undefined && { startLine }) }], licenses, dependsOn,
  });
  const result = (components: Component[]): ScanResult => ({
    root: '/x', problems: [], stats: { files: 1, bytes: 1, ms: 0 },
    targets: components.map((c) => ({ file: c.locations[0]!.file, type: 'npm', ecosystem: 'npm', project: null, roots: [], components: [c] })),
  });

  it('位置、许可证与依赖各取一次，按出现顺序；少量与大量位置一样去重', () => {
    for (const count of [3, 40]) {
      const components = Array.from({ length: count }, (_, i) => declared(`p${i % Math.ceil(count / 4)}/package-lock.json`, i % 2 ? 7 : undefined, i % 2 ? ['MIT', 'ISC'] : ['MIT'], [`pkg:npm/d${i % 3}@1`]));
      const [entry, ...rest] = inventory(result(components));
      expect(rest).toHaveLength(0);
      const expected = new Map(components.map((c) => [`${c.locations[0]!.file}:${c.locations[0]!.startLine ?? ''}`, c.locations[0]!]));
      expect(entry!.locations).toEqual([...expected.values()]);
      expect(entry!.licenses).toEqual(['MIT', 'ISC']);
      expect(entry!.dependsOn).toEqual(['pkg:npm/d0@1', 'pkg:npm/d1@1', 'pkg:npm/d2@1']);
      expect(entry!.licenseExpression).toBe('MIT AND ISC');
    }
  });
});
