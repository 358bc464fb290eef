import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractors } from '../../../../server/engine/extractors/gradle/index.ts';
import { exactGradleVersion } from '../../../../server/engine/extractors/gradle/catalog.ts';
import { gradleScope, isDevConfiguration } from '../../../../server/engine/extractors/gradle/lockfile.ts';
import type { Target } from '../../../../server/engine/model.ts';
import { ExtractError } from '../../../../server/engine/model.ts';
import { scanTree } from '../../../../server/engine/scan.ts';
import { CORPORA, TRIVY } from '../../../support/golden.ts';
import { expectClaims, extractFile } from './extractor.ts';
import { useTempScan } from '../../../support/temp-scan.ts';

const SCALIBR = path.join(CORPORA, 'lockfiles/scalibr/java');
const by = (name: string) => extractors.find((e) => e.name === name)!;

const extractAt = (name: string, root: string, rel: string) => extractFile(by(name), root, rel);
const purls = (t: Target) => t.components.map((c) => c.purl);

const { scan, writeTree } = useTempScan('cairn-gradle-', extractors);

describe('gradle.lockfile', () => {
  it('finds every package trivy reports a vulnerability for (gradle.json.golden)', async () => {
    const golden = JSON.parse(await readFile(path.join(TRIVY, 'golden/gradle.json.golden'), 'utf8')) as { Results: Array<{ Vulnerabilities?: Array<{ InstalledVersion: string; PkgIdentifier: { PURL: string } }> }> };
    const result = await scanTree(path.join(TRIVY, 'repo/gradle'), { extractors });
    expect(result.problems).toEqual([]);
    const t = result.targets.find((x) => x.file === 'gradle.lockfile')!;
    const vulns = golden.Results.flatMap((r) => r.Vulnerabilities ?? []);
    expect(vulns.length).toBeGreaterThan(0);
    for (const v of vulns) expect(t.components.find((c) => c.purl === v.PkgIdentifier.PURL)).toMatchObject({ version: v.InstalledVersion, scope: 'runtime' });
    expect(t.components[0]!.locations).toEqual([{ file: 'gradle.lockfile', startLine: 4, endLine: 4 }]);
  });

  it('reads the scalibr samples, skipping comments, empty= and bad lines', async () => {
    const five = await extractAt('gradle', path.join(SCALIBR, 'gradlelockfile/testdata'), '5-pkg');
    expect(purls(five)).toEqual([
      'pkg:maven/org.springframework.boot/spring-boot-autoconfigure@2.7.4',
      'pkg:maven/org.springframework.boot/spring-boot-configuration-processor@2.7.5',
      'pkg:maven/org.springframework.boot/spring-boot-devtools@2.7.6',
      'pkg:maven/org.springframework.boot/spring-boot-starter-aop@2.7.7',
      'pkg:maven/org.springframework.boot/spring-boot-starter-data-jpa@2.7.8',
    ]);
    expect(purls(await extractAt('gradle', path.join(SCALIBR, 'gradlelockfile/testdata'), 'one-pkg'))).toEqual(['pkg:maven/org.springframework.security/spring-security-crypto@5.7.3']);
    expect(purls(await extractAt('gradle', path.join(SCALIBR, 'gradlelockfile/testdata'), 'with-bad-pkg'))).toHaveLength(2);
    expect(purls(await extractAt('gradle', path.join(SCALIBR, 'gradlelockfile/testdata'), 'only-comments'))).toEqual([]);
    expect(purls(await extractAt('gradle', path.join(SCALIBR, 'gradlelockfile/testdata'), 'only-empty'))).toEqual([]);
  });

  it('maps configurations to scopes', async () => {
    expect(isDevConfiguration('testRuntimeClasspath')).toBe(true);
    expect(isDevConfiguration('annotationProcessor')).toBe(true);
    expect(isDevConfiguration('developmentOnly')).toBe(true);
    expect(isDevConfiguration('compileClasspath')).toBe(false);
    expect(isDevConfiguration('productionRuntimeClasspath')).toBe(false);
    expect(isDevConfiguration('releaseRuntimeClasspath')).toBe(false);
    expect(gradleScope(['annotationProcessor', 'testCompileClasspath'])).toBe('development');
    expect(gradleScope(['developmentOnly', 'runtimeClasspath'])).toBe('runtime');

    const result = await scan({
      'app/gradle.lockfile': 'junit:junit:4.13.2=testCompileClasspath,testRuntimeClasspath\na:b:1=compileClasspath\na:b:1=runtimeClasspath\nempty=annotationProcessor\n',
      'app/gradle/dependency-locks/testCompileClasspath.lockfile': '# old style\norg.mockito:mockito-core:5.0.0\n',
      'app/bin.lockfile': 'x',
      'app/build.gradle.kts': 'dependencies {\n  testImplementation("junit:junit:4.13.2")\n  implementation(libs.ab)\n}\n',
    });
    expect(result.problems).toEqual([]);
    const t = result.targets.find((x) => x.file === 'app/gradle.lockfile')!;
    expect(t.components.map((c) => [c.name, c.scope, c.direct])).toEqual([['junit:junit', 'development', true], ['a:b', 'runtime', false]]);
    expect(t.roots).toEqual(['pkg:maven/junit/junit@4.13.2']);
    expect(t.components[1]!.locations).toHaveLength(2);
    const old = result.targets.find((x) => x.file.endsWith('testCompileClasspath.lockfile'))!;
    expect(old.components).toMatchObject([{ name: 'org.mockito:mockito-core', version: '5.0.0', scope: 'development' }]);
    expect(result.targets).toHaveLength(2);
  });

  it('reads a 5,000-entry lockfile quickly', async () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `org.g${i % 50}:a${i}:1.${i}.0=compileClasspath,runtimeClasspath,testCompileClasspath`);
    const root = await writeTree({ 'gradle.lockfile': `# header\n${lines.join('\n')}\nempty=\n` });
    const t = await extractAt('gradle', root, 'gradle.lockfile');
    expect(t.components).toHaveLength(5000);
  });

  it('rejects binary content', async () => {
    const root = await writeTree({ 'gradle.lockfile': Buffer.from([0x50, 0x4b, 0, 3]) });
    await expect(extractAt('gradle', root, 'gradle.lockfile')).rejects.toThrow(/二进制/);
  });
});

describe('gradle verification metadata', () => {
  const dir = path.join(SCALIBR, 'gradleverificationmetadataxml/testdata');
  it('reads components with lines, in any attribute order and quoting', async () => {
    for (const f of ['one-package.xml', 'attribute-order.xml', 'single-quotes.xml', 'multi-line.xml', 'duplicates.xml']) {
      const t = await extractAt('gradle-verification', dir, f);
      expect(purls(t), f).toEqual(['pkg:maven/org.apache.pdfbox/pdfbox@2.0.17']);
    }
    expect((await extractAt('gradle-verification', dir, 'multi-line.xml')).components[0]!.locations[0]).toEqual({ file: 'multi-line.xml', startLine: 5, endLine: 12 });
    expect((await extractAt('gradle-verification', dir, 'duplicates.xml')).components[0]!.locations).toHaveLength(2);
    expect(purls(await extractAt('gradle-verification', dir, 'two-packages.xml'))).toEqual(['pkg:maven/org.apache.pdfbox/pdfbox@2.0.17', 'pkg:maven/com.github.javaparser/javaparser-core@3.6.11']);
    expect(purls(await extractAt('gradle-verification', dir, 'multiple-versions.xml'))).toHaveLength(18);
    const odd = await extractAt('gradle-verification', dir, 'odd-versions.xml');
    expect(odd.components.map((c) => c.version)).toContain('9+181-r4173-1');
    expect(purls(odd)).toContain('pkg:maven/com.google.guava/listenablefuture@9999.0-empty-to-avoid-conflict-with-guava');
    expect(purls(await extractAt('gradle-verification', dir, 'empty.xml'))).toEqual([]);
    expect(purls(await extractAt('gradle-verification', dir, 'missing-attribute.xml'))).toEqual([]);
  });
  it('rejects what is not verification metadata', async () => {
    await expect(extractAt('gradle-verification', dir, 'not-xml.txt')).rejects.toBeInstanceOf(ExtractError);
    expectClaims(by('gradle-verification'), ['gradle/verification-metadata.xml', 'sub/gradle/verification-metadata.xml'], ['verification-metadata.xml']);
  });
});

describe('gradle version catalog', () => {
  const dir = path.join(SCALIBR, 'gradleversioncatalog/testdata');
  it('reads libraries with inline, referenced and rich versions', async () => {
    const t = await extractAt('gradle-catalog', dir, 'libs.versions.toml');
    expect(Object.fromEntries(t.components.map((c) => [c.name, c.version]))).toEqual({
      'com.google.guava:guava': '30.1.1-jre',
      'com.puppycrawl.tools:checkstyle': '8.37',
      'org.codehaus.groovy:groovy': '3.0.5',
      'org.apache.commons:commons-lang3': '3.12.0',
      'org.example:strict': '2.0',
      'org.example:req': '1.5',
      'org.example:pref': '1.0',
      'org.codehaus.groovy:groovy-json': '3.0.5',
      'org.example:noversion': '',
    });
    expect(t.components.every((c) => c.direct)).toBe(true);
    expect(t.roots).toHaveLength(9);
    expect(t.components.find((c) => c.name === 'org.codehaus.groovy:groovy')!.locations).toEqual([{ file: 'libs.versions.toml', startLine: 13, endLine: 13 }]);
    expect((await extractAt('gradle-catalog', dir, 'empty.versions.toml')).components).toEqual([]);
  });
  it('flattens dotted aliases and ignores bundles and plugins', async () => {
    const result = await scan({ 'gradle/libs.versions.toml': '[versions]\nktor = "2.3.7"\n\n[libraries]\nktor.server.core = { module = "io.ktor:ktor-server-core", version.ref = "ktor" }\nktor.client = { group = "io.ktor", name = "ktor-client-core", version = { strictly = "[2.0,3.0)", prefer = "2.3.7" } }\nmissing-ref = { module = "a:b", version.ref = "nope" }\n\n[bundles]\nktor = ["ktor.server.core"]\n\n[plugins]\nkotlin = { id = "org.jetbrains.kotlin.jvm", version = "1.9.22" }\n' });
    expect(result.problems).toEqual([]);
    const t = result.targets[0]!;
    expect(t.components.map((c) => [c.purl, c.locations[0]!.startLine])).toEqual([
      ['pkg:maven/io.ktor/ktor-server-core@2.3.7', 5],
      ['pkg:maven/io.ktor/ktor-client-core', 6],
      ['pkg:maven/a/b', 7],
    ]);
    // The strict range pins nothing: version '' with the range declared; an unresolved ref declares none.
    expect(t.components.map((c) => [c.version, c.constraint])).toEqual([['2.3.7', undefined], ['', '[2.0,3.0)'], ['', undefined]]);
  });

  it('rejects malformed TOML and pins only exact versions', async () => {
    await expect(extractAt('gradle-catalog', dir, 'invalid.versions.toml')).rejects.toThrow(/不是有效的 TOML/);
    expect(exactGradleVersion('1.+')).toBe('');
    expect(exactGradleVersion('[1.0,2.0)')).toBe('');
    expect(exactGradleVersion('latest.release')).toBe('');
    expect(exactGradleVersion('2.0.0-RC1')).toBe('2.0.0-RC1');
  });
});
