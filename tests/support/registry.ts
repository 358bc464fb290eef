// A real container registry on loopback for the tests: Debian's docker-registry (the CNCF
// distribution registry) with htpasswd basic auth, or token auth against a token server written
// here (RS256 JWTs per the distribution token spec, signed by a throwaway key whose self-signed
// certificate is the registry's rootcertbundle), optionally over TLS with a throwaway CA; images
// built in code as OCI layouts and pushed with Debian's skopeo. Everything lives in one temp
// folder per registry and is removed by stop().
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash, createPrivateKey, createSign, X509Certificate } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';

import tar from 'tar-stream';

import { hasCommand } from './commands.ts';

const run = promisify(execFile);

/** Why the registry tests cannot run here, or null when docker-registry, skopeo, htpasswd and openssl are installed. */
export function registryToolsMissing(): string | null {
  const missing = ['docker-registry', 'skopeo', 'htpasswd', 'openssl'].filter((tool) => !hasCommand('sh', '-c', `command -v ${tool}`));
  return missing.length ? `未安装 ${missing.join('、')}（Debian: apt-get install docker-registry skopeo apache2-utils openssl）` : null;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Certificates (openssl CLI)

export interface TestCa {
  /** The CA certificate (PEM): what a client trusts. */
  caPem: string;
  /** A server certificate for 127.0.0.1 and localhost signed by the CA, and its key (files). */
  certFile: string;
  keyFile: string;
  caFile: string;
}

/** A throwaway CA and a server certificate for 127.0.0.1/localhost, under `dir`. */
export async function makeTestCa(dir: string): Promise<TestCa> {
  mkdirSync(dir, { recursive: true });
  const f = (name: string) => join(dir, name);
  await run('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', f('ca.key'), '-out', f('ca.crt'), '-days', '2', '-subj', '/CN=Cairn Test CA',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign']);
  await run('openssl', ['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', f('server.key'), '-out', f('server.csr'), '-subj', '/CN=127.0.0.1']);
  writeFileSync(f('server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n');
  await run('openssl', ['x509', '-req', '-in', f('server.csr'), '-CA', f('ca.crt'), '-CAkey', f('ca.key'), '-CAcreateserial', '-out', f('server.crt'), '-days', '2', '-extfile', f('server.ext')]);
  return { caPem: readFileSync(f('ca.crt'), 'utf8'), certFile: f('server.crt'), keyFile: f('server.key'), caFile: f('ca.crt') };
}

/** A self-signed signing key and certificate (the token issuer's), under `dir`. */
async function makeSigningKey(dir: string): Promise<{ keyPem: string; certFile: string; kid: string }> {
  const key = join(dir, 'token.key');
  const cert = join(dir, 'token.crt');
  await run('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '2', '-subj', '/CN=Cairn Test Token Issuer']);
  const x509 = new X509Certificate(readFileSync(cert));
  return { keyPem: readFileSync(key, 'utf8'), certFile: cert, kid: libtrustKeyId(x509.publicKey.export({ type: 'spki', format: 'der' })) };
}

/** libtrust's key ID (how distribution finds a token's key by `kid`): base32 of SHA-256(SPKI)[:30], in groups of 4. */
export function libtrustKeyId(spkiDer: Buffer): string {
  const bytes = createHash('sha256').update(spkiDer).digest().subarray(0, 30);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out.match(/.{1,4}/g)!.join(':');
}

// ---------------------------------------------------------------------------------------------
// Token server

export interface TokenServer {
  realm: string;
  service: string;
  issuer: string;
  certFile: string;
  /** Requests the token server saw: the scope(s) and whether credentials came with them. */
  requests: { scope: string[]; account: string | null; authorized: boolean }[];
  stop: () => Promise<void>;
}

const b64url = (data: Buffer | string) => Buffer.from(data).toString('base64url');

/**
 * A token server per the distribution token spec: GET ?service=&scope=repository:NAME:ACTIONS with
 * Basic credentials (or none). Known users get what they ask; anonymous callers get `pull` on
 * repositories listed in `publicRepos`, nothing else; wrong credentials get 401.
 */
export async function startTokenServer(dir: string, options: { users: Record<string, string>; publicRepos?: string[]; tls?: TestCa }): Promise<TokenServer> {
  const signing = await makeSigningKey(dir);
  const key = createPrivateKey(signing.keyPem);
  const service = 'cairn-test-registry';
  const issuer = 'cairn-test-token-issuer';
  const requests: TokenServer['requests'] = [];
  const handler: http.RequestListener = (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname !== '/token') {
      res.writeHead(404).end();
      return;
    }
    const header = req.headers.authorization ?? '';
    let account: string | null = null;
    if (header.startsWith('Basic ')) {
      const [user, ...rest] = Buffer.from(header.slice(6), 'base64').toString('utf8').split(':');
      if (!user || options.users[user] === undefined || options.users[user] !== rest.join(':')) {
        requests.push({ scope: url.searchParams.getAll('scope'), account: user ?? null, authorized: false });
        res.writeHead(401, { 'Content-Type': 'application/json' }).end(JSON.stringify({ details: 'invalid credentials' }));
        return;
      }
      account = user;
    }
    const scopes = url.searchParams.getAll('scope');
    requests.push({ scope: scopes, account, authorized: true });
    const access = scopes.flatMap((scope) => {
      const [type, name, actions] = scope.split(':');
      if (type !== 'repository' || !name || !actions) return [];
      const wanted = actions.split(',');
      const granted = account ? wanted : options.publicRepos?.includes(name) ? wanted.filter((a) => a === 'pull') : [];
      return granted.length ? [{ type, name, actions: granted }] : [];
    });
    const now = Math.floor(Date.now() / 1000);
    const head = { typ: 'JWT', alg: 'RS256', kid: signing.kid };
    const claims = { iss: issuer, sub: account ?? '', aud: service, exp: now + 300, nbf: now - 10, iat: now, jti: createHash('sha256').update(`${now}${Math.random()}`).digest('hex').slice(0, 16), access };
    const input = `${b64url(JSON.stringify(head))}.${b64url(JSON.stringify(claims))}`;
    const signature = createSign('RSA-SHA256').update(input).sign(key);
    const token = `${input}.${b64url(signature)}`;
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ token, access_token: token, expires_in: 300, issued_at: new Date().toISOString() }));
  };
  const server = options.tls
    ? https.createServer({ cert: readFileSync(options.tls.certFile), key: readFileSync(options.tls.keyFile) }, handler)
    : http.createServer(handler);
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    realm: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}/token`,
    service,
    issuer,
    certFile: signing.certFile,
    requests,
    stop: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

// ---------------------------------------------------------------------------------------------
// The registry

export interface TestRegistry {
  /** `127.0.0.1:PORT` */
  host: string;
  /** Base URL (`http://` or `https://`). */
  url: string;
  dir: string;
  tls: TestCa | null;
  token: TokenServer | null;
  /** Pushes an OCI layout's `tag` as `repository:destTag` with skopeo (`all` copies every platform of an index). */
  push: (layoutDir: string, tag: string, repository: string, destTag: string, options?: { all?: boolean; format?: 'oci' | 'v2s2' }) => Promise<void>;
  stop: () => Promise<void>;
}

export interface RegistryOptions {
  /** 'htpasswd': Basic auth; 'token': Bearer tokens from a token server started alongside; 'none': open. */
  auth: 'none' | 'htpasswd' | 'token';
  /** Users and passwords (htpasswd and token); the first one pushes. */
  users?: Record<string, string>;
  /** Serve HTTPS with a throwaway CA (the registry and the token server). */
  tls?: boolean;
  /** Token auth: repositories anonymous callers may pull. */
  publicRepos?: string[];
}

/** Starts docker-registry on 127.0.0.1 with its own config, storage and credentials in a temp folder. */
export async function startRegistry(options: RegistryOptions): Promise<TestRegistry> {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-registry-'));
  const users = options.users ?? { pusher: 'pusher-secret' };
  let child: ChildProcess | null = null;
  let token: TokenServer | null = null;
  try {
    const tls = options.tls ? await makeTestCa(join(dir, 'tls')) : null;
    const port = await freePort();
    const lines = [
      'version: 0.1',
      'log:',
      '  level: warn',
      '  accesslog:',
      '    disabled: true',
      'storage:',
      '  filesystem:',
      `    rootdirectory: ${join(dir, 'storage')}`,
      '  delete:',
      '    enabled: true',
      'http:',
      `  addr: 127.0.0.1:${port}`,
      '  secret: cairn-test-secret',
    ];
    if (tls) lines.push('  tls:', `    certificate: ${tls.certFile}`, `    key: ${tls.keyFile}`);
    if (options.auth === 'htpasswd') {
      const file = join(dir, 'htpasswd');
      const entries: string[] = [];
      for (const [user, password] of Object.entries(users)) entries.push((await run('htpasswd', ['-Bbn', user, password])).stdout.trim());
      writeFileSync(file, `${entries.join('\n')}\n`);
      lines.push('auth:', '  htpasswd:', '    realm: cairn-test-realm', `    path: ${file}`);
    } else if (options.auth === 'token') {
      mkdirSync(join(dir, 'token'));
      token = await startTokenServer(join(dir, 'token'), { users, publicRepos: options.publicRepos, ...(tls && { tls }) });
      lines.push('auth:', '  token:', `    realm: ${token.realm}`, `    service: ${token.service}`, `    issuer: ${token.issuer}`, `    rootcertbundle: ${token.certFile}`);
    }
    const config = join(dir, 'config.yml');
    writeFileSync(config, `${lines.join('\n')}\n`);
    const started = spawn('docker-registry', ['serve', config], { stdio: ['ignore', 'pipe', 'pipe'] });
    child = started;
    const log: Buffer[] = [];
    started.stdout?.on('data', (d: Buffer) => log.push(d));
    started.stderr?.on('data', (d: Buffer) => log.push(d));
    const base = `${tls ? 'https' : 'http'}://127.0.0.1:${port}`;
    await waitUntilUp(base, tls?.caPem, started, () => Buffer.concat(log).toString('utf8'));
    const [pushUser, pushPassword] = Object.entries(users)[0]!;
    const registry: TestRegistry = {
      host: `127.0.0.1:${port}`,
      url: base,
      dir,
      tls,
      token,
      push: async (layoutDir, tag, repository, destTag, pushOptions = {}) => {
        const args = ['--insecure-policy', 'copy', '--quiet', '--dest-tls-verify=false'];
        if (options.auth !== 'none') args.push('--dest-creds', `${pushUser}:${pushPassword}`);
        if (pushOptions.all) args.push('--all');
        if (pushOptions.format) args.push('--format', pushOptions.format);
        args.push(`oci:${layoutDir}:${tag}`, `docker://127.0.0.1:${port}/${repository}:${destTag}`);
        await run('skopeo', args, { env: { ...process.env, HOME: dir, XDG_RUNTIME_DIR: dir } }).catch((error: { stderr?: string; message: string }) => {
          throw new Error(`skopeo copy failed: ${error.stderr ?? error.message}`);
        });
      },
      stop: async () => {
        if (started.exitCode === null) {
          const exited = new Promise((resolve) => started.once('exit', resolve));
          started.kill('SIGTERM');
          await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 3000))]);
          if (started.exitCode === null) started.kill('SIGKILL');
        }
        await token?.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
    return registry;
  } catch (error) {
    child?.kill('SIGKILL');
    await token?.stop();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

async function waitUntilUp(base: string, caPem: string | undefined, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`docker-registry exited (${child.exitCode}): ${log()}`);
    const up = await new Promise<boolean>((resolve) => {
      const lib = base.startsWith('https') ? https : http;
      const req = lib.get(`${base}/v2/`, { ...(caPem && { ca: caPem }), timeout: 1000 }, (res) => {
        res.resume();
        resolve(true);
      });
      req.on('error', () => resolve(false));
      req.on('timeout', () => req.destroy());
    });
    if (up) return;
    if (Date.now() > deadline) throw new Error(`docker-registry did not start in 20 s: ${log()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// ---------------------------------------------------------------------------------------------
// Images built in code

export interface TestPlatformImage {
  os?: string;
  architecture: string;
  variant?: string;
  /** Layers in order, each a map of path → content (a trailing `/` makes a folder). */
  layers: Record<string, string>[];
  /** Symbolic links per layer (same index as `layers`): path → target as written (`../usr/lib/os-release`). */
  links?: Record<string, string>[];
}

export interface BuiltImage {
  layoutDir: string;
  tag: string;
  /** Per platform (`os/arch[/variant]`): manifest, config and layer digests. */
  platforms: Record<string, { manifest: string; config: string; layers: string[] }>;
  /** The index's digest when there are several platforms. */
  index: string | null;
}

const sha256 = (data: Buffer) => `sha256:${createHash('sha256').update(data).digest('hex')}`;

async function tarOf(files: Record<string, string>, links: Record<string, string> = {}): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on('data', (c) => chunks.push(c as Buffer));
  const done = new Promise<void>((resolve, reject) => {
    pack.on('end', resolve);
    pack.on('error', reject);
  });
  const mtime = new Date('2024-01-01T00:00:00Z');
  for (const [path, content] of Object.entries(files)) {
    if (path.endsWith('/')) pack.entry({ name: path, type: 'directory', mode: 0o755, mtime });
    else pack.entry({ name: path, mode: 0o644, mtime }, content);
  }
  for (const [path, target] of Object.entries(links)) pack.entry({ name: path, type: 'symlink', linkname: target, mode: 0o777, mtime });
  pack.finalize();
  await done;
  return Buffer.concat(chunks);
}

/**
 * Writes an OCI image layout for `tag` under `layoutDir`: one image manifest, or an index over
 * several platforms when given several. Layers are gzip tars.
 */
export async function writeOciLayout(layoutDir: string, tag: string, images: TestPlatformImage[]): Promise<BuiltImage> {
  const blobs = join(layoutDir, 'blobs', 'sha256');
  mkdirSync(blobs, { recursive: true });
  const put = (data: Buffer) => {
    const digest = sha256(data);
    writeFileSync(join(blobs, digest.slice(7)), data);
    return { digest, size: data.length };
  };
  const platforms: BuiltImage['platforms'] = {};
  const manifests: { mediaType: string; digest: string; size: number; platform: Record<string, string> }[] = [];
  for (const image of images) {
    const os = image.os ?? 'linux';
    const layers: { mediaType: string; digest: string; size: number }[] = [];
    const diffIds: string[] = [];
    for (const [i, files] of image.layers.entries()) {
      const raw = await tarOf(files, image.links?.[i]);
      diffIds.push(sha256(raw));
      layers.push({ mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', ...put(gzipSync(raw)) });
    }
    const config = Buffer.from(JSON.stringify({
      created: '2024-01-01T00:00:00Z',
      architecture: image.architecture,
      os,
      ...(image.variant && { variant: image.variant }),
      config: { Env: ['PATH=/usr/bin:/bin'], Cmd: ['/bin/sh'] },
      rootfs: { type: 'layers', diff_ids: diffIds },
      history: image.layers.map((_, i) => ({ created: '2024-01-01T00:00:00Z', created_by: `/bin/sh -c #(nop) layer ${i + 1}` })),
    }));
    const configDesc = { mediaType: 'application/vnd.oci.image.config.v1+json', ...put(config) };
    const manifest = Buffer.from(JSON.stringify({ schemaVersion: 2, mediaType: 'application/vnd.oci.image.manifest.v1+json', config: configDesc, layers }));
    const manifestDesc = put(manifest);
    const platform = { architecture: image.architecture, os, ...(image.variant && { variant: image.variant }) };
    manifests.push({ mediaType: 'application/vnd.oci.image.manifest.v1+json', ...manifestDesc, platform });
    platforms[`${os}/${image.architecture}${image.variant ? `/${image.variant}` : ''}`] = { manifest: manifestDesc.digest, config: configDesc.digest, layers: layers.map((l) => l.digest) };
  }
  let index: string | null = null;
  let top: Record<string, unknown>;
  if (manifests.length === 1) {
    top = { ...manifests[0]!, annotations: { 'org.opencontainers.image.ref.name': tag } };
  } else {
    const body = Buffer.from(JSON.stringify({ schemaVersion: 2, mediaType: 'application/vnd.oci.image.index.v1+json', manifests }));
    const desc = put(body);
    index = desc.digest;
    top = { mediaType: 'application/vnd.oci.image.index.v1+json', ...desc, annotations: { 'org.opencontainers.image.ref.name': tag } };
  }
  writeFileSync(join(layoutDir, 'index.json'), JSON.stringify({ schemaVersion: 2, manifests: [top] }));
  writeFileSync(join(layoutDir, 'oci-layout'), JSON.stringify({ imageLayoutVersion: '1.0.0' }));
  return { layoutDir, tag, platforms, index };
}

// ---------------------------------------------------------------------------------------------
// An HTTP proxy on loopback (CONNECT tunnels for HTTPS, absolute-form requests for HTTP) that only
// reaches 127.0.0.1 and localhost.

export interface TestProxy {
  url: string;
  /** `host:port` of each CONNECT, and the URL of each plain request. */
  connects: string[];
  requests: string[];
  stop: () => Promise<void>;
}

export async function startHttpProxy(options: { refuse?: boolean } = {}): Promise<TestProxy> {
  const connects: string[] = [];
  const requests: string[] = [];
  const loopback = (host: string) => host === '127.0.0.1' || host === 'localhost';
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (options.refuse || !loopback(target.hostname)) {
      res.writeHead(403).end();
      return;
    }
    const upstream = http.request(target, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  const sockets = new Set<Socket>();
  server.on('connect', (req: http.IncomingMessage, socket: Socket, head: Buffer) => {
    connects.push(req.url ?? '');
    sockets.add(socket);
    const [host, port] = (req.url ?? '').split(':');
    if (options.refuse || !host || !loopback(host)) {
      socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    const upstream = connect(Number(port), host, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    connects,
    requests,
    stop: () => new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
