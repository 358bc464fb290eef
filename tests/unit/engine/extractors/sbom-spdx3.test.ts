// SPDX 3.0 JSON-LD import on spdx-examples' real 3.0.1 SBOM (a Rust server's source package and
// its build dependencies), and the refusals of SBOM serialisations Cairn does not read.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExtractError } from '../../../../server/engine/model.ts';
import { describeSbomFile, importSbom, importSbomFile, isSbomPath, sbomExtractor, sniffSbom } from '../../../../server/engine/extractors/sbom/index.ts';
import { spdx3ToTarget } from '../../../../server/engine/extractors/sbom/spdx3.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../../../fixtures/public/sbom');
const ctx = { readText: async () => undefined, list: async () => [], exists: async () => false, signal: new AbortController().signal };
const example11 = () => readFile(path.join(FIXTURES, 'spdx3/example11-sbom.spdx.json'), 'utf8');

describe('SPDX 3.0 JSON-LD', () => {
  it('is recognised by its context, and claimed by name in scans', async () => {
    expect(sniffSbom(await example11())).toBe('spdx3-jsonld');
    expect(isSbomPath('out/app.spdx.json')).toBe(true);
    expect(isSbomPath('out/app.spdx3.jsonld')).toBe(true);
    expect(isSbomPath('out/app.spdx.jsonld')).toBe(true);
  });

  it('reads example 11: the packages with their purls, licences (declared, else concluded), build-scoped dependencies and the described package as project', async () => {
    const t = await importSbom(await example11(), 'sbom.spdx.json');
    expect(t.type).toBe('spdx3');
    expect(t.project).toEqual({ purl: 'pkg:deb/debian/libselinux1-dev@3.1-3?arch=s390x', name: 'debian/libselinux1-dev', version: '3.1-3' });
    expect(t.components.map((c) => [c.purl, c.version, c.licenses, c.scope, c.direct, c.dependsOn])).toEqual([
      ['pkg:cargo/hyper@0.14', '0.14', ['MIT'], 'development', true, []],
      ['pkg:cargo/tokio@1.19.2', '1.19.2', ['MIT'], 'development', true, []],
      ['pkg:cargo/pretty_env_logger@0.4.0', '0.4.0', ['(MIT OR Apache-2.0)'], 'development', true, []],
    ]);
    expect(t.roots).toEqual(['pkg:cargo/hyper@0.14', 'pkg:cargo/tokio@1.19.2', 'pkg:cargo/pretty_env_logger@0.4.0']);
  });

  it('the scan extractor reads it too', async () => {
    const text = await example11();
    const [t] = await sbomExtractor.extract({ path: 'sbom.spdx.json', size: text.length, read: async () => Buffer.from(text), text: async () => text }, ctx);
    expect(t!.components).toHaveLength(3);
  });

  it('external identifiers, listed licences, runtime edges and several described packages', () => {
    const ctx = 'https://spdx.org/rdf/3.0.1/spdx-context.jsonld';
    const doc = {
      '@context': ctx,
      '@graph': [
        { type: 'SpdxDocument', spdxId: 'urn:doc', rootElement: ['urn:sbom'] },
        { type: 'software_Sbom', spdxId: 'urn:sbom', rootElement: ['urn:a', 'urn:b'] },
        { type: 'software_Package', spdxId: 'urn:a', name: 'a', software_packageVersion: '1.0', externalIdentifier: [{ type: 'ExternalIdentifier', externalIdentifierType: 'packageUrl', identifier: 'pkg:npm/a@1.0' }] },
        { type: 'software_Package', spdxId: 'urn:b', name: 'b', software_packageVersion: '2.0' },
        { type: 'software_Package', spdxId: 'urn:c', name: 'c', software_packageVersion: '3.0', software_packageUrl: 'pkg:npm/c@3.0' },
        { type: 'Relationship', spdxId: 'urn:r1', relationshipType: 'dependsOn', from: 'urn:a', to: ['urn:c'] },
        { type: 'Relationship', spdxId: 'urn:r2', relationshipType: 'hasDeclaredLicense', from: 'urn:c', to: ['https://spdx.org/licenses/MIT'] },
        { type: 'LifecycleScopedRelationship', spdxId: 'urn:r3', relationshipType: 'dependsOn', scope: 'runtime', from: 'urn:b', to: ['urn:c'] },
      ],
    };
    const t = spdx3ToTarget(doc, 'x.spdx.json');
    expect(t.project).toBeNull();
    expect(t.components.map((c) => [c.purl, c.direct, c.scope, c.licenses, c.dependsOn])).toEqual([
      ['pkg:npm/a@1.0', true, 'runtime', [], ['pkg:npm/c@3.0']],
      ['pkg:generic/b@2.0', true, 'runtime', [], ['pkg:npm/c@3.0']],
      ['pkg:npm/c@3.0', false, 'runtime', ['MIT'], []],
    ]);
  });

  it('malformed SPDX 3 documents', async () => {
    await expect(importSbom('{"@context": "https://spdx.org/rdf/3.0.1/spdx-context.jsonld", "@graph": [', 'x.spdx.json')).rejects.toThrow(/JSON-LD 无法解析/);
    expect(() => spdx3ToTarget({ '@context': 'https://spdx.org/rdf/3.0.1/spdx-context.jsonld', '@graph': [{ type: 'Person' }] }, 'x')).toThrow(ExtractError);
  });
});

describe('SBOM serialisations Cairn does not read are named', () => {
  const protobuf = Buffer.concat([Buffer.from([0x0a, 0x03]), Buffer.from('1.5'), Buffer.from([0x10, 0x01, 0x1a, 0x05]), Buffer.from('urn:x')]);

  it('CycloneDX binary protobuf, SPDX RDF Turtle, SWID, OpenVEX, scanners\' own JSON', async () => {
    await expect(importSbomFile(protobuf, 'bom.cdx.pb')).rejects.toThrow('SBOM 文件 bom.cdx.pb 是CycloneDX protobuf 二进制格式，Cairn 不读取该格式：请转换为 CycloneDX JSON、XML 或 protobuf 文本格式');
    await expect(importSbomFile(Buffer.from('@prefix spdx: <http://spdx.org/rdf/terms#> .\n'), 'x.ttl')).rejects.toThrow(/SPDX 2 RDF Turtle/);
    await expect(importSbomFile(Buffer.from('@prefix spdx: <https://spdx.org/rdf/3.0.1/terms/Core/> .\n'), 'x.ttl')).rejects.toThrow(/SPDX 3 RDF/);
    await expect(importSbomFile(Buffer.from('<?xml version="1.0"?><SoftwareIdentity xmlns="http://standards.iso.org/iso/19770/-2/2015/schema.xsd" name="x"/>'), 'x.swidtag')).rejects.toThrow(/SWID 标签/);
    await expect(importSbomFile(Buffer.from('{"@context": "https://openvex.dev/ns/v0.2.0", "statements": []}'), 'x.json')).rejects.toThrow(/OpenVEX/);
    await expect(importSbomFile(Buffer.from('{"artifacts": [], "artifactRelationships": [], "source": {}}'), 'x.json')).rejects.toThrow(/syft -o cyclonedx-json/);
    await expect(importSbomFile(Buffer.from('{"SchemaVersion": 2, "ArtifactName": "x"}'), 'x.json')).rejects.toThrow(/trivy --format cyclonedx/);
    await expect(importSbomFile(Buffer.from('hello'), 'notes.txt')).rejects.toThrow('SBOM 文件 notes.txt 的格式无法识别：支持 CycloneDX（JSON、XML、protobuf 文本格式）、SPDX 2.x（JSON、YAML、XML、tag-value、RDF/XML）与 SPDX 3.0（JSON-LD）');
  });

  it('a binary protobuf named as an SBOM in a scanned folder is a problem naming it', async () => {
    expect(isSbomPath('dist/bom.cdx.pb')).toBe(true);
    await expect(sbomExtractor.extract({ path: 'dist/bom.cdx.pb', size: protobuf.length, read: async () => protobuf, text: async () => '' }, ctx)).rejects.toThrow(/CycloneDX protobuf 二进制格式/);
  });

  it('what an SBOM file is, for refusals where an archive was expected', async () => {
    expect(describeSbomFile(Buffer.from(await example11()), 'sbom.spdx.json')).toBe('SPDX 3.0 JSON-LD 格式的 SBOM');
    expect(describeSbomFile(protobuf, 'bom.pb')).toBe('CycloneDX protobuf 二进制格式');
    expect(describeSbomFile(Buffer.from('{"bomFormat": "CycloneDX", "specVersion": "1.5"}'), 'x.json')).toBe('CycloneDX JSON 格式的 SBOM');
    expect(describeSbomFile(Buffer.from('PK\x03\x04\x00\x00'), 'x.zip')).toBeNull();
  });
});
