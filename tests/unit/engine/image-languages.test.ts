// Language packages inside a container image: a folder shaped like an image's root filesystem,
// with real metadata files (tests/fixtures/image-langs, gobinary, jars) where each package manager
// installs them, scanned with every extractor as an image's squashed root is. Each package is found
// once, located at its path in the image, with the licences its metadata declares.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { allExtractors } from '../../../server/engine/extractors/index.ts';
import { inventory } from '../../../server/engine/output/inventory.ts';
import type { ScanResult } from '../../../server/engine/model.ts';
import { makeZip } from '../../support/make-zip.ts';
import { useTempScan } from '../../support/temp-scan.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures');
const fx = (rel: string) => readFileSync(path.join(FIXTURES, rel));
const { scan, writeTree } = useTempScan('cairn-image-langs-', allExtractors);

function rootfs(): Record<string, Buffer | string | object> {
  const gem = (name: string) => fx(`image-langs/gems/${name}.gemspec`);
  return {
    'etc/os-release': 'ID=debian\nVERSION_ID="12"\n',
    // Python: Debian's dist-packages (egg-info folder and single-file egg-info) and pip's site-packages.
    'usr/lib/python3/dist-packages/PyJWT-2.6.0.egg-info/PKG-INFO': fx('image-langs/python/PyJWT-2.6.0.PKG-INFO'),
    'usr/lib/python3/dist-packages/PyJWT-2.6.0.egg-info/top_level.txt': 'jwt\n',
    'usr/lib/python3/dist-packages/crcmod-1.7.egg-info': fx('image-langs/python/crcmod-1.7.PKG-INFO'),
    'usr/local/lib/python3.12/site-packages/distro-1.8.0.dist-info/METADATA': fx('image-langs/python/distro-1.8.0.METADATA'),
    'usr/local/lib/python3.12/site-packages/distro-1.8.0.dist-info/RECORD': 'distro/__init__.py,,\n',
    // An egg installed zipped by easy_install, read in place.
    'usr/local/lib/python3.12/site-packages/PyJWT-2.6.0-py3.12.egg': makeZip({
      entries: { 'EGG-INFO/PKG-INFO': fx('image-langs/python/PyJWT-2.6.0.PKG-INFO'), 'jwt/__init__.py': '' },
    }),
    // npm: a global install (debug with ms nested), an application's node_modules without its
    // package.json (hoisted), and an application with package.json and node_modules but no lockfile.
    'usr/local/lib/node_modules/debug/package.json': fx('image-langs/npm/debug/package.json'),
    'usr/local/lib/node_modules/debug/node_modules/ms/package.json': fx('image-langs/npm/ms/package.json'),
    'srv/api/node_modules/debug/package.json': fx('image-langs/npm/debug/package.json'),
    'srv/api/node_modules/ms/package.json': fx('image-langs/npm/ms/package.json'),
    'opt/web/package.json': { name: 'web', version: '1.0.0', dependencies: { debug: '^4.4.0' } },
    'opt/web/node_modules/debug/package.json': fx('image-langs/npm/debug/package.json'),
    'opt/web/node_modules/ms/package.json': fx('image-langs/npm/ms/package.json'),
    // Ruby: the official image's bundle folder, and Debian's gem folder with the gem unpacked beside its specification.
    'usr/local/bundle/specifications/test-unit-3.3.7.gemspec': gem('test-unit-3.3.7'),
    'usr/local/bundle/specifications/power_assert-2.0.3.gemspec': gem('power_assert-2.0.3'),
    'var/lib/gems/3.1.0/specifications/rake-13.2.1.gemspec': gem('rake-13.2.1'),
    'var/lib/gems/3.1.0/gems/rake-13.2.1/rake.gemspec': gem('rake-13.2.1'),
    // Go, Java, PHP, .NET.
    'usr/local/bin/hello': fx('gobinary/hello-linux-amd64'),
    'opt/app/lib/jopt-simple-5.0.4.jar': fx('jars/jopt-simple-5.0.4.jar'),
    'usr/local/tomcat/webapps/shop.war': makeZip({
      entries: {
        'META-INF/maven/com.example/shop/pom.properties': 'groupId=com.example\nartifactId=shop\nversion=1.0.0\n',
        'WEB-INF/lib/oro-2.0.8.jar': fx('jars/oro-2.0.8.jar'),
      },
    }),
    'var/www/html/vendor/composer/installed.json': fx('image-langs/installed.json'),
    'app/datacollector.deps.json': fx('image-langs/datacollector.deps.json'),
    // Not packages: text and data files a Go-binary check must pass over.
    'usr/share/zoneinfo/UTC': Buffer.alloc(200, 1),
    'usr/local/bin/docker-entrypoint.sh': '#!/bin/sh\nexec "$@"\n',
  };
}

const byPurl = (result: ScanResult) => new Map(inventory(result).map((e) => [e.purl, e]));

describe('language packages in an image root filesystem', () => {
  it('finds each installed package with its path in the image and its declared licences', async () => {
    const result = await scan(rootfs());
    expect(result.problems).toEqual([]);
    const found = byPurl(result);
    const expectAt = (purl: string, files: string[], licenses?: string[]) => {
      const entry = found.get(purl);
      expect(entry, purl).toBeDefined();
      expect(entry!.locations.map((l) => l.file).sort(), purl).toEqual([...files].sort());
      if (licenses) expect(entry!.licenses, purl).toEqual(licenses);
    };

    expectAt('pkg:pypi/pyjwt@2.6.0', ['usr/lib/python3/dist-packages/PyJWT-2.6.0.egg-info/PKG-INFO', 'usr/local/lib/python3.12/site-packages/PyJWT-2.6.0-py3.12.egg'], ['MIT']);
    expectAt('pkg:pypi/crcmod@1.7', ['usr/lib/python3/dist-packages/crcmod-1.7.egg-info'], ['MIT']);
    expectAt('pkg:pypi/distro@1.8.0', ['usr/local/lib/python3.12/site-packages/distro-1.8.0.dist-info/METADATA'], ['Apache-2.0']);

    expectAt('pkg:npm/debug@4.4.3', [
      'usr/local/lib/node_modules/debug/package.json', 'srv/api/node_modules/debug/package.json', 'opt/web/node_modules/debug/package.json',
    ], ['MIT']);
    expectAt('pkg:npm/ms@2.1.3', [
      'usr/local/lib/node_modules/debug/node_modules/ms/package.json', 'srv/api/node_modules/ms/package.json', 'opt/web/node_modules/ms/package.json',
    ], ['MIT']);
    expect(found.get('pkg:npm/debug@4.4.3')!.dependsOn).toEqual(['pkg:npm/ms@2.1.3']);

    expectAt('pkg:gem/test-unit@3.3.7', ['usr/local/bundle/specifications/test-unit-3.3.7.gemspec'], ['Ruby', 'BSDL', 'PSFL']);
    expect(found.get('pkg:gem/test-unit@3.3.7')!.dependsOn).toEqual(['pkg:gem/power_assert@2.0.3']);
    expectAt('pkg:gem/power_assert@2.0.3', ['usr/local/bundle/specifications/power_assert-2.0.3.gemspec'], ['BSD-2-Clause', 'Ruby']);
    // Once, at its specification: the copy unpacked with the gem is not a second package.
    expectAt('pkg:gem/rake@13.2.1', ['var/lib/gems/3.1.0/specifications/rake-13.2.1.gemspec'], ['MIT']);

    const go = readFileSync(path.join(FIXTURES, 'gobinary/GO_VERSION'), 'utf8').split(' ')[2]!.slice(2);
    for (const purl of ['pkg:golang/example.com/hello@v2.5.0', 'pkg:golang/example.com/greeting@v1.4.2', 'pkg:golang/example.com/colors@v0.3.1', `pkg:golang/stdlib@${go}`]) {
      expectAt(purl, ['usr/local/bin/hello']);
    }

    expectAt('pkg:maven/net.sf.jopt-simple/jopt-simple@5.0.4', ['opt/app/lib/jopt-simple-5.0.4.jar'], ['The MIT License']);
    expectAt('pkg:maven/com.example/shop@1.0.0', ['usr/local/tomcat/webapps/shop.war']);
    expectAt('pkg:maven/oro/oro@2.0.8', ['usr/local/tomcat/webapps/shop.war!/WEB-INF/lib/oro-2.0.8.jar']);

    expectAt('pkg:composer/guzzlehttp/psr7@1.8.3', ['var/www/html/vendor/composer/installed.json'], ['MIT']);
    expectAt('pkg:nuget/Newtonsoft.Json@9.0.1', ['app/datacollector.deps.json']);

    // Which extractor read what: the targets per file.
    const types = result.targets.map((t) => `${t.type} ${t.file}`);
    expect(types).toEqual(expect.arrayContaining([
      'npm usr/local/lib/node_modules/debug/package.json', 'npm srv/api/node_modules/debug/package.json', 'npm srv/api/node_modules/ms/package.json',
      'npm opt/web/package.json', 'gobinary usr/local/bin/hello', 'jar usr/local/tomcat/webapps/shop.war', 'gemspec usr/local/bundle/specifications/test-unit-3.3.7.gemspec',
    ]));
    expect(types.filter((t) => t.startsWith('gobinary'))).toEqual(['gobinary usr/local/bin/hello']);
  });

  it('a global npm package is direct; what it brings is not', async () => {
    const result = await scan({
      'usr/local/lib/node_modules/debug/package.json': fx('image-langs/npm/debug/package.json'),
      'usr/local/lib/node_modules/debug/node_modules/ms/package.json': fx('image-langs/npm/ms/package.json'),
    });
    expect(result.targets).toHaveLength(1);
    const [target] = result.targets;
    expect(target!.roots).toEqual(['pkg:npm/debug@4.4.3']);
    expect(target!.components.map((c) => [c.purl, c.direct, c.scope])).toEqual([['pkg:npm/debug@4.4.3', true, 'runtime'], ['pkg:npm/ms@2.1.3', false, 'runtime']]);
  });

  it('a zipped egg the upload unpacked beside itself is read once, from the unpacked metadata', async () => {
    const pkgInfo = fx('image-langs/python/PyJWT-2.6.0.PKG-INFO');
    const site = 'lib/python3.12/site-packages';
    const result = await scan({
      [`${site}/PyJWT-2.6.0-py3.12.egg`]: makeZip({ entries: { 'EGG-INFO/PKG-INFO': pkgInfo } }),
      [`${site}/PyJWT-2.6.0-py3.12.egg!/EGG-INFO/PKG-INFO`]: pkgInfo,
    });
    expect(result.problems).toEqual([]);
    expect(result.targets.flatMap((t) => t.components.map((c) => `${c.purl} ${c.locations[0]!.file}`))).toEqual([
      `pkg:pypi/pyjwt@2.6.0 ${site}/PyJWT-2.6.0-py3.12.egg!/EGG-INFO/PKG-INFO`,
    ]);
  });

  it('a node_modules beside a lockfile (no package.json) belongs to the lockfile', async () => {
    const result = await scan({
      'srv/app/package-lock.json': { name: 'app', lockfileVersion: 3, packages: { 'node_modules/ms': { version: '2.1.3', license: 'MIT' } } },
      'srv/app/node_modules/ms/package.json': fx('image-langs/npm/ms/package.json'),
    });
    expect(result.targets.map((t) => `${t.type} ${t.file}`)).toEqual(['npm srv/app/package-lock.json']);
  });

  it('a project\'s node_modules is still read through its package.json, not as loose packages', async () => {
    const root = await writeTree({
      'opt/web/package.json': { name: 'web', version: '1.0.0', dependencies: { debug: '^4.4.0' } },
      'opt/web/node_modules/debug/package.json': fx('image-langs/npm/debug/package.json'),
      'opt/web/node_modules/ms/package.json': fx('image-langs/npm/ms/package.json'),
    });
    const { scanTree } = await import('../../../server/engine/scan.ts');
    const result = await scanTree(root, { extractors: allExtractors });
    expect(result.targets.map((t) => `${t.type} ${t.file}`)).toEqual(['npm opt/web/package.json']);
    expect(result.targets[0]!.project?.name).toBe('web');
  });
});
