// Feature files (server/engine/feature/): a project with several ecosystems, uploaded as a zip of
// its folder (as the desktop packs a dropped folder: everything under `<folder>/`) and as the
// feature file of the same folder, gives the same components, dependency roots, declared licences,
// project licence, file listing and vulnerabilities; the feature file holds no source file. Hostile
// feature files (path traversal, hash mismatch, undeclared or missing entries, a missing manifest,
// a newer version, links) are refused with Chinese messages.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import yauzl from 'yauzl';
import yazl from 'yazl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  analyseProject, buildAdvisoryIndex, isFeatureFile, licenseText, normalizePackageName, readFeatureFile, writeFeatureFile,
  type Advisory, type AnalysisKnowledge, type FeatureManifest,
} from '../../../server/engine/index.ts';
import { isUserError } from '../../../server/errors.ts';

const CORPUS = path.resolve('../shared/corpora/trivy/repo');
const work = mkdtempSync(path.join(tmpdir(), 'cairn-feature-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const project = path.join(work, 'shop');
const SOURCE = '// SPDX-License-Identifier: MIT\n// Copyright 2024 Acme Shop Ltd.\nexport const secret = "trade secret";\n';

/** A zip of entries, written with yazl (the desktop's and the writer's zip library). */
async function zipOf(file: string, entries: Record<string, string | Buffer>): Promise<string> {
  const zip = new yazl.ZipFile();
  for (const [name, body] of Object.entries(entries)) zip.addBuffer(Buffer.isBuffer(body) ? body : Buffer.from(body), name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  writeFileSync(file, Buffer.concat(chunks));
  return file;
}

async function zipEntries(file: string): Promise<Map<string, Buffer>> {
  const zip = await yauzl.openPromise(file, { lazyEntries: true });
  const out = new Map<string, Buffer>();
  for await (const entry of zip.eachEntry()) {
    const chunks: Buffer[] = [];
    for await (const c of await zip.openReadStreamPromise(entry)) chunks.push(c as Buffer);
    out.set(entry.fileName, Buffer.concat(chunks));
  }
  zip.close();
  return out;
}

beforeAll(async () => {
  for (const eco of ['npm', 'yarn', 'pip', 'poetry', 'gomod', 'cargo', 'composer', 'pom', 'nuget', 'conan']) cpSync(path.join(CORPUS, eco), path.join(project, eco), { recursive: true });
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'shop', version: '1.0.0', license: 'MIT', dependencies: { jquery: '3.3.1' } }));
  writeFileSync(path.join(project, 'LICENSE'), licenseText('MIT'));
  mkdirSync(path.join(project, 'src/vendor'), { recursive: true });
  writeFileSync(path.join(project, 'src/index.ts'), SOURCE);
  writeFileSync(path.join(project, 'src/vendor/NOTICE'), 'This product includes software developed by the Apache Software Foundation.\nLicensed under the Apache License, Version 2.0\n');
  // An installed Python package (read on demand through its dist-info folder).
  const dist = path.join(project, 'venv/lib/python3.11/site-packages/requests-2.31.0.dist-info');
  mkdirSync(dist, { recursive: true });
  writeFileSync(path.join(dist, 'METADATA'), 'Metadata-Version: 2.1\nName: requests\nVersion: 2.31.0\nLicense: Apache 2.0\n');
  writeFileSync(path.join(project, 'venv/lib/python3.11/site-packages/app.py'), 'print("hello")\n');
  // A jar in the tree: the platform unpacks it nested (lib/guava.jar!/...), so the writer must too.
  mkdirSync(path.join(project, 'lib'), { recursive: true });
  await zipOf(path.join(project, 'lib/guava.jar'), {
    'META-INF/MANIFEST.MF': 'Manifest-Version: 1.0\n',
    'META-INF/maven/com.google.guava/guava/pom.properties': 'groupId=com.google.guava\nartifactId=guava\nversion=29.0-jre\n',
    'META-INF/maven/com.google.guava/guava/pom.xml': '<project><modelVersion>4.0.0</modelVersion><groupId>com.google.guava</groupId><artifactId>guava</artifactId><version>29.0-jre</version><licenses><license><name>Apache-2.0</name></license></licenses></project>',
    'com/google/common/Base.class': Buffer.from([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 52]),
  });
  await zipOf(path.join(project, 'lib/vendored.zip'), { 'vendored/requirements.txt': 'django==3.2.0\n', 'vendored/app.py': 'import django\n' });
});

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

/** Advisories for half of the packages the tree has (exact versions), so both uploads have findings to compare. */
function knowledgeFor(components: Array<{ ecosystem: string; name: string; version: string }>): AnalysisKnowledge {
  const advisories: Advisory[] = components.filter((_, i) => i % 2 === 0).map((c, i) => ({
    id: `TEST-${i}`, aliases: [], summary: `flaw ${i}`, level: 2, score: 7.5, vector: null, exploit: 16, cwes: [], published: null, modified: null, withdrawn: false,
    affected: [{ ecosystem: c.ecosystem, distribution: null, name: normalizePackageName(c.ecosystem, c.name), ranges: [], versions: [c.version], vulnerable: [], patched: [], fixed: [] }],
  }));
  return { advisories: buildAdvisoryIndex(advisories), licenseLevels: new Map() };
}

describe('特征文件与上传源码树的分析结果一致', () => {
  it('components, roots, declared licences, project licence, files and vulnerabilities are the same', async () => {
    const treeZip = path.join(work, 'shop.zip');
    execFileSync('zip', ['-qr', treeZip, 'shop'], { cwd: work });
    const featureZip = path.join(work, 'shop.cairn-feature.zip');
    const written = await writeFeatureFile(project, featureZip, { tool: { name: 'Cairn', version: 'test' } });
    expect(await isFeatureFile(featureZip)).toBe(true);
    expect(await isFeatureFile(treeZip)).toBe(false);

    const run = async (file: string, known?: AnalysisKnowledge) => analyseProject(
      { file, fileName: path.basename(file), kind: 'feature', modes: [1, 4, 7], workParent: path.join(work, 'runs') },
      async () => known ?? { advisories: buildAdvisoryIndex([]), licenseLevels: new Map() },
    );
    const first = await run(treeZip);
    const knowledge = knowledgeFor(first.analysis.components.map((c) => ({ ecosystem: c.ecosystem, name: c.name, version: c.version })));
    const tree = await run(treeZip, knowledge);
    const feature = await run(featureZip, knowledge);

    const ecosystems = new Set(tree.analysis.components.map((c) => c.ecosystem));
    for (const e of ['npm', 'pypi', 'golang', 'cargo', 'composer', 'maven', 'nuget', 'conan']) expect(ecosystems).toContain(e);
    // The nested zip and the installed dist-info were read in both.
    expect(tree.analysis.components.map((c) => c.purl)).toEqual(expect.arrayContaining(['pkg:pypi/django@3.2.0', 'pkg:pypi/requests@2.31.0']));

    const componentKey = (c: (typeof tree.components)[number]) => JSON.stringify([c.purl, c.scope, c.direct, c.licenseExpression, [...c.dependsOn].sort(), c.locations.map((l) => l.file).sort()]);
    expect(feature.components.map(componentKey).sort()).toEqual(tree.components.map(componentKey).sort());
    expect(feature.analysis.components.length).toBeGreaterThan(50);
    expect([...feature.analysis.roots].sort()).toEqual([...tree.analysis.roots].sort());
    expect(feature.analysis.targets).toEqual(tree.analysis.targets);
    expect(feature.analysis.projectLicense).toEqual({ expression: 'MIT', source: 'manifest', file: 'shop/package.json' });
    expect(feature.analysis.projectLicense).toEqual(tree.analysis.projectLicense);
    expect(feature.analysis.projectRoot).toBe(tree.analysis.projectRoot);
    const vulns = (r: typeof tree) => r.components.flatMap((c) => c.findings.map((f) => `${c.purl} ${f.id} ${f.level}`)).sort();
    expect(vulns(tree).length).toBeGreaterThan(20);
    expect(vulns(feature)).toEqual(vulns(tree));
    expect(feature.components.map((c) => `${c.purl} ${c.risk}`).sort()).toEqual(tree.components.map((c) => `${c.purl} ${c.risk}`).sort());
    // Every file of the tree is listed with its size, though only the read ones were sent.
    const listing = (r: typeof tree) => r.analysis.files.map((f) => `${f.path} ${f.size}`).sort();
    expect(listing(feature)).toEqual(listing(tree));
    expect(feature.analysis.stats.files).toBe(tree.analysis.stats.files);
    expect(feature.analysis.stats.bytes).toBe(tree.analysis.stats.bytes);
    // Licence texts and copyright notices are found in the same files, the source files' headers
    // too (the writer ran the file analyses and sent what they found, not the files).
    const findings = (r: typeof tree) => r.analysis.findings.map((f) => JSON.stringify(f)).sort();
    expect(findings(feature)).toEqual(findings(tree));
    const header = feature.analysis.findings.find((f) => f.path === 'shop/src/index.ts')!;
    expect(header.licenses.map((l) => l.spdx)).toEqual(['MIT']);
    expect(header.copyrights.map((c) => c.holder)).toEqual(['Acme Shop Ltd.']);
    expect(feature.analysis.findings.filter((f) => /LICENSE|NOTICE/.test(f.path)).length).toBe(2);
    expect(feature.analysis.problems).toEqual(tree.analysis.problems);

    // The source never left: no source file's content is in the feature file, only its hash.
    const entries = await zipEntries(featureZip);
    expect([...entries.keys()].some((n) => /src\/index\.ts|app\.py|Base\.class$/.test(n))).toBe(false);
    // A Java archive is a package the jar extractor identifies from the archive itself (its
    // pom.properties, MANIFEST.MF, name): it goes as it is, like a lockfile; its classes never
    // go unpacked (Base.class above).
    expect([...entries.keys()].some((n) => /guava\.jar$/.test(n))).toBe(true);
    for (const body of entries.values()) expect(body.includes('trade secret')).toBe(false);
    const manifest = JSON.parse(entries.get('cairn-feature.json')!.toString('utf8')) as FeatureManifest;
    expect(manifest).toMatchObject({ format: 'cairn-feature', version: 1, kind: 'source', root: 'shop', tool: { name: 'Cairn', version: 'test' } });
    const index = manifest.files.find((f) => f.path === 'src/index.ts')!;
    expect(index).toMatchObject({ size: Buffer.byteLength(SOURCE), included: false });
    expect(index.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(manifest.files.find((f) => f.path === 'lib/vendored.zip!/vendored/requirements.txt')?.included).toBe(true);
    expect(manifest.files.find((f) => f.path === 'lib/guava.jar!/com/google/common/Base.class')?.included).toBe(false);
    expect(manifest.files.find((f) => f.path === 'npm/node_modules/jquery/package.json')).toMatchObject({ included: true, walked: false });
    expect(written.included).toBeLessThan(written.files);
  });
});

describe('有问题的特征文件被拒绝', () => {
  const good = async (extra: Partial<FeatureManifest> = {}, entries: Record<string, string> = { 'tree/package.json': '{"name":"x","version":"1.0.0"}' }) => {
    const files: Array<{ path: string; size: number; sha256: string; included: boolean }> = Object.entries(entries).filter(([n]) => n.startsWith('tree/')).map(([n, body]) => ({ path: n.slice(5), size: Buffer.byteLength(body), sha256: sha(body), included: true }));
    const manifest = { format: 'cairn-feature', version: 1, created: new Date().toISOString(), tool: { name: 'Cairn', version: 't' }, kind: 'source', root: 'p', files, dirs: [], problems: [], ...extra };
    return { manifest, entries };
  };
  let n = 0;
  const refused = async (manifest: unknown, entries: Record<string, string>, pattern: RegExp) => {
    const file = await zipOf(path.join(work, `bad-${n++}.zip`), manifest === undefined ? entries : { 'cairn-feature.json': JSON.stringify(manifest), ...entries });
    const dest = path.join(work, `bad-dest-${n}`);
    const error = await readFeatureFile(file, dest, { kind: 'source' }).then(() => null, (e: unknown) => e);
    expect(isUserError(error), String(error)).toBe(true);
    expect((error as Error).message).toMatch(pattern);
    expect(() => readFileSync(path.join(dest, 'p/package.json'))).toThrow();
  };

  it('reads a well-formed one', async () => {
    const { manifest, entries } = await good({ files: [] });
    manifest.files = [
      { path: 'package.json', size: 30, sha256: sha('{"name":"x","version":"1.0.0"}'), included: true },
      { path: 'src/a.js', size: 10, sha256: 'a'.repeat(64), included: false },
    ];
    Object.assign(manifest, { findings: [{ path: 'src/a.js', licenses: [{ spdx: 'MIT', score: 1, startLine: 1, endLine: 1, kind: 'tag' }], copyrights: [{ statement: 'Copyright 2020 X', holder: 'X', line: 2 }], authors: [] }] });
    const file = await zipOf(path.join(work, 'fine.zip'), { 'cairn-feature.json': JSON.stringify(manifest), ...entries });
    const dest = path.join(work, 'fine-dest');
    const tree = await readFeatureFile(file, dest, { kind: 'source' });
    expect(tree.files).toEqual([{ path: 'p/package.json', size: 30 }, { path: 'p/src/a.js', size: 10 }]);
    expect(readFileSync(path.join(dest, 'p/package.json'), 'utf8')).toContain('"x"');
    expect(tree.findingsFor([4])).toEqual([{ path: 'p/src/a.js', licenses: [expect.objectContaining({ spdx: 'MIT' })], copyrights: [], authors: [] }]);
    expect(tree.findingsFor([1])).toEqual([]);
  });

  it('path traversal in the listing', async () => {
    const { manifest, entries } = await good();
    manifest.files.push({ path: '../../etc/passwd', size: 1, sha256: 'b'.repeat(64), included: false });
    await refused(manifest, entries, /文件路径 .*不合法/);
    const abs = await good();
    abs.manifest.files.push({ path: '/etc/passwd', size: 1, sha256: 'b'.repeat(64), included: false });
    await refused(abs.manifest, abs.entries, /不合法/);
  });

  it('path traversal in the zip entries', async () => {
    const { manifest, entries } = await good();
    // yazl refuses to write `../`: the name is patched in after, same length, in both headers.
    const file = await zipOf(path.join(work, 'traversal.zip'), { 'cairn-feature.json': JSON.stringify(manifest), ...entries, 'zz/evil.txt': 'x' });
    const bytes = readFileSync(file);
    for (let at = bytes.indexOf('zz/evil.txt'); at >= 0; at = bytes.indexOf('zz/evil.txt', at + 1)) bytes.write('../evil.txt', at, 'latin1');
    writeFileSync(file, bytes);
    const error = await readFeatureFile(file, path.join(work, 'traversal-dest'), { kind: 'source' }).then(() => null, (e: unknown) => e);
    expect((error as Error).message).toMatch(/试图写到解压目录之外/);
    expect(() => readFileSync(path.join(work, 'evil.txt'))).toThrow();
  });

  it('a hash or size that does not match the manifest', async () => {
    const { manifest } = await good();
    await refused(manifest, { 'tree/package.json': '{"name":"y","version":"1.0.0"}' }, /SHA-256 不符/);
    await refused(manifest, { 'tree/package.json': '{"name":"yy","version":"1.0.0"}' }, /大小.*不符/);
  });

  it('files the manifest does not declare, or declares but are missing', async () => {
    const { manifest, entries } = await good();
    await refused(manifest, { ...entries, 'tree/src/secret.js': 'x' }, /未声明的文件 src\/secret\.js/);
    await refused(manifest, {}, /清单列出的文件 package\.json 不在特征文件中/);
    await refused(manifest, { ...entries, 'other.txt': 'x' }, /清单之外的条目 other\.txt/);
  });

  it('a missing manifest, a wrong format, a newer or invalid version, the wrong kind', async () => {
    const { manifest, entries } = await good();
    await refused(undefined, entries, /缺少清单 cairn-feature\.json/);
    await refused({ ...manifest, format: 'other' }, entries, /不是 Cairn 特征文件清单/);
    await refused({ ...manifest, version: 2 }, entries, /版本 2 高于本平台支持的版本 1/);
    await refused({ ...manifest, version: 'one' }, entries, /版本号/);
    await refused({ ...manifest, kind: 'image' }, entries, /镜像特征文件/);
    await refused({ ...manifest, root: '../x' }, entries, /根文件夹名/);
    const file = await zipOf(path.join(work, 'notjson.zip'), { 'cairn-feature.json': '{nope', ...entries });
    await expect(readFeatureFile(file, path.join(work, 'notjson-dest'), { kind: 'source' })).rejects.toThrow(/不是有效的 JSON/);
  });

  it('file findings for files that are not listed, or malformed', async () => {
    const { manifest, entries } = await good();
    await refused({ ...manifest, findings: [{ path: 'elsewhere.js', licenses: [], copyrights: [], authors: [] }] }, entries, /findings.*elsewhere\.js/);
    await refused({ ...manifest, findings: [{ path: 'package.json', licenses: [], copyrights: [], authors: [] }] }, entries, /findings.*package\.json/);
    manifest.files.push({ path: 'a.js', size: 3, sha256: 'd'.repeat(64), included: false });
    await refused({ ...manifest, findings: [{ path: 'a.js', licenses: [{ spdx: 'MIT', score: 7, startLine: 1, endLine: 1, kind: 'tag' }] }] }, entries, /许可证记录无效/);
  });

  it('a listing that is not one tree', async () => {
    const { manifest, entries } = await good();
    manifest.files.push({ path: 'package.json/x', size: 1, sha256: 'c'.repeat(64), included: false });
    await refused(manifest, entries, /同时被列为文件和文件夹/);
  });

  it('a platform analysis of a hostile feature file fails with the message', async () => {
    const { manifest } = await good();
    const file = await zipOf(path.join(work, 'hostile-upload.zip'), { 'cairn-feature.json': JSON.stringify(manifest), 'tree/package.json': '{"name":"y","version":"1.0.0"}' });
    const run = analyseProject({ file, fileName: 'x.zip', kind: 'feature', modes: [1], workParent: path.join(work, 'runs') }, async () => ({ advisories: buildAdvisoryIndex([]), licenseLevels: new Map() }));
    await expect(run).rejects.toThrow(/特征文件无效：文件 package\.json 的内容与清单中的 SHA-256 不符/);
  });
});
