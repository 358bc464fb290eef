// Every CycloneDX specification test document (1.2–1.6, JSON and XML): `valid-*` must be
// accepted and imported, `invalid-*` refused with a Chinese reason (corpora/README.md).
import { readdir, readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExtractError, loadSbom } from '../../../server/engine/index.ts';

const { importSbom, validateCycloneDx } = await loadSbom();

const root = resolve(import.meta.dirname, '../../../../shared/corpora/sbom/cyclonedx-spec');
const VERSIONS = ['1.2', '1.3', '1.4', '1.5', '1.6'];

describe('CycloneDX specification corpus', () => {
  for (const version of VERSIONS) {
    it(`accepts every valid-* and refuses every invalid-* of ${version}`, async () => {
      const names = (await readdir(resolve(root, version))).filter((n) => /\.(json|xml)$/.test(n)).sort();
      const counts = { validAccepted: 0, validRefused: 0, invalidRefused: 0, invalidAccepted: 0 };
      const wrong: string[] = [];
      for (const name of names) {
        const text = await readFile(resolve(root, version, name), 'utf8');
        const expectValid = name.startsWith('valid-');
        let accepted = true;
        let reason = '';
        try {
          const target = await importSbom(text, name);
          expect(target.type).toBe('cyclonedx');
        } catch (error) {
          if (!(error instanceof ExtractError)) throw error;
          accepted = false;
          reason = error.message;
        }
        if (expectValid) counts[accepted ? 'validAccepted' : 'validRefused']++;
        else counts[accepted ? 'invalidAccepted' : 'invalidRefused']++;
        if (accepted !== expectValid) wrong.push(`${name}${reason ? `：${reason}` : ''}`);
        if (!accepted) expect(reason).toMatch(/[\u4e00-\u9fff]/);
      }
      console.log(`CycloneDX ${version}: valid ${counts.validAccepted}/${counts.validAccepted + counts.validRefused} accepted, invalid ${counts.invalidRefused}/${counts.invalidRefused + counts.invalidAccepted} refused`);
      expect(wrong).toEqual([]);
      expect(counts.validAccepted).toBeGreaterThan(10);
      expect(counts.invalidRefused).toBeGreaterThan(10);
    }, 180_000);
  }

  it('reports the version and a Chinese reason', async () => {
    const json = await readFile(resolve(root, '1.5/invalid-component-type-1.5.json'), 'utf8');
    const result = await validateCycloneDx(json, 'json');
    expect(result).toMatchObject({ valid: false, specVersion: '1.5' });
    expect(result.errors[0]).toMatch(/^CycloneDX 1\.5 文档不符合规范：\/components\/0\/type 必须是以下值之一：application、/);

    const xml = await readFile(resolve(root, '1.6/invalid-component-type-1.6.xml'), 'utf8');
    const xmlResult = await validateCycloneDx(xml, 'xml');
    expect(xmlResult).toMatchObject({ valid: false, specVersion: '1.6' });
    expect(xmlResult.errors[0]).toMatch(/^CycloneDX 1\.6 文档不符合规范：第 \d+ 行：元素 component 的属性 type 的值 'foo' 必须是以下值之一/);

    const valid = await validateCycloneDx(await readFile(resolve(root, '1.6/valid-bom-1.6.xml'), 'utf8'), 'xml');
    expect(valid).toEqual({ valid: true, specVersion: '1.6', errors: [] });
    await expect(importSbom(json, 'bom.json')).rejects.toThrow(/CycloneDX 1\.5 文档不符合规范/);
  }, 60_000);
});
