// Pulling images from registries, against the real thing on loopback: Debian's docker-registry with
// htpasswd basic auth over HTTP, and with token auth over TLS with a throwaway CA; images built
// here as OCI layouts and pushed with skopeo. Bad answers (500, timeouts, wrong digests, oversized
// blobs, schema 1, redirects) come from small loopback servers written here.
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { checkRegistryAccess, pullImage, RegistryError, type PullOptions } from '../../../server/engine/index.ts';
import { makeTestCa, registryToolsMissing, startHttpProxy, startRegistry, writeOciLayout, type BuiltImage, type TestRegistry } from '../../support/registry.ts';

const PASSWORD = 'Sup3r-Secret-pa55';
const USERS = { alice: PASSWORD };
const missing = registryToolsMissing();
// CI installs them (.ci/run): there a missing tool is a failure, not a skipped suite.
if (missing && process.env.CI) throw new Error(missing);

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'cairn-pull-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

let n = 0;
const dest = () => join(work, `out-${++n}`, 'layout');

/** The layout's blobs (file name → verifies against its own digest), its index.json. */
function readLayout(dir: string) {
  expect(JSON.parse(readFileSync(join(dir, 'oci-layout'), 'utf8'))).toEqual({ imageLayoutVersion: '1.0.0' });
  const index = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')) as { manifests: { mediaType: string; digest: string; size: number; platform: Record<string, string>; annotations: Record<string, string> }[] };
  const blobs = readdirSync(join(dir, 'blobs', 'sha256')).sort();
  for (const hex of blobs) expect(createHash('sha256').update(readFileSync(join(dir, 'blobs', 'sha256', hex))).digest('hex')).toBe(hex);
  return { index, blobs: blobs.map((b) => `sha256:${b}`) };
}

/** Nothing but `keep` (if any) in the folder the layout was to go into: no temp folder left. */
function expectNothingLeft(layoutDir: string) {
  const parent = join(layoutDir, '..');
  expect(existsSync(layoutDir)).toBe(false);
  expect(existsSync(parent) ? readdirSync(parent) : []).toEqual([]);
}

async function failure(promise: Promise<unknown>): Promise<RegistryError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(RegistryError);
    return error as RegistryError;
  }
  throw new Error('expected the pull to fail');
}

function expectNoSecret(error: Error) {
  for (const text of [error.message, error.stack ?? '', JSON.stringify(error)]) {
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain(Buffer.from(`alice:${PASSWORD}`).toString('base64'));
  }
}

const twoPlatforms = (layout: string) => writeOciLayout(layout, 'v1', [
  { architecture: 'amd64', layers: [{ 'etc/': '', 'etc/os-release': 'ID=test\n' }, { 'usr/': '', 'usr/bin/': '', 'usr/bin/app': 'amd64 app' }] },
  { architecture: 'arm64', variant: 'v8', layers: [{ 'etc/': '', 'etc/os-release': 'ID=test\n' }, { 'usr/bin/app': 'arm64 app' }] },
]);

describe.skipIf(missing)('a registry with htpasswd basic auth over plain HTTP', () => {
  let registry: TestRegistry;
  let multi: BuiltImage;
  let single: BuiltImage;
  const auth = { username: 'alice', password: PASSWORD };
  const opts: PullOptions = { auth, insecureHttp: true };

  beforeAll(async () => {
    registry = await startRegistry({ auth: 'htpasswd', users: USERS });
    multi = await twoPlatforms(join(work, 'src-multi'));
    await registry.push(multi.layoutDir, 'v1', 'team/app', 'v1', { all: true });
    single = await writeOciLayout(join(work, 'src-single'), '1.0', [{ architecture: 'amd64', layers: [{ 'a.txt': 'one' }, { 'b.txt': 'two' }, { 'a.txt': 'three' }] }]);
    await registry.push(single.layoutDir, '1.0', 'team/single', '1.0', { format: 'v2s2' });
  });
  afterAll(async () => registry?.stop());

  it('pulls by tag and by digest into the same layout, holding exactly the chosen platform', async () => {
    const progress: { layer: number; layers: number; bytes: number; total: number }[] = [];
    const byTag = await pullImage(`${registry.host}/team/app:v1`, dest(), { ...opts, onProgress: (p) => progress.push(p) });
    const amd64 = multi.platforms['linux/amd64']!;
    expect(byTag).toMatchObject({ manifestDigest: multi.index, imageManifestDigest: amd64.manifest, configDigest: amd64.config, platform: 'linux/amd64', platforms: ['linux/amd64', 'linux/arm64'] });
    expect(byTag.layers.map((l) => l.digest)).toEqual(amd64.layers);
    const a = readLayout(byTag.layoutDir);
    expect(a.blobs).toEqual([amd64.manifest, amd64.config, ...amd64.layers].sort());
    expect(a.index.manifests).toHaveLength(1);
    expect(a.index.manifests[0]).toMatchObject({ mediaType: 'application/vnd.oci.image.manifest.v1+json', digest: amd64.manifest, platform: { os: 'linux', architecture: 'amd64' } });
    expect(a.index.manifests[0]!.annotations['org.opencontainers.image.ref.name']).toBe('v1');
    const total = byTag.layers.reduce((s, l) => s + l.size, 0);
    expect(progress.at(-1)).toEqual({ layer: expect.any(Number), layers: 2, bytes: total, total });

    const byDigest = await pullImage(`${registry.host}/team/app@${multi.index}`, dest(), opts);
    expect(byDigest).toMatchObject({ manifestDigest: multi.index, imageManifestDigest: amd64.manifest, platform: 'linux/amd64' });
    const b = readLayout(byDigest.layoutDir);
    expect(b.blobs).toEqual(a.blobs);
    expect(b.index.manifests[0]!.digest).toBe(a.index.manifests[0]!.digest);

    // the platform's own manifest digest works too
    const direct = await pullImage(`${registry.host}/team/app@${amd64.manifest}`, dest(), opts);
    expect(readLayout(direct.layoutDir).blobs).toEqual(a.blobs);
  });

  it('picks the requested platform and names the available ones when it is missing', async () => {
    const arm = await pullImage(`${registry.host}/team/app:v1`, dest(), { ...opts, platform: 'linux/arm64/v8' });
    const want = multi.platforms['linux/arm64/v8']!;
    expect(arm.platform).toBe('linux/arm64');
    expect(readLayout(arm.layoutDir).blobs).toEqual([want.manifest, want.config, ...want.layers].sort());

    const target = dest();
    const error = await failure(pullImage(`${registry.host}/team/app:v1`, target, { ...opts, platform: 'linux/s390x' }));
    expect(error.code).toBe('platform');
    expect(error.message).toBe(`镜像 ${registry.host}/team/app:v1 没有 linux/s390x 平台，可选平台：linux/amd64、linux/arm64`);
    expectNothingLeft(target);
  });

  it('pulls a Docker schema 2 image, keeping its manifest bytes and media type', async () => {
    const pulled = await pullImage(`${registry.host}/team/single:1.0`, dest(), opts);
    expect(pulled.platforms).toEqual(['linux/amd64']);
    expect(pulled.layers.map((l) => l.mediaType)).toEqual(Array(3).fill('application/vnd.docker.image.rootfs.diff.tar.gzip'));
    const { index, blobs } = readLayout(pulled.layoutDir);
    expect(index.manifests[0]!.mediaType).toBe('application/vnd.docker.distribution.manifest.v2+json');
    expect(blobs).toHaveLength(5); // manifest, config, three layers
    expect(blobs).toContain(pulled.manifestDigest);
    // skopeo converted the manifest, not the layers
    expect(pulled.layers.map((l) => l.digest)).toEqual(single.platforms['linux/amd64']!.layers);

    const error = await failure(pullImage(`${registry.host}/team/single:1.0`, dest(), { ...opts, platform: 'linux/arm64' }));
    expect(error.message).toBe(`镜像 ${registry.host}/team/single:1.0 只有 linux/amd64 平台，没有 linux/arm64`);
  });

  it('checks access without downloading layers', async () => {
    expect(await checkRegistryAccess(`${registry.host}/team/app:v1`, opts)).toEqual({ manifestDigest: multi.index, platforms: ['linux/amd64', 'linux/arm64'] });
    expect((await checkRegistryAccess(`${registry.host}/team/single:1.0`, opts)).platforms).toEqual(['linux/amd64']);
    expect(await checkRegistryAccess(`${registry.host}/team/app:v1`, { ...opts, platform: 'linux/arm64' })).toEqual({ manifestDigest: multi.index, platforms: ['linux/amd64', 'linux/arm64'] });
    const error = await failure(checkRegistryAccess(`${registry.host}/team/app:v1`, { ...opts, platform: 'windows/amd64' }));
    expect(error.code).toBe('platform');
  });

  it('refuses a wrong password (认证失败) and no credentials, never showing the password', async () => {
    const target = dest();
    const wrong = await failure(pullImage(`${registry.host}/team/app:v1`, target, { insecureHttp: true, auth: { username: 'alice', password: `${PASSWORD}-wrong` } }));
    expect(wrong.code).toBe('auth');
    expect(wrong.message).toBe(`认证失败：仓库 ${registry.host} 拒绝了用户“alice”的登录（HTTP 401），请检查用户名和密码`);
    expect(wrong.message).not.toContain(`${PASSWORD}-wrong`);
    expectNoSecret(wrong);
    expectNothingLeft(target);

    const none = await failure(checkRegistryAccess(`${registry.host}/team/app:v1`, { insecureHttp: true }));
    expect(none.message).toBe(`认证失败：仓库 ${registry.host} 要求登录（HTTP 401），请填写用户名和密码`);
  });

  it('answers 404 as 镜像不存在', async () => {
    const missingTag = await failure(pullImage(`${registry.host}/team/app:nope`, dest(), opts));
    expect(missingTag.code).toBe('not-found');
    expect(missingTag.message).toBe(`镜像不存在：${registry.host}/team/app:nope（仓库返回 HTTP 404）`);
    const missingRepo = await failure(checkRegistryAccess(`${registry.host}/team/none:v1`, opts));
    expect(missingRepo.code).toBe('not-found');
  });

  it('does not speak plain HTTP unless switched on', async () => {
    const target = dest();
    const error = await failure(pullImage(`${registry.host}/team/app:v1`, target, { auth }));
    expect(error.code).toBe('tls');
    expect(error.message).toContain('对方似乎只提供 HTTP');
    expect(error.message).toContain('允许不安全的 HTTP');
    expectNothingLeft(target);
  });

  it('refuses an image over the size limit before downloading, leaving nothing behind', async () => {
    const target = dest();
    const error = await failure(pullImage(`${registry.host}/team/app:v1`, target, { ...opts, limits: { maxTotalBytes: 100 } }));
    expect(error.code).toBe('limits');
    expect(error.message).toMatch(/^镜像 .*team\/app:v1 的大小 \d+ B 超过 100 B 上限，已拒绝$/);
    expectNothingLeft(target);
  });

  it('honours abort, leaving nothing behind', async () => {
    const target = dest();
    const controller = new AbortController();
    const reason = new Error('stopped by the user');
    await expect(pullImage(`${registry.host}/team/app:v1`, target, { ...opts, signal: controller.signal, onProgress: () => controller.abort(reason) })).rejects.toBe(reason);
    expectNothingLeft(target);
  });
});

describe.skipIf(missing)('a registry with token auth over TLS with a private CA', () => {
  let registry: TestRegistry;
  let image: BuiltImage;
  const auth = { username: 'alice', password: PASSWORD };

  beforeAll(async () => {
    registry = await startRegistry({ auth: 'token', tls: true, users: USERS, publicRepos: ['pub/app'] });
    image = await twoPlatforms(join(work, 'src-token'));
    await registry.push(image.layoutDir, 'v1', 'team/app', 'v1', { all: true });
    await registry.push(image.layoutDir, 'v1', 'pub/app', 'latest', { all: true });
  });
  afterAll(async () => registry?.stop());

  it('pulls with a bearer token got with the credentials, reused for the manifests and blobs', async () => {
    const opts = { auth, caPem: registry.tls!.caPem };
    const before = registry.token!.requests.length;
    const byTag = await pullImage(`${registry.host}/team/app:v1`, dest(), opts);
    const seen = registry.token!.requests.slice(before);
    expect(seen).toEqual([{ scope: ['repository:team/app:pull'], account: 'alice', authorized: true }]);
    const byDigest = await pullImage(`${registry.host}/team/app@${byTag.manifestDigest}`, dest(), { ...opts, platform: 'linux/amd64' });
    expect(readLayout(byDigest.layoutDir).blobs).toEqual(readLayout(byTag.layoutDir).blobs);
    expect(byTag.manifestDigest).toBe(image.index);
  });

  it('pulls a public repository anonymously and refuses a private one without credentials', async () => {
    const pub = await pullImage(`${registry.host}/pub/app`, dest(), { caPem: registry.tls!.caPem, platform: 'linux/arm64' });
    expect(pub.imageManifestDigest).toBe(image.platforms['linux/arm64/v8']!.manifest);
    const error = await failure(pullImage(`${registry.host}/team/app:v1`, dest(), { caPem: registry.tls!.caPem }));
    expect(error.code).toBe('auth');
    expect(error.message).toContain('要求登录（HTTP 401）');
  });

  it('refuses a wrong password at the token service, never showing it', async () => {
    const error = await failure(checkRegistryAccess(`${registry.host}/team/app:v1`, { caPem: registry.tls!.caPem, auth: { username: 'alice', password: `${PASSWORD}x` } }));
    expect(error.code).toBe('auth');
    expect(error.message).toContain('认证失败');
    expect(error.message).not.toContain(`${PASSWORD}x`);
    expectNoSecret(error);
  });

  it('goes through an HTTP proxy (CONNECT) when given one, and names a proxy that refuses', async () => {
    const proxy = await startHttpProxy();
    const refusing = await startHttpProxy({ refuse: true });
    try {
      const pulled = await pullImage(`${registry.host}/team/app:v1`, dest(), { auth, caPem: registry.tls!.caPem, proxy: proxy.url });
      expect(pulled.imageManifestDigest).toBe(image.platforms['linux/amd64']!.manifest);
      const tokenHost = new URL(registry.token!.realm).host;
      expect(new Set(proxy.connects)).toEqual(new Set([registry.host, tokenHost]));
      const error = await failure(checkRegistryAccess(`${registry.host}/team/app:v1`, { auth, caPem: registry.tls!.caPem, proxy: refusing.url.replace('http://', `http://bob:${PASSWORD}@`) }));
      expect(error.code).toBe('network');
      expect(error.message).toBe(`无法通过代理连接 ${registry.host}（代理返回 HTTP/1.1 403 Forbidden）`);
      expectNoSecret(error);
    } finally {
      await proxy.stop();
      await refusing.stop();
    }
  });

  it('refuses the certificate without the CA, and plain HTTP to a TLS registry', async () => {
    const target = dest();
    const untrusted = await failure(pullImage(`${registry.host}/team/app:v1`, target, { auth }));
    expect(untrusted.code).toBe('tls');
    expect(untrusted.message).toContain(`无法与 ${registry.host} 建立安全连接`);
    expect(untrusted.message).toContain('CA 证书');
    expectNothingLeft(target);
    const plain = await failure(checkRegistryAccess(`${registry.host}/team/app:v1`, { auth, insecureHttp: true }));
    expect(plain.message).toContain('该仓库可能只提供 HTTPS');
    const bad = await failure(checkRegistryAccess(`${registry.host}/team/app:v1`, { auth, caPem: 'not a certificate' }));
    expect(bad.message).toContain('CA 证书无效');
  });
});

// ---------------------------------------------------------------------------------------------
// A registry written here, for answers the real one never gives.

interface Fake {
  host: string;
  hits: { method: string; url: string; authorization: string | undefined; range: string | undefined }[];
  stop: () => Promise<void>;
}

async function serve(handler: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<Fake> {
  const hits: Fake['hits'] = [];
  const server = http.createServer((req, res) => {
    hits.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization, range: req.headers.range });
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    host: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    stop: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** Serves a built layout as registry `team/app` (manifests by tag `v1` and by digest, blobs), unless `override` answered. */
function registryOf(image: BuiltImage, override: (req: http.IncomingMessage, res: http.ServerResponse, parts: { kind: string; ref: string }) => boolean = () => false) {
  const blob = (digest: string) => readFileSync(join(image.layoutDir, 'blobs', 'sha256', digest.slice(7)));
  return (req: http.IncomingMessage, res: http.ServerResponse) => {
    const m = /^\/v2\/team\/app\/(manifests|blobs)\/(.+)$/.exec(req.url ?? '');
    if (!m) return void res.writeHead(404).end();
    const parts = { kind: m[1]!, ref: m[2]! };
    if (override(req, res, parts)) return;
    const digest = parts.ref === 'v1' ? (image.index ?? Object.values(image.platforms)[0]!.manifest) : parts.ref;
    if (!existsSync(join(image.layoutDir, 'blobs', 'sha256', digest.slice(7)))) return void res.writeHead(404).end();
    const body = blob(digest);
    const type = parts.kind === 'blobs' ? 'application/octet-stream' : (JSON.parse(body.toString()) as { mediaType: string }).mediaType;
    res.writeHead(200, { 'Content-Type': type, 'Content-Length': body.length, 'Docker-Content-Digest': digest }).end(body);
  };
}

describe('bad answers from a registry', () => {
  let image: BuiltImage;
  const opts: PullOptions = { insecureHttp: true, timeoutMs: 2000 };
  const layer = () => Object.values(image.platforms)[0]!.layers[0]!;

  beforeAll(async () => {
    image = await writeOciLayout(join(work, 'src-fake'), 'v1', [{ architecture: 'amd64', layers: [{ 'x/': '', 'x/one': 'a'.repeat(5000) }, { 'x/two': 'b' }] }]);
  });

  it('names the registry status for 5xx, after bounded retries, and redacts an echoed password', async () => {
    const fake = await serve((req, res) => {
      res.writeHead(500, { 'Content-Type': 'application/json' }).end(JSON.stringify({ errors: [{ code: 'UNKNOWN', message: `storage failed for ${req.headers.authorization} ${PASSWORD}` }] }));
    });
    try {
      const target = dest();
      const error = await failure(pullImage(`${fake.host}/team/app:v1`, target, { ...opts, auth: { username: 'alice', password: PASSWORD } }));
      expect(error.code).toBe('server');
      expect(error.message).toMatch(new RegExp(`^${fake.host} 在获取镜像清单时返回 HTTP 500 Internal Server Error：UNKNOWN storage failed for`));
      expectNoSecret(error);
      expect(fake.hits).toHaveLength(3);
      expectNothingLeft(target);
    } finally {
      await fake.stop();
    }
  });

  it('retries a transient 503 and succeeds', async () => {
    let failed = 0;
    const fake = await serve(registryOf(image, (_req, res, { kind }) => {
      if (kind === 'blobs' && failed < 2) {
        failed++;
        res.writeHead(503, { 'Retry-After': '0' }).end();
        return true;
      }
      return false;
    }));
    try {
      const pulled = await pullImage(`${fake.host}/team/app:v1`, dest(), opts);
      expect(readLayout(pulled.layoutDir).blobs).toHaveLength(4);
      expect(failed).toBe(2);
    } finally {
      await fake.stop();
    }
  });

  it.each([true, false])('resumes a layer cut off part-way (Range honoured: %s)', async (honoursRange) => {
    let cut = false;
    const fake = await serve(registryOf(image, (req, res, { kind, ref }) => {
      if (kind !== 'blobs' || ref !== layer()) return false;
      const body = readFileSync(join(image.layoutDir, 'blobs', 'sha256', ref.slice(7)));
      if (!cut) {
        cut = true;
        res.writeHead(200, { 'Content-Length': body.length });
        res.write(body.subarray(0, 40), () => setTimeout(() => res.socket?.destroy(), 20));
        return true;
      }
      const from = Number(/^bytes=(\d+)-$/.exec(req.headers.range ?? '')?.[1] ?? 0);
      if (honoursRange && from > 0) {
        res.writeHead(206, { 'Content-Length': body.length - from, 'Content-Range': `bytes ${from}-${body.length - 1}/${body.length}` }).end(body.subarray(from));
      } else res.writeHead(200, { 'Content-Length': body.length }).end(body);
      return true;
    }));
    try {
      const pulled = await pullImage(`${fake.host}/team/app:v1`, dest(), opts);
      expect(readLayout(pulled.layoutDir).blobs).toHaveLength(4);
      const layerHits = fake.hits.filter((h) => h.url.endsWith(layer()));
      expect(layerHits.map((h) => h.range)).toEqual([undefined, 'bytes=40-']);
    } finally {
      await fake.stop();
    }
  });

  it('sends plain HTTP through a proxy as absolute-form requests', async () => {
    const fake = await serve(registryOf(image));
    const proxy = await startHttpProxy();
    try {
      const pulled = await pullImage(`${fake.host}/team/app:v1`, dest(), { ...opts, proxy: proxy.url });
      expect(readLayout(pulled.layoutDir).blobs).toHaveLength(4);
      expect(proxy.requests[0]).toBe(`http://${fake.host}/v2/team/app/manifests/v1`);
      expect(proxy.requests).toHaveLength(fake.hits.length);
    } finally {
      await proxy.stop();
      await fake.stop();
    }
  });

  it('times out a registry that never answers (连接超时)', async () => {
    const fake = await serve(() => undefined);
    try {
      const target = dest();
      const error = await failure(pullImage(`${fake.host}/team/app:v1`, target, { ...opts, timeoutMs: 300 }));
      expect(error.code).toBe('timeout');
      expect(error.message).toBe(`连接超时：${fake.host} 在 0.3 秒内没有响应`);
      expectNothingLeft(target);
    } finally {
      await fake.stop();
    }
  });

  it('refuses a manifest whose digest does not match the one asked for', async () => {
    const asked = `sha256:${'0'.repeat(64)}`;
    const fake = await serve(registryOf(image, (_req, res, { kind, ref }) => {
      if (kind !== 'manifests' || ref !== asked) return false;
      const body = readFileSync(join(image.layoutDir, 'blobs', 'sha256', image.platforms['linux/amd64']!.manifest.slice(7)));
      res.writeHead(200, { 'Content-Type': 'application/vnd.oci.image.manifest.v1+json' }).end(body);
      return true;
    }));
    try {
      const error = await failure(pullImage(`${fake.host}/team/app@${asked}`, dest(), opts));
      expect(error.code).toBe('digest');
      expect(error.message).toBe(`镜像清单摘要不符：请求的是 ${asked}，收到的内容摘要为 ${image.platforms['linux/amd64']!.manifest}`);
    } finally {
      await fake.stop();
    }
  });

  it('refuses a corrupt layer naming it, and leaves nothing half-written', async () => {
    const fake = await serve(registryOf(image, (_req, res, { kind, ref }) => {
      if (kind !== 'blobs' || ref !== layer()) return false;
      const body = Buffer.from(readFileSync(join(image.layoutDir, 'blobs', 'sha256', ref.slice(7))));
      body[body.length - 5] ^= 0xff;
      res.writeHead(200, { 'Content-Length': body.length }).end(body);
      return true;
    }));
    try {
      const target = dest();
      const error = await failure(pullImage(`${fake.host}/team/app:v1`, target, opts));
      expect(error.code).toBe('digest');
      expect(error.message).toMatch(new RegExp(`^第 1 层校验失败：下载内容的摘要为 sha256:[0-9a-f]{64}，与清单中的 ${layer()} 不符$`));
      expectNothingLeft(target);
    } finally {
      await fake.stop();
    }
  });

  it('stops a blob that runs past its declared size mid-stream', async () => {
    let sent = 0;
    const fake = await serve(registryOf(image, (_req, res, { kind, ref }) => {
      if (kind !== 'blobs' || ref !== layer()) return false;
      res.writeHead(200); // chunked, no length: the size is only known by counting
      const chunk = Buffer.alloc(64 * 1024, 1);
      const pump = () => {
        while (sent < 64 * 1024 * 1024 && res.write(chunk)) sent += chunk.length;
        if (sent < 64 * 1024 * 1024 && !res.destroyed) res.once('drain', pump);
        else res.end();
      };
      res.on('close', () => res.removeAllListeners('drain'));
      pump();
      return true;
    }));
    try {
      const target = dest();
      const error = await failure(pullImage(`${fake.host}/team/app:v1`, target, opts));
      expect(error.code).toBe('limits');
      expect(error.message).toMatch(/^第 1 层（sha256:[0-9a-f]{64}）的数据超过清单声明的 \d+ B，已停止下载$/);
      expect(sent).toBeLessThan(64 * 1024 * 1024);
      expectNothingLeft(target);
    } finally {
      await fake.stop();
    }
  });

  it('refuses a manifest with more layers than any image has, before downloading', async () => {
    const layers = Array.from({ length: 1001 }, (_, i) => ({ mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', digest: `sha256:${i.toString(16).padStart(64, '0')}`, size: 10 }));
    const fake = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/vnd.oci.image.manifest.v1+json' }).end(JSON.stringify({
        schemaVersion: 2, mediaType: 'application/vnd.oci.image.manifest.v1+json', config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest: `sha256:${'f'.repeat(64)}`, size: 10 }, layers,
      }));
    });
    try {
      const target = dest();
      const error = await failure(pullImage(`${fake.host}/team/app:v1`, target, opts));
      expect(error.message).toBe(`镜像 ${fake.host}/team/app:v1 有 1001 层，超过 1000 层上限，已拒绝`);
      expect(fake.hits).toHaveLength(1);
      expectNothingLeft(target);
    } finally {
      await fake.stop();
    }
  });

  it('fetches a fresh token when the registry stops accepting the old one (expired), reusing it otherwise', async () => {
    let issued = 0;
    let valid = '';
    let served = 0;
    const inner = registryOf(image);
    const fake = await serve((req, res) => {
      if (req.url?.startsWith('/token')) {
        valid = `tok-${++issued}-${'x'.repeat(20)}`;
        return void res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ access_token: valid, expires_in: 300 }));
      }
      if (req.headers.authorization !== `Bearer ${valid}`) {
        return void res.writeHead(401, { 'WWW-Authenticate': `Bearer realm="http://${req.headers.host}/token",service="fake",scope="repository:team/app:pull"` }).end();
      }
      if (++served === 2) valid = 'expired'; // the second authorised request uses up the token
      inner(req, res);
    });
    try {
      const pulled = await pullImage(`${fake.host}/team/app:v1`, dest(), opts);
      expect(readLayout(pulled.layoutDir).blobs).toHaveLength(4);
      expect(issued).toBe(2);
      const tokens = fake.hits.filter((h) => h.url.startsWith('/token'));
      expect(tokens.map((h) => new URL(h.url, 'http://x').searchParams.getAll('scope'))).toEqual([['repository:team/app:pull'], ['repository:team/app:pull']]);
    } finally {
      await fake.stop();
    }
  });

  it('refuses schema 1 manifests and unknown media types clearly', async () => {
    const fake = await serve((req, res) => {
      if (req.url?.includes('/old/')) {
        res.writeHead(200, { 'Content-Type': 'application/vnd.docker.distribution.manifest.v1+prettyjws' }).end(JSON.stringify({ schemaVersion: 1, name: 'old', tag: 'v1', fsLayers: [] }));
      } else {
        res.writeHead(200, { 'Content-Type': 'application/vnd.example.thing+json' }).end(JSON.stringify({ schemaVersion: 2, mediaType: 'application/vnd.example.thing+json' }));
      }
    });
    try {
      const old = await failure(checkRegistryAccess(`${fake.host}/team/old:v1`, opts));
      expect(old.code).toBe('media-type');
      expect(old.message).toContain('v2 schema 1，不受支持');
      const odd = await failure(pullImage(`${fake.host}/team/odd:v1`, dest(), opts));
      expect(odd.message).toBe('不支持的清单类型 application/vnd.example.thing+json：这不是容器镜像');
    } finally {
      await fake.stop();
    }
  });

  it('follows a redirect to blob storage without the Authorization header', async () => {
    const storage = await serve((req, res) => {
      const digest = (req.url ?? '').slice(1);
      const body = readFileSync(join(image.layoutDir, 'blobs', 'sha256', digest.slice(7)));
      res.writeHead(200, { 'Content-Length': body.length }).end(body);
    });
    const basic = `Basic ${Buffer.from(`alice:${PASSWORD}`).toString('base64')}`;
    const fake = await serve((req, res) => {
      if (req.headers.authorization !== basic) return void res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="fake"' }).end();
      registryOf(image, (_r, out, { kind, ref }) => {
        if (kind !== 'blobs') return false;
        out.writeHead(307, { Location: `http://localhost:${storage.host.split(':')[1]}/${ref}` }).end();
        return true;
      })(req, res);
    });
    try {
      const pulled = await pullImage(`${fake.host}/team/app:v1`, dest(), { ...opts, auth: { username: 'alice', password: PASSWORD } });
      expect(readLayout(pulled.layoutDir).blobs).toHaveLength(4);
      expect(storage.hits).toHaveLength(3); // config and two layers
      expect(storage.hits.every((h) => h.authorization === undefined)).toBe(true);
      expect(fake.hits.filter((h) => h.authorization === basic).length).toBeGreaterThanOrEqual(4);
    } finally {
      await fake.stop();
      await storage.stop();
    }
  });

  it.skipIf(missing)('refuses a redirect from HTTPS down to plain HTTP', async () => {
    const ca = await makeTestCa(join(work, 'downgrade-ca'));
    const storage = await serve((_req, res) => void res.writeHead(200).end('never fetched'));
    const handler = registryOf(image, (_req, res, { kind, ref }) => {
      if (kind !== 'blobs') return false;
      res.writeHead(302, { Location: `http://${storage.host}/${ref}` }).end();
      return true;
    });
    const server = https.createServer({ cert: readFileSync(ca.certFile), key: readFileSync(ca.keyFile) }, handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const target = dest();
      const error = await failure(pullImage(`${host}/team/app:v1`, target, { caPem: ca.caPem }));
      expect(error.code).toBe('tls');
      expect(error.message).toBe(`${host} 把下载重定向到不安全的 HTTP 地址（${storage.host}），已拒绝`);
      expect(storage.hits).toEqual([]);
      expectNothingLeft(target);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await storage.stop();
    }
  });

  it('names a registry refusing the connection', async () => {
    const closed = await serve(() => undefined);
    await closed.stop();
    const error = await failure(checkRegistryAccess(`${closed.host}/team/app:v1`, opts));
    expect(error.code).toBe('network');
    expect(error.message).toBe(`无法连接 ${closed.host}：连接被拒绝（仓库未运行或端口不对）`);
  });
});
