// Alpine package files (`.apk`, apk-tools v2 format): concatenated gzip streams that together form
// one tar — the signature segment (.SIGN.*), the control segment (.PKGINFO, install scripts) and
// the data. The streams are decompressed in order, within MAX_CONTROL_BYTES, only until .PKGINFO
// has been read: pkgname, pkgver, arch, license, origin, maintainer give the component, with the
// purl the installed-database extractor (os/apk.ts) writes for the same package. An Android
// application (a zip, also named .apk) is not this format and is passed over; an apk-tools v3
// package (ADB) is reported as not supported.
import type { Component, Extractor, InputFile, Target } from '../../model.ts';
import { CONFIDENCE, ExtractError } from '../../model.ts';
import { fileAccess } from '../common/random-access.ts';
import { osPurl } from '../os/common.ts';
import { apkLicense } from '../os/apk.ts';
import { chunksOf, decode, evidence, lineOffset, MAX_CONTROL_BYTES, TarFormatError, TarScanner } from './common.ts';

const APK_FILE = /\.apk$/i;

export interface PkgInfo {
  /** Field → values in order (depend, provides, replaces repeat). */
  fields: Map<string, string[]>;
  text: string;
}

/** `.PKGINFO`: `key = value` lines, `#` comments. */
export function parsePkgInfo(text: string): PkgInfo {
  const fields = new Map<string, string[]>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const m = /^([A-Za-z_][\w-]*)\s*=\s?(.*)$/.exec(line);
    if (!m) continue;
    const values = fields.get(m[1]!) ?? [];
    values.push(m[2]!.trim());
    fields.set(m[1]!, values);
  }
  return { fields, text };
}

export const apkFileExtractor: Extractor = {
  name: 'apk-file',
  ecosystem: 'apk',
  reads: ['*.apk'],
  matches: (p) => APK_FILE.test(p),
  async extract(file: InputFile): Promise<Target[]> {
    const src = await fileAccess(file);
    if (src.size === 0) throw new ExtractError(`${file.path} 是空文件`);
    const head = await src.read(0, 4);
    if (head.toString('latin1', 0, 2) === 'PK') return []; // an Android application
    if (head.toString('latin1', 0, 3) === 'ADB') throw new ExtractError(`${file.path} 是 apk-tools v3（ADB）格式的 Alpine 软件包，暂不支持读取`);
    if (head[0] !== 0x1f || head[1] !== 0x8b) throw new ExtractError(`${file.path} 不是 Alpine 软件包（不是 gzip 数据，也不是 Android 应用）`);

    let info: { text: string; offset: number } | undefined;
    const scanner = new TarScanner((n) => n === '.PKGINFO', (e) => { info = { text: e.data.toString('utf8'), offset: e.offset }; return true; });
    try {
      await decode('gzip', chunksOf(src), { label: `Alpine 软件包 ${file.path} 的控制数据`, compressedSize: src.size, cap: MAX_CONTROL_BYTES, onData: (c) => scanner.feed(c) });
    } catch (error) {
      if (error instanceof TarFormatError) throw new ExtractError(`Alpine 软件包 ${file.path} 已损坏：${error.message}`);
      throw error;
    }
    if (!info) throw new ExtractError(`Alpine 软件包 ${file.path} 中没有 .PKGINFO`);
    const pkg = parsePkgInfo(info.text);
    const one = (key: string) => pkg.fields.get(key)?.[0] || undefined;
    const name = one('pkgname');
    const version = one('pkgver');
    if (!name) throw new ExtractError(`Alpine 软件包 ${file.path} 的 .PKGINFO 缺少 pkgname`);
    if (!version) throw new ExtractError(`Alpine 软件包 ${file.path} 的 .PKGINFO 缺少 pkgver`);
    const origin = one('origin');
    const purl = osPurl('apk', 'alpine', { name, version, architecture: one('arch') ?? '', ...(origin ? { source: origin } : {}) }, null);
    const license = one('license') ? apkLicense(one('license')!) : undefined;
    const maintainer = one('maintainer');
    const component: Component = {
      purl, ecosystem: 'apk', name, version, direct: true, scope: 'runtime',
      locations: [{ file: file.path }], licenses: license ? [license] : [], dependsOn: [],
      ...(maintainer ? { maintainer } : {}),
      evidence: [evidence(`${file.path}!/.PKGINFO`, '.PKGINFO', `pkgname = ${name}; pkgver = ${version}`, lineOffset(pkg.text, /^pkgname\s*=.*$/m))],
      confidence: CONFIDENCE.METADATA,
    };
    return [{ file: file.path, type: 'apk-file', ecosystem: 'apk', project: null, roots: [purl], components: [component] }];
  },
};
