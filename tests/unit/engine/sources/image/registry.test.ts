import { describe, expect, it } from 'vitest';

import { parseChallenges, pickChallenge } from '../../../../../server/engine/sources/image/registry/auth.ts';
import { RegistryError, Secrets } from '../../../../../server/engine/sources/image/registry/errors.ts';
import { isTransient, networkError, parseCaPem } from '../../../../../server/engine/sources/image/registry/http.ts';
import { checkImageManifest, formatPlatform, parseManifest, parsePlatform, selectPlatform, type Descriptor } from '../../../../../server/engine/sources/image/registry/manifest.ts';
import { formatImageReference, parseImageReference } from '../../../../../server/engine/sources/image/registry/reference.ts';
import { libtrustKeyId } from '../../../../support/registry.ts';

const D = (n: number) => `sha256:${String(n).repeat(64).slice(0, 64)}`;

describe('parseImageReference (docker rules)', () => {
  it.each([
    ['alpine', 'docker.io', 'library/alpine', 'latest', null],
    ['alpine:3.20', 'docker.io', 'library/alpine', '3.20', null],
    ['bitnami/redis', 'docker.io', 'bitnami/redis', 'latest', null],
    ['docker.io/alpine', 'docker.io', 'library/alpine', 'latest', null],
    ['index.docker.io/library/alpine:edge', 'docker.io', 'library/alpine', 'edge', null],
    ['ghcr.io/owner/repo/sub:v1.2.3', 'ghcr.io', 'owner/repo/sub', 'v1.2.3', null],
    ['localhost/app', 'localhost', 'app', 'latest', null],
    ['localhost:5000/app:dev', 'localhost:5000', 'app', 'dev', null],
    ['127.0.0.1:5000/team/app', '127.0.0.1:5000', 'team/app', 'latest', null],
    ['registry.example.com:443/a_b/c-d.e__f:tag', 'registry.example.com:443', 'a_b/c-d.e__f', 'tag', null],
    [`alpine@${D(1)}`, 'docker.io', 'library/alpine', null, D(1)],
    [`host:5000/app:1.0@${D(2)}`, 'host:5000', 'app', '1.0', D(2)],
    ['  quay.io/coreos/etcd  ', 'quay.io', 'coreos/etcd', 'latest', null],
  ])('%s', (text, registry, repository, tag, digest) => {
    expect(parseImageReference(text)).toEqual({ registry, repository, tag, digest });
  });

  it.each([
    ['', '请填写镜像地址'],
    ['https://registry.example.com/app:1', '不要带 http:// 或 https:// 前缀'],
    ['Alpine', '只能使用小写字母'],
    ['host:5000/App', '只能使用小写字母'],
    ['alpine:-bad', '标签'],
    ['alpine@sha256:abc', '摘要'],
    [`alpine@md5:${'a'.repeat(32)}`, '不支持的算法'],
    ['a//b', '不合法'],
    ['host:99999/app', '端口 99999 超出范围'],
    ['has space/app', '空白'],
    [`${'a'.repeat(300)}`, '255'],
  ])('refuses %j', (text, why) => {
    try {
      parseImageReference(text);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(RegistryError);
      expect((error as RegistryError).code).toBe('reference');
      expect((error as Error).message).toContain(why);
    }
  });

  it('formats back in full', () => {
    expect(formatImageReference(parseImageReference('alpine'))).toBe('docker.io/library/alpine:latest');
    expect(formatImageReference(parseImageReference(`h:1/x@${D(3)}`))).toBe(`h:1/x@${D(3)}`);
  });
});

describe('WWW-Authenticate challenges', () => {
  it('reads Bearer with quoted parameters, commas inside quotes', () => {
    const [c] = parseChallenges('Bearer realm="https://auth.example.com/token",service="registry.example.com",scope="repository:a/b:pull,push"');
    expect(c).toEqual({ scheme: 'bearer', params: { realm: 'https://auth.example.com/token', service: 'registry.example.com', scope: 'repository:a/b:pull,push' } });
  });

  it('reads several challenges and prefers Bearer', () => {
    const all = parseChallenges(['Basic realm="Registry Realm"', 'Bearer realm="https://t/x", error="insufficient_scope"']);
    expect(all.map((c) => c.scheme)).toEqual(['basic', 'bearer']);
    expect(pickChallenge(all)?.params).toEqual({ realm: 'https://t/x', error: 'insufficient_scope' });
    expect(pickChallenge(parseChallenges('Basic realm="basic-realm"'))?.scheme).toBe('basic');
    expect(pickChallenge(parseChallenges(undefined))).toBeNull();
    expect(parseChallenges('Basic realm="a \\"quoted\\" realm"')[0]?.params.realm).toBe('a "quoted" realm');
  });
});

describe('platforms', () => {
  const entry = (os: string, architecture: string, variant?: string, n = 1): Descriptor => ({
    mediaType: 'application/vnd.oci.image.manifest.v1+json', digest: D(n), size: 1, platform: { os, architecture, ...(variant && { variant }) },
  });
  const index = [entry('linux', 'amd64', undefined, 1), entry('linux', 'arm64', 'v8', 2), entry('linux', 'arm', 'v6', 3), entry('linux', 'arm', 'v7', 4), entry('unknown', 'unknown', undefined, 5)];

  it('normalises and formats', () => {
    expect(formatPlatform(parsePlatform('linux/x86_64'))).toBe('linux/amd64');
    expect(formatPlatform(parsePlatform('linux/aarch64'))).toBe('linux/arm64');
    expect(formatPlatform(parsePlatform('linux/arm64/v8'))).toBe('linux/arm64');
    expect(formatPlatform(parsePlatform('Linux/ARM/v7'))).toBe('linux/arm/v7');
    expect(() => parsePlatform('amd64')).toThrow(/格式不正确/);
  });

  it('picks the entry, arm64 with or without v8, arm by variant or v7 by default', () => {
    expect(selectPlatform(index, parsePlatform('linux/amd64'))?.digest).toBe(D(1));
    expect(selectPlatform(index, parsePlatform('linux/arm64'))?.digest).toBe(D(2));
    expect(selectPlatform(index, parsePlatform('linux/arm64/v8'))?.digest).toBe(D(2));
    expect(selectPlatform(index, parsePlatform('linux/arm/v6'))?.digest).toBe(D(3));
    expect(selectPlatform(index, parsePlatform('linux/arm'))?.digest).toBe(D(4));
    expect(selectPlatform(index, parsePlatform('linux/s390x'))).toBeNull();
    expect(selectPlatform(index, parsePlatform('unknown/unknown'))).toBeNull();
  });
});

describe('manifests', () => {
  const manifest = (layers: unknown[], config: unknown = { mediaType: 'application/vnd.oci.image.config.v1+json', digest: D(9), size: 10 }) =>
    Buffer.from(JSON.stringify({ schemaVersion: 2, mediaType: 'application/vnd.oci.image.manifest.v1+json', config, layers }));

  it('reads an OCI manifest and a Docker list by body, header or shape', () => {
    const m = parseManifest(manifest([{ mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', digest: D(1), size: 5 }]), undefined);
    expect(m.kind).toBe('manifest');
    const list = parseManifest(Buffer.from(JSON.stringify({ schemaVersion: 2, manifests: [] })), 'application/vnd.docker.distribution.manifest.list.v2+json');
    expect(list).toEqual({ kind: 'index', mediaType: 'application/vnd.docker.distribution.manifest.list.v2+json', manifests: [] });
    expect(parseManifest(Buffer.from(JSON.stringify({ schemaVersion: 2, manifests: [] })), 'application/json').kind).toBe('index');
  });

  it('refuses schema 1 clearly, unknown types, bad digests', () => {
    expect(() => parseManifest(Buffer.from(JSON.stringify({ schemaVersion: 1, name: 'x', fsLayers: [] })), 'application/vnd.docker.distribution.manifest.v1+prettyjws')).toThrow(/schema 1/);
    expect(() => parseManifest(Buffer.from('{"schemaVersion":2,"mediaType":"application/vnd.example+json"}'), undefined)).toThrow(/不支持的清单类型 application\/vnd.example\+json/);
    expect(() => parseManifest(Buffer.from('not json'), undefined)).toThrow(/不是有效的 JSON/);
    expect(() => parseManifest(manifest([{ mediaType: 'application/vnd.oci.image.layer.v1.tar', digest: 'sha256:../../etc/passwd', size: 1 }]), undefined)).toThrow(/格式不正确/);
    expect(() => parseManifest(manifest([{ mediaType: 'application/vnd.oci.image.layer.v1.tar', digest: `md5:${'a'.repeat(32)}`, size: 1 }]), undefined)).toThrow(/不支持的算法/);
    expect(() => parseManifest(manifest([{ mediaType: 'application/vnd.oci.image.layer.v1.tar', digest: D(1), size: -1 }]), undefined)).toThrow(/大小无效/);
  });

  it('refuses artifacts that are not images and unknown layer types, naming the layer', () => {
    const helm = parseManifest(manifest([], { mediaType: 'application/vnd.cncf.helm.config.v1+json', digest: D(9), size: 1 }), undefined);
    expect(() => checkImageManifest(helm as never)).toThrow(/这不是容器镜像：配置类型为 application\/vnd.cncf.helm.config.v1\+json/);
    const odd = parseManifest(manifest([{ mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', digest: D(1), size: 5 }, { mediaType: 'application/x-weird', digest: D(2), size: 5 }]), undefined);
    expect(() => checkImageManifest(odd as never)).toThrow(`第 2 层（${D(2)}）的类型 application/x-weird 不受支持`);
  });
});

describe('secrets and CAs', () => {
  it('redacts every secret, longest first', () => {
    const s = new Secrets();
    s.add('hunter2-password');
    s.add('abc'); // too short to redact safely; never put in a message anyway
    s.add('tok.en.value');
    expect(s.redact('user hunter2-password and tok.en.value, abc')).toBe('user *** and ***, abc');
  });

  it('refuses a CA that is not a PEM certificate', () => {
    expect(() => parseCaPem('hello')).toThrow(/没有找到 PEM 格式的证书/);
    expect(() => parseCaPem('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----')).toThrow(/无法解析/);
  });

  it('computes libtrust key IDs in groups of four', () => {
    expect(libtrustKeyId(Buffer.from('x'))).toMatch(/^([A-Z2-7]{4}:){11}[A-Z2-7]{4}$/);
  });
});

describe('network failures in Chinese', () => {
  const url = new URL('https://registry.example.com:5000/v2/');
  const fail = (code: string, message = code) => Object.assign(new Error(message), { code });
  it.each([
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'tls', '无法与 registry.example.com:5000 建立安全连接：证书是自签名的，不受信任（请提供该仓库的 CA 证书）', false],
    ['CERT_HAS_EXPIRED', 'tls', '无法与 registry.example.com:5000 建立安全连接：证书已过期', false],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'tls', '无法与 registry.example.com:5000 建立安全连接：证书上的主机名与仓库地址不符', false],
    ['ERR_SSL_WRONG_VERSION_NUMBER', 'tls', '无法与 registry.example.com:5000 建立 HTTPS 连接：对方似乎只提供 HTTP。若确认该仓库可信，可开启“允许不安全的 HTTP”', false],
    ['ECONNREFUSED', 'network', '无法连接 registry.example.com:5000：连接被拒绝（仓库未运行或端口不对）', true],
    ['ENOTFOUND', 'network', '无法解析主机名 registry.example.com', false],
    ['ECONNRESET', 'network', '与 registry.example.com:5000 的连接意外中断', true],
    ['ETIMEDOUT', 'timeout', '连接超时：registry.example.com:5000 在 2.5 秒内没有响应', true],
  ])('%s', (code, kind, message, transient) => {
    const error = networkError(fail(code), url, { timeoutMs: 2500 });
    expect(error.code).toBe(kind);
    expect(error.message).toBe(message);
    expect(isTransient(error)).toBe(transient);
  });
});
