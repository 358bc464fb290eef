// The desktop's 生成特征文件 (issue 16 item 5) against a real platform, on SQLite and PostgreSQL:
// main's upload service, asked to send a folder as its feature file, has the writer process
// (server/engine/feature/writer-process.ts, forked as the web host forks it) write it in main's
// private temp folder, reports what it included, and uploads it; launched as 特征文件 the upload
// gives the folder's components, vulnerabilities and project licence, while the source files'
// content never reaches the platform. Also: cancelling stops the writer and leaves nothing behind,
// and a file, or a host without a writer, is refused before anything starts. An image file and an
// OCI layout folder sent as their feature file (镜像特征文件, type 32) give the image's components,
// each with its layer, and the run's image record; a file that is not an image fails in Chinese.
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadProgress } from '../../../contract/ipc/desktop-contract.ts';
import { createApiClient, type ApiClient } from '../../../main/services/api-client.ts';
import { createFeatureWriter } from '../../../main/services/feature-writer.ts';
import { createNodeSpawner } from '../../../main/services/node-spawner.ts';
import { createUploads, type UploadsOptions, type UploadsService } from '../../../main/services/uploads.ts';
import { licenseText } from '../../../server/engine/index.ts';
import { findCompleteUpload } from '../../../server/uploads/store.ts';
import { databases, type TestClient, type TestServer } from '../server/harness.ts';
import { CORPORA, startSampleServer, waitForRun } from '../server/sample-app.ts';
import { repoRoot, tempDir } from './helpers.ts';
import { buildImage } from '../../support/image-feature.ts';
import { writeOciLayout } from '../../support/registry.ts';

const work = tempDir('cairn-feature-desk-');
afterAll(() => rmSync(work, { recursive: true, force: true }));

const folder = path.join(work, 'portal');
const SECRET = 'internal-only-algorithm-7f3a';

beforeAll(() => {
  for (const eco of ['gomod', 'pip']) cpSync(path.join(CORPORA, 'trivy/repo', eco), path.join(folder, eco), { recursive: true });
  writeFileSync(path.join(folder, 'LICENSE'), licenseText('Apache-2.0')!);
  mkdirSync(path.join(folder, 'cmd'), { recursive: true });
  writeFileSync(path.join(folder, 'cmd/main.go'), `// Copyright 2025 Portal Team\npackage main\n\nfunc main() { println("${SECRET}") }\n`);
});

const writer = createFeatureWriter(
  createNodeSpawner({ entry: path.join(repoRoot, 'server', 'engine', 'feature', 'writer-process.ts'), cwd: repoRoot }),
  { version: 'test' },
);

/** Every entry of a zip with its content. */
function zipContents(file: string): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const found = new Map<string, string>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (error, stream) => {
          if (error || !stream) return reject(error);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            found.set(entry.fileName, Buffer.concat(chunks).toString('utf8'));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(found));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

describe.each(databases)('生成特征文件 from the desktop on $name', (database) => {
  let server: TestServer;
  let admin: TestClient;
  let subjectId: number;
  let client: ApiClient;
  const services: UploadsService[] = [];
  const temp = path.join(work, `temp-${database.name}`);

  beforeAll(async () => {
    ({ server, admin, subjectId } = await startSampleServer(database, '桌面特征文件'));
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    client = createApiClient({ baseUrl: () => `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`, timeoutMs: 10_000 });
    const login = await client.call({ method: 'POST', path: '/api/login', body: { username: 'admin', password: 'Cairn@456x' } }, { expireSession: false });
    expect(login.code, login.message).toBe(1);
  }, 180_000);
  afterAll(async () => {
    for (const service of services) await service.dispose();
    await server?.close();
  });

  function uploads(extra: Partial<UploadsOptions> = {}) {
    const events: UploadProgress[] = [];
    const service = createUploads({ client: () => client, tempDir: temp, emit: (p) => events.push(p), progressIntervalMs: 0, writeFeature: writer, ...extra });
    services.push(service);
    return { service, events };
  }

  it('writes the folder’s feature file, says what it included, uploads it, and its analysis gives the components', { timeout: 180_000 }, async () => {
    const { service, events } = uploads();
    const started = await service.start(folder, { feature: true });
    expect(started).toMatchObject({ state: 'preparing', fileName: 'portal.cairn-feature.zip', feature: { included: null } });
    const done = await service.settled(started.localId);
    expect(done.error).toBeNull();
    expect(done).toMatchObject({ state: 'done', fileName: 'portal.cairn-feature.zip' });
    // What went in: go.mod, go.sum, requirements.txt and the LICENSE; cmd/main.go only hashed.
    const summary = done.feature!;
    expect(summary.files).toBe(readdirSync(folder, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length);
    expect(summary.included).toBeGreaterThanOrEqual(4);
    expect(summary.files - summary.included!).toBeGreaterThanOrEqual(1);
    expect(summary.problems).toBe(0);
    expect(events.filter((e) => e.state === 'preparing').every((e) => e.feature && e.feature.included === null)).toBe(true);

    // On the platform: the manifest and the included files, never the source's content.
    const stored = await findCompleteUpload(server.app.cairn.db, server.app.cairn.dataDir, done.uploadId!);
    const entries = await zipContents(stored!.path);
    expect(entries.has('cairn-feature.json')).toBe(true);
    expect([...entries.keys()]).toEqual(expect.arrayContaining(['tree/gomod/go.mod', 'tree/pip/requirements.txt', 'tree/LICENSE']));
    expect(entries.has('tree/cmd/main.go')).toBe(false);
    expect([...entries.values()].some((text) => text.includes(SECRET))).toBe(false);
    const manifest = JSON.parse(entries.get('cairn-feature.json')!) as { root: string; tool: { version: string }; files: Array<{ path: string; included: boolean }> };
    expect(manifest).toMatchObject({ root: 'portal', tool: { name: 'Cairn', version: 'test' } });
    expect(manifest.files.find((f) => f.path === 'cmd/main.go')).toMatchObject({ included: false });
    // The temp feature file is gone once uploaded.
    expect(readdirSync(path.join(temp, 'zip'))).toEqual([]);

    const launched = await admin.request({ method: 'POST', url: '/api/analysis', body: { subjectId, projectName: 'portal-feature', getCodeType: 9, uploadId: done.uploadId } });
    expect(launched.body.code, launched.body.message).toBe(1);
    const projectId = launched.body.data.projectId as number;
    expect((await waitForRun(admin, projectId)).status).toBe(2);
    const reply = await admin.request({ method: 'POST', url: `/api/component/list/${projectId}?size=500`, body: {} });
    expect(reply.body.code, reply.body.message).toBe(1);
    const rows = reply.body.data.content as Array<{ purl: string; vulCount: number }>;
    const purls = rows.map((r) => r.purl);
    // Components of both manifests, as the corpus's go.mod and requirements.txt declare them.
    const goMod = readFileSync(path.join(folder, 'gomod/go.mod'), 'utf8');
    const firstGoModule = /^\s+(\S+)\s+v\S+/m.exec(goMod)![1]!;
    expect(purls.some((p) => p.startsWith(`pkg:golang/${firstGoModule}@`))).toBe(true);
    expect(purls.some((p) => p.startsWith('pkg:pypi/'))).toBe(true);
    // The corpus's advisories match some of them, as for the folder itself.
    expect(rows.some((r) => r.vulCount > 0)).toBe(true);
  });

  it('cancels while the feature file is written: the writer stops and nothing is left or sent', { timeout: 60_000 }, async () => {
    // Enough files that the writer is still hashing when the cancel arrives.
    const big = path.join(work, `big-${database.name}`);
    mkdirSync(path.join(big, 'src'), { recursive: true });
    writeFileSync(path.join(big, 'package.json'), '{"name":"big","version":"1.0.0"}');
    for (let i = 0; i < 3000; i += 1) writeFileSync(path.join(big, 'src', `f${i}.js`), `module.exports = ${i};\n`.repeat(50));
    const { service, events } = uploads();
    const started = await service.start(big, { feature: true });
    const until = Date.now() + 30_000;
    while (!events.some((e) => (e.feature?.files ?? 0) > 0) && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    const cancelled = await service.cancel(started.localId);
    expect(cancelled).toMatchObject({ state: 'cancelled', uploadId: null });
    expect(readdirSync(path.join(temp, 'zip'))).toEqual([]);
  });

  it('refuses a file, and a host without a writer, before anything starts', async () => {
    const file = path.join(work, 'notes.txt');
    writeFileSync(file, 'hello');
    await expect(uploads().service.start(file, { feature: true })).rejects.toThrow('特征文件只能从文件夹生成：“notes.txt”不是文件夹');
    await expect(uploads({ writeFeature: undefined }).service.start(folder, { feature: true })).rejects.toThrow('当前环境无法生成特征文件');
  });

  it('writes an image file’s and an OCI folder’s feature file, uploads it, and type 32 gives the image’s components and layers', { timeout: 180_000 }, async () => {
    const { tarball, built } = await buildImage(path.join(work, `image-${database.name}`));
    const { service } = uploads();
    const started = await service.start(tarball, { feature: 'image' });
    expect(started).toMatchObject({ state: 'preparing', fileName: 'api-image.cairn-feature.zip', feature: { included: null } });
    const done = await service.settled(started.localId);
    expect(done.error).toBeNull();
    expect(done).toMatchObject({ state: 'done', fileName: 'api-image.cairn-feature.zip' });
    expect(done.feature!.included).toBeGreaterThan(3);
    // Neither the layers nor the image's unpacked root are left in main's temp folder.
    expect(readdirSync(path.join(temp, 'zip'))).toEqual([]);
    const stored = await findCompleteUpload(server.app.cairn.db, server.app.cairn.dataDir, done.uploadId!);
    const entries = await zipContents(stored!.path);
    expect(JSON.parse(entries.get('cairn-feature.json')!)).toMatchObject({ kind: 'image', tool: { version: 'test' } });
    expect([...entries.values()].some((text) => text.includes('image trade secret'))).toBe(false);

    const launched = await admin.request({ method: 'POST', url: '/api/analysis', body: { subjectId, projectName: 'image-feature', getCodeType: 32, uploadId: done.uploadId } });
    expect(launched.body.code, launched.body.message).toBe(1);
    const projectId = launched.body.data.projectId as number;
    expect((await waitForRun(admin, projectId)).status).toBe(2);
    const reply = await admin.request({ method: 'POST', url: `/api/component/list/${projectId}?size=500`, body: {} });
    const rows = reply.body.data.content as Array<{ name: string; layer: number | null }>;
    expect(rows.map((r) => `${r.name} ${r.layer}`).sort()).toEqual(['Django 1', 'base-files 0', 'curl 1', 'left-pad 2', 'npm 2', 'requests 1']);
    const view = await admin.request({ method: 'GET', url: `/api/project-task-view/${projectId}` });
    expect(view.body.data.run.image).toMatchObject({ reference: 'shop/api:1.4', manifestDigest: built.platforms['linux/amd64']!.manifest, platform: 'linux/amd64' });

    // The OCI layout folder gives a feature file of the same image.
    const fromFolder = await service.settled((await service.start(built.layoutDir, { feature: 'image' })).localId);
    expect(fromFolder).toMatchObject({ state: 'done', fileName: 'layout.cairn-feature.zip' });
    expect(fromFolder.feature!.files).toBe(done.feature!.files);
  });

  it('writes the feature file of the chosen platform of a multi-platform image; refuses a malformed platform', { timeout: 60_000 }, async () => {
    const layout = path.join(work, `multi-${database.name}`);
    await writeOciLayout(layout, 'shop/multi:1', [
      { architecture: 'amd64', layers: [{ 'app/node_modules/left-pad/package.json': JSON.stringify({ name: 'left-pad', version: '1.3.0' }) }] },
      { architecture: 'arm64', layers: [{ 'app/node_modules/is-odd/package.json': JSON.stringify({ name: 'is-odd', version: '3.0.1' }) }] },
    ]);
    const { service } = uploads();
    const done = await service.settled((await service.start(layout, { feature: 'image', platform: 'linux/arm64' })).localId);
    expect(done.error).toBeNull();
    const stored = await findCompleteUpload(server.app.cairn.db, server.app.cairn.dataDir, done.uploadId!);
    const manifest = JSON.parse((await zipContents(stored!.path)).get('cairn-feature.json')!) as { image: { platform: { architecture: string } }; files: Array<{ path: string }> };
    expect(manifest.image.platform.architecture).toBe('arm64');
    expect(manifest.files.map((f) => f.path)).toEqual(['app/node_modules/is-odd/package.json']);
    await expect(service.start(layout, { feature: 'image', platform: 'arm64 please' })).rejects.toThrow(/平台/);
  });

  it('reports why the image writer failed: not an image', { timeout: 30_000 }, async () => {
    const file = path.join(work, `not-an-image-${database.name}.tar`);
    writeFileSync(file, 'not a tar at all');
    const { service } = uploads();
    const failed = await service.settled((await service.start(file, { feature: 'image' })).localId);
    expect(failed).toMatchObject({ state: 'failed', uploadId: null });
    expect(failed.error).toContain(`not-an-image-${database.name}.tar 不是容器镜像`);
  });

  it('reports why the writer failed: an empty folder', { timeout: 30_000 }, async () => {
    const empty = path.join(work, `empty-${database.name}`);
    mkdirSync(empty, { recursive: true });
    const { service } = uploads();
    const failed = await service.settled((await service.start(empty, { feature: true })).localId);
    expect(failed).toMatchObject({ state: 'failed', uploadId: null });
    expect(failed.error).toContain(`文件夹“empty-${database.name}”中没有文件`);
  });
});
