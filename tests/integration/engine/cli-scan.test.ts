// `cairn scan`: a folder and the same folder as a tar.gz give the same components; the JSON
// format carries what the README documents; bad arguments are refused in Chinese.
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { scanCommand, UsageError } from '../../../cli/commands/scan.ts';
import { loadSbom } from '../../../server/engine/index.ts';
import { TRIVY } from '../../support/golden.ts';

const work = mkdtempSync(path.join(tmpdir(), 'cairn-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface JsonOut { components: Array<Record<string, unknown>>; targets: Array<{ file: string; type: string }>; problems: unknown[] }

describe('cairn scan', () => {
  it('scans a folder into the documented JSON shape', async () => {
    const { output, summary } = await scanCommand([path.join(TRIVY, 'repo', 'cargo')]);
    const doc = JSON.parse(output) as JsonOut;
    expect(doc.targets.map((t) => `${t.file}:${t.type}`)).toEqual(['Cargo.lock:cargo']);
    expect(doc.problems).toEqual([]);
    const regex = doc.components.find((c) => c.purl === 'pkg:cargo/regex@1.7.3')!;
    expect(Object.keys(regex).sort()).toEqual(['dependsOn', 'direct', 'ecosystem', 'licenseExpression', 'licenses', 'locations', 'name', 'purl', 'scope', 'version']);
    expect(regex).toMatchObject({ name: 'regex', version: '1.7.3', ecosystem: 'cargo', scope: 'runtime', direct: true });
    expect(regex.dependsOn).toContain('pkg:cargo/aho-corasick@0.7.20');
    expect(summary).toMatch(/扫描完成：.*个组件/);
  });

  it('gives the same components for the folder packed as tar.gz', async () => {
    const archive = path.join(work, 'cargo.tgz');
    execFileSync('tar', ['czf', archive, '-C', path.join(TRIVY, 'repo'), 'cargo']);
    const packed = JSON.parse((await scanCommand([archive])).output) as JsonOut;
    const plain = JSON.parse((await scanCommand([path.join(TRIVY, 'repo', 'cargo')])).output) as JsonOut;
    expect(packed.components.map((c) => c.purl)).toEqual(plain.components.map((c) => c.purl));
  });

  it('writes SPDX 2.3 to a file', async () => {
    const out = path.join(work, 'out.spdx.json');
    await scanCommand([path.join(TRIVY, 'repo', 'cargo'), '--format', 'spdx', '--output', out]);
    const doc = JSON.parse(execFileSync('cat', [out], { encoding: 'utf8' })) as { spdxVersion: string; packages: unknown[]; relationships: unknown[] };
    expect(doc.spdxVersion).toBe('SPDX-2.3');
    expect(doc.packages.length).toBeGreaterThan(5);
    expect(doc.relationships.length).toBeGreaterThan(5);
  });

  it('refuses bad arguments and non-archives with Chinese messages', async () => {
    await expect(scanCommand([])).rejects.toBeInstanceOf(UsageError);
    await expect(scanCommand(['.', '--format', 'xml'])).rejects.toThrow(/不支持的输出格式：xml/);
    await expect(scanCommand([path.join(work, 'missing')])).rejects.toThrow(/找不到要扫描的路径/);
    const notArchive = path.join(work, 'note.txt');
    writeFileSync(notArchive, 'hello');
    await expect(scanCommand([notArchive])).rejects.toThrow(/不是支持的压缩格式/);
  });
});

describe('cairn scan --jar-index', () => {
  it('names a jar without pom.properties or manifest by its SHA-1 in the index; a bad index is refused', async () => {
    // Debian's commons-io (libcommons-io-java) without its Maven metadata and manifest, under a name that says nothing.
    const dir = path.join(work, 'jars');
    mkdirSync(dir, { recursive: true });
    const jar = path.join(dir, 'io.jar');
    copyFileSync('/usr/share/java/commons-io.jar', jar);
    execFileSync('zip', ['-q', '-d', jar, 'META-INF/maven/*', 'META-INF/MANIFEST.MF']);
    const sha1 = createHash('sha1').update(readFileSync(jar)).digest('hex');
    const index = path.join(work, 'index.tsv');
    writeFileSync(index, `${sha1}\tcommons-io\tcommons-io\t2.11.0\n`);
    const purls = async (args: string[]) => (JSON.parse((await scanCommand([dir, ...args])).output) as JsonOut).components.map((c) => c.purl);
    expect(await purls(['--jar-index', index])).toEqual(['pkg:maven/commons-io/commons-io@2.11.0']);
    // Without it the jar names no version: nothing to report; the index is not kept from the previous scan.
    expect(await purls([])).toEqual([]);
    writeFileSync(index, 'commons-io 2.11.0\n');
    await expect(scanCommand([dir, '--jar-index', index])).rejects.toThrow(/Java 归档 SHA-1 索引 .*index\.tsv 第 1 行格式不正确/);
    await expect(scanCommand([dir, '--jar-index', path.join(work, 'missing.tsv')])).rejects.toBeInstanceOf(UsageError);
  });
});

describe('cairn scan of one built artefact', () => {
  it('identifies a jar, a wheel and a .deb given alone by their own metadata, not by unpacking them', async () => {
    const scanned = async (file: string) => JSON.parse((await scanCommand([file])).output) as JsonOut & { targets: Array<{ type: string; file: string }> };
    // Unpacked, Debian's commons-lang3.jar would read as its packaged pom.xml: a project with its build's test dependencies.
    const jar = await scanned('/usr/share/java/commons-lang3.jar');
    expect(jar.targets.map((t) => [t.type, t.file])).toEqual([['jar', 'commons-lang3.jar']]);
    expect(jar.components.map((c) => c.purl)).toEqual(['pkg:maven/org.apache.commons/commons-lang3@3.12.0']);
    const wheel = await scanned(path.resolve('tests/fixtures/public/pkgfiles/example-21.12-py3-none-any.whl'));
    expect(wheel.targets.map((t) => t.type)).toEqual(['wheel']);
    expect(wheel.components.map((c) => c.purl)).toEqual(['pkg:pypi/example@21.12']);
    // An `ar` archive, which the unpacker does not open: read whole by the .deb extractor.
    const deb = await scanned(path.resolve('tests/fixtures/public/pkgfiles/liblzf1_3.6-3_amd64.deb'));
    expect(deb.targets.map((t) => t.type)).toEqual(['deb-file']);
    expect(deb.components.map((c) => c.purl)).toEqual(['pkg:deb/debian/liblzf1@3.6-3?arch=amd64&upstream=liblzf']);
  });
});

describe('CycloneDX 1.6 output', () => {
  it('passes the official schema for a scan across many ecosystems, and imports back', async () => {
    const { validateCycloneDx, importSbom } = await loadSbom();
    // The whole trivy fixture tree: npm, yarn, pnpm, Maven, Go, Cargo, PyPI, NuGet, ... at once.
    const { output } = await scanCommand([path.join(TRIVY, 'repo'), '--format', 'cyclonedx']);
    const verdict = await validateCycloneDx(output, 'json');
    expect(verdict.errors).toEqual([]);
    expect(verdict).toMatchObject({ valid: true, specVersion: '1.6' });
    const ours = JSON.parse((await scanCommand([path.join(TRIVY, 'repo')])).output) as JsonOut;
    const back = await importSbom(output, 'scan.cdx.json');
    expect(back.components.map((c) => c.purl).sort()).toEqual(ours.components.map((c) => String(c.purl)).sort());
  });
});

describe('cairn scan on single files, cairn template', () => {
  it('imports an SBOM file directly', async () => {
    const file = path.join(TRIVY, '..', 'sbom', 'examples', 'keycloak-10.0.2', 'bom.json');
    const doc = JSON.parse((await scanCommand([file])).output) as JsonOut;
    expect(doc.components).toHaveLength(903);
    const bad = path.join(work, 'bad.json');
    writeFileSync(bad, '{}');
    await expect(scanCommand([bad])).rejects.toThrow(/SBOM 文件 bad\.json 的格式无法识别/);
  });

  it('imports the newer serialisations (SPDX 3 JSON-LD, CycloneDX protobuf text) and names the ones it does not read, never as no archive', async () => {
    const spdx3 = path.resolve(import.meta.dirname, '../../fixtures/public/sbom/spdx3/example11-sbom.spdx.json');
    expect((JSON.parse((await scanCommand([spdx3])).output) as JsonOut).components).toHaveLength(3);
    const textproto = path.resolve(import.meta.dirname, '../../fixtures/public/sbom/cdx-textproto/valid-dependency-1.5.textproto');
    expect((JSON.parse((await scanCommand([textproto])).output) as JsonOut).components).toHaveLength(3);
    const pb = path.join(work, 'bom.cdx.pb');
    writeFileSync(pb, Buffer.concat([Buffer.from([0x0a, 0x03]), Buffer.from('1.5'), Buffer.from([0x10, 0x01])]));
    await expect(scanCommand([pb])).rejects.toThrow('SBOM 文件 bom.cdx.pb 是CycloneDX protobuf 二进制格式，Cairn 不读取该格式');
    // An SBOM under a name the command does not take for one is still recognised by its content.
    const renamed = path.join(work, 'inventory.dat');
    writeFileSync(renamed, readFileSync(textproto));
    expect((JSON.parse((await scanCommand([renamed])).output) as JsonOut).components).toHaveLength(3);
  });

  it('writes the Chinese template, which imports as a component list once filled', async () => {
    const { templateCommand } = await import('../../../cli/commands/template.ts');
    const file = path.join(work, '组件清单.xlsx');
    expect(await templateCommand([file])).toContain(file);
    const ExcelJS = (await import('exceljs')).default;
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(file);
    const sheet = book.worksheets.find((s) => s.getCell('A1').text.includes('组件名称'))!;
    sheet.spliceRows(2, sheet.rowCount); // drop the example rows
    sheet.addRow(['lodash', '4.17.21', 'npm', '', 'MIT', '']);
    sheet.addRow(['org.apache.logging.log4j:log4j-core', '2.14.1', 'Maven', '', 'Apache-2.0', '']);
    await book.xlsx.writeFile(file);
    const doc = JSON.parse((await scanCommand([file])).output) as JsonOut;
    expect(doc.components.map((c) => c.purl)).toEqual(['pkg:maven/org.apache.logging.log4j/log4j-core@2.14.1', 'pkg:npm/lodash@4.17.21']);
  });
});
