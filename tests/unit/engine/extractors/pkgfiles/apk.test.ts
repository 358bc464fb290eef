// Alpine package files: the real .PKGINFO of strace-5.14-r0 (tests/fixtures/public/pkgfiles) packed
// as abuild packs it — signature and control tar segments without end blocks, then the data tar,
// each its own gzip stream, concatenated. Then a gzip bomb in the signature stream, a truncated
// package, an Android application of the same extension and an apk-tools v3 package.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { CONFIDENCE } from '../../../../../server/engine/model.ts';
import { apkFileExtractor, parsePkgInfo } from '../../../../../server/engine/extractors/pkgfiles/apk.ts';
import { alpinePackage, tarOf } from '../../../../support/package-files.ts';
import { useTempScan } from '../../../../support/temp-scan.ts';
import { expectClaims } from '../extractor.ts';

const PKGINFO = readFileSync(path.resolve('tests/fixtures/public/pkgfiles/strace-5.14-r0.PKGINFO'));

const apk = (options: { signature?: Buffer; pkginfo?: Buffer } = {}) =>
  alpinePackage(options.pkginfo ?? PKGINFO, { signature: options.signature, data: Buffer.from('\x7fELF not really strace\n') });

const { scan } = useTempScan('cairn-apkfile-', [apkFileExtractor]);

describe('Alpine package files', () => {
  it('claims .apk files', () => {
    expectClaims(apkFileExtractor, ['strace-5.14-r0.apk', 'x/Y.APK'], ['a.apks', 'lib/apk/db/installed', 'apk']);
  });

  it('reads .PKGINFO from the control stream of a package', async () => {
    const body = await apk();
    const result = await scan({ 'packages/strace-5.14-r0.apk': body });
    expect(result.problems).toEqual([]);
    expect(result.targets).toHaveLength(1);
    expect(result.targets[0]!.type).toBe('apk-file');
    expect(result.targets[0]!.components).toEqual([{
      purl: 'pkg:apk/alpine/strace@5.14-r0?arch=x86_64',
      ecosystem: 'apk', name: 'strace', version: '5.14-r0', direct: true, scope: 'runtime',
      locations: [{ file: 'packages/strace-5.14-r0.apk' }],
      licenses: ['BSD-3-Clause'],
      dependsOn: [],
      maintainer: 'Natanael Copa <ncopa@alpinelinux.org>',
      evidence: [{ file: 'packages/strace-5.14-r0.apk!/.PKGINFO', rule: '.PKGINFO', text: 'pkgname = strace; pkgver = 5.14-r0', offset: PKGINFO.indexOf('pkgname = strace') }],
      confidence: CONFIDENCE.METADATA,
    }]);
  });

  it('parses repeated fields and names the source package (origin) when it differs', async () => {
    const info = parsePkgInfo(PKGINFO.toString('utf8'));
    expect(info.fields.get('depend')).toEqual(['so:libc.musl-x86_64.so.1', 'so:libdw.so.1']);
    expect(info.fields.get('provides')).toEqual(['cmd:strace-log-merge=5.14-r0', 'cmd:strace=5.14-r0']);
    const sub = Buffer.from(PKGINFO.toString('utf8').replace('pkgname = strace', 'pkgname = strace-doc').replace('license = BSD-3-Clause', 'license = MIT custom'));
    const result = await scan({ 'strace-doc-5.14-r0.apk': await apk({ pkginfo: sub }) });
    const c = result.targets[0]!.components[0]!;
    expect(c.purl).toBe('pkg:apk/alpine/strace-doc@5.14-r0?arch=x86_64&upstream=strace');
    expect(c.licenses).toEqual(['MIT AND LicenseRef-custom']);
  });

  it('a gzip bomb in the signature stream is stopped and reported; the good package is still read', async () => {
    const bomb = await apk({ signature: Buffer.alloc(40 * 1024 * 1024) });
    const result = await scan({ 'bomb.apk': bomb, 'ok/strace-5.14-r0.apk': await apk() });
    expect(result.targets.map((t) => t.file)).toEqual(['ok/strace-5.14-r0.apk']);
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]!.file).toBe('bomb.apk');
    expect(result.problems[0]!.message).toMatch(/^Alpine 软件包 bomb\.apk 的控制数据.*疑似压缩炸弹，已停止读取$/);
  });

  it('truncated, foreign and unsupported files', async () => {
    const whole = await apk();
    const firstStream = gzipSync(await tarOf([['.SIGN.RSA.k.rsa.pub', Buffer.alloc(512, 7)]], true)).length;
    const result = await scan({
      'cut.apk': whole.subarray(0, firstStream + 20),
      'no-pkginfo.apk': gzipSync(await tarOf([['usr/bin/x', Buffer.from('x')]], false)),
      'android.apk': Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(100)]),
      'v3.apk': Buffer.concat([Buffer.from('ADB.pckg'), Buffer.alloc(64)]),
      'text.apk': 'hello\n',
    });
    expect(result.targets).toEqual([]);
    const byFile = Object.fromEntries(result.problems.map((p) => [p.file, p.message]));
    expect(byFile).toEqual({
      'cut.apk': 'Alpine 软件包 cut.apk 的控制数据 无法解压：数据不完整（文件可能被截断）',
      'no-pkginfo.apk': 'Alpine 软件包 no-pkginfo.apk 中没有 .PKGINFO',
      'v3.apk': 'v3.apk 是 apk-tools v3（ADB）格式的 Alpine 软件包，暂不支持读取',
      'text.apk': 'text.apk 不是 Alpine 软件包（不是 gzip 数据，也不是 Android 应用）',
    });
  });
});
