// Java archives read in place: real Maven Central jars (tests/fixtures/jars), and wars, Spring Boot
// jars and shaded jars assembled from them in the test.
import { mkdir, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Target } from '../../../../server/engine/model.ts';
import { extractors, javaArchiveExtractor, nameAndVersionOf, parseManifest, parseProperties } from '../../../../server/engine/extractors/maven/index.ts';
import { scanTree } from '../../../../server/engine/scan.ts';
import { CORPORA } from '../../../support/golden.ts';
import { makeZip } from '../../../support/make-zip.ts';
import { useTempScan } from '../../../support/temp-scan.ts';
import { expectClaims } from './extractor.ts';

const JARS = path.resolve(import.meta.dirname, '../../../fixtures/jars');
const jar = (name: string) => readFileSync(path.join(JARS, name));
const { scan, writeTree } = useTempScan('cairn-jar-', extractors);
const summary = (t: Target) => t.components.map((c) => ({ purl: c.purl, at: c.locations.map((l) => l.file), licenses: c.licenses })).sort((a, b) => a.purl.localeCompare(b.purl));

describe('Java archives from Maven Central', () => {
  it('identifies each jar by pom.properties, manifest or file name, with the licences it declares', async () => {
    const result = await scan({
      'opt/app/lib/accessors-smart-2.5.2.jar': jar('accessors-smart-2.5.2.jar'),
      'opt/app/lib/jopt-simple-5.0.4.jar': jar('jopt-simple-5.0.4.jar'),
      'opt/app/lib/oro-2.0.8.jar': jar('oro-2.0.8.jar'),
      'opt/app/lib/javax.inject-1.jar': jar('javax.inject-1.jar'),
    });
    expect(result.problems).toEqual([]);
    expect(result.targets.flatMap(summary).sort((a, b) => a.purl.localeCompare(b.purl))).toEqual([
      { purl: 'pkg:maven/javax.inject/javax.inject@1', at: ['opt/app/lib/javax.inject-1.jar'], licenses: [] },
      { purl: 'pkg:maven/net.minidev/accessors-smart@2.5.2', at: ['opt/app/lib/accessors-smart-2.5.2.jar'], licenses: ['The Apache Software License, Version 2.0'] },
      { purl: 'pkg:maven/net.sf.jopt-simple/jopt-simple@5.0.4', at: ['opt/app/lib/jopt-simple-5.0.4.jar'], licenses: ['The MIT License'] },
      // Jakarta ORO's manifest has its version in a named section, and no group: oro:oro as on Maven Central.
      { purl: 'pkg:maven/oro/oro@2.0.8', at: ['opt/app/lib/oro-2.0.8.jar'], licenses: ['Apache-1.1'] }, // its META-INF/LICENSE: the Apache Software License 1.1
    ].sort((a, b) => a.purl.localeCompare(b.purl)));
    for (const t of result.targets) expect(t.components.every((c) => c.direct && c.scope === 'runtime')).toBe(true);
  });

  it('reads the jars of a war (deflated) and of a Spring Boot jar (stored) in place, named as the unpacker names them', async () => {
    const war = makeZip({
      entries: {
        'META-INF/MANIFEST.MF': 'Manifest-Version: 1.0\r\n\r\n',
        'META-INF/maven/com.example/shop/pom.properties': 'groupId=com.example\nartifactId=shop\nversion=1.0.0\n',
        'WEB-INF/lib/jopt-simple-5.0.4.jar': jar('jopt-simple-5.0.4.jar'),
        'WEB-INF/lib/oro-2.0.8.jar': jar('oro-2.0.8.jar'),
      },
    });
    const boot = makeZip({
      preamble: '#!/bin/bash\n# launch script of a fully executable Spring Boot jar\nexec java -jar "$0" "$@"\n',
      entries: {
        'META-INF/maven/com.example/api/pom.properties': 'groupId=com.example\nartifactId=api\nversion=2.1.0\n',
        'BOOT-INF/lib/accessors-smart-2.5.2.jar': jar('accessors-smart-2.5.2.jar'),
        'BOOT-INF/lib/javax.inject-1.jar': jar('javax.inject-1.jar'),
      },
      stored: (n) => n.endsWith('.jar'),
    });
    const result = await scan({ 'usr/local/tomcat/webapps/shop.war': war, 'app/api.jar': boot });
    expect(result.problems).toEqual([]);
    const shop = result.targets.find((t) => t.file === 'usr/local/tomcat/webapps/shop.war')!;
    expect(summary(shop).map((c) => [c.purl, c.at[0]])).toEqual([
      ['pkg:maven/com.example/shop@1.0.0', 'usr/local/tomcat/webapps/shop.war'],
      ['pkg:maven/net.sf.jopt-simple/jopt-simple@5.0.4', 'usr/local/tomcat/webapps/shop.war!/WEB-INF/lib/jopt-simple-5.0.4.jar'],
      ['pkg:maven/oro/oro@2.0.8', 'usr/local/tomcat/webapps/shop.war!/WEB-INF/lib/oro-2.0.8.jar'],
    ]);
    expect(shop.roots).toEqual(['pkg:maven/com.example/shop@1.0.0']);
    expect(shop.components.find((c) => c.name === 'com.example:shop')!.dependsOn.sort()).toEqual(['pkg:maven/net.sf.jopt-simple/jopt-simple@5.0.4', 'pkg:maven/oro/oro@2.0.8']);
    expect(shop.components.filter((c) => c.direct).map((c) => c.name)).toEqual(['com.example:shop']);
    const api = result.targets.find((t) => t.file === 'app/api.jar')!;
    expect(summary(api).map((c) => c.purl)).toEqual(['pkg:maven/com.example/api@2.1.0', 'pkg:maven/javax.inject/javax.inject@1', 'pkg:maven/net.minidev/accessors-smart@2.5.2']);
  });

  it('an upload unpacked beside the war (shop.war!/) has its nested jars scanned once, as files', async () => {
    const pom = '<project><modelVersion>4.0.0</modelVersion><groupId>com.example</groupId><artifactId>shop</artifactId><version>1.0.0</version>'
      + '<dependencies><dependency><groupId>junit</groupId><artifactId>junit</artifactId><version>4.13.2</version><scope>test</scope></dependency></dependencies></project>';
    const war = makeZip({
      entries: {
        'META-INF/maven/com.example/shop/pom.properties': 'groupId=com.example\nartifactId=shop\nversion=1.0.0\n',
        'META-INF/maven/com.example/shop/pom.xml': pom,
        'WEB-INF/lib/oro-2.0.8.jar': jar('oro-2.0.8.jar'),
      },
    });
    const root = await writeTree({
      'shop.war': war,
      'shop.war!/META-INF/maven/com.example/shop/pom.xml': pom,
      'shop.war!/WEB-INF/lib/oro-2.0.8.jar': jar('oro-2.0.8.jar'),
    });
    // Every extractor: the pom packed into the war is how it was built (junit for its tests), not what it ships.
    const result = await scanTree(root, { extractors });
    const all = result.targets.flatMap((t) => t.components.map((c) => `${c.purl} ${c.locations[0]!.file}`));
    expect(all.sort()).toEqual([
      'pkg:maven/com.example/shop@1.0.0 shop.war',
      'pkg:maven/oro/oro@2.0.8 shop.war!/WEB-INF/lib/oro-2.0.8.jar',
    ]);
  });

  it('zip64 end records, with and without a preamble before the zip', async () => {
    const entries = { 'META-INF/maven/com.example/big/pom.properties': 'groupId=com.example\nartifactId=big\nversion=9.0\n', 'lib/oro-2.0.8.jar': jar('oro-2.0.8.jar') };
    const result = await scan({
      'a/big-9.0.jar': makeZip({ entries, zip64: true }),
      'b/big-9.0.jar': makeZip({ entries, zip64: true, preamble: '#!/bin/sh\nexec java -jar "$0"\n' }),
    });
    expect(result.problems).toEqual([]);
    for (const t of result.targets) expect(t.components.map((c) => c.purl)).toEqual(['pkg:maven/com.example/big@9.0', 'pkg:maven/oro/oro@2.0.8']);
    expect(result.targets).toHaveLength(2);
  });

  it('a shaded jar contains the artifacts whose pom.properties it carries', async () => {
    const shaded = makeZip({
      entries: {
        'META-INF/maven/com.example/tool/pom.properties': 'groupId=com.example\nartifactId=tool\nversion=3.0\n',
        'META-INF/maven/com.google.guava/guava/pom.properties': '#Generated by Maven\ngroupId=com.google.guava\nartifactId=guava\nversion=31.1-jre\n',
      },
    });
    const result = await scan({ 'opt/tool/tool-3.0.jar': shaded });
    const target = result.targets[0]!;
    expect(target.roots).toEqual(['pkg:maven/com.example/tool@3.0']);
    expect(target.components.find((c) => c.name === 'com.example:tool')!.dependsOn).toEqual(['pkg:maven/com.google.guava/guava@31.1-jre']);
  });

  it('a damaged jar inside a war is a problem of the war; its other jars are still read', async () => {
    const war = makeZip({ entries: { 'WEB-INF/lib/broken-1.0.jar': 'PK\u0003\u0004 not a zip', 'WEB-INF/lib/oro-2.0.8.jar': jar('oro-2.0.8.jar') } });
    const result = await scan({ 'shop.war': war });
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]).toMatchObject({ file: 'shop.war' });
    expect(result.problems[0]!.message).toContain('shop.war!/WEB-INF/lib/broken-1.0.jar');
    // Nothing gives shop.war a version: it is the container, its jars the roots.
    expect(result.targets[0]!.components.map((c) => [c.purl, c.direct])).toEqual([['pkg:maven/oro/oro@2.0.8', true]]);
    expect(result.targets[0]!.roots).toEqual(['pkg:maven/oro/oro@2.0.8']);
  });

  it('damaged central directories and entries are Chinese problems, never crashes', async () => {
    const original = jar('jopt-simple-5.0.4.jar');
    let seed = 11;
    const random = () => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed / 2 ** 31; };
    const files: Record<string, Buffer> = {};
    for (let round = 0; round < 40; round++) {
      const damaged = Buffer.from(original);
      // The central directory sits at the end: damage it, and some local headers and data.
      for (let i = 0; i < 6; i++) damaged[damaged.length - 1 - Math.floor(random() * 8000)] = Math.floor(random() * 256);
      for (let i = 0; i < 4; i++) damaged[Math.floor(random() * damaged.length)] = Math.floor(random() * 256);
      files[`lib/damaged-${round}.jar`] = damaged;
    }
    const result = await scan(files);
    for (const p of result.problems) expect(p.message, p.message).toMatch(/Java 归档/);
    // Each damaged jar is either still identified or one problem of its own.
    expect(new Set([...result.problems.map((p) => p.file), ...result.targets.map((t) => t.file)]).size).toBe(40);
  });

  it('a damaged archive is a problem of its own file; the rest of the scan goes on', async () => {
    const result = await scan({ 'lib/broken.jar': 'PK\u0003\u0004 not really a zip', 'lib/oro-2.0.8.jar': jar('oro-2.0.8.jar') });
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]).toMatchObject({ file: 'lib/broken.jar' });
    expect(result.problems[0]!.message).toContain('无法读取 Java 归档');
    expect(result.targets.map((t) => t.file)).toEqual(['lib/oro-2.0.8.jar']);
  });
});

describe('Java archive metadata', () => {
  it('claims jars, wars, ears and Jenkins plugins; the pom extractor leaves poms packed in them alone', () => {
    expectClaims(javaArchiveExtractor, ['a.jar', 'x/b.WAR', 'c.ear', 'plugins/git.hpi', 'plugins/x.jpi'], ['a.jar.sha1', 'pom.xml', 'a.zip', 'a.jarx']);
    const pom = extractors.find((e) => e.name === 'pom')!;
    expectClaims(pom, ['pom.xml', 'app/pom.xml', 'app.zip!/src/pom.xml', 'x.jar!/META-INF/pom.xml'], ['lib/x.jar!/META-INF/maven/g/a/pom.xml', 'a.war!/WEB-INF/lib/b.jar!/META-INF/maven/g/b/pom.xml']);
  });

  it('splits file names into artifact and version', () => {
    expect(nameAndVersionOf('lib/guava-31.1-jre.jar')).toEqual({ artifact: 'guava', version: '31.1-jre' });
    expect(nameAndVersionOf('log4j-api-2.17.1.jar')).toEqual({ artifact: 'log4j-api', version: '2.17.1' });
    expect(nameAndVersionOf('spring-core-5.3.20.RELEASE.jar')).toEqual({ artifact: 'spring-core', version: '5.3.20.RELEASE' });
    expect(nameAndVersionOf('app.war')).toEqual({ artifact: 'app', version: '' });
  });

  it('reads properties and continued manifest lines', () => {
    expect(parseProperties('# c\n! c\ngroupId=a.b\nartifactId : x\nversion 1.0\n')).toEqual(new Map([['groupId', 'a.b'], ['artifactId', 'x'], ['version', '1.0']]));
    // Real manifests of osv-scalibr's archive extractor tests.
    const manifest = parseManifest(readFileSync(path.join(CORPORA, 'lockfiles/scalibr/java/archive/testdata/manifest-symbolicname/MANIFEST.MF'), 'utf8'));
    expect(manifest.get('bundle-symbolicname')).toBe('com.google.guava.failureaccess');
    expect(manifest.get('bundle-description')).toContain('com.google.common.util.concurrent.internal.InternalFutureFailureAccess and');
    expect(manifest.get('export-package')).toBe('com.google.common.util.concurrent.internal;version="1.0.1"');
  });

  it('a manifest names group, artifact, version and licence when there is no pom.properties', async () => {
    const manifest = readFileSync(path.join(CORPORA, 'lockfiles/scalibr/java/archive/testdata/manifest-symbolicname/MANIFEST.MF'));
    const root = await writeTree({ 'failureaccess-1.0.1.jar': makeZip({ entries: { 'META-INF/MANIFEST.MF': manifest } }) });
    await mkdir(path.join(root, 'x'), { recursive: true });
    await writeFile(path.join(root, 'x/ivy.jar'), makeZip({ entries: { 'META-INF/MANIFEST.MF': readFileSync(path.join(CORPORA, 'lockfiles/scalibr/java/archive/testdata/combine-manifest-filename/MANIFEST.MF')) } }));
    const result = await scanTree(root, { extractors });
    expect(result.targets.flatMap(summary)).toEqual([
      { purl: 'pkg:maven/com.google.guava/failureaccess@1.0.1', at: ['failureaccess-1.0.1.jar'], licenses: ['http://www.apache.org/licenses/LICENSE-2.0.txt'] },
      { purl: 'pkg:maven/org.apache/ivy@2.4.0', at: ['x/ivy.jar'], licenses: [] },
    ]);
  });
});
