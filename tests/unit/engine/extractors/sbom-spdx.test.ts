// SPDX import: every serialisation of the canonical SPDX 2.2 / 2.3 example (JSON, YAML, XML,
// tag-value, RDF/XML, UTF-16 variants) reads to the same packages, files and relationships
// (corpora/README.md); the mapping onto the model; malformed input refused in Chinese.
import { readdir, readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import parseExpression from 'spdx-expression-parse';
import { describe, expect, it } from 'vitest';
import { ExtractError } from '../../../../server/engine/model.ts';
import { decodeText, importSbom, parseSpdx, sniffSpdx, type SpdxDocument } from '../../../../server/engine/extractors/sbom/index.ts';

const data = resolve(import.meta.dirname, '../../../../../shared/corpora/sbom/spdx-tools/data');

type Node = { license?: string; plus?: boolean; exception?: string; conjunction?: string; left?: Node; right?: Node };
/** Order-independent licence expression, so RDF's member order does not matter. */
function canonicalLicence(expression: string): string {
  if (!expression || expression === 'NOASSERTION' || expression === 'NONE') return expression;
  const walk = (n: Node): string => n.license
    ? `${n.license}${n.plus ? '+' : ''}${n.exception ? ` WITH ${n.exception}` : ''}`
    : `(${[walk(n.left!), walk(n.right!)].sort().join(` ${n.conjunction!.toUpperCase()} `)})`;
  return walk(parseExpression(expression) as Node);
}

function normalised(doc: SpdxDocument) {
  const known = new Set([doc.id, ...doc.packages.map((p) => p.id), ...doc.files.map((f) => f.id), 'NOASSERTION', 'NONE']);
  return {
    spdxVersion: doc.spdxVersion,
    id: doc.id,
    packages: doc.packages
      .map((p) => ({ ...p, purls: [...p.purls].sort(), licenseDeclared: canonicalLicence(p.licenseDeclared), licenseConcluded: canonicalLicence(p.licenseConcluded) }))
      .sort((a, b) => a.id.localeCompare(b.id)),
    files: [...doc.files].sort((a, b) => a.id.localeCompare(b.id)),
    // Relationships to other documents (DocumentRef-x:…) are written differently in RDF (URIs).
    relationships: doc.relationships.filter((r) => known.has(r.from) && known.has(r.to)).map((r) => `${r.from} ${r.type} ${r.to}`).sort(),
  };
}

async function load(name: string): Promise<SpdxDocument> {
  const text = decodeText(await readFile(resolve(data, name)));
  const format = sniffSpdx(text);
  expect(format, name).not.toBeNull();
  return parseSpdx(text, format!);
}

describe('SPDX serialisations', () => {
  it('read to the same packages, files and relationships per version', async () => {
    const names = (await readdir(data)).filter((n) => /^SPDX(JSON|YAML|XML|Rdf|Tag)Example-/.test(n)).sort();
    const byVersion = new Map<string, Array<{ name: string; form: ReturnType<typeof normalised> }>>();
    for (const name of names) {
      const doc = await load(name);
      const group = byVersion.get(doc.spdxVersion) ?? [];
      group.push({ name, form: normalised(doc) });
      byVersion.set(doc.spdxVersion, group);
    }
    expect([...byVersion.keys()].sort()).toEqual(['SPDX-2.2', 'SPDX-2.3']);
    for (const [version, group] of byVersion) {
      const reference = group.find((g) => g.name.startsWith('SPDXJSONExample-v'))!;
      console.log(`${version}: ${group.length} serialisations (${group.map((g) => g.name).join(', ')}) — ${reference.form.packages.length} packages, ${reference.form.files.length} files, ${reference.form.relationships.length} relationships`);
      expect(reference.form.packages.length).toBe(4);
      for (const { name, form } of group) expect(form, `${name} vs ${reference.name}`).toEqual(reference.form);
    }
    expect(byVersion.get('SPDX-2.2')!.length).toBe(10);
    expect(byVersion.get('SPDX-2.3')!.length).toBe(5);
  });

  it('maps packages, purls, licences and the described package onto the model', async () => {
    const text = decodeText(await readFile(resolve(data, 'SPDXJSONExample-v2.3.spdx.json')));
    const target = await importSbom(text, 'example.spdx.json');
    expect(target.type).toBe('spdx');
    // documentDescribes names a file and one package: the package is the project.
    expect(target.project).toEqual({ purl: 'pkg:generic/glibc@2.11.1', name: 'glibc', version: '2.11.1' });
    expect(target.roots).toEqual(['pkg:generic/Saxon@8.8']); // glibc DYNAMIC_LINK Saxon
    const purls = target.components.map((c) => c.purl).sort();
    expect(purls).toEqual(['pkg:generic/Apache%20Commons%20Lang', 'pkg:generic/Saxon@8.8', 'pkg:maven/org.apache.jena/apache-jena@3.12.0']);
    const jena = target.components.find((c) => c.ecosystem === 'maven')!;
    expect(jena).toMatchObject({ name: 'org.apache.jena:apache-jena', version: '3.12.0', direct: false, locations: [{ file: 'example.spdx.json' }] });
    expect(target.components.find((c) => c.name === 'Saxon')).toMatchObject({ licenses: ['MPL-1.0'], direct: true, scope: 'runtime' });
  });

  it('imports every other document of the corpus', async () => {
    for (const name of ['ControlCharacters.spdx.json', 'SPDXLite.spdx', 'circleConversionTestInitialDocument.json']) {
      const target = await importSbom(decodeText(await readFile(resolve(data, name))), name);
      expect(target.components.length, name).toBeGreaterThan(0);
    }
    const lite = await importSbom(await readFile(resolve(data, 'SPDXLite.spdx'), 'utf8'), 'lite.spdx');
    expect(lite.components).toMatchObject([{ purl: 'pkg:generic/SPDX%20tools@2.0.3', licenses: ['Apache-2.0'], direct: true }]);
  });

  it('turns relationships into dependency edges and scopes', async () => {
    const doc = {
      spdxVersion: 'SPDX-2.3', SPDXID: 'SPDXRef-DOCUMENT', name: 'app', documentDescribes: ['SPDXRef-app'],
      packages: [
        { SPDXID: 'SPDXRef-app', name: 'app', versionInfo: '1.0.0', externalRefs: [{ referenceCategory: 'PACKAGE-MANAGER', referenceType: 'purl', referenceLocator: 'pkg:npm/app@1.0.0' }] },
        { SPDXID: 'SPDXRef-a', name: 'a', versionInfo: '1.0.0', licenseDeclared: 'MIT', externalRefs: [{ referenceCategory: 'PACKAGE_MANAGER', referenceType: 'purl', referenceLocator: 'pkg:npm/a@1.0.0' }] },
        { SPDXID: 'SPDXRef-b', name: 'b', versionInfo: '2.0.0', licenseDeclared: 'NOASSERTION', licenseConcluded: 'Apache-2.0', externalRefs: [{ referenceCategory: 'PACKAGE-MANAGER', referenceType: 'purl', referenceLocator: 'pkg:npm/b@2.0.0' }] },
        { SPDXID: 'SPDXRef-jest', name: 'jest', versionInfo: '29.0.0', externalRefs: [{ referenceCategory: 'PACKAGE-MANAGER', referenceType: 'purl', referenceLocator: 'pkg:npm/jest@29.0.0' }] },
      ],
      relationships: [
        { spdxElementId: 'SPDXRef-app', relationshipType: 'DEPENDS_ON', relatedSpdxElement: 'SPDXRef-a' },
        { spdxElementId: 'SPDXRef-b', relationshipType: 'DEPENDENCY_OF', relatedSpdxElement: 'SPDXRef-a' },
        { spdxElementId: 'SPDXRef-jest', relationshipType: 'DEV_DEPENDENCY_OF', relatedSpdxElement: 'SPDXRef-app' },
      ],
    };
    const target = await importSbom(JSON.stringify(doc), 'app.spdx.json');
    expect(target.project?.purl).toBe('pkg:npm/app@1.0.0');
    expect(target.ecosystem).toBe('npm');
    expect(target.roots.sort()).toEqual(['pkg:npm/a@1.0.0', 'pkg:npm/jest@29.0.0']);
    const byPurl = new Map(target.components.map((c) => [c.purl, c]));
    expect(byPurl.get('pkg:npm/a@1.0.0')).toMatchObject({ direct: true, dependsOn: ['pkg:npm/b@2.0.0'], licenses: ['MIT'] });
    expect(byPurl.get('pkg:npm/b@2.0.0')).toMatchObject({ direct: false, licenses: ['Apache-2.0'] });
    expect(byPurl.get('pkg:npm/jest@29.0.0')).toMatchObject({ direct: true, scope: 'development' });
  });

  it('reads tag-value with multi-line text and implicit file containment', () => {
    const doc = parseSpdx([
      'SPDXVersion: SPDX-2.2', 'DataLicense: CC0-1.0', 'SPDXID: SPDXRef-DOCUMENT', 'DocumentName: demo',
      'PackageName: demo', 'SPDXID: SPDXRef-demo', 'PackageVersion: 1.0',
      'PackageComment: <text>line one', 'FileName: not-a-file', '</text>',
      'ExternalRef: PACKAGE-MANAGER purl pkg:pypi/demo@1.0',
      'FileName: ./a.py', 'SPDXID: SPDXRef-a',
      'Relationship: SPDXRef-DOCUMENT DESCRIBES SPDXRef-demo',
    ].join('\n'), 'tag');
    expect(doc.packages).toEqual([{ id: 'SPDXRef-demo', name: 'demo', version: '1.0', purls: ['pkg:pypi/demo@1.0'], licenseDeclared: '', licenseConcluded: '' }]);
    expect(doc.files).toEqual([{ id: 'SPDXRef-a', name: './a.py' }]);
    expect(doc.relationships).toEqual([
      { from: 'SPDXRef-DOCUMENT', type: 'DESCRIBES', to: 'SPDXRef-demo' },
      { from: 'SPDXRef-demo', type: 'CONTAINS', to: 'SPDXRef-a' },
    ]);
  });

  it('refuses malformed documents with a Chinese message', async () => {
    const cases: Array<[string, RegExp]> = [
      ['{"spdxVersion": "SPDX-2.3", "SPDXID": "SPDXRef-DOCUMENT", "packages": [{"name": "x"}]}', /第 1 个软件包缺少 SPDXID/],
      ['{"spdxVersion": "SPDX-3.0", "SPDXID": "SPDXRef-DOCUMENT"}', /不支持的版本 SPDX-3\.0/],
      ['{"spdxVersion": "SPDX-2.3", "SPDXID": "SPDXRef-DOCUMENT", ', /JSON 无法解析/],
      ['SPDXVersion: SPDX-2.3\nSPDXID: SPDXRef-DOCUMENT\nthis line has no tag\n', /第 3 行不是“标签: 值”的格式/],
      ['SPDXVersion: SPDX-2.3\nSPDXID: SPDXRef-DOCUMENT\nPackageComment: <text>never closed\n', /<text> 没有对应的 <\/text>/],
      ['SPDXVersion: SPDX-2.3\nSPDXID: SPDXRef-DOCUMENT\nRelationship: SPDXRef-DOCUMENT DESCRIBES\n', /Relationship 应为/],
      ['spdxVersion: SPDX-2.3\nSPDXID: [unclosed\n', /YAML 无法解析/],
    ];
    for (const [text, message] of cases) {
      const error = await importSbom(text, 'x.spdx').then(() => null, (e: unknown) => e);
      expect(error, text).toBeInstanceOf(ExtractError);
      expect((error as Error).message).toMatch(/^SPDX 文档格式错误：/);
      expect((error as Error).message).toMatch(message);
    }
  });
});

describe('an image SPDX document with its operating system', () => {
  it('lists the packages, not the OPERATING_SYSTEM package, and what it contains hangs from the image', async () => {
    const pkg = (id: string, name: string, extra: Record<string, unknown> = {}) => ({ SPDXID: id, name, downloadLocation: 'NOASSERTION', ...extra });
    const purl = (locator: string) => ({ externalRefs: [{ referenceCategory: 'PACKAGE-MANAGER', referenceType: 'purl', referenceLocator: locator }] });
    const text = JSON.stringify({
      spdxVersion: 'SPDX-2.3', SPDXID: 'SPDXRef-DOCUMENT', name: 'img', dataLicense: 'CC0-1.0',
      packages: [
        pkg('SPDXRef-Image', 'shop/api', { primaryPackagePurpose: 'CONTAINER', versionInfo: 'sha256:ab' }),
        pkg('SPDXRef-OS', 'debian', { primaryPackagePurpose: 'OPERATING_SYSTEM', versionInfo: '12' }),
        pkg('SPDXRef-curl', 'curl', { versionInfo: '7.88.1', ...purl('pkg:deb/debian/curl@7.88.1?distro=debian-12') }),
        pkg('SPDXRef-libc6', 'libc6', { versionInfo: '2.36', ...purl('pkg:deb/debian/libc6@2.36?distro=debian-12') }),
        pkg('SPDXRef-lodash', 'lodash', { versionInfo: '4.17.21', ...purl('pkg:npm/lodash@4.17.21') }),
      ],
      relationships: [
        { spdxElementId: 'SPDXRef-DOCUMENT', relationshipType: 'DESCRIBES', relatedSpdxElement: 'SPDXRef-Image' },
        { spdxElementId: 'SPDXRef-Image', relationshipType: 'CONTAINS', relatedSpdxElement: 'SPDXRef-OS' },
        { spdxElementId: 'SPDXRef-Image', relationshipType: 'CONTAINS', relatedSpdxElement: 'SPDXRef-lodash' },
        { spdxElementId: 'SPDXRef-OS', relationshipType: 'CONTAINS', relatedSpdxElement: 'SPDXRef-curl' },
        { spdxElementId: 'SPDXRef-curl', relationshipType: 'DEPENDS_ON', relatedSpdxElement: 'SPDXRef-libc6' },
      ],
    });
    const target = await importSbom(text, 'image.spdx.json');
    expect(target.components.map((c) => c.name).sort()).toEqual(['debian/curl', 'debian/libc6', 'lodash']);
    expect(target.components.filter((c) => c.direct).map((c) => c.name).sort()).toEqual(['debian/curl', 'lodash']);
  });
});
