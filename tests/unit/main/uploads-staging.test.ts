// The web host's path for browser files: a page streams a File to /__desktop/files (behind the
// launch cookie), the host stages it, and uploads:start and review:open accept only staged paths. Also the
// uploads IPC channels through the dispatcher: pick has no dialog in the web host, unknown ids.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDispatcher } from '../../../main/ipc/dispatcher.ts';
import { createHandlers } from '../../../main/ipc/handlers.ts';
import { createAppServices, uploadTempDir, type AppServices } from '../../../main/services/app-services.ts';
import { createMemoryStore } from '../../support/memory-store.ts';
import { createVault } from '../../../main/services/vault.ts';
import { LAUNCH_COOKIE, STAGE_PATH, startWebHost, type WebHost } from '../../../main/web-host/host.ts';
import { safeSegments } from '../../../main/web-host/staging.ts';
import { fakePlatform, memoryKeyring } from './fakes.ts';

function request(port: number, options: { method?: string; path: string; headers?: Record<string, string>; body?: string | Buffer }): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: options.method ?? 'GET', path: options.path, headers: { Host: `127.0.0.1:${port}`, ...options.headers }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch { /* a text answer */ }
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('web host staging for uploads', () => {
  let dir: string;
  let stageDir: string;
  let host: WebHost;
  let services: AppServices;
  let cookie: string;
  const token = 'launch-token-for-upload-tests';

  const stage = (batch: string, rel: string, body: string | Buffer, withCookie = true) =>
    request(host.port, {
      method: 'POST',
      path: `${STAGE_PATH}?batch=${batch}&path=${encodeURIComponent(rel)}`,
      headers: { 'Content-Type': 'application/octet-stream', Origin: host.origin, ...(withCookie ? { Cookie: cookie } : {}) },
      body,
    });
  const invoke = (channel: string, payload: unknown) =>
    request(host.port, { method: 'POST', path: `/__desktop/invoke/${channel}`, headers: { 'Content-Type': 'application/json', Cookie: cookie, Origin: host.origin }, body: JSON.stringify(payload) });

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'cairn-stage-'));
    stageDir = path.join(uploadTempDir(dir), 'web');
    writeFileSync(path.join(dir, 'desktop.js'), 'window.desktop={}');
    services = createAppServices({ shell: 'web', version: '0.1.0', dataDir: dir, store: createMemoryStore(), vault: createVault({ backend: memoryKeyring() }), platform: fakePlatform('http://127.0.0.1:9'), uploadRoots: [stageDir] });
    host = await startWebHost({
      dispatcher: createDispatcher(createHandlers(services), { checkResponses: true }),
      onEvent: (listener) => services.onEvent(listener),
      rendererDir: path.join(dir, 'renderer'),
      desktopScript: path.join(dir, 'desktop.js'),
      launchToken: token,
      stageDir,
    });
    const login = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http.get({ host: '127.0.0.1', port: host.port, path: `/?launch=${token}`, headers: { Host: `127.0.0.1:${host.port}` }, agent: false }, resolve).on('error', reject);
    });
    cookie = String(login.headers['set-cookie']![0]!.split(';')[0]);
    expect(cookie.startsWith(`${LAUNCH_COOKIE}=`)).toBe(true);
  });
  afterAll(async () => {
    await host.close();
    services.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stages a file and a folder, answering the path to upload', async () => {
    const batch = randomUUID();
    const single = await stage(batch, 'report.xlsx', 'excel bytes');
    expect(single).toMatchObject({ status: 200, body: { ok: true, value: { path: path.join(stageDir, batch, 'report.xlsx') } } });
    expect(readFileSync(single.body.value.path, 'utf8')).toBe('excel bytes');

    const folderBatch = randomUUID();
    await stage(folderBatch, 'app/go.mod', 'module x');
    const nested = await stage(folderBatch, 'app/cmd/main.go', 'package main');
    expect(nested.body.value.path).toBe(path.join(stageDir, folderBatch, 'app'));
    expect(readFileSync(path.join(stageDir, folderBatch, 'app', 'cmd', 'main.go'), 'utf8')).toBe('package main');
    // The same name twice in one batch is refused rather than overwritten.
    expect((await stage(folderBatch, 'app/go.mod', 'again')).body).toMatchObject({ ok: false, error: { message: '同名文件已暂存' } });
  });

  it('refuses escapes, bad batches and pages without the launch cookie', async () => {
    for (const rel of ['../x', 'a/../../x', '/etc/passwd', 'a\\b', 'a//b', '.', '']) {
      expect(safeSegments(rel)).toBeNull();
      expect((await stage(randomUUID(), rel, 'x')).body).toMatchObject({ ok: false });
    }
    expect(safeSegments('dir/sub/file.txt')).toEqual(['dir', 'sub', 'file.txt']);
    expect((await stage('not-a-uuid', 'a.zip', 'x')).body).toMatchObject({ ok: false, error: { message: '暂存批次标识无效' } });
    const anonymous = await stage(randomUUID(), 'a.zip', 'x', false);
    expect(anonymous.status).toBe(403);
  });

  it('starts uploads only from staged paths; pick has no native dialog here', async () => {
    const outside = await invoke('uploads:start', { path: path.join(dir, 'desktop.js') });
    expect(outside.body).toMatchObject({ ok: false, error: { code: 'forbidden-path', message: '只能上传本次运行中通过选择或拖放提供的文件，请重新选择' } });
    const pick = await invoke('uploads:pick', { extensions: ['.zip'] });
    expect(pick.body).toMatchObject({ ok: false, error: { code: 'no-native-dialog' } });
    const unknown = await invoke('uploads:cancel', { localId: 'nope' });
    expect(unknown.body).toMatchObject({ ok: false, error: { code: 'not-found', message: '找不到该上传任务' } });
    expect((await invoke('uploads:list', {})).body).toEqual({ ok: true, value: [] });
    const badExt = await invoke('uploads:pick', { extensions: ['zip; rm -rf'] });
    expect(badExt.body).toMatchObject({ ok: false, error: { code: 'invalid-payload' } });

    // A staged file starts (the platform behind is unreachable here: it ends failed, with a message).
    const staged = await stage(randomUUID(), 'sbom.json', '{"bomFormat":"CycloneDX"}');
    const started = await invoke('uploads:start', { path: staged.body.value.path });
    expect(started.body).toMatchObject({ ok: true, value: { fileName: 'sbom.json', state: 'preparing' } });
    const settled = await services.uploads.settled(started.body.value.localId);
    expect(settled.state).toBe('failed');
    expect(settled.error).toBeTruthy();
  });

  it('refuses a staged file named .zip that is not one before any upload, and drops the staged copy', async () => {
    const staged = (await stage(randomUUID(), 'app.zip', 'not a zip at all, just text\n')).body.value.path as string;
    const started = await invoke('uploads:start', { path: staged });
    expect(started.body).toEqual({ ok: false, error: { code: 'bad-archive', message: '文件“app.zip”不是可读取的压缩包（内容不是 zip、tar、gzip、bzip2、xz 或 7z 格式），未上传' } });
    expect(existsSync(staged)).toBe(false);
    expect(services.uploads.list().some((u) => u.fileName === 'app.zip')).toBe(false);
  });

  it('sends a folder as its feature file only where a writer exists, and only a folder: refusals drop the staged copy', async () => {
    // This host has no feature writer (the web host's cli.ts gives it one).
    const folder = (await stage(randomUUID(), 'shop/package.json', '{"name":"shop","version":"1.0.0"}')).body.value.path as string;
    expect((await invoke('uploads:start', { path: folder, feature: true })).body).toEqual({ ok: false, error: { code: 'unsupported', message: '当前环境无法生成特征文件' } });
    expect(existsSync(folder)).toBe(false);
    const file = (await stage(randomUUID(), 'go.mod', 'module example.com/x\n')).body.value.path as string;
    expect((await invoke('uploads:start', { path: file, feature: 'yes' })).body).toMatchObject({ ok: false, error: { code: 'invalid-payload' } });
    expect((await invoke('uploads:start', { path: file, feature: true })).body).toMatchObject({ ok: false, error: { code: 'unsupported' } });
    expect(existsSync(file)).toBe(false);
    expect(services.uploads.list().some((u) => u.fileName.startsWith('shop') || u.fileName === 'go.mod')).toBe(false);
  });

  it('refuses a path that was not staged through the host, even inside the staging folder', async () => {
    // Put there behind the host's back (or a staged path guessed): never handed over by a page.
    const planted = path.join(stageDir, randomUUID(), 'bom.json');
    mkdirSync(path.dirname(planted), { recursive: true });
    writeFileSync(planted, JSON.stringify({ bomFormat: 'CycloneDX', specVersion: '1.6', components: [] }));
    expect((await invoke('uploads:start', { path: planted })).body).toEqual({ ok: false, error: { code: 'forbidden-path', message: '只能上传本次运行中通过选择或拖放提供的文件，请重新选择' } });
    expect((await invoke('review:open', { path: planted })).body).toEqual({ ok: false, error: { code: 'forbidden-path', message: '只能查看本次运行中通过选择或拖放提供的文件，请重新选择' } });
    expect((await invoke('review:open', { path: path.join(dir, 'desktop.js') })).body).toMatchObject({ ok: false, error: { code: 'forbidden-path' } });
    // A staged folder is chosen as a whole (uploads:start takes the folder); no call needs a path inside it.
    const folderBatch = randomUUID();
    const folder = (await stage(folderBatch, 'svc/bom.json', JSON.stringify({ bomFormat: 'CycloneDX', specVersion: '1.6', components: [] }))).body.value.path as string;
    expect((await invoke('review:open', { path: path.join(folder, 'bom.json') })).body).toMatchObject({ ok: false, error: { code: 'forbidden-path' } });
    // The same file staged by the page opens (and the staged copy goes once read).
    const staged = (await stage(randomUUID(), 'bom.json', JSON.stringify({ bomFormat: 'CycloneDX', specVersion: '1.6', components: [] }))).body.value.path as string;
    expect((await invoke('review:open', { path: staged })).body).toMatchObject({ ok: true, value: { kind: 'sbom', fileName: 'bom.json' } });
    expect(existsSync(staged)).toBe(false);
    expect(existsSync(planted)).toBe(true);
  });
});
