// CycloneDX in the protocol buffers text format, on the CycloneDX specification's own test
// resources: recognised by content, components (nested ones too), purls, licences and the
// dependency graph as the JSON importer maps them.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importSbom, importSbomFile, isSbomPath, sniffSbom } from '../../../../server/engine/extractors/sbom/index.ts';
import { parseTextproto } from '../../../../server/engine/extractors/sbom/textproto.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../../../fixtures/public/sbom/cdx-textproto');
const read = (name: string) => readFile(path.join(FIXTURES, name), 'utf8');

describe('CycloneDX protobuf text format', () => {
  it('is recognised by content and claimed by name', async () => {
    for (const name of ['valid-dependency-1.5.textproto', 'valid-license-expression-1.5.textproto', 'valid-assembly-1.5.textproto', 'valid-component-identifiers-1.6.textproto']) {
      expect(sniffSbom(await read(name)), name).toBe('cyclonedx-textproto');
    }
    expect(isSbomPath('bom.cdx.textproto')).toBe(true);
    expect(isSbomPath('sbom.textproto')).toBe(true);
    expect(isSbomPath('config.textproto')).toBe(false);
  });

  it('dependencies: the graph by bom-ref, the components nothing depends on direct', async () => {
    const t = await importSbom(await read('valid-dependency-1.5.textproto'), 'valid-dependency-1.5.textproto');
    expect(t.type).toBe('cyclonedx-textproto');
    expect(t.components.map((c) => [c.purl, c.direct, c.dependsOn])).toEqual([
      ['pkg:generic/library-a@1.0.0', true, []],
      ['pkg:generic/library-b@1.0.0', true, ['pkg:generic/library-c@1.0.0']],
      ['pkg:generic/library-c@1.0.0', true, []],
    ]);
  });

  it('licence expressions, purls, nested components (services passed over)', async () => {
    const licence = await importSbom(await read('valid-license-expression-1.5.textproto'), 'x');
    expect(licence.components.map((c) => [c.purl, c.licenses])).toEqual([['pkg:generic/com.acme/tomcat-catalina@9.0.14', ['EPL-2.0 OR GPL-2.0 WITH Classpath-exception-2.0']]]);
    const identifiers = await importSbom(await read('valid-component-identifiers-1.6.textproto'), 'x');
    expect(identifiers.components.map((c) => [c.purl, c.ecosystem, c.name])).toEqual([['pkg:maven/com.example/acme-library@1.0.0', 'maven', 'com.example:acme-library']]);
    const assembly = await importSbomFile(Buffer.from(await read('valid-assembly-1.5.textproto')), 'valid-assembly-1.5.textproto');
    expect(assembly.components.map((c) => [c.purl, c.direct])).toEqual([['pkg:generic/acme-library-a@1.0.0', true], ['pkg:generic/acme-library-b@2.0.0', false]]);
  });

  it('the text format itself: escapes, adjacent strings, lists, angle brackets, colons before messages', () => {
    const m = parseTextproto('a: "x\\"y" \'z\'\nb: [1, 2]\nc: < d: ENUM_X >\ne: { f: true }\n');
    expect(m.get('a')).toEqual(['x"yz']);
    expect(m.get('b')).toEqual([1, 2]);
    expect((m.get('c')![0] as Map<string, unknown>).get('d')).toEqual(['ENUM_X']);
    expect((m.get('e')![0] as Map<string, unknown>).get('f')).toEqual([true]);
  });

  it('malformed text is refused in Chinese', async () => {
    await expect(importSbom('spec_version: "1.5"\ncomponents {\n  name: "x"\n', 'x.textproto')).rejects.toThrow('CycloneDX protobuf 文本格式错误：第 4 行缺少 }');
    await expect(importSbom('# proto-message: Bom\nversion: 1\n', 'x.textproto')).rejects.toThrow(/spec_version/);
  });
});
