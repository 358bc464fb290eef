// Image feature files (server/engine/feature/image.ts): a container image built here (a dpkg
// database rewritten by later layers, one package purged; a Python dist-info, an npm app with its
// node_modules and a global npm package, each in its own layer; a licence file, a source header)
// analysed from its image tar (source type 12) and from its feature file (type 32) gives the same
// components with the same layer each, the same vulnerabilities, declared licences, file listing,
// licence and copyright findings, and the same run image record; the feature file holds no source
// and no layer blob. Hostile image blocks are refused in Chinese.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import yauzl from 'yauzl';
import yazl from 'yazl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  analyseProject, buildAdvisoryIndex, isFeatureFile, normalizePackageName, readFeatureFile, writeImageFeatureFile,
  type Advisory, type AnalysisKnowledge, type FeatureManifest,
} from '../../../server/engine/index.ts';
import { isUserError } from '../../../server/errors.ts';
import { buildImage } from '../../support/image-feature.ts';
import { writeOciLayout, type BuiltImage } from '../../support/registry.ts';

const work = mkdtempSync(path.join(tmpdir(), 'cairn-image-feature-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

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

async function zipOf(file: string, entries: Map<string, Buffer> | Record<string, string | Buffer>): Promise<string> {
  const zip = new yazl.ZipFile();
  for (const [name, body] of entries instanceof Map ? entries : Object.entries(entries)) zip.addBuffer(Buffer.isBuffer(body) ? body : Buffer.from(body), name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  writeFileSync(file, Buffer.concat(chunks));
  return file;
}

/** Advisories for every component (exact versions), so both analyses have findings to compare. */
function knowledgeFor(components: Array<{ ecosystem: string; name: string; version: string }>): AnalysisKnowledge {
  const advisories: Advisory[] = components.map((c, i) => ({
    id: `TEST-${i}`, aliases: [], summary: `flaw ${i}`, level: 2, score: 7.5, vector: null, exploit: 16, cwes: [], published: null, modified: null, withdrawn: false,
    affected: [{ ecosystem: c.ecosystem, distribution: null, name: normalizePackageName(c.ecosystem, c.name), ranges: [], versions: [c.version], vulnerable: [], patched: [], fixed: [] }],
  }));
  return { advisories: buildAdvisoryIndex(advisories), licenseLevels: new Map() };
}

let tarball: string;
let built: BuiltImage;
let featureZip: string;
beforeAll(async () => {
  ({ tarball, built } = await buildImage(work));
  featureZip = path.join(work, 'api-image.cairn-feature.zip');
  await writeImageFeatureFile(tarball, featureZip, { tool: { name: 'Cairn', version: 'test' } });
}, 60_000);

describe('镜像特征文件与上传镜像的分析结果一致', () => {
  it('components with their layers, vulnerabilities, licences, files, findings and the image record are the same', async () => {
    expect(await isFeatureFile(featureZip)).toBe(true);
    let n = 0;
    const run = (file: string, known?: AnalysisKnowledge) => analyseProject(
      { file, fileName: path.basename(file), kind: 'image', modes: [1, 4, 7], workParent: path.join(work, `runs-${n++}`) },
      async () => known ?? { advisories: buildAdvisoryIndex([]), licenseLevels: new Map() },
    );
    const first = await run(tarball);
    const knowledge = knowledgeFor(first.analysis.components);
    const image = await run(tarball, knowledge);
    const feature = await run(featureZip, knowledge);

    const layers = Object.fromEntries(image.analysis.components.map((c) => [c.name, c.layer]));
    expect(layers).toEqual({ 'base-files': 0, curl: 1, requests: 1, Django: 1, 'left-pad': 2, npm: 2 });
    const key = (c: (typeof image.analysis.components)[number]) => JSON.stringify([c.name, c.version, c.purl, c.layer ?? null, c.licenseExpression, c.locations.map((l) => l.file).sort()]);
    expect(feature.analysis.components.map(key).sort()).toEqual(image.analysis.components.map(key).sort());
    expect(feature.analysis.image).toEqual(image.analysis.image);
    expect(feature.analysis.image).toMatchObject({
      reference: 'shop/api:1.4', manifestDigest: built.platforms['linux/amd64']!.manifest, platform: 'linux/amd64',
      os: { id: 'debian', versionId: '12', prettyName: 'Debian GNU/Linux 12 (bookworm)' },
    });
    expect(feature.analysis.image!.layers.map((l) => [l.digest, l.components])).toEqual(built.platforms['linux/amd64']!.layers.map((d, i) => [d, [1, 3, 2][i]]));

    const vulns = (r: typeof image) => r.components.flatMap((c) => c.findings.map((f) => `${c.purl} ${f.id} ${f.level}`)).sort();
    expect(vulns(image).length).toBeGreaterThanOrEqual(3);
    expect(vulns(feature)).toEqual(vulns(image));
    expect(feature.components.map((c) => `${c.purl} ${c.risk}`).sort()).toEqual(image.components.map((c) => `${c.purl} ${c.risk}`).sort());
    expect([...feature.analysis.roots].sort()).toEqual([...image.analysis.roots].sort());
    expect(feature.analysis.targets).toEqual(image.analysis.targets);
    expect(feature.analysis.projectLicense).toEqual(image.analysis.projectLicense);
    const listing = (r: typeof image) => r.analysis.files.map((f) => `${f.path} ${f.size}`).sort();
    expect(listing(feature)).toEqual(listing(image));
    expect(listing(feature)).not.toContain('etc/motd 8');
    expect(feature.analysis.stats.files).toBe(image.analysis.stats.files);
    expect(feature.analysis.stats.bytes).toBe(image.analysis.stats.bytes);
    const findings = (r: typeof image) => r.analysis.findings.map((f) => JSON.stringify(f)).sort();
    expect(findings(feature)).toEqual(findings(image));
    expect(feature.analysis.findings.find((f) => f.path === 'app/server.js')?.copyrights.map((c) => c.holder)).toEqual(['Acme Images Ltd.']);
    expect(feature.analysis.problems).toEqual(image.analysis.problems);

    // What went: no source file, no layer blob; every file listed with its layer; the versions of the dpkg database.
    const entries = await zipEntries(featureZip);
    for (const body of entries.values()) expect(body.includes('image trade secret')).toBe(false);
    expect([...entries.keys()].filter((n) => n.startsWith('versions/')).sort()).toEqual(['versions/0/var/lib/dpkg/status', 'versions/1/var/lib/dpkg/status', 'versions/2/var/lib/dpkg/status']);
    const manifest = JSON.parse(entries.get('cairn-feature.json')!.toString('utf8')) as FeatureManifest;
    expect(manifest).toMatchObject({ version: 1, kind: 'image', root: '' });
    const digests = built.platforms['linux/amd64']!.layers;
    expect(manifest.files.find((f) => f.path === 'app/server.js')).toMatchObject({ included: false, layer: digests[2] });
    expect(manifest.files.find((f) => f.path === 'var/lib/dpkg/status')).toMatchObject({ included: true, layer: digests[2] });
    expect(manifest.files.find((f) => f.path === 'etc/os-release')).toMatchObject({ included: true, layer: digests[0] });
    expect(manifest.image).toMatchObject({ reference: null, repoTags: ['shop/api:1.4'], platform: { os: 'linux', architecture: 'amd64' }, os: { id: 'debian' } });
    expect(manifest.image!.history).toHaveLength(3);
    expect(JSON.stringify(manifest.image)).not.toContain('PATH=');
  });
});

describe('软件包数据库被删除后又重建', () => {
  it('the removal travels in the feature file: packages count from the layer that wrote the database again', async () => {
    const dir = path.join(work, 'removed');
    const pkg = (name: string) => `Package: ${name}\nStatus: install ok installed\nArchitecture: amd64\nVersion: 1.0\n`;
    const layout = path.join(dir, 'layout');
    await writeOciLayout(layout, 'shop/removed:1', [{ architecture: 'amd64', layers: [
      { 'etc/os-release': 'ID=debian\nVERSION_ID="12"\nPRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\n', 'var/lib/dpkg/status': pkg('alpha') },
      { 'var/lib/dpkg/.wh.status': '' },
      { 'var/lib/dpkg/status': [pkg('alpha'), pkg('beta')].join('\n') },
    ] }]);
    const zip = path.join(dir, 'removed.cairn-feature.zip');
    await writeImageFeatureFile(layout, zip);
    const manifest = JSON.parse((await zipEntries(zip)).get('cairn-feature.json')!.toString('utf8')) as FeatureManifest;
    expect(manifest.image!.versions.map((v) => [v.path, v.layer, v.removed ?? false])).toEqual([
      ['var/lib/dpkg/status', 0, false], ['var/lib/dpkg/status', 1, true], ['var/lib/dpkg/status', 2, false],
    ]);
    const run = (file: string, name: string) => analyseProject(
      { file, fileName: path.basename(file), kind: 'image', modes: [1], workParent: path.join(dir, name) },
      async () => ({ advisories: buildAdvisoryIndex([]), licenseLevels: new Map() }),
    );
    const layers = (r: Awaited<ReturnType<typeof run>>) => Object.fromEntries(r.analysis.components.map((c) => [c.name, c.layer]));
    const fromImage = await run(layout, 'image');
    expect(layers(fromImage)).toEqual({ alpha: 2, beta: 2 });
    expect(layers(await run(zip, 'feature'))).toEqual(layers(fromImage));
  }, 60_000);
});

describe('有问题的镜像特征文件被拒绝', () => {
  let entries: Map<string, Buffer>;
  beforeAll(async () => { entries = await zipEntries(featureZip); });
  let n = 0;
  const tampered = async (edit: (m: FeatureManifest, e: Map<string, Buffer>) => void) => {
    const copy = new Map(entries);
    const manifest = JSON.parse(copy.get('cairn-feature.json')!.toString('utf8')) as FeatureManifest;
    edit(manifest, copy);
    copy.set('cairn-feature.json', Buffer.from(JSON.stringify(manifest)));
    return zipOf(path.join(work, `bad-${n++}.zip`), copy);
  };
  const refusal = async (file: string, kind?: 'image' | 'source') => {
    const error = await readFeatureFile(file, path.join(work, `dest-${n++}`), kind ? { kind } : {}).then(() => null, (e: unknown) => e);
    expect(isUserError(error), String(error)).toBe(true);
    return (error as Error).message;
  };

  it('a layer digest in a file entry that is not in the image block', async () => {
    const file = await tampered((m) => { m.files.find((f) => f.path === 'app/server.js')!.layer = `sha256:${'e'.repeat(64)}`; });
    expect(await refusal(file)).toMatch(/镜像信息（image）中没有文件 "app\/server.js" 所属的镜像层/);
  });

  it('a malformed or missing image block', async () => {
    expect(await refusal(await tampered((m) => { delete m.image; }))).toMatch(/镜像信息（image）缺失或格式错误/);
    expect(await refusal(await tampered((m) => { (m.image as unknown as Record<string, unknown>).layers = 'many'; }))).toMatch(/镜像层列表（layers）无效/);
    expect(await refusal(await tampered((m) => { m.image!.layers[1]!.index = 5; }))).toMatch(/第 2 层的序号无效/);
    expect(await refusal(await tampered((m) => { m.image!.manifestDigest = 'latest'; }))).toMatch(/镜像摘要（manifestDigest）"latest" 无效/);
    expect(await refusal(await tampered((m) => { m.image!.versions[0]!.path = 'etc/passwd'; }))).toMatch(/版本记录（versions）须属于清单中包含内容的文件/);
    expect(await refusal(await tampered((m) => { m.image!.versions[1]!.layer = 0; }))).toMatch(/版本所属层无效/);
  });

  it('a version whose content differs, one undeclared, one missing', async () => {
    expect(await refusal(await tampered((_, e) => { e.set('versions/0/var/lib/dpkg/status', Buffer.from('Package: evil\n')); }))).toMatch(/文件版本 versions\/0\/var\/lib\/dpkg\/status 的内容与镜像信息中的大小或 SHA-256 不符/);
    expect(await refusal(await tampered((_, e) => { e.set('versions/1/etc/shadow', Buffer.from('x')); }))).toMatch(/未声明的文件版本 versions\/1\/etc\/shadow/);
    expect(await refusal(await tampered((_, e) => { e.delete('versions/1/var/lib/dpkg/status'); }))).toMatch(/文件版本 versions\/1\/var\/lib\/dpkg\/status 不在特征文件中/);
  });

  it('a source feature file may not carry an image or layers; each kind refuses the other', async () => {
    expect(await refusal(await tampered((m) => { m.kind = 'source'; }))).toMatch(/根文件夹名|源码特征文件不应包含镜像信息|包含清单之外的条目/);
    expect(await refusal(await tampered((m) => { m.kind = 'source'; delete m.image; for (const f of m.files) delete f.layer; }))).toMatch(/包含清单之外的条目 versions/);
    expect(await refusal(featureZip, 'source')).toContain('这是容器镜像的特征文件：请以代码来源“镜像特征文件”上传');
  });

  it('reads the untampered one, its versions beside the tree', async () => {
    const dest = path.join(work, 'fine');
    const tree = await readFeatureFile(featureZip, dest, { kind: 'image' });
    expect(tree.versionsRoot).toBe(`${dest}.versions`);
    expect(readFileSync(path.join(`${dest}.versions`, '0/var/lib/dpkg/status'), 'utf8')).toContain('less');
    expect(createHash('sha256').update(readFileSync(path.join(dest, 'var/lib/dpkg/status'))).digest('hex')).toBe(tree.manifest.files.find((f) => f.path === 'var/lib/dpkg/status')!.sha256);
  });
});
