// Online resolution against real repositories on loopback: a Maven-layout repository and a PyPI
// simple index served from files (tests/fixtures/public/online/, real poms and METADATA files
// from Debian), and a real npm registry (verdaccio) the test publishes real package tarballs to.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allExtractors } from '../../../../server/engine/extractors/index.ts';
import { resolveOnline } from '../../../../server/engine/index.ts';
import type { Component, ScanResult } from '../../../../server/engine/index.ts';
import { serveFiles, type FileRepository } from '../../../support/file-repository.ts';
import { useTempScan } from '../../../support/temp-scan.ts';
import { startVerdaccio, type TestNpmRegistry } from '../../../support/verdaccio.ts';

const FIXTURES = path.resolve('tests/fixtures/public/online');
const { writeTree } = useTempScan('cairn-resolve-', allExtractors);
const { scanTree } = await import('../../../../server/engine/index.ts');

const never = new AbortController().signal;
const byPurl = (scan: ScanResult) => new Map(scan.targets.flatMap((t) => t.components).map((c) => [c.purl, c] as [string, Component]));
const summary = (c: Component | undefined) => c && { scope: c.scope, direct: c.direct };

const PROJECT_POM = `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.example</groupId>
  <artifactId>demo</artifactId>
  <version>1.0.0</version>
  <properties><lang3.version>3.12.0</lang3.version></properties>
  <dependencyManagement>
    <dependencies>
      <dependency>
        <groupId>com.fasterxml.jackson</groupId><artifactId>jackson-bom</artifactId><version>2.14.0</version>
        <type>pom</type><scope>import</scope>
      </dependency>
    </dependencies>
  </dependencyManagement>
  <dependencies>
    <dependency><groupId>com.fasterxml.jackson.core</groupId><artifactId>jackson-databind</artifactId></dependency>
    <dependency><groupId>org.apache.commons</groupId><artifactId>commons-lang3</artifactId><version>\${lang3.version}</version></dependency>
    <dependency>
      <groupId>org.apache.maven</groupId><artifactId>maven-core</artifactId><version>3.8.7</version>
      <exclusions>
        <exclusion><groupId>org.apache.maven.resolver</groupId><artifactId>*</artifactId></exclusion>
        <exclusion><groupId>com.google.guava</groupId><artifactId>guava</artifactId></exclusion>
      </exclusions>
    </dependency>
    <dependency><groupId>commons-io</groupId><artifactId>commons-io</artifactId><version>2.11.0</version><scope>test</scope></dependency>
    <dependency><groupId>org.example.internal</groupId><artifactId>not-published</artifactId><version>1.0</version></dependency>
  </dependencies>
</project>
`;

describe('Maven: a pom.xml resolved through a Maven-layout repository', () => {
  let repo: FileRepository;
  beforeAll(async () => { repo = await serveFiles(path.join(FIXTURES, 'maven-repo'), { prefix: 'maven2', credentials: { username: 'reader', password: 's3cret' } }); });
  afterAll(async () => { await repo.stop(); });

  it('applies parents, BOM imports, properties, scopes, exclusions and nearest-wins like Maven', async () => {
    const root = await writeTree({ 'pom.xml': PROJECT_POM });
    const scan = await scanTree(root, { extractors: allExtractors });
    const done = await resolveOnline(root, scan, { maven: [{ url: repo.url, name: '内部 Maven', username: 'reader', password: 's3cret' }], npm: [], pypi: [] }, never);
    const found = byPurl(scan);
    // The BOM's managed version (Debian writes 2.x) for the versionless databind, its own deps through jackson-base's parents.
    expect(summary(found.get('pkg:maven/com.fasterxml.jackson.core/jackson-databind@2.x'))).toEqual({ scope: 'runtime', direct: true });
    expect(found.get('pkg:maven/com.fasterxml.jackson.core/jackson-databind@2.x')!.dependsOn.sort()).toEqual([
      'pkg:maven/com.fasterxml.jackson.core/jackson-annotations@2.x', 'pkg:maven/com.fasterxml.jackson.core/jackson-core@2.x',
    ]);
    // A property of the project.
    expect(summary(found.get('pkg:maven/org.apache.commons/commons-lang3@3.12.0'))).toEqual({ scope: 'runtime', direct: true });
    // test scope: development.
    expect(summary(found.get('pkg:maven/commons-io/commons-io@2.11.0'))).toEqual({ scope: 'development', direct: true });
    // maven-core's versions come from its parent org.apache.maven:maven's dependencyManagement.
    expect(summary(found.get('pkg:maven/org.apache.maven/maven-model@3.x'))).toEqual({ scope: 'runtime', direct: false });
    expect(summary(found.get('pkg:maven/org.eclipse.sisu/org.eclipse.sisu.plexus@debian'))).toEqual({ scope: 'runtime', direct: false });
    // Exclusions: nothing of org.apache.maven.resolver, no guava anywhere below maven-core.
    const purls = [...found.keys()];
    expect(purls.filter((p) => p.includes('org.apache.maven.resolver/') || p.includes('/guava@'))).toEqual([]);
    // maven-core's test dependencies are not in the tree.
    expect(purls.some((p) => p.includes('/junit@') || p.includes('/mockito'))).toBe(false);
    expect(purls).toHaveLength(31);
    // Marked: resolved online from the repository.
    expect(found.get('pkg:maven/org.apache.maven/maven-model@3.x')!.evidence).toEqual([{ file: 'pom.xml', rule: '在线解析', text: '从 内部 Maven 在线解析' }]);
    // What could not be resolved: the package and the repository named, the rest kept.
    expect(scan.problems).toEqual([{ file: 'pom.xml', message: '无法在线解析 org.example.internal:not-published:1.0 的依赖：在仓库 内部 Maven 中找不到 org.example.internal:not-published:1.0 的 POM' }]);
    expect(summary(found.get('pkg:maven/org.example.internal/not-published@1.0'))).toEqual({ scope: 'runtime', direct: true });
    expect(done.manifests.maven).toBe(1);
    // Every request carried the repository's credentials.
    expect(repo.requests.every((r) => r.authorization === `Basic ${Buffer.from('reader:s3cret').toString('base64')}`)).toBe(true);
  });

  it('says so when the repository refuses the credentials, and keeps what the pom declares', async () => {
    const root = await writeTree({ 'pom.xml': PROJECT_POM });
    const scan = await scanTree(root, { extractors: allExtractors });
    const declared = scan.targets[0]!.components.map((c) => c.purl).sort();
    await resolveOnline(root, scan, { maven: [{ url: repo.url, name: '内部 Maven', username: 'reader', password: 'wrong' }], npm: [], pypi: [] }, never);
    expect(scan.problems).toHaveLength(1);
    expect(scan.problems[0]!.message).toContain('内部 Maven：仓库拒绝访问（HTTP 401），请检查用户名和密码');
    expect(scan.targets[0]!.components.map((c) => c.purl).sort()).toEqual(declared);
  });
});

describe('PyPI: unpinned requirements resolved through a simple index', () => {
  let index: FileRepository;
  beforeAll(async () => { index = await serveFiles(path.join(FIXTURES, 'pypi-index')); });
  afterAll(async () => { await index.stop(); });

  it('picks the highest matching release (no pre-releases, no yanked files), follows Requires-Dist with markers and extras', async () => {
    const root = await writeTree({
      'requirements.txt': [
        'httplib2>=0.20',
        'cryptography[ssh]>=38,<39 ; python_version >= "3.7"',
        'PyYAML>=5.4',
        'blinker==1.5',
        'distro ; sys_platform == "win32"',
        '',
      ].join('\n'),
    });
    const scan = await scanTree(root, { extractors: allExtractors });
    await resolveOnline(root, scan, { maven: [], npm: [], pypi: [{ url: `${index.url}simple/`, name: 'PyPI 镜像' }] }, never);
    const found = byPurl(scan);
    expect([...found.keys()].sort()).toEqual([
      'pkg:pypi/blinker@1.5', 'pkg:pypi/cryptography@38.0.4', 'pkg:pypi/distro', 'pkg:pypi/httplib2@0.20.4', 'pkg:pypi/pyparsing@3.0.9', 'pkg:pypi/pyyaml@6.0',
    ]);
    // httplib2's `pyparsing (!=3.0.0,…,<4,>=2.4.2) ; python_version > "3.0"`: 3.0.9, not the 3.1.0b1 pre-release nor the excluded 3.0.0.
    expect(found.get('pkg:pypi/httplib2@0.20.4')!.dependsOn).toEqual(['pkg:pypi/pyparsing@3.0.9']);
    expect(summary(found.get('pkg:pypi/pyparsing@3.0.9'))).toEqual({ scope: 'runtime', direct: false });
    expect(found.get('pkg:pypi/pyparsing@3.0.9')!.licenses).toEqual([]);
    expect(found.get('pkg:pypi/httplib2@0.20.4')!.licenses).toEqual(['MIT']);
    expect(found.get('pkg:pypi/cryptography@38.0.4')!.licenses).toEqual(['BSD-3-Clause OR Apache-2.0']);
    // PyYAML 6.0.1 is yanked: 6.0 (PEP 691 JSON page).
    expect(found.get('pkg:pypi/pyyaml@6.0')!.constraint).toBe('>=5.4');
    // distro's marker is false on Linux: kept as declared, not resolved.
    expect(found.get('pkg:pypi/distro')!.version).toBe('');
    expect(found.get('pkg:pypi/httplib2@0.20.4')!.evidence).toEqual([{ file: 'requirements.txt', rule: '在线解析', text: '从 PyPI 镜像 在线解析' }]);
    // The [ssh] extra asks for bcrypt, which the index does not have.
    expect(scan.problems).toEqual([{ file: 'requirements.txt', message: '无法在线解析 bcrypt>=3.1.5：在索引 PyPI 镜像 中找不到 bcrypt' }]);
    // Pre-release and yanked files were never needed.
    expect(index.requests.some((r) => r.path.includes('3.1.0b1') || r.path.includes('6.0.1'))).toBe(false);
  });
});

describe('npm: a package.json without a lockfile resolved through verdaccio', () => {
  let registry: TestNpmRegistry;
  beforeAll(async () => {
    registry = await startVerdaccio();
    // Oldest first: the registry's `latest` tag is the last version published.
    const tarballs = readdirSync(path.join(FIXTURES, 'npm')).filter((f) => f.endsWith('.tgz')).sort();
    for (const f of tarballs) await registry.publish(path.join(FIXTURES, 'npm', f));
  }, 120_000);
  afterAll(async () => { await registry?.stop(); });

  it('chooses versions as npm does, nests conflicting versions, dedupes the rest, and reports what is missing', async () => {
    const root = await writeTree({
      'package.json': {
        name: 'demo-app', version: '1.0.0',
        dependencies: { debug: '^4.3.1', chalk: '^4.1.0', 'colour-names': 'npm:color-name@^1.1.0', 'internal-only': '^1.0.0', ws: '^8.0.0' },
        devDependencies: { 'supports-color': '^5.5.0' },
      },
    });
    const scan = await scanTree(root, { extractors: allExtractors });
    await resolveOnline(root, scan, { maven: [], npm: [{ url: registry.url, name: 'verdaccio' }], pypi: [] }, never);
    const found = byPurl(scan);
    expect([...found.keys()].sort()).toEqual([
      'pkg:npm/ansi-styles@4.3.0', 'pkg:npm/chalk@4.1.2', 'pkg:npm/color-convert@2.0.1', 'pkg:npm/color-name@1.1.4', 'pkg:npm/debug@4.3.4',
      'pkg:npm/has-flag@3.0.0', 'pkg:npm/has-flag@4.0.0', 'pkg:npm/internal-only', 'pkg:npm/ms@2.1.2', 'pkg:npm/supports-color@5.5.0', 'pkg:npm/supports-color@7.2.0',
      'pkg:npm/ws@8.18.0',
    ]);
    // ws's peers bufferutil and utf-8-validate are optional: npm installs neither, and no problem is said of them.
    expect(found.get('pkg:npm/ws@8.18.0')!.dependsOn).toEqual([]);
    // debug pins ms 2.1.2 exactly, though 2.1.3 is the latest.
    expect(found.get('pkg:npm/debug@4.3.4')!.dependsOn).toEqual(['pkg:npm/ms@2.1.2']);
    expect(summary(found.get('pkg:npm/chalk@4.1.2'))).toEqual({ scope: 'runtime', direct: true });
    expect(summary(found.get('pkg:npm/supports-color@7.2.0'))).toEqual({ scope: 'runtime', direct: false });
    expect(summary(found.get('pkg:npm/supports-color@5.5.0'))).toEqual({ scope: 'development', direct: true });
    expect(summary(found.get('pkg:npm/has-flag@3.0.0'))).toEqual({ scope: 'development', direct: false });
    // The alias resolves to color-name, the one color-convert uses too (deduped).
    expect(summary(found.get('pkg:npm/color-name@1.1.4'))).toEqual({ scope: 'runtime', direct: true });
    expect(found.get('pkg:npm/color-convert@2.0.1')!.dependsOn).toEqual(['pkg:npm/color-name@1.1.4']);
    expect(found.get('pkg:npm/chalk@4.1.2')!.licenses).toEqual(['MIT']);
    expect(found.get('pkg:npm/ms@2.1.2')!.evidence).toEqual([{ file: 'package.json', rule: '在线解析', text: '从 verdaccio 在线解析' }]);
    expect(scan.problems).toEqual([{ file: 'package.json', message: '无法在线解析 internal-only@^1.0.0：在注册表 verdaccio 中找不到 internal-only' }]);
  });
});
