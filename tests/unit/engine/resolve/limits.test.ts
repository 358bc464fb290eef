// Online resolution's pieces on their own: PEP 508 markers for the default environment, core
// metadata and distribution file names, and the bounds (package count, depth, response size,
// timeout) each reported as a problem while the rest goes on.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allExtractors } from '../../../../server/engine/extractors/index.ts';
import { resolveOnline, scanTree } from '../../../../server/engine/index.ts';
import { DEFAULT_ENVIRONMENT, evaluateMarker } from '../../../../server/engine/resolve/markers.ts';
import { parseMetadata, versionOfFile } from '../../../../server/engine/resolve/pypi.ts';
import { serveFiles, type FileRepository } from '../../../support/file-repository.ts';
import { useTempScan } from '../../../support/temp-scan.ts';

const FIXTURES = path.resolve('tests/fixtures/public/online');
const { writeTree } = useTempScan('cairn-resolve-limits-', allExtractors);
const never = new AbortController().signal;

describe('PEP 508 markers for CPython 3.12 on Linux x86_64', () => {
  it('evaluates versions, platforms, extras, and/or and parentheses', () => {
    expect(DEFAULT_ENVIRONMENT.python_version).toBe('3.12');
    expect(evaluateMarker('python_version > "3.0"')).toBe(true);
    expect(evaluateMarker('python_version < "3.10"')).toBe(false);
    expect(evaluateMarker('"3.8" <= python_version')).toBe(true);
    expect(evaluateMarker("sys_platform == 'win32'")).toBe(false);
    expect(evaluateMarker('platform_system != "Windows" and implementation_name == "cpython"')).toBe(true);
    expect(evaluateMarker('(os_name == "nt" or sys_platform == "darwin") and python_version >= "3"')).toBe(false);
    expect(evaluateMarker('extra == "socks"')).toBe(false);
    expect(evaluateMarker('extra == "socks"', ['socks'])).toBe(true);
    expect(evaluateMarker('extra == "Socks_Proxy"', ['socks-proxy'])).toBe(true);
    expect(evaluateMarker('"linux" in sys_platform')).toBe(true);
    expect(evaluateMarker('platform_machine not in "arm64 aarch64"')).toBe(true);
    expect(() => evaluateMarker('python_version >>> "3"')).toThrow(/无法解析环境标记/);
  });

  it('reads Requires-Dist and the licence of core metadata, and versions of file names', () => {
    const meta = parseMetadata('Metadata-Version: 2.1\nName: demo\nVersion: 1.0\nLicense-Expression: MIT\nRequires-Dist: idna (>=2.5) ; python_version >= "3"\nRequires-Dist: pysocks; extra == "socks"\n\nRequires-Dist: not-a-header\n');
    expect(meta).toEqual({ requires: ['idna (>=2.5) ; python_version >= "3"', 'pysocks; extra == "socks"'], licenses: ['MIT'] });
    expect(versionOfFile('PyYAML-6.0-cp311-cp311-manylinux_2_17_x86_64.whl', 'pyyaml')).toBe('6.0');
    expect(versionOfFile('zope.interface-6.1.tar.gz', 'zope-interface')).toBe('6.1');
    expect(versionOfFile('requests-2.31.0-py3-none-any.whl', 'urllib3')).toBeUndefined();
  });
});

describe('bounds', () => {
  let repo: FileRepository;
  let slow: http.Server;
  let slowUrl: string;
  beforeAll(async () => {
    repo = await serveFiles(path.join(FIXTURES, 'maven-repo'));
    // Answers nothing for a long time: a request to it must time out.
    slow = http.createServer(() => { /* never answers */ });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    slowUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    await repo.stop();
    slow.closeAllConnections();
    await new Promise<void>((resolve) => slow.close(() => resolve()));
  });

  const pom = (deps: string) => `<project><modelVersion>4.0.0</modelVersion><groupId>g</groupId><artifactId>a</artifactId><version>1</version><dependencies>${deps}</dependencies></project>`;
  const CORE = '<dependency><groupId>org.apache.maven</groupId><artifactId>maven-core</artifactId><version>3.8.7</version></dependency>';

  it('resolves a version range to the highest version maven-metadata.xml lists inside it', async () => {
    const root = await writeTree({ 'pom.xml': pom('<dependency><groupId>org.apache.commons</groupId><artifactId>commons-lang3</artifactId><version>[3.0,4.0)</version></dependency>') });
    const scan = await scanTree(root, { extractors: allExtractors });
    await resolveOnline(root, scan, { maven: [{ url: repo.url }], npm: [], pypi: [] }, never);
    expect(scan.targets[0]!.components.map((c) => ({ purl: c.purl, constraint: c.constraint }))).toEqual([{ purl: 'pkg:maven/org.apache.commons/commons-lang3@3.12.0', constraint: '[3.0,4.0)' }]);
    const outside = await writeTree({ 'pom.xml': pom('<dependency><groupId>org.apache.commons</groupId><artifactId>commons-lang3</artifactId><version>[4.0,)</version></dependency>') });
    const none = await scanTree(outside, { extractors: allExtractors });
    await resolveOnline(outside, none, { maven: [{ url: repo.url, name: '测试仓库' }], npm: [], pypi: [] }, never);
    expect(none.problems).toEqual([{ file: 'pom.xml', message: '无法在线解析 org.apache.commons:commons-lang3：在仓库 测试仓库 中没有 org.apache.commons:commons-lang3 符合 [4.0,) 的版本' }]);
  });

  it('stops at the package cap and says so', async () => {
    const root = await writeTree({ 'pom.xml': pom(CORE) });
    const scan = await scanTree(root, { extractors: allExtractors });
    await resolveOnline(root, scan, { maven: [{ url: repo.url }], npm: [], pypi: [], limits: { maxPackages: 5 } }, never);
    expect(scan.targets[0]!.components).toHaveLength(5);
    expect(scan.problems).toEqual([{ file: 'pom.xml', message: '在线解析的组件超过上限 5 个，其余依赖未解析' }]);
  });

  it('does not go below the depth limit', async () => {
    const root = await writeTree({ 'pom.xml': pom(CORE) });
    const scan = await scanTree(root, { extractors: allExtractors });
    await resolveOnline(root, scan, { maven: [{ url: repo.url }], npm: [], pypi: [], limits: { maxDepth: 1 } }, never);
    // maven-core and its own dependencies, none of theirs.
    const core = scan.targets[0]!.components.find((c) => c.name === 'org.apache.maven:maven-core')!;
    expect(scan.targets[0]!.components).toHaveLength(1 + core.dependsOn.length);
    expect(scan.problems).toEqual([]);
  });

  it('refuses an oversized response and a repository that does not answer in time, naming the package and the repository', async () => {
    const root = await writeTree({ 'pom.xml': pom(CORE) });
    const scan = await scanTree(root, { extractors: allExtractors });
    await resolveOnline(root, scan, { maven: [{ url: repo.url, name: '小仓库' }], npm: [], pypi: [], limits: { maxResponseBytes: 1000 } }, never);
    expect(scan.problems).toHaveLength(1);
    expect(scan.problems[0]!.message).toMatch(/^无法在线解析 org\.apache\.maven:maven-core:3\.8\.7 的依赖：无法获取 org\.apache\.maven:maven-core:3\.8\.7 的 POM（小仓库：响应过大/);
    expect(scan.targets[0]!.components.map((c) => c.purl)).toEqual(['pkg:maven/org.apache.maven/maven-core@3.8.7']);

    const again = await scanTree(root, { extractors: allExtractors });
    await resolveOnline(root, again, { maven: [{ url: slowUrl, name: '慢仓库' }], npm: [], pypi: [], limits: { timeoutMs: 300 } }, never);
    expect(again.problems).toHaveLength(1);
    expect(again.problems[0]!.message).toContain('慢仓库：无法连接：连接超时');
  });
});

describe('a multi-module project', () => {
  let repo: FileRepository;
  beforeAll(async () => { repo = await serveFiles(path.join(FIXTURES, 'maven-repo')); });
  afterAll(async () => { await repo.stop(); });

  it('reads its own modules in the tree and resolves their dependencies through the repository', async () => {
    const module = (artifactId: string, deps: string) => `<project><modelVersion>4.0.0</modelVersion><parent><groupId>com.example</groupId><artifactId>parent</artifactId><version>2.0</version></parent><artifactId>${artifactId}</artifactId><dependencies>${deps}</dependencies></project>`;
    const root = await writeTree({
      'pom.xml': '<project><modelVersion>4.0.0</modelVersion><groupId>com.example</groupId><artifactId>parent</artifactId><version>2.0</version><packaging>pom</packaging><modules><module>core</module><module>app</module></modules></project>',
      'core/pom.xml': module('core', '<dependency><groupId>com.fasterxml.jackson.core</groupId><artifactId>jackson-databind</artifactId><version>2.14.0</version></dependency>'),
      'app/pom.xml': module('app', '<dependency><groupId>com.example</groupId><artifactId>core</artifactId><version>${project.version}</version></dependency>'),
    });
    const scan = await scanTree(root, { extractors: allExtractors });
    await resolveOnline(root, scan, { maven: [{ url: repo.url }], npm: [], pypi: [] }, never);
    expect(scan.problems).toEqual([]);
    const app = scan.targets.find((t) => t.file === 'app/pom.xml')!;
    expect(app.components.map((c) => c.purl).sort()).toEqual([
      'pkg:maven/com.example/core@2.0', 'pkg:maven/com.fasterxml.jackson.core/jackson-annotations@2.x',
      'pkg:maven/com.fasterxml.jackson.core/jackson-core@2.x', 'pkg:maven/com.fasterxml.jackson.core/jackson-databind@2.14.0',
    ]);
    // The module is the project's own: not marked as resolved from a repository; what it brings is.
    expect(app.components.find((c) => c.name === 'com.example:core')!.evidence).toBeUndefined();
    expect(app.components.find((c) => c.name === 'com.fasterxml.jackson.core:jackson-core')!.evidence).toHaveLength(1);
    expect(repo.requests.some((r) => r.path.includes('/com/example/'))).toBe(false);
  });
});
