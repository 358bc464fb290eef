// CycloneDX mapping onto the model (components, nesting, scopes, licences, graph, project),
// format sniffing, file-name matching and the extractor contract.
import { describe, expect, it } from 'vitest';
import type { ExtractContext, InputFile } from '../../../../server/engine/model.ts';
import { ExtractError } from '../../../../server/engine/model.ts';
import { extractors, importSbom, isSbomPath, sbomExtractor, sniffSbom } from '../../../../server/engine/extractors/sbom/index.ts';

const bom = (body: Record<string, unknown>, specVersion = '1.6') => JSON.stringify({ bomFormat: 'CycloneDX', specVersion, version: 1, ...body });

const sample = bom({
  metadata: { component: { type: 'application', 'bom-ref': 'app', name: 'shop', version: '2.0.0', purl: 'pkg:npm/shop@2.0.0' } },
  components: [
    { type: 'library', 'bom-ref': 'lodash', name: 'lodash', version: '4.17.21', purl: 'pkg:npm/lodash@4.17.21', licenses: [{ license: { id: 'MIT' } }] },
    {
      type: 'library', 'bom-ref': 'babel', group: '@babel', name: 'core', version: '7.0.0', purl: 'pkg:npm/%40babel/core@7.0.0', scope: 'optional',
      licenses: [{ expression: 'MIT OR Apache-2.0' }],
      components: [{ type: 'library', 'bom-ref': 'inner', name: 'inner', version: '1.0', purl: 'pkg:npm/inner@1.0' }],
    },
    { type: 'library', 'bom-ref': 'vendored', group: 'acme', name: 'widget', version: '3', licenses: [{ license: { name: 'Acme Proprietary' } }] },
    { type: 'library', 'bom-ref': 'excluded', name: 'docs-gen', version: '1.0.0', purl: 'pkg:pypi/Docs_Gen@1.0.0', scope: 'excluded' },
  ],
  dependencies: [
    { ref: 'app', dependsOn: ['lodash', 'babel', 'unknown-ref'] },
    { ref: 'babel', dependsOn: ['inner', 'vendored'] },
    { ref: 'lodash' },
  ],
});

describe('CycloneDX import', () => {
  it('maps components, nesting, scopes, licences and the graph', async () => {
    const target = await importSbom(sample, 'sbom/app.cdx.json');
    expect(target).toMatchObject({ file: 'sbom/app.cdx.json', type: 'cyclonedx', project: { purl: 'pkg:npm/shop@2.0.0', name: 'shop', version: '2.0.0' } });
    expect(target.roots).toEqual(['pkg:npm/lodash@4.17.21', 'pkg:npm/%40babel/core@7.0.0']);
    const byPurl = new Map(target.components.map((c) => [c.purl, c]));
    expect([...byPurl.keys()].sort()).toEqual([
      'pkg:generic/acme/widget@3', 'pkg:npm/%40babel/core@7.0.0', 'pkg:npm/inner@1.0', 'pkg:npm/lodash@4.17.21', 'pkg:pypi/docs-gen@1.0.0',
    ]);
    expect(byPurl.get('pkg:npm/lodash@4.17.21')).toMatchObject({ ecosystem: 'npm', name: 'lodash', version: '4.17.21', direct: true, scope: 'runtime', licenses: ['MIT'], dependsOn: [] });
    expect(byPurl.get('pkg:npm/%40babel/core@7.0.0')).toMatchObject({
      name: '@babel/core', direct: true, scope: 'development', licenses: ['MIT OR Apache-2.0'],
      dependsOn: ['pkg:npm/inner@1.0', 'pkg:generic/acme/widget@3'],
    });
    // Nested components inherit their parent's scope unless they state one.
    expect(byPurl.get('pkg:npm/inner@1.0')).toMatchObject({ direct: false, scope: 'development' });
    // No purl: kept under a derived generic purl, licence name as written.
    expect(byPurl.get('pkg:generic/acme/widget@3')).toMatchObject({ ecosystem: 'generic', name: 'acme/widget', licenses: ['Acme Proprietary'] });
    // purls are normalised through packageurl-js (PyPI names lower-cased per the purl spec).
    expect(byPurl.get('pkg:pypi/docs-gen@1.0.0')).toMatchObject({ ecosystem: 'pypi', scope: 'development', direct: false });
  });

  it('reads the same document from XML', async () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<bom xmlns="http://cyclonedx.org/schema/bom/1.4" version="1">
  <metadata><component type="application" bom-ref="app"><name>shop</name><version>2.0.0</version><purl>pkg:npm/shop@2.0.0</purl></component></metadata>
  <components>
    <component type="library" bom-ref="lodash"><name>lodash</name><version>4.17.21</version>
      <licenses><license><id>MIT</id></license></licenses><purl>pkg:npm/lodash@4.17.21</purl></component>
    <component type="library" bom-ref="babel"><group>@babel</group><name>core</name><version>7.0</version><scope>optional</scope>
      <licenses><expression>MIT OR Apache-2.0</expression></licenses><purl>pkg:npm/%40babel/core@7.0</purl>
      <components><component type="library" bom-ref="inner"><name>inner</name><version>1.0</version><purl>pkg:npm/inner@1.0</purl></component></components>
    </component>
  </components>
  <dependencies>
    <dependency ref="app"><dependency ref="lodash"/><dependency ref="babel"/></dependency>
    <dependency ref="babel"><dependency ref="inner"/></dependency>
  </dependencies>
</bom>`;
    expect(sniffSbom(xml)).toBe('cyclonedx-xml');
    const target = await importSbom(xml, 'bom.xml');
    expect(target.project?.purl).toBe('pkg:npm/shop@2.0.0');
    expect(target.roots).toEqual(['pkg:npm/lodash@4.17.21', 'pkg:npm/%40babel/core@7.0']);
    const babel = target.components.find((c) => c.name === '@babel/core')!;
    // Versions stay strings ("7.0" not 7).
    expect(babel).toMatchObject({ version: '7.0', scope: 'development', licenses: ['MIT OR Apache-2.0'], dependsOn: ['pkg:npm/inner@1.0'] });
  });

  it('refuses an invalid document with the reason in Chinese', async () => {
    const invalid = bom({ components: [{ type: 'banana', name: 'x' }] }, '1.5');
    await expect(importSbom(invalid, 'bom.json')).rejects.toThrow(ExtractError);
    await expect(importSbom(invalid, 'bom.json')).rejects.toThrow(/^CycloneDX 1\.5 文档不符合规范：\/components\/0\/type 必须是以下值之一：application、framework、library/);
    await expect(importSbom(bom({}, '2.0'), 'bom.json')).rejects.toThrow(/不支持的 CycloneDX JSON 版本：2\.0/);
    await expect(importSbom('{"bomFormat": "CycloneDX", ', 'bom.json')).rejects.toThrow(/无法识别|JSON 无法解析/);
    await expect(importSbom('hello', 'x.txt')).rejects.toThrow(/无法识别的 SBOM 文件/);
    await expect(importSbom('<bom xmlns="http://cyclonedx.org/schema/bom/1.5" version="1"><components>', 'bom.xml')).rejects.toThrow(/^CycloneDX 1\.5 文档不是格式正确的 XML：/);
    const bomb = '<?xml version="1.0"?><!DOCTYPE bom [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;&a;">]><bom xmlns="http://cyclonedx.org/schema/bom/1.6" version="1"><components><component type="library"><name>&b;</name></component></components></bom>';
    await expect(importSbom(bomb, 'bom.xml')).rejects.toThrow(/不接受声明了 DTD 实体/);
  });

  it('imports a 10k-component SBOM with a deep graph', async () => {
    const n = 10_000;
    const components = Array.from({ length: n }, (_, i) => ({ type: 'library', 'bom-ref': `c${i}`, name: `p${i}`, version: '1.0.0', purl: `pkg:npm/p${i}@1.0.0`, licenses: [{ license: { id: 'MIT' } }] }));
    const dependencies = [{ ref: 'root', dependsOn: ['c0', 'c1'] }, ...components.map((_, i) => ({ ref: `c${i}`, dependsOn: i + 1 < n ? [`c${i + 1}`] : [] }))];
    const text = bom({ metadata: { component: { type: 'application', 'bom-ref': 'root', name: 'big', version: '1' } }, components, dependencies });
    await importSbom(text, 'warm.json'); // compiles the 1.6 schema once
    const started = performance.now();
    const target = await importSbom(text, 'big.cdx.json');
    const ms = performance.now() - started;
    console.log(`10k-component CycloneDX JSON: ${ms.toFixed(0)} ms`);
    expect(target.components).toHaveLength(n);
    expect(target.components.filter((c) => c.direct)).toHaveLength(2);
    expect(target.components[n - 2]!.dependsOn).toEqual([`pkg:npm/p${n - 1}@1.0.0`]);
  }, 30_000);
});

describe('SBOM extractor', () => {
  const file = (path: string, text: string): InputFile => ({ path, size: text.length, read: async () => Buffer.from(text), text: async () => text });
  const ctx = {} as ExtractContext;

  it('claims SBOM file names', () => {
    for (const path of ['bom.json', 'bom.xml', 'a/b/app.cdx.json', 'app.cdx.xml', 'x.spdx', 'x.spdx.json', 'x.spdx.yaml', 'x.spdx.yml', 'x.spdx.rdf.xml', 'x.spdx.xml', 'x.spdx.rdf', 'dist/app-sbom.json', 'bom.1.4.json', 'proton-bridge-v1.8.0.bom.xml', 'sbom.json', 'image.cdx.intoto.jsonl']) {
      expect(isSbomPath(path), path).toBe(true);
    }
    for (const path of ['package.json', 'pom.xml', 'bom.yaml', 'spdx.ts', 'notbom.json', 'x.spdx.exe']) expect(isSbomPath(path), path).toBe(false);
    expect(extractors).toContain(sbomExtractor);
  });

  it('reads a CycloneDX document attested in an in-toto envelope', async () => {
    const statement = { _type: 'https://in-toto.io/Statement/v0.1', predicateType: 'https://cyclonedx.org/bom', subject: [], predicate: JSON.parse(sample) as unknown };
    const envelope = JSON.stringify({ payloadType: 'application/vnd.in-toto+json', payload: Buffer.from(JSON.stringify(statement)).toString('base64'), signatures: [] });
    expect(sniffSbom(envelope)).toBe('in-toto');
    const target = await importSbom(`${envelope}\n`, 'app.cdx.intoto.jsonl');
    expect(target.project?.purl).toBe('pkg:npm/shop@2.0.0');
    expect(target.components).toHaveLength(5);
  });

  it('returns no target for a bom.json that is not an SBOM', async () => {
    expect(await sbomExtractor.extract(file('bom.json', '{"name": "something else"}'), ctx)).toEqual([]);
    expect(await sbomExtractor.extract(file('bom.xml', '<bill><of>materials</of></bill>'), ctx)).toEqual([]);
  });

  it('extracts with the scan-relative path and decodes UTF-16', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(sample, 'utf16le')]);
    const input: InputFile = { path: 'deploy/app.cdx.json', size: utf16.length, read: async () => utf16, text: async () => utf16.toString() };
    const [target] = await sbomExtractor.extract(input, ctx);
    expect(target?.file).toBe('deploy/app.cdx.json');
    expect(target?.components[0]?.locations).toEqual([{ file: 'deploy/app.cdx.json' }]);
  });
});

describe('an image SBOM with its operating system (as Cairn, syft and trivy write it)', () => {
  const image = bom({
    metadata: { component: { type: 'container', 'bom-ref': 'img', name: 'shop/api', version: 'sha256:ab' } },
    components: [
      { type: 'operating-system', 'bom-ref': 'os', name: 'debian', version: '12', description: 'Debian GNU/Linux 12 (bookworm)' },
      { type: 'library', 'bom-ref': 'curl', name: 'curl', version: '7.88.1', purl: 'pkg:deb/debian/curl@7.88.1?distro=debian-12' },
      { type: 'library', 'bom-ref': 'libc6', name: 'libc6', version: '2.36', purl: 'pkg:deb/debian/libc6@2.36?distro=debian-12' },
      { type: 'library', 'bom-ref': 'lodash', name: 'lodash', version: '4.17.21', purl: 'pkg:npm/lodash@4.17.21' },
    ],
    dependencies: [
      { ref: 'img', dependsOn: ['os', 'lodash'] },
      { ref: 'os', dependsOn: ['curl'] },
      { ref: 'curl', dependsOn: ['libc6'] },
    ],
  });

  it('lists the packages, not the operating system, and what it holds hangs from the image', async () => {
    const target = await importSbom(image, 'image.cdx.json');
    expect(target.components.map((c) => c.name).sort()).toEqual(['debian/curl', 'debian/libc6', 'lodash']);
    expect(target.components.filter((c) => c.direct).map((c) => c.name).sort()).toEqual(['debian/curl', 'lodash']);
    expect(target.components.find((c) => c.name === 'debian/curl')!.dependsOn).toEqual(['pkg:deb/debian/libc6@2.36?distro=debian-12']);
  });
});
