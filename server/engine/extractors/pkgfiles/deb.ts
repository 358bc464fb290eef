// Debian binary packages as files (`.deb`, the installer's `.udeb`) and opkg's `.ipk` (OpenWrt,
// Yocto): an `ar` archive of debian-binary, control.tar.{gz,xz,zst,bz2} (or an uncompressed
// control.tar) and data.tar.*; older opkg packages are a gzipped tar of the same three members.
// The control file gives the component (Package, Version, Architecture, Source, Maintainer) with
// the purl the dpkg status extractor writes for the same package installed; the licences come
// from the machine-readable copyright the package installs (usr/share/doc/<pkg>/copyright),
// looked for in data.tar within a bounded amount of decompression. Depends are not edges: the
// packages they name are not in the file (the scan's context reads siblings only as text, so
// their identities cannot be known exactly). Only the members named are read, in place.
import type { Component, Extractor, InputFile, Target } from '../../model.ts';
import { CONFIDENCE, ExtractError } from '../../model.ts';
import type { RandomAccess } from '../common/random-access.ts';
import { bufferAccess, fileAccess } from '../common/random-access.ts';
import { osPurl } from '../os/common.ts';
import { dep5Licenses } from '../os/copyright.ts';
import { parseStanzas } from '../os/deb822.ts';
import type { Compression } from './common.ts';
import {
  ArFormatError, chunksOf, compressionOf, decode, evidence, isAr, lineOffset, listAr, MAX_CONTROL_BYTES, MAX_CONTROL_MEMBER,
  TarFormatError, TarScanner,
} from './common.ts';

const DEB_FILE = /\.(?:deb|udeb|ipk)$/i;
/** Decompressed data.tar read at most while looking for the copyright file. */
const MAX_DATA_SCAN = 64 * 1024 * 1024;

export interface DebControl {
  name: string;
  version: string;
  architecture: string;
  source?: string;
  sourceVersion?: string;
  maintainer?: string;
  depends: string;
  /** The control file's text, for the evidence. */
  text: string;
}

export function parseControl(text: string): DebControl {
  const stanza = parseStanzas(text)[0];
  if (!stanza) throw new ExtractError('control 文件为空');
  if (stanza.error) throw new ExtractError(`control 文件无法解析：${stanza.error}`);
  const f = stanza.fields;
  const name = f.get('package');
  const version = f.get('version');
  if (!name) throw new ExtractError('control 文件缺少 Package 字段');
  if (!version) throw new ExtractError(`control 文件中软件包 ${name} 缺少 Version 字段`);
  const source = /^(\S+)(?:\s*\(([^)]+)\))?/.exec(f.get('source')?.trim() ?? '');
  return {
    name, version, architecture: f.get('architecture') ?? '',
    ...(source ? { source: source[1], ...(source[2] ? { sourceVersion: source[2].trim() } : {}) } : {}),
    ...(f.get('maintainer') ? { maintainer: f.get('maintainer') } : {}),
    depends: [f.get('pre-depends'), f.get('depends')].filter(Boolean).join(', '),
    text,
  };
}

interface Members {
  control: { name: string; src: RandomAccess; compression: Compression };
  data?: { name: string; src: RandomAccess; compression: Compression };
}

const memberCompression = (file: string, name: string): Compression => {
  const c = compressionOf(name);
  if (!c) throw new ExtractError(`${file} 的成员 ${name} 使用了无法识别的压缩格式`);
  return c;
};

/** The control and data members of an ar package (deb, udeb, newer ipk). */
async function arMembers(file: string, src: RandomAccess): Promise<Members> {
  const members = await listAr(src);
  const control = members.find((m) => /^control\.tar(?:\.\w+)?$/.test(m.name));
  const data = members.find((m) => /^data\.tar(?:\.\w+)?$/.test(m.name));
  if (!members.some((m) => m.name === 'debian-binary')) throw new ExtractError(`${file} 无效：ar 归档中没有 debian-binary`);
  if (!control) throw new ExtractError(`${file} 中没有 control.tar 成员`);
  if (control.size > MAX_CONTROL_MEMBER) throw new ExtractError(`${file} 的 ${control.name} 有 ${control.size} 字节，超过控制数据上限`);
  const window = (offset: number, size: number): RandomAccess => ({
    size,
    read: (position, length) => src.read(offset + Math.max(0, position), Math.max(0, Math.min(length, size - position))),
  });
  return {
    control: { name: control.name, src: window(control.offset, control.size), compression: memberCompression(file, control.name) },
    ...(data ? { data: { name: data.name, src: window(data.offset, data.size), compression: memberCompression(file, data.name) } } : {}),
  };
}

/** The members of an old-style ipk (a gzipped tar holding ./control.tar.gz and ./data.tar.gz), control only. */
async function tarIpkMembers(file: string, src: RandomAccess): Promise<Members> {
  let control: { name: string; data: Buffer } | undefined;
  const scanner = new TarScanner((n) => /^control\.tar(?:\.\w+)?$/.test(n), (e) => { control = { name: e.name, data: e.data }; return true; });
  await decode('gzip', chunksOf(src), { label: file, compressedSize: src.size, cap: MAX_CONTROL_MEMBER * 4, quietCap: false, onData: (c) => scanner.feed(c) });
  if (!control) throw new ExtractError(`${file} 中没有 control.tar 成员`);
  return { control: { name: control.name, src: bufferAccess(control.data), compression: memberCompression(file, control.name) } };
}

async function readControl(file: string, members: Members): Promise<{ text: string; name: string; offset: number }> {
  const { control } = members;
  let found: { text: string; name: string; offset: number } | undefined;
  const scanner = new TarScanner((n) => n === 'control', (e) => { found = { text: e.data.toString('utf8'), name: e.name, offset: e.offset }; return true; });
  await decode(control.compression, chunksOf(control.src), {
    label: `${file} 的 ${control.name}`, compressedSize: control.src.size, cap: MAX_CONTROL_BYTES, onData: (c) => scanner.feed(c),
  });
  if (!found) throw new ExtractError(`${file} 的 ${control.name} 中没有 control 文件${scanner.headers ? '' : '（控制数据为空或已截断）'}`);
  return found;
}

/** The package's own copyright file in data.tar, when found within MAX_DATA_SCAN; undefined otherwise. */
async function readCopyright(file: string, members: Members, name: string): Promise<string | undefined> {
  const { data } = members;
  if (!data) return undefined;
  let text: string | undefined;
  const wanted = `usr/share/doc/${name}/copyright`;
  const scanner = new TarScanner((n) => n === wanted, (e) => { text = e.data.toString('utf8'); return true; });
  try {
    await decode(data.compression, chunksOf(data.src), {
      label: `${file} 的 ${data.name}`, compressedSize: data.src.size, cap: MAX_DATA_SCAN, quietCap: true, onData: (c) => scanner.feed(c),
    });
  } catch (error) {
    // The files are not what this extractor reports: damaged data costs the licence, not the package.
    if (error instanceof ExtractError || error instanceof TarFormatError) return undefined;
    throw error;
  }
  return text;
}

function namespaceOf(control: DebControl, ipk: boolean): string {
  if (ipk) return 'openwrt';
  if (/ubuntu/i.test(control.version) || /ubuntu/i.test(control.maintainer ?? '')) return 'ubuntu';
  return 'debian';
}

/** The purl a package file gets, also what edges to a sibling point at. */
function debPurl(control: DebControl, ipk: boolean): string {
  return osPurl('deb', namespaceOf(control, ipk), {
    name: control.name, version: control.version, architecture: control.architecture,
    ...(control.source ? { source: control.source } : {}), ...(control.sourceVersion ? { sourceVersion: control.sourceVersion } : {}),
  }, null);
}

/** `file` names the package in messages (`Debian 软件包 pool/x.deb`). */
async function readPackage(file: string, src: RandomAccess): Promise<{ members: Members; control: DebControl; at: { name: string; offset: number } }> {
  const head = await src.read(0, 8);
  let members: Members;
  try {
    if (isAr(head)) members = await arMembers(file, src);
    else if (head[0] === 0x1f && head[1] === 0x8b && /\.ipk$/i.test(file)) members = await tarIpkMembers(file, src);
    else throw new ExtractError(`${file} 不是有效的软件包（既不是 ar 归档，也不是 gzip 压缩的 tar）`);
    const read = await readControl(file, members);
    let control: DebControl;
    try {
      control = parseControl(read.text);
    } catch (error) {
      if (error instanceof ExtractError) throw new ExtractError(`${file}：${error.message}`);
      throw error;
    }
    return { members, control, at: read };
  } catch (error) {
    if (error instanceof ArFormatError || error instanceof TarFormatError) throw new ExtractError(`${file} 已损坏：${error.message}`);
    throw error;
  }
}

export const debFileExtractor: Extractor = {
  name: 'deb-file',
  ecosystem: 'deb',
  reads: ['*.deb', '*.udeb', '*.ipk'],
  matches: (p) => DEB_FILE.test(p),
  async extract(file: InputFile): Promise<Target[]> {
    const src = await fileAccess(file);
    const ipk = /\.ipk$/i.test(file.path);
    const label = `${ipk ? 'opkg' : 'Debian'} 软件包 ${file.path}`;
    if (src.size === 0) throw new ExtractError(`${label} 是空文件`);
    const { members, control, at } = await readPackage(label, src);
    const purl = debPurl(control, ipk);
    const copyright = await readCopyright(label, members, control.name);

    const versionAt = lineOffset(control.text, /^Package:.*$/im);
    const component: Component = {
      purl, ecosystem: 'deb', name: control.name, version: control.version, direct: true, scope: 'runtime',
      locations: [{ file: file.path }],
      licenses: copyright ? dep5Licenses(copyright) : [],
      dependsOn: [],
      ...(control.maintainer ? { maintainer: control.maintainer } : {}),
      evidence: [evidence(`${file.path}!/${members.control.name}!/${at.name}`, 'control', `Package: ${control.name}; Version: ${control.version}`, versionAt)],
      confidence: CONFIDENCE.METADATA,
    };
    return [{ file: file.path, type: 'deb-file', ecosystem: 'deb', project: null, roots: [purl], components: [component] }];
  },
};
