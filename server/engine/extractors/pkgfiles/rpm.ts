// RPM package files (`.rpm`, source packages `.src.rpm` too), read in place as rpm's
// doc/manual/format.md lays them out: a 96-byte lead (magic ED AB EE DB), the signature header
// (magic 8E AD E8 01, padded to 8 bytes), then the main header, whose tags give the component
// (name, epoch, version, release, arch, licence, source rpm, vendor) — parsed and checked by the
// same code as the installed-package database (os/rpm/header.ts). The payload is not read.
// The purl is the one the rpm database extractor writes: its namespace from the vendor when it
// names a distribution (the file says nothing of the system it will be installed on).
import type { Component, Extractor, InputFile, Target } from '../../model.ts';
import { CONFIDENCE, ExtractError } from '../../model.ts';
import { fileAccess } from '../common/random-access.ts';
import type { RandomAccess } from '../common/random-access.ts';
import { distroFromVendor, evr, rpmPurl } from '../os/rpm/extractor.ts';
import type { RpmPackage } from '../os/rpm/header.ts';
import { HeaderError, MAX_DATA_STORE, MAX_INDEX_ENTRIES, parsePackageHeader } from '../os/rpm/header.ts';
import { rpmLicense } from '../os/rpm/license.ts';
import { evidence } from './common.ts';

const RPM_FILE = /\.rpm$/i;
const LEAD_SIZE = 96;
const LEAD_MAGIC = 0xedabeedb;
const HEADER_MAGIC = 0x8eade801;

export interface RpmFile {
  pkg: RpmPackage;
  /** Offset of the main header (its magic) in the file. */
  headerOffset: number;
  /** A source package (lead type 1, or a header without SOURCERPM). */
  source: boolean;
}

async function exact(src: RandomAccess, at: number, length: number, what: string): Promise<Buffer> {
  const b = await src.read(at, length);
  if (b.length !== length) throw new HeaderError(`${what}不完整（文件被截断）`);
  return b;
}

/** The header structure at `at`: its magic checked, its declared sizes within rpm's own limits; answers its total length. */
async function headerAt(src: RandomAccess, at: number, what: string): Promise<{ il: number; dl: number; length: number }> {
  const intro = await exact(src, at, 16, what);
  if (intro.readUInt32BE(0) !== HEADER_MAGIC) throw new HeaderError(`${what}的标识无效（位置 ${at}）`);
  const il = intro.readUInt32BE(8);
  const dl = intro.readUInt32BE(12);
  if (il === 0 || il > MAX_INDEX_ENTRIES) throw new HeaderError(`${what}的索引条目数 ${il} 超出范围（1–${MAX_INDEX_ENTRIES}）`);
  if (dl > MAX_DATA_STORE) throw new HeaderError(`${what}的数据区长度 ${dl} 超过 16 MiB 上限`);
  const length = 16 + il * 16 + dl;
  if (at + length > src.size) throw new HeaderError(`${what}声明 ${length} 字节，超出文件末尾（文件被截断）`);
  return { il, dl, length };
}

/** Reads the lead and both headers; throws HeaderError for a file that is not a readable rpm. */
export async function readRpmFile(src: RandomAccess): Promise<RpmFile> {
  const lead = await exact(src, 0, LEAD_SIZE, '文件头（lead）');
  if (lead.readUInt32BE(0) !== LEAD_MAGIC) throw new HeaderError('不是 RPM 软件包（缺少 lead 标识 ED AB EE DB）');
  const leadType = lead.readUInt16BE(6);
  const signature = await headerAt(src, LEAD_SIZE, '签名头部');
  // The signature header is padded to a multiple of 8 bytes.
  const end = LEAD_SIZE + signature.length;
  const headerOffset = end + ((8 - (end % 8)) % 8);
  const main = await headerAt(src, headerOffset, '主头部');
  const blob = await exact(src, headerOffset + 8, main.length - 8, '主头部');
  const pkg = parsePackageHeader(blob);
  return { pkg, headerOffset, source: leadType === 1 || !pkg.sourceRpm };
}

export const rpmFileExtractor: Extractor = {
  name: 'rpm-file',
  ecosystem: 'rpm',
  reads: ['*.rpm'],
  matches: (p) => RPM_FILE.test(p),
  async extract(file: InputFile): Promise<Target[]> {
    const src = await fileAccess(file);
    if (src.size === 0) throw new ExtractError(`${file.path} 是空文件`);
    let read: RpmFile;
    try {
      read = await readRpmFile(src);
    } catch (error) {
      if (error instanceof HeaderError) throw new ExtractError(`RPM 软件包 ${file.path} 无法读取：${error.message}`);
      throw error;
    }
    const pkg: RpmPackage = read.source ? { ...read.pkg, arch: 'src' } : read.pkg;
    const purl = rpmPurl(pkg, distroFromVendor([pkg]), undefined);
    const license = rpmLicense(pkg.license);
    const component: Component = {
      purl, ecosystem: 'rpm', name: pkg.name, version: evr(pkg), direct: true, scope: 'runtime',
      locations: [{ file: file.path }], licenses: license ? [license] : [], dependsOn: [],
      evidence: [evidence(file.path, 'RPM 头部', `${pkg.name}-${evr(pkg)}.${pkg.arch}`, read.headerOffset)],
      confidence: CONFIDENCE.METADATA,
    };
    return [{ file: file.path, type: 'rpm-file', ecosystem: 'rpm', project: null, roots: [purl], components: [component] }];
  },
};
