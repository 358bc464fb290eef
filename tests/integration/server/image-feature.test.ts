// Image feature files through the platform (issue 16 item 5 for images), on both databases: the
// same image uploaded as an image tar (本地镜像文件, type 12) and as the feature file `cairn feature`
// writes of it (镜像特征文件, type 32), with the corpus's PyPI advisories loaded, gives the same
// components (name, version, purl, layer), the same vulnerability findings, the same licences, the
// same run image record (overview, 镜像层) and the same layer filter; at launch a type-9 project
// refuses an image feature file, type 32 refuses a source feature file, a plain image tar (saying to
// use 本地镜像文件) and a feature file naming a layer its image does not have, and type 12 refuses an
// image feature file, all in Chinese.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import yauzl from 'yauzl';
import yazl from 'yazl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFeatureFile, writeImageFeatureFile, type FeatureManifest } from '../../../server/engine/index.ts';
import { buildImage } from '../../support/image-feature.ts';
import type { BuiltImage } from '../../support/registry.ts';
import { databases, type TestClient, type TestServer } from './harness.ts';
import { startSampleServer, uploadFile, waitForRun } from './sample-app.ts';

const work = mkdtempSync(path.join(tmpdir(), 'cairn-image-feature-api-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let tarball: string;
let built: BuiltImage;
const featureZip = path.join(work, 'api-image.cairn-feature.zip');
const sourceFeature = path.join(work, 'src.cairn-feature.zip');
const badLayer = path.join(work, 'bad-layer.cairn-feature.zip');

/** The feature file with one file's layer changed to a digest the image does not have. */
async function withForeignLayer(from: string, to: string): Promise<void> {
  const zip = await yauzl.openPromise(from, { lazyEntries: true });
  const out = new yazl.ZipFile();
  for await (const entry of zip.eachEntry()) {
    const chunks: Buffer[] = [];
    for await (const c of await zip.openReadStreamPromise(entry)) chunks.push(c as Buffer);
    let body = Buffer.concat(chunks);
    if (entry.fileName === 'cairn-feature.json') {
      const manifest = JSON.parse(body.toString('utf8')) as FeatureManifest;
      manifest.files.find((f) => f.path === 'app/server.js')!.layer = `sha256:${'0'.repeat(64)}`;
      body = Buffer.from(JSON.stringify(manifest));
    }
    out.addBuffer(body, entry.fileName);
  }
  zip.close();
  out.end();
  const chunks: Buffer[] = [];
  for await (const c of out.outputStream) chunks.push(c as Buffer);
  writeFileSync(to, Buffer.concat(chunks));
}

beforeAll(async () => {
  ({ tarball, built } = await buildImage(work));
  await writeImageFeatureFile(tarball, featureZip, { tool: { name: 'Cairn', version: 'test' } });
  const src = path.join(work, 'src');
  mkdirSync(src);
  writeFileSync(path.join(src, 'requirements.txt'), 'django==3.2.0\n');
  await writeFeatureFile(src, sourceFeature);
  await withForeignLayer(featureZip, badLayer);
}, 60_000);

describe.each(databases)('镜像特征文件与上传镜像分析结果一致 on $name', (database) => {
  let server: TestServer;
  let admin: TestClient;
  let subjectId: number;

  beforeAll(async () => {
    ({ server, admin, subjectId } = await startSampleServer(database, '镜像特征文件对照'));
  }, 180_000);
  afterAll(async () => { await server?.close(); });

  const launch = async (file: string, projectName: string, getCodeType: number) => {
    const uploadId = await uploadFile(admin, file);
    return admin.request({ method: 'POST', url: '/api/analysis', body: { subjectId, projectName, getCodeType, uploadId } });
  };
  const analysed = async (file: string, projectName: string, getCodeType: number) => {
    const launched = await launch(file, projectName, getCodeType);
    expect(launched.body.code, launched.body.message).toBe(1);
    const projectId = launched.body.data.projectId as number;
    const run = await waitForRun(admin, projectId);
    expect(run.status, run.message).toBe(2);
    return projectId;
  };

  it('gives the same components with their layers, vulnerabilities, licences and image record', async () => {
    const image = await analysed(tarball, 'api-image', 12);
    const feature = await analysed(featureZip, 'api-image-feature', 32);

    type Row = Record<string, unknown> & { name: string; layer: number | null };
    const components = async (projectId: number, body: object = {}) => {
      const reply = await admin.request({ method: 'POST', url: `/api/component/list/${projectId}?size=200`, body });
      expect(reply.body.code, reply.body.message).toBe(1);
      return (reply.body.data.content as Row[])
        .map((r) => JSON.stringify([r.name, r.version, r.purl, r.layer, r.ecosystem, r.licenseExpression, r.licenseLevel, r.riskLevel, r.vulCount]))
        .sort();
    };
    const imageComponents = await components(image);
    expect(imageComponents.map((r) => JSON.parse(r) as unknown[]).map((r) => `${r[0]} ${r[3]}`).sort())
      .toEqual(['Django 1', 'base-files 0', 'curl 1', 'left-pad 2', 'npm 2', 'requests 1']);
    expect(await components(feature)).toEqual(imageComponents);
    // The 镜像层 filter.
    expect(await components(feature, { layers: [1] })).toEqual(await components(image, { layers: [1] }));
    expect((await components(feature, { layers: [1] })).length).toBe(3);

    const findings = async (projectId: number) => {
      const reply = await admin.request({ method: 'GET', url: `/api/vulnerability/list/statistic/${projectId}?size=500` });
      expect(reply.body.code, reply.body.message).toBe(1);
      const rows = reply.body.data.content as Array<{ identify: string; componentName: string; level: number; score: number | null; fixedVersions: string[] }>;
      return { counts: reply.body.data.counts as unknown, rows: rows.map((f) => JSON.stringify([f.identify, f.componentName, f.level, f.score, f.fixedVersions])).sort() };
    };
    const imageFindings = await findings(image);
    expect(imageFindings.rows.length).toBeGreaterThan(5);
    expect(await findings(feature)).toEqual(imageFindings);

    const licences = async (projectId: number) => {
      const reply = await admin.request({ method: 'GET', url: `/api/license/list/${projectId}?size=500` });
      expect(reply.body.code, reply.body.message).toBe(1);
      return (reply.body.data.content as Array<{ spdxId: string; level: number; componentCount: number; fileCount: number }>).map((l) => JSON.stringify([l.spdxId, l.level, l.componentCount, l.fileCount])).sort();
    };
    expect(await licences(feature)).toEqual(await licences(image));

    const runImage = async (projectId: number) => {
      const view = await admin.request({ method: 'GET', url: `/api/project-task-view/${projectId}` });
      expect(view.body.code, view.body.message).toBe(1);
      return view.body.data.run.image as Record<string, unknown>;
    };
    const record = await runImage(image);
    expect(record).toMatchObject({
      reference: 'shop/api:1.4', manifestDigest: built.platforms['linux/amd64']!.manifest, platform: 'linux/amd64',
      os: { id: 'debian', versionId: '12', prettyName: 'Debian GNU/Linux 12 (bookworm)' },
    });
    expect(await runImage(feature)).toEqual(record);
  }, 240_000);

  it('refuses at launch what the other source type takes, in Chinese', async () => {
    const refused = async (file: string, getCodeType: number, name: string) => {
      const launched = await launch(file, name, getCodeType);
      expect(launched.body).toMatchObject({ code: 0, field: 'uploadId' });
      return launched.body.message as string;
    };
    expect(await refused(featureZip, 9, 'as-source-feature')).toBe('上传的文件 api-image.cairn-feature.zip 是容器镜像的特征文件：请将代码来源选为“镜像特征文件”');
    expect(await refused(featureZip, 0, 'as-source')).toBe('上传的文件 api-image.cairn-feature.zip 是容器镜像的特征文件：请将代码来源选为“镜像特征文件”');
    expect(await refused(featureZip, 12, 'as-image')).toBe('上传的文件 api-image.cairn-feature.zip 是容器镜像的特征文件：请将代码来源选为“镜像特征文件”');
    expect(await refused(sourceFeature, 32, 'source-as-image-feature')).toBe('上传的文件 src.cairn-feature.zip 是 Cairn 特征文件（cairn feature 生成）：请将代码来源选为“特征文件（清单与锁文件）”后发起分析');
    expect(await refused(tarball, 32, 'tar-as-image-feature')).toMatch(/^上传的文件 api-image\.tar 是容器镜像本身，不是镜像特征文件：请将代码来源选为“本地镜像文件”上传镜像/);
    expect(await refused(badLayer, 32, 'bad-layer')).toMatch(/特征文件无效：镜像信息（image）中没有文件 "app\/server\.js" 所属的镜像层/);
  }, 60_000);
});
