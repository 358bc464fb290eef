// Components identified in built artefacts (issue 17): the CycloneDX report says how — the
// identity (technique, confidence, the rule and file) and the occurrence with its byte offset —
// and still validates strictly against CycloneDX 1.6. Components from manifests carry none.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Spec, Validation } from '@cyclonedx/cyclonedx-library';
import { afterAll, describe, expect, it } from 'vitest';
import { writeCycloneDx } from '../../../server/reports/cyclonedx.ts';
import { writeSpdx } from '../../../server/reports/spdx.ts';
import { sampleReportModel } from '../../support/report-model.ts';

describe('CycloneDX 报告中的二进制识别依据', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cairn-evidence-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('二进制中识别的组件带 evidence.identity 与 occurrences，文档通过 1.6 严格校验', async () => {
    const model = sampleReportModel({ components: 16, vulnerabilities: 4, binaryEvidence: true });
    const identified = model.components.filter((c) => c.evidence.length);
    expect(identified.length).toBeGreaterThan(0);
    await writeCycloneDx(model, path.join(dir, 'r.cdx.json'));
    const text = readFileSync(path.join(dir, 'r.cdx.json'), 'utf8');
    expect(await new Validation.JsonStrictValidator(Spec.Version.v1dot6).validate(text)).toBeNull();
    const bom = JSON.parse(text) as { components: Array<{ 'bom-ref': string; evidence?: { identity: unknown[]; occurrences: unknown[] } }> };
    const first = identified[0]!;
    const component = bom.components.find((c) => c['bom-ref'] === first.ref)!;
    expect(component.evidence!.identity).toEqual([{
      field: 'purl', confidence: 1, concludedValue: first.purl,
      methods: [{ technique: 'manifest-analysis', confidence: 1, value: `pom.properties: ${first.evidence[0]!.file} (${first.evidence[0]!.text})` }],
    }]);
    expect(component.evidence!.occurrences).toEqual([{ location: first.evidence[0]!.file, offset: 1234, additionalContext: first.evidence[0]!.text }]);
    const others = bom.components.filter((c) => !identified.some((i) => i.ref === c['bom-ref']));
    expect(others.length).toBeGreaterThan(0);
    expect(others.every((c) => c.evidence === undefined)).toBe(true);
  }, 60_000);

  it('未固定版本的组件：CycloneDX 属性 cairn:versionConstraint，SPDX 注释；二进制组件的依据进入 SPDX 注释', async () => {
    const model = sampleReportModel({ components: 16, vulnerabilities: 4, binaryEvidence: true });
    const unpinned = model.components.find((c) => !c.evidence.length)!;
    unpinned.version = '';
    unpinned.constraint = '>=2,<3';
    await writeCycloneDx(model, path.join(dir, 'c.cdx.json'));
    const bom = JSON.parse(readFileSync(path.join(dir, 'c.cdx.json'), 'utf8')) as { components: Array<{ 'bom-ref': string; properties?: Array<{ name: string; value: string }> }> };
    expect(bom.components.find((c) => c['bom-ref'] === unpinned.ref)!.properties).toContainEqual({ name: 'cairn:versionConstraint', value: '>=2,<3' });
    await writeSpdx(model, path.join(dir, 'c.spdx.json'));
    const doc = JSON.parse(readFileSync(path.join(dir, 'c.spdx.json'), 'utf8')) as { packages: Array<{ name: string; annotations?: Array<{ comment: string }> }> };
    expect(doc.packages.find((p) => p.name === unpinned.name)!.annotations!.map((a) => a.comment)).toEqual(['cairn:versionConstraint: >=2,<3']);
    const identified = model.components.find((c) => c.evidence.length)!;
    expect(doc.packages.find((p) => p.name === identified.name)!.annotations!.map((a) => a.comment)).toEqual([
      'cairn:confidence: 1', `cairn:evidence: pom.properties: ${identified.evidence[0]!.file} @1234 (${identified.evidence[0]!.text})`,
    ]);
  }, 60_000);
});
