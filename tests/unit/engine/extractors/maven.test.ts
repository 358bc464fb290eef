import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractors } from '../../../../server/engine/extractors/maven/index.ts';
import { exactMavenVersion } from '../../../../server/engine/extractors/maven/pom.ts';
import { parseXml } from '../../../../server/engine/extractors/common/xml.ts';
import type { Component, Target } from '../../../../server/engine/model.ts';
import { ExtractError } from '../../../../server/engine/model.ts';
import { scanTree } from '../../../../server/engine/scan.ts';
import { CORPORA, TRIVY } from '../../../support/golden.ts';
import { useTempScan } from '../../../support/temp-scan.ts';
import { extractFile } from './extractor.ts';

const pom = extractors.find((e) => e.name === 'pom')!;
const SCALIBR = path.join(CORPORA, 'lockfiles/scalibr/java/pomxml/testdata');

const extractAt = (root: string, rel: string) => extractFile(pom, root, rel);
const byName = (t: Target) => new Map<string, Component>(t.components.map((c) => [c.name, c]));
const versions = (t: Target) => Object.fromEntries(t.components.map((c) => [c.name, c.version]));

const { writeTree: tree } = useTempScan('cairn-pom-', extractors);

const dep = (g: string, a: string, v = '', extra = '') => `<dependency><groupId>${g}</groupId><artifactId>${a}</artifactId>${v ? `<version>${v}</version>` : ''}${extra}</dependency>`;
const project = (body: string) => `<?xml version="1.0"?>\n<project xmlns="http://maven.apache.org/POM/4.0.0">\n<modelVersion>4.0.0</modelVersion>\n${body}\n</project>\n`;

describe('pom extractor on trivy fixtures', () => {
  it('finds every package trivy reports a vulnerability for (pom.json.golden)', async () => {
    const golden = JSON.parse(await readFile(path.join(TRIVY, 'golden/pom.json.golden'), 'utf8')) as { Results: Array<{ Target: string; Vulnerabilities?: Array<{ PkgName: string; InstalledVersion: string; PkgIdentifier: { PURL: string } }> }> };
    const t = await extractAt(path.join(TRIVY, 'repo/pom'), 'pom.xml');
    const vulns = golden.Results.flatMap((r) => r.Vulnerabilities ?? []);
    expect(vulns.length).toBeGreaterThan(0);
    for (const v of vulns) {
      const c = t.components.find((x) => x.purl === v.PkgIdentifier.PURL);
      expect(c, v.PkgIdentifier.PURL).toBeDefined();
      expect(c!.version).toBe(v.InstalledVersion);
      expect(c!.scope).toBe('runtime');
    }
    expect(t.project).toEqual({ purl: 'pkg:maven/com.example/log4shell@1.0-SNAPSHOT', name: 'com.example:log4shell', version: '1.0-SNAPSHOT' });
    const c = byName(t);
    expect(c.get('org.junit.jupiter:junit-jupiter-api')).toMatchObject({ version: '5.7.1', scope: 'development', direct: true });
    expect(c.get('javax.servlet:javax.servlet-api')!.scope).toBe('development');
    expect(c.get('com.fasterxml.jackson.core:jackson-databind')!.locations).toEqual([{ file: 'pom.xml', startLine: 41, endLine: 45 }]);
    // Runtime view matches trivy's CycloneDX golden: the project and jackson-databind only.
    expect(t.components.filter((x) => x.scope === 'runtime').map((x) => x.purl)).toEqual(['pkg:maven/com.fasterxml.jackson.core/jackson-databind@2.9.1']);
    expect(t.roots).toHaveLength(4);
  });
});

describe('pom extractor on scalibr samples', () => {
  it('inherits dependencies and dependencyManagement from a parent at relativePath', async () => {
    const t = await extractAt(SCALIBR, 'with-parent.xml');
    expect(versions(t)).toEqual({ 'org.dave:dave': '4.0.0', 'org.alice:alice': '1.0.0', 'org.bob:bob': '2.0.0', 'org.chuck:chuck': '3.0.0', 'org.frank:frank': '' });
    expect(byName(t).get('org.dave:dave')!.locations[0]!.file).toBe('parent/pom.xml');
    expect(t.components.find((c) => c.name === 'org.frank:frank')!.purl).toBe('pkg:maven/org.frank/frank');
  });

  it('interpolates properties and leaves ranges unpinned', async () => {
    const t = await extractAt(SCALIBR, 'interpolation.xml');
    expect(versions(t)).toEqual({ 'org.mine:mypackage': '1.0.0', 'org.mine:my.package': '2.3.4', 'org.mine:ranged-package': '' });
  });

  it('handles scopes, dependencyManagement, profiles, plugins and dropped dependencies', async () => {
    const scoped = byName(await extractAt(SCALIBR, 'with-scope.xml'));
    expect(scoped.get('abc:xyz')!.scope).toBe('runtime');
    expect(scoped.get('junit:junit')!.scope).toBe('development');
    expect(versions(await extractAt(SCALIBR, 'with-dependency-management.xml'))).toEqual({ 'io.netty:netty-all': '4.1.9', 'org.slf4j:slf4j-log4j12': '1.7.25' });
    expect(versions(await extractAt(SCALIBR, 'profiles.xml'))).toEqual({ 'org.profile:profile-dep': '1.2.3' });
    const plugin = await extractAt(SCALIBR, 'plugin-dependency.xml');
    expect(plugin.components.map((c) => [c.name, c.locations[0]!.startLine])).toEqual([['com.example:hijack-lib', 27]]);
    expect(versions(await extractAt(SCALIBR, 'interpolate-drop.xml'))).toEqual({ 'com.example:actual-artifact': '1.0.0' });
    expect((await extractAt(SCALIBR, 'empty.xml')).components).toEqual([]);
    expect((await extractAt(SCALIBR, 'two-packages.xml')).components).toHaveLength(2);
    expect((await extractAt(SCALIBR, 'transitive.xml')).components).toHaveLength(3);
    expect((await extractAt(SCALIBR, 'with-multiple-classifiers.xml')).components).toHaveLength(1);
    expect((await extractAt(SCALIBR, 'encoding.xml')).components.map((c) => c.purl)).toEqual(['pkg:maven/junit/junit@4.12']);
  });

  it('rejects malformed input with a Chinese ExtractError', async () => {
    for (const f of ['invalid-syntax.xml', 'not-pom.txt']) {
      await expect(extractAt(SCALIBR, f)).rejects.toBeInstanceOf(ExtractError);
      await expect(extractAt(SCALIBR, f)).rejects.toThrow(/不是有效的 XML/);
    }
  });
});

describe('pom extractor on synthetic multi-module trees', () => {
  it('resolves parents, properties, BOM imports and reactor modules offline', async () => {
    const root = await tree({
      'pom.xml': project(`<groupId>org.acme</groupId><artifactId>parent</artifactId><version>2.0.0</version><packaging>pom</packaging>
<modules><module>bom</module><module>core</module><module>app</module></modules>
<licenses><license><name>The Apache Software License, Version 2.0</name></license></licenses>
<properties><guava.version>32.1.3-jre</guava.version><slf4j.version>\${slf4j.base}.9</slf4j.version><slf4j.base>2.0</slf4j.base><loop.a>\${loop.b}</loop.a><loop.b>\${loop.a}</loop.b></properties>
<dependencyManagement><dependencies>
${dep('org.acme', 'bom', '${project.version}', '<type>pom</type><scope>import</scope>')}
${dep('junit', 'junit', '4.13.2', '<scope>test</scope>')}
</dependencies></dependencyManagement>
<dependencies>${dep('org.slf4j', 'slf4j-api', '${slf4j.version}')}</dependencies>`),
      'bom/pom.xml': project(`<groupId>org.acme</groupId><artifactId>bom</artifactId><version>2.0.0</version><packaging>pom</packaging>
<properties><jackson.version>2.17.1</jackson.version></properties>
<dependencyManagement><dependencies>
${dep('com.fasterxml.jackson.core', 'jackson-databind', '${jackson.version}')}
${dep('com.google.guava', 'guava', '1.0')}
${dep('org.acme', 'parent', '2.0.0', '<type>pom</type><scope>import</scope>')}
</dependencies></dependencyManagement>`),
      'core/pom.xml': project(`<parent><groupId>org.acme</groupId><artifactId>parent</artifactId><version>2.0.0</version></parent>
<artifactId>core</artifactId>
<dependencies>
${dep('com.google.guava', 'guava', '${guava.version}')}
${dep('com.fasterxml.jackson.core', 'jackson-databind')}
${dep('junit', 'junit')}
${dep('org.optional', 'opt', '1.0', '<optional>true</optional>')}
${dep('javax.servlet', 'servlet-api', '2.5', '<scope>provided</scope>')}
${dep('org.weird', 'cycle', '${loop.a}')}
</dependencies>`),
      'app/pom.xml': project(`<parent><groupId>org.acme</groupId><artifactId>parent</artifactId><version>2.0.0</version><relativePath/></parent>
<artifactId>app</artifactId><version>\${project.parent.version}-app</version>
<dependencies>${dep('org.acme', 'core', '${project.parent.version}')}${dep('org.acme', 'missing-module', '1.0')}</dependencies>`),
    });
    const core = await extractAt(root, 'core/pom.xml');
    expect(core.project).toEqual({ purl: 'pkg:maven/org.acme/core@2.0.0', name: 'org.acme:core', version: '2.0.0' });
    expect(versions(core)).toEqual({
      'org.slf4j:slf4j-api': '2.0.9',
      'com.google.guava:guava': '32.1.3-jre',
      'com.fasterxml.jackson.core:jackson-databind': '2.17.1',
      'junit:junit': '4.13.2',
      'org.optional:opt': '1.0',
      'javax.servlet:servlet-api': '2.5',
      'org.weird:cycle': '',
    });
    expect(byName(core).get('junit:junit')!.scope).toBe('development');
    expect(byName(core).get('javax.servlet:servlet-api')!.scope).toBe('development');
    expect(byName(core).get('org.slf4j:slf4j-api')!.locations[0]!.file).toBe('pom.xml');

    const app = await extractAt(root, 'app/pom.xml');
    expect(app.project!.version).toBe('2.0.0-app');
    const c = byName(app);
    const corePurl = 'pkg:maven/org.acme/core@2.0.0';
    expect(c.get('org.acme:core')).toMatchObject({ purl: corePurl, direct: true, licenses: ['Apache-2.0'] });
    // core's compile dependencies come along as transitive; its test, provided and optional ones do not.
    // ... with versions pinned by app's own dependencyManagement (the BOM says guava 1.0), as Maven does.
    expect(c.get('com.google.guava:guava')).toMatchObject({ version: '1.0', direct: false, scope: 'runtime' });
    expect(c.get('org.acme:core')!.dependsOn.sort()).toEqual([
      'pkg:maven/com.fasterxml.jackson.core/jackson-databind@2.17.1',
      'pkg:maven/com.google.guava/guava@1.0',
      'pkg:maven/org.slf4j/slf4j-api@2.0.9',
      'pkg:maven/org.weird/cycle',
    ]);
    expect(c.has('junit:junit')).toBe(false);
    expect(c.has('org.optional:opt')).toBe(false);
    expect(c.has('javax.servlet:servlet-api')).toBe(false);
    expect(c.get('org.acme:missing-module')).toMatchObject({ version: '1.0', direct: true, dependsOn: [] });
    expect(app.roots).toEqual(expect.arrayContaining([corePurl, 'pkg:maven/org.slf4j/slf4j-api@2.0.9']));
  });

  it('finds a parent and a BOM outside every reactor by coordinates', async () => {
    const root = await tree({
      'platform/parent/pom.xml': project(`<groupId>org.corp</groupId><artifactId>corp-parent</artifactId><version>7</version><packaging>pom</packaging>
<properties><netty.version>4.1.100.Final</netty.version></properties>
<dependencyManagement><dependencies>${dep('org.corp', 'corp-bom', '${project.version}', '<type>pom</type><scope>import</scope>')}</dependencies></dependencyManagement>`),
      'platform/bom/pom.xml': project(`<groupId>org.corp</groupId><artifactId>corp-bom</artifactId><version>7</version><packaging>pom</packaging>
<dependencyManagement><dependencies>${dep('io.netty', 'netty-handler', '4.1.90.Final')}${dep('org.yaml', 'snakeyaml', '2.2', '<scope>runtime</scope>')}</dependencies></dependencyManagement>`),
      'services/a/pom.xml': project(`<parent><groupId>org.corp</groupId><artifactId>corp-parent</artifactId><version>7</version><relativePath/></parent><artifactId>a</artifactId>
<dependencies>${dep('io.netty', 'netty-handler', '${netty.version}')}${dep('org.yaml', 'snakeyaml')}${dep('org.springframework.boot', 'spring-boot-starter')}</dependencies>`),
      'services/a/src/test/resources/pom.xml': project('<groupId>org.corp</groupId><artifactId>corp-bom</artifactId><version>7</version>'),
    });
    const t = await extractAt(root, 'services/a/pom.xml');
    expect(t.project!.purl).toBe('pkg:maven/org.corp/a@7');
    expect(versions(t)).toEqual({ 'io.netty:netty-handler': '4.1.100.Final', 'org.yaml:snakeyaml': '2.2', 'org.springframework.boot:spring-boot-starter': '' });
  });

  it('survives parent cycles and self-parents without hanging', async () => {
    const root = await tree({
      'a/pom.xml': project(`<parent><groupId>g</groupId><artifactId>b</artifactId><version>1</version><relativePath>../b/pom.xml</relativePath></parent><artifactId>a</artifactId><dependencies>${dep('x', 'y', '${v}')}</dependencies>`),
      'b/pom.xml': project(`<parent><groupId>g</groupId><artifactId>a</artifactId><version>1</version><relativePath>../a/pom.xml</relativePath></parent><artifactId>b</artifactId><properties><v>3</v></properties>`),
      'self/pom.xml': project(`<parent><groupId>g</groupId><artifactId>self</artifactId><version>1</version><relativePath>pom.xml</relativePath></parent><artifactId>self</artifactId>`),
    });
    const result = await scanTree(root, { extractors });
    expect(result.problems).toEqual([]);
    const a = result.targets.find((t) => t.file === 'a/pom.xml')!;
    expect(versions(a)).toEqual({ 'x:y': '3' });
    expect(result.targets.find((t) => t.file === 'self/pom.xml')!.project!.name).toBe('g:self');
  });

  it('bounds exponential property expansion', async () => {
    const props = Array.from({ length: 40 }, (_, i) => `<p${i}>\${p${i + 1}}\${p${i + 1}}</p${i}>`).join('');
    const root = await tree({ 'pom.xml': project(`<properties>${props}<p40>x</p40></properties><dependencies>${dep('a', 'b', '${p0}')}</dependencies>`) });
    const t = await extractAt(root, 'pom.xml');
    expect(t.components[0]!.version).toBe('');
  });

  it('reports a malformed pom as a scan problem and goes on', async () => {
    const root = await tree({ 'pom.xml': '<project><dependencies></project>', 'ok/pom.xml': project(dep('a', 'b', '1').replace(/^/, '<dependencies>') + '</dependencies>'), 'bad/pom.xml': '<notaproject/>' });
    const result = await scanTree(root, { extractors });
    expect(result.problems.map((p) => p.file)).toEqual(['bad/pom.xml', 'pom.xml']);
    expect(result.problems[1]!.message).toMatch(/不匹配/);
    expect(result.problems[0]!.message).toMatch(/不是 Maven POM/);
    expect(result.targets.map((t) => t.file)).toEqual(['ok/pom.xml']);
  });

  it('scans a 1,000-module reactor (17,000 components) quickly', async () => {
    const files: Record<string, string> = {};
    const modules: string[] = [];
    const libs = (i: number) => Array.from({ length: 5 }, (_, k) => dep(`org.lib${k}`, `lib${i}`, '${lib.version}'));
    for (let i = 0; i < 1000; i++) {
      modules.push(`<module>m${i}</module>`);
      const deps = i < 10 ? libs(i) : [dep('org.acme', `m${i % 10}`, '${project.version}'), dep('org.acme', `m${(i + 1) % 10}`, '${project.version}'), ...libs(i)];
      files[`m${i}/pom.xml`] = project(`<parent><groupId>org.acme</groupId><artifactId>root</artifactId><version>1.0</version></parent><artifactId>m${i}</artifactId><dependencies>${deps.join('')}</dependencies>`);
    }
    files['pom.xml'] = project(`<groupId>org.acme</groupId><artifactId>root</artifactId><version>1.0</version><properties><lib.version>1.2.3</lib.version></properties><modules>${modules.join('')}</modules>`);
    const root = await tree(files);
    const started = performance.now();
    const result = await scanTree(root, { extractors });
    const ms = performance.now() - started;
    console.log(`pom: 1,001 个 pom.xml，${result.targets.reduce((n, t) => n + t.components.length, 0)} 个组件，用时 ${ms.toFixed(0)} ms`);
    expect(result.problems).toEqual([]);
    expect(result.targets).toHaveLength(1001);
    expect(result.targets.find((t) => t.file === 'm13/pom.xml')!.components).toHaveLength(2 + 5 + 10);
  }, 60_000);
});

describe('helpers', () => {
  it('pins only exact Maven versions', () => {
    expect(exactMavenVersion('1.2.3')).toBe('1.2.3');
    expect(exactMavenVersion('[1.2.3]')).toBe('1.2.3');
    expect(exactMavenVersion('[1.0,2.0)')).toBe('');
    expect(exactMavenVersion('${x}')).toBe('');
  });
  it('reads XML with lines and rejects what is not well formed', () => {
    const doc = parseXml('<?xml version="1.0"?>\n<!DOCTYPE x [<!ENTITY e "boom">]>\n<a x=\'1\'>\n<b>&lt;&amp;&#65;<![CDATA[<raw>]]></b><!-- c -->\n</a>', 't.xml');
    expect(doc.children[0]).toMatchObject({ name: 'b', text: '<&A<raw>', line: 4, endLine: 4 });
    expect(doc.attrs).toEqual({ x: '1' });
    for (const bad of ['', '<a>', '<a></b>', '<a/><b/>', 'text', '<a><!-- x', '<a x=1/>']) expect(() => parseXml(bad, 'bad.xml')).toThrow(ExtractError);
  });
});

describe('声明的版本范围', () => {
  const { scan } = useTempScan('cairn-maven-range-', extractors);

  it('版本范围不固定版本：以空版本和声明的范围报告；[1.0] 与软版本照用', async () => {
    const pom = `<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.example</groupId>
  <artifactId>app</artifactId>
  <version>1.0.0</version>
  <dependencies>
    <dependency><groupId>org.slf4j</groupId><artifactId>slf4j-api</artifactId><version>[1.7,2.0)</version></dependency>
    <dependency><groupId>junit</groupId><artifactId>junit</artifactId><version>[4.13.2]</version><scope>test</scope></dependency>
    <dependency><groupId>com.google.guava</groupId><artifactId>guava</artifactId><version>32.1.2-jre</version></dependency>
  </dependencies>
</project>`;
    const result = await scan({ 'pom.xml': pom });
    expect(result.problems).toEqual([]);
    expect(result.targets[0]!.components.map((c) => [c.name, c.version, c.constraint])).toEqual([
      ['org.slf4j:slf4j-api', '', '[1.7,2.0)'],
      ['junit:junit', '4.13.2', undefined],
      ['com.google.guava:guava', '32.1.2-jre', undefined],
    ]);
  });
});
