// Java archives as Debian ships them (libcommons-lang3-java, libcommons-io-java,
// libcommons-cli-java, installed by .ci/run), packed in the test with the `zip` tool into a war
// holding a fat jar holding jars, and an ear holding that war; Android libraries, Jenkins plugins,
// the SHA-1 index, and JAR bombs (deep nesting, huge ratio, overlapping entries).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { CONFIDENCE } from '../../../../server/engine/model.ts';
import type { Component, Target } from '../../../../server/engine/model.ts';
import { extractors, javaArchiveExtractor, javaArchiveExtractorWith } from '../../../../server/engine/extractors/maven/index.ts';
import { scanTree } from '../../../../server/engine/scan.ts';
import { loadJarIndex, parseJarIndex, useJarIndex } from '../../../../server/engine/extractors/maven/jar-index.ts';
import { IN_PLACE_LIMITS } from '../../../../server/engine/sources/limits.ts';
import { makeZip } from '../../../support/make-zip.ts';
import { useTempScan } from '../../../support/temp-scan.ts';
import { expectClaims } from './extractor.ts';

const { scan, writeTree } = useTempScan('cairn-jar-deb-', extractors);
const work = mkdtempSync(path.join(tmpdir(), 'cairn-jar-build-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
afterEach(() => useJarIndex(undefined));

/** The Debian packages, their jar in /usr/share/java, and the Maven coordinates of the pom Debian installs in /usr/share/maven-repo. */
const DEBIAN = [
  { pkg: 'libcommons-lang3-java', jar: 'commons-lang3.jar' },
  { pkg: 'libcommons-io-java', jar: 'commons-io.jar' },
  { pkg: 'libcommons-cli-java', jar: 'commons-cli.jar' },
].map((d) => {
  // The pom Debian ships under its own version (not the `debian` alias): groupId/artifactId/version by its path.
  const pom = execFileSync('dpkg', ['-L', d.pkg], { encoding: 'utf8' }).split('\n').find((f) => /^\/usr\/share\/maven-repo\/.+\/\d[^/]*\/[^/]+\.pom$/.test(f))!;
  const [version, artifact, ...group] = path.dirname(pom).split('/').reverse();
  const debianVersion = execFileSync('dpkg-query', ['-W', '-f', '${Version}', d.pkg], { encoding: 'utf8' });
  const groupId = group.reverse().slice(group.indexOf('maven-repo') + 1).join('.');
  // `3.12.0-2+deb12u1`: the upstream version before the Debian revision.
  return { ...d, file: `/usr/share/java/${d.jar}`, groupId, artifactId: artifact!, version: version!, upstream: debianVersion.replace(/^\d+:/, '').replace(/-[^-]+$/, '') };
});
const purlOf = (d: (typeof DEBIAN)[number]) => `pkg:maven/${d.groupId}/${d.artifactId}@${d.version}`;
const byName = (t: Target, name: string) => t.components.find((c) => c.name === name);

/** Runs `zip` in a folder laid out from `files`; `stored` names entries kept uncompressed (as Spring Boot keeps its jars). */
function zipTool(name: string, files: Record<string, string | Buffer>, stored: string[] = []): string {
  const dir = mkdtempSync(path.join(work, 'tree-'));
  for (const [rel, body] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), body);
  }
  const out = path.join(work, name);
  const deflated = Object.keys(files).filter((f) => !stored.includes(f));
  if (deflated.length) execFileSync('zip', ['-q', '-X', out, ...deflated], { cwd: dir });
  if (stored.length) execFileSync('zip', ['-q', '-X', '-0', out, ...stored], { cwd: dir });
  return out;
}

describe('Debian jars', () => {
  it('each is identified exactly by its pom.properties: what the jar holds and what Debian ships', async () => {
    expect(DEBIAN.map((d) => `${d.groupId}:${d.artifactId}`)).toEqual(['org.apache.commons:commons-lang3', 'commons-io:commons-io', 'commons-cli:commons-cli']);
    const files = Object.fromEntries(DEBIAN.map((d) => [`usr/share/java/${d.jar}`, readFileSync(d.file)]));
    const result = await scan(files);
    expect(result.problems).toEqual([]);
    for (const d of DEBIAN) {
      expect(d.version).toBe(d.upstream);
      const target = result.targets.find((t) => t.file === `usr/share/java/${d.jar}`)!;
      const held = execFileSync('unzip', ['-p', d.file, `META-INF/maven/${d.groupId}/${d.artifactId}/pom.properties`], { encoding: 'utf8' });
      expect(held).toContain(`version=${d.version}`);
      expect(target.components).toHaveLength(1);
      const [c] = target.components as [Component];
      expect(c.purl).toBe(purlOf(d));
      expect(c.confidence).toBe(CONFIDENCE.METADATA);
      // The packaged pom inherits its licence from commons-parent; lang3's and io's META-INF/LICENSE.txt
      // states it (Debian's commons-cli jar ships none).
      expect(c.licenses).toEqual(d.jar === 'commons-cli.jar' ? [] : ['Apache-2.0']);
      expect(c.evidence).toEqual([{
        file: `usr/share/java/${d.jar}!/META-INF/maven/${d.groupId}/${d.artifactId}/pom.properties`,
        rule: 'pom.properties',
        text: `groupId=${d.groupId} artifactId=${d.artifactId} version=${d.version}`,
      }]);
    }
  });

  it('an ear holding a war holding a fat jar holding jars, built with zip: every level read, named and evidenced by its path', async () => {
    const [lang3, io, cli] = DEBIAN as [typeof DEBIAN[number], typeof DEBIAN[number], typeof DEBIAN[number]];
    const fat = zipTool('report-2.0.jar', {
      'META-INF/MANIFEST.MF': 'Manifest-Version: 1.0\nMain-Class: org.springframework.boot.loader.JarLauncher\n\n',
      'META-INF/maven/com.example/report/pom.properties': 'groupId=com.example\nartifactId=report\nversion=2.0\n',
      'BOOT-INF/lib/commons-lang3-3.12.0.jar': readFileSync(lang3.file),
      'BOOT-INF/lib/commons-cli-1.5.0.jar': readFileSync(cli.file),
    }, ['BOOT-INF/lib/commons-lang3-3.12.0.jar', 'BOOT-INF/lib/commons-cli-1.5.0.jar']);
    const war = zipTool('shop.war', {
      'META-INF/maven/com.example/shop/pom.properties': 'groupId=com.example\nartifactId=shop\nversion=1.0\n',
      'WEB-INF/web.xml': '<web-app/>',
      'WEB-INF/lib/commons-io-2.11.0.jar': readFileSync(io.file),
      'WEB-INF/lib/report-2.0.jar': readFileSync(fat),
    });
    const ear = zipTool('shop.ear', { 'META-INF/application.xml': '<application/>', 'shop.war': readFileSync(war) });
    const result = await scan({ 'deploy/shop.ear': readFileSync(ear) });
    expect(result.problems).toEqual([]);
    const [target] = result.targets as [Target];
    const at = (c: Component | undefined) => [c?.locations.map((l) => l.file), c?.evidence?.map((e) => e.file)];
    const warAt = 'deploy/shop.ear!/shop.war';
    const fatAt = `${warAt}!/WEB-INF/lib/report-2.0.jar`;
    expect(at(byName(target, 'com.example:shop'))).toEqual([[warAt], [`${warAt}!/META-INF/maven/com.example/shop/pom.properties`]]);
    expect(at(byName(target, 'com.example:report'))).toEqual([[fatAt], [`${fatAt}!/META-INF/maven/com.example/report/pom.properties`]]);
    expect(at(byName(target, 'commons-io:commons-io'))).toEqual([[`${warAt}!/WEB-INF/lib/commons-io-2.11.0.jar`], [`${warAt}!/WEB-INF/lib/commons-io-2.11.0.jar!/META-INF/maven/commons-io/commons-io/pom.properties`]]);
    expect(at(byName(target, 'org.apache.commons:commons-lang3'))).toEqual([
      [`${fatAt}!/BOOT-INF/lib/commons-lang3-3.12.0.jar`],
      [`${fatAt}!/BOOT-INF/lib/commons-lang3-3.12.0.jar!/META-INF/maven/org.apache.commons/commons-lang3/pom.properties`],
    ]);
    expect(target.components.map((c) => c.purl).sort()).toEqual(['pkg:maven/com.example/report@2.0', 'pkg:maven/com.example/shop@1.0', ...DEBIAN.map(purlOf)].sort());
    // The ear names no version: a container, its war the root; the tree follows the nesting.
    expect(target.roots).toEqual(['pkg:maven/com.example/shop@1.0']);
    expect(byName(target, 'com.example:shop')!.dependsOn.sort()).toEqual(['pkg:maven/com.example/report@2.0', purlOf(io)].sort());
    expect(byName(target, 'com.example:report')!.dependsOn.sort()).toEqual([purlOf(cli), purlOf(lang3)].sort());
    expect(target.components.every((c) => c.confidence === CONFIDENCE.METADATA)).toBe(true);
  });

  it('a jar without pom.properties: the manifest, then the SHA-1 index, then the file name, each with its evidence and confidence', async () => {
    const cli = DEBIAN[2]!;
    // Debian's commons-cli without its Maven metadata: the manifest's Bundle-Version names it.
    const noPom = path.join(work, 'cli-nopom.jar');
    copyFileSync(cli.file, noPom);
    execFileSync('zip', ['-q', '-d', noPom, 'META-INF/maven/*']);
    // ...and without the manifest either: only its bytes (SHA-1) and its name are left.
    const bare = path.join(work, 'cli-bare.jar');
    copyFileSync(noPom, bare);
    execFileSync('zip', ['-q', '-d', bare, 'META-INF/MANIFEST.MF']);
    const files = { 'lib/commons-cli-1.5.0.jar': readFileSync(noPom), 'lib/commons-cli-1.5.jar': readFileSync(bare) };

    let result = await scan(files);
    const manifest = result.targets.find((t) => t.file === 'lib/commons-cli-1.5.0.jar')!.components[0]!;
    expect(manifest.purl).toBe('pkg:maven/org.apache.commons/commons-cli@1.5.0');
    expect(manifest.confidence).toBe(CONFIDENCE.MANIFEST);
    expect(manifest.evidence).toEqual([{ file: 'lib/commons-cli-1.5.0.jar!/META-INF/MANIFEST.MF', rule: 'MANIFEST.MF', text: 'Bundle-SymbolicName: org.apache.commons.cli; Bundle-Version: 1.5.0' }]);
    const named = result.targets.find((t) => t.file === 'lib/commons-cli-1.5.jar')!.components[0]!;
    expect([named.purl, named.confidence, named.evidence]).toEqual(['pkg:maven/commons-cli/commons-cli@1.5', CONFIDENCE.FILE_NAME, [{ file: 'lib/commons-cli-1.5.jar', rule: '文件名', text: 'commons-cli-1.5.jar' }]]);

    // An imported index knows the bytes: exact, so it replaces the file name's guess (not the manifest).
    const sha1 = (f: string) => createHash('sha1').update(readFileSync(f)).digest('hex');
    const indexFile = path.join(work, 'jar-index.csv');
    writeFileSync(indexFile, `sha1,groupId,artifactId,version\n# exported from the repository manager\n${sha1(bare).toUpperCase()},commons-cli,commons-cli,1.5.0\n${sha1(noPom)} org.example:other:9\n`);
    useJarIndex(await loadJarIndex(indexFile));
    result = await scan(files);
    const hashed = result.targets.find((t) => t.file === 'lib/commons-cli-1.5.jar')!.components[0]!;
    expect([hashed.purl, hashed.confidence, hashed.evidence]).toEqual([purlOf(cli), CONFIDENCE.HASH, [{ file: 'lib/commons-cli-1.5.jar', rule: 'SHA-1 索引', text: `${sha1(bare)} commons-cli:commons-cli:1.5.0` }]]);
    expect(result.targets.find((t) => t.file === 'lib/commons-cli-1.5.0.jar')!.components[0]!.purl).toBe('pkg:maven/org.apache.commons/commons-cli@1.5.0');
  });
});

describe('Android libraries and Jenkins plugins', () => {
  const io = () => readFileSync(DEBIAN[1]!.file);

  it('an .aar: its pom beside it names it, else its AndroidManifest.xml package and file name; classes.jar and libs/ are read inside it', async () => {
    const aar = makeZip({
      entries: {
        'AndroidManifest.xml': '<?xml version="1.0" encoding="utf-8"?>\n<manifest xmlns:android="http://schemas.android.com/apk/res/android"\n    package="androidx.appcompat" >\n    <uses-sdk android:minSdkVersion="14" />\n</manifest>\n',
        'classes.jar': makeZip({ entries: { 'androidx/appcompat/app/AppCompatActivity.class': Buffer.alloc(64) } }),
        'libs/commons-io-2.11.0.jar': io(),
        'R.txt': 'int attr actionBarSize 0x7f040001\n',
      },
    });
    const pom = '<?xml version="1.0"?><project><modelVersion>4.0.0</modelVersion><groupId>androidx.appcompat</groupId><artifactId>appcompat</artifactId><version>1.6.1</version><packaging>aar</packaging>'
      + '<licenses><license><name>The Apache Software License, Version 2.0</name></license></licenses><dependencies><dependency><groupId>androidx.core</groupId><artifactId>core</artifactId><version>1.9.0</version></dependency></dependencies></project>';
    const result = await scan({
      'm2/androidx/appcompat/appcompat/1.6.1/appcompat-1.6.1.aar': aar,
      'm2/androidx/appcompat/appcompat/1.6.1/appcompat-1.6.1.pom': pom,
      'app/libs/appcompat-1.6.1.aar': aar,
    });
    expect(result.problems).toEqual([]);
    const inRepo = result.targets.find((t) => t.file.startsWith('m2/') && t.type === 'jar')!;
    const own = inRepo.components.find((c) => c.direct)!;
    expect([own.purl, own.confidence, own.licenses, own.evidence]).toEqual(['pkg:maven/androidx.appcompat/appcompat@1.6.1', CONFIDENCE.METADATA, ['The Apache Software License, Version 2.0'],
      [{ file: 'm2/androidx/appcompat/appcompat/1.6.1/appcompat-1.6.1.pom', rule: 'pom.xml', text: 'androidx.appcompat:appcompat:1.6.1' }]]);
    // classes.jar names nothing: a container whose jars belong to the aar.
    expect(own.dependsOn).toEqual([purlOf(DEBIAN[1]!)]);
    const alone = result.targets.find((t) => t.file === 'app/libs/appcompat-1.6.1.aar')!;
    const guessed = alone.components.find((c) => c.direct)!;
    expect([guessed.purl, guessed.confidence, guessed.evidence!.map((e) => e.rule)]).toEqual(['pkg:maven/androidx.appcompat/appcompat@1.6.1', CONFIDENCE.FILE_NAME, ['AndroidManifest.xml', '文件名']]);
    expect(alone.components.map((c) => c.purl).sort()).toEqual(['pkg:maven/androidx.appcompat/appcompat@1.6.1', purlOf(DEBIAN[1]!)]);
  });

  it('a Jenkins plugin (.hpi/.jpi): Short-Name, Plugin-Version and Group-Id of its manifest; its WEB-INF/lib jars inside it', async () => {
    const manifest = (extra: string) => 'Manifest-Version: 1.0\r\nCreated-By: Maven Archiver 3.6.0\r\nBuild-Jdk-Spec: 11\r\nExtension-Name: workflow-cps\r\n'
      + 'Specification-Title: Pipeline: Groovy\r\nImplementation-Title: workflow-cps\r\nImplementation-Version: 3659.v582dc37621d8\r\nGroup-Id: org.jenkins-ci.plugins.workflow\r\n'
      + `Short-Name: workflow-cps\r\nLong-Name: Pipeline: Groovy\r\nUrl: https://github.com/jenkinsci/workflow-cps-plugin\r\nPlugin-Version: 3659.v582dc37621d8\r\nHudson-Version: 2.361.4\r\nJenkins-Version: 2.361.4\r\n${extra}\r\n`;
    const hpi = makeZip({
      entries: {
        'META-INF/MANIFEST.MF': manifest('Plugin-Dependencies: workflow-step-api:639.v6eca_cd8c04a_a_\r\n'),
        'WEB-INF/lib/workflow-cps.jar': makeZip({ entries: { 'META-INF/maven/org.jenkins-ci.plugins.workflow/workflow-cps/pom.properties': 'groupId=org.jenkins-ci.plugins.workflow\nartifactId=workflow-cps\nversion=3659.v582dc37621d8\n' } }),
        'WEB-INF/lib/commons-io-2.11.0.jar': io(),
      },
    });
    const plain = makeZip({ entries: { 'META-INF/MANIFEST.MF': 'Manifest-Version: 1.0\r\nShort-Name: timestamper\r\nLong-Name: Timestamper\r\nPlugin-Version: 1.25\r\n\r\n' } });
    const result = await scan({ 'var/lib/jenkins/plugins/workflow-cps.jpi': hpi, 'plugins/timestamper.hpi': plain });
    expect(result.problems).toEqual([]);
    const cps = result.targets.find((t) => t.file.endsWith('workflow-cps.jpi'))!;
    expect(cps.roots).toEqual(['pkg:maven/org.jenkins-ci.plugins.workflow/workflow-cps@3659.v582dc37621d8']);
    const own = cps.components.find((c) => c.direct)!;
    // Its own classes jar is the same artifact: one component, both evidences.
    expect(own.evidence!.map((e) => e.rule)).toEqual(['MANIFEST.MF', 'pom.properties']);
    expect(own.confidence).toBe(CONFIDENCE.METADATA);
    expect(own.dependsOn).toEqual([purlOf(DEBIAN[1]!)]);
    const ts = result.targets.find((t) => t.file.endsWith('timestamper.hpi'))!.components[0]!;
    expect([ts.purl, ts.confidence, ts.evidence![0]!.text]).toEqual(['pkg:maven/org.jenkins-ci.plugins/timestamper@1.25', CONFIDENCE.MANIFEST, 'Short-Name: timestamper; Plugin-Version: 1.25']);
  });

  it('claims .aar, .hpi and .jpi', () => {
    expectClaims(javaArchiveExtractor, ['libs/appcompat-1.6.1.aar', 'plugins/git.hpi', 'plugins/git.JPI'], ['appcompat-1.6.1.pom', 'a.aarx']);
  });
});

describe('JAR bombs', () => {
  it('nesting deeper than the limit: the levels within it are read, the rest is a problem; the scan goes on', async () => {
    let inner: Buffer = readFileSync(DEBIAN[2]!.file);
    const levels = IN_PLACE_LIMITS.maxDepth + 4;
    for (let i = levels; i > 0; i--) inner = makeZip({ entries: { [`lib/level-${i}.jar`]: inner }, stored: () => i % 2 === 0 });
    const result = await scan({ 'deep.jar': inner, 'lib/commons-io.jar': readFileSync(DEBIAN[1]!.file) });
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]!.file).toBe('deep.jar');
    expect(result.problems[0]!.message).toMatch(/嵌套超过 16 层（疑似 JAR 炸弹）/);
    expect(result.targets.find((t) => t.file === 'lib/commons-io.jar')!.components[0]!.purl).toBe(purlOf(DEBIAN[1]!));
    // commons-cli sits below the limit: not read, and no component stands for it.
    expect(result.targets.flatMap((t) => t.components).some((c) => c.name === 'commons-cli:commons-cli')).toBe(false);
  });

  it('a nested entry inflating past the ratio limit is not inflated; its siblings are read', async () => {
    const zeros = Buffer.alloc(IN_PLACE_LIMITS.ratioGraceBytes + 1024 * 1024);
    const bomb = makeZip({ entries: { 'WEB-INF/lib/commons-io-2.11.0.jar': readFileSync(DEBIAN[1]!.file), 'WEB-INF/lib/zeros-1.0.jar': makeZip({ entries: { 'a.bin': zeros }, stored: () => true }) } });
    expect(bomb.length).toBeLessThan(readFileSync(DEBIAN[1]!.file).length + 100_000);
    const result = await scan({ 'bomb.war': bomb });
    expect(result.problems.map((p) => p.message)).toEqual([expect.stringMatching(/^未读取内嵌的 Java 归档 bomb\.war!\/WEB-INF\/lib\/zeros-1\.0\.jar：压缩比 \d+:1 超过上限 200:1（疑似 ZIP 炸弹）$/)]);
    expect(result.targets[0]!.components.map((c) => c.purl)).toEqual([purlOf(DEBIAN[1]!)]);
  });

  it('entries sharing their data (overlapping entries) are refused', async () => {
    const zip = makeZip({ entries: { 'lib/a-1.0.jar': readFileSync(DEBIAN[2]!.file), 'lib/b-1.0.jar': readFileSync(DEBIAN[2]!.file) } });
    // Point the second central directory record at the first entry's data.
    const second = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])) + 4);
    zip.writeUInt32LE(0, second + 42);
    const result = await scan({ 'overlap.jar': zip });
    expect(result.problems.map((p) => p.message)).toEqual(['Java 归档 overlap.jar 的多个条目共用同一段数据（疑似 ZIP 炸弹），其内嵌归档未读取']);
  });
});

describe('in-place budgets (the same checks with small limits)', () => {
  const io = () => readFileSync(DEBIAN[1]!.file);
  const lang3 = () => readFileSync(DEBIAN[0]!.file);
  const scanWith = async (limits: Parameters<typeof javaArchiveExtractorWith>[0], files: Record<string, Buffer>) => scanTree(await writeTree(files), { extractors: [javaArchiveExtractorWith(limits)] });

  it('bytes inflated in all: the jars within the budget are read, then one problem', async () => {
    const war = makeZip({ entries: { 'WEB-INF/lib/a/commons-io-2.11.0.jar': io(), 'WEB-INF/lib/b/commons-lang3-3.12.0.jar': lang3(), 'WEB-INF/lib/c/commons-io-2.11.0.jar': io() } });
    const result = await scanWith({ maxTotalBytes: io().length + lang3().length / 2 }, { 'app.war': war });
    expect(result.problems.map((p) => p.message)).toEqual([expect.stringMatching(/^Java 归档 app\.war 内嵌的归档解压后合计超过 .+（疑似 JAR 炸弹），其余未读取$/)]);
    expect(result.targets[0]!.components.map((c) => c.purl)).toEqual([purlOf(DEBIAN[1]!)]);
  });

  it('entries in all: past the budget no further nested archive is read', async () => {
    const war = makeZip({ entries: { 'WEB-INF/lib/commons-lang3-3.12.0.jar': lang3(), 'WEB-INF/lib/commons-io-2.11.0.jar': io() } });
    const result = await scanWith({ maxFiles: 10 }, { 'app.war': war });
    expect(result.problems.map((p) => p.message)).toEqual(['Java 归档 app.war!/WEB-INF/lib/commons-lang3-3.12.0.jar 及其内嵌归档的条目超过 10 个（疑似 JAR 炸弹），其余内嵌归档未读取']);
    // The archive that crossed the line is still identified; its sibling is not read.
    expect(result.targets[0]!.components.map((c) => c.purl)).toEqual([purlOf(DEBIAN[0]!)]);
  });

  it('memory held: a deflated jar inside a deflated jar is not inflated past the bound on what is held at once', async () => {
    const fat = makeZip({ entries: { 'META-INF/maven/com.example/fat/pom.properties': 'groupId=com.example\nartifactId=fat\nversion=1\n', 'lib/commons-io-2.11.0.jar': io() } });
    const war = makeZip({ entries: { 'WEB-INF/lib/fat-1.jar': fat } });
    const result = await scanWith({ maxHeldBytes: fat.length + 1000 }, { 'app.war': war });
    expect(result.problems.map((p) => p.message)).toEqual([expect.stringMatching(/^未读取内嵌的 Java 归档 app\.war!\/WEB-INF\/lib\/fat-1\.jar!\/lib\/commons-io-2\.11\.0\.jar：解压后 .+，超过同时读入内存的上限 .+$/)]);
    expect(result.targets[0]!.components.map((c) => c.purl)).toEqual(['pkg:maven/com.example/fat@1']);
    // With room for both, both are read.
    const roomy = await scanWith({ maxHeldBytes: fat.length + io().length + 1000 }, { 'app.war': war });
    expect(roomy.problems).toEqual([]);
    expect(roomy.targets[0]!.components.map((c) => c.purl)).toEqual(['pkg:maven/com.example/fat@1', purlOf(DEBIAN[1]!)]);
  });
});

describe('SHA-1 index files', () => {
  it('reads both line forms, a header and comments; a bad line is refused with its number', () => {
    const a = 'a'.repeat(40);
    const index = parseJarIndex(`sha1,groupId,artifactId,version\n\n# c\n${a},g.h,art,1.0\n${'B'.repeat(40)}\tg:x:2\n`, 'idx.csv');
    expect([...index.bySha1]).toEqual([[a, { group: 'g.h', artifact: 'art', version: '1.0' }], ['b'.repeat(40), { group: 'g', artifact: 'x', version: '2' }]]);
    expect(() => parseJarIndex(`${a},g,a,1\nnot-a-sha1,g,a,1\n`, 'idx.csv')).toThrow('Java 归档 SHA-1 索引 idx.csv 第 2 行格式不正确');
    expect(() => parseJarIndex(`${a} g:a\n`, 'idx.csv')).toThrow('第 1 行');
  });

  it('a missing index file is a Chinese error', async () => {
    await expect(loadJarIndex(path.join(work, 'none.csv'))).rejects.toThrow(/无法读取 Java 归档 SHA-1 索引 .*none\.csv：ENOENT/);
  });
});
