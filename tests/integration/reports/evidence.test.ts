// Components identified in built artefacts (issue 17): the CycloneDX report says how — the
// identity (technique, confidence, the rule and file) and the occurrence with its byte offset —
// and still validates strictly against CycloneDX 1.6. Components from manifests carry none.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Spec, Validation } from '@cyclonedx/cyclonedx-library';
import { afterAll, describe, expect, it } from 'vitest';
import { writeCycloneDx } from '../../../server/reports/cyclonedx.ts';
import { sampleReportModel } from '../../support/report-model.ts';

describe('CycloneDX 报告中的二进制识别依据', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cairn-evidence-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('二进制中识别的组件带 evidence.identity 与 occurrences，文档通过 1.6 严格校验', async () => {
    const model = sampleReportModel({ components: 16, vulnerabilities: 4 });
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
});
