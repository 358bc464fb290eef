import { describe, expect, it } from 'vitest';
import { HeaderError, MAX_FILES_PER_PACKAGE, RpmHeader, RpmTag, RpmType, parsePackageHeader } from '../../../../../server/engine/extractors/os/rpm/header.ts';
import { buildHeader, packageHeader } from '../../../../support/rpmdb.ts';

const FULL = {
  name: 'bash', version: '5.1.8', release: '6.el9', arch: 'x86_64', epoch: 2, license: 'GPLv3+',
  sourceRpm: 'bash-5.1.8-6.el9.src.rpm', vendor: 'Rocky Enterprise Software Foundation', size: 7_738_634,
  files: ['/usr/bin/bash', '/usr/bin/sh', '/etc/skel/.bashrc'], provides: ['/bin/sh', 'bash', 'config(bash)'], requires: ['libc.so.6()(64bit)', 'rpmlib(PayloadIsZstd)'],
};

/** Patches index entry `i` (0-based) of a built blob: field 0 tag, 1 type, 2 offset, 3 count. */
function patch(blob: Buffer, i: number, field: number, value: number): Buffer {
  const out = Buffer.from(blob);
  if (field === 2) out.writeInt32BE(value, 8 + i * 16 + 8);
  else out.writeUInt32BE(value >>> 0, 8 + i * 16 + field * 4);
  return out;
}

describe('rpm header blobs', () => {
  it('reads name, epoch, version, release, arch, source rpm, licence, vendor, size and the file list', () => {
    expect(parsePackageHeader(packageHeader(FULL))).toEqual({
      name: 'bash', epoch: 2, version: '5.1.8', release: '6.el9', arch: 'x86_64', sourceRpm: 'bash-5.1.8-6.el9.src.rpm',
      license: 'GPLv3+', vendor: 'Rocky Enterprise Software Foundation', size: 7_738_634,
      files: ['/usr/bin/bash', '/usr/bin/sh', '/etc/skel/.bashrc'], filesTruncated: false,
      provides: ['/bin/sh', 'bash', 'config(bash)'], requires: ['libc.so.6()(64bit)', 'rpmlib(PayloadIsZstd)'],
    });
  });

  it('has no epoch when the tag is absent, prefers LONGSIZE, reads OLDFILENAMES and the first of a repeated tag', () => {
    const blob = buildHeader([
      { tag: RpmTag.Name, type: RpmType.String, value: 'kernel' },
      { tag: RpmTag.Name, type: RpmType.String, value: 'ignored' },
      { tag: RpmTag.Version, type: RpmType.String, value: '2.6.32' },
      { tag: RpmTag.Release, type: RpmType.String, value: '754.el6' },
      { tag: RpmTag.Size, type: RpmType.Int32, value: [1] },
      { tag: RpmTag.LongSize, type: RpmType.Int64, value: [5_000_000_000n] },
      { tag: RpmTag.Summary, type: RpmType.I18nString, value: ['The Linux kernel', '内核'] },
      { tag: RpmTag.OldFilenames, type: RpmType.StringArray, value: ['/boot/vmlinuz', '/boot/System.map'] },
    ]);
    const p = parsePackageHeader(blob);
    expect(p).toMatchObject({ name: 'kernel', epoch: null, size: 5_000_000_000, files: ['/boot/vmlinuz', '/boot/System.map'], arch: '' });
    expect(new RpmHeader(blob).string(RpmTag.Summary)).toBe('The Linux kernel');
  });

  it('reads the region tag rpm puts first (HEADERIMMUTABLE) as an ordinary entry', () => {
    const trailer = Buffer.alloc(16);
    const blob = buildHeader([
      { tag: 63, type: RpmType.Bin, value: trailer },
      { tag: RpmTag.Name, type: RpmType.String, value: 'zlib' },
      { tag: RpmTag.Version, type: RpmType.String, value: '1.2.11' },
    ]);
    expect(parsePackageHeader(blob)).toMatchObject({ name: 'zlib', version: '1.2.11', release: '' });
  });

  const good = packageHeader(FULL);
  const hostile: [string, Buffer, RegExp][] = [
    ['shorter than il and dl', Buffer.from([0, 0, 0]), /不足 8 字节/],
    ['no index entries', Buffer.from([0, 0, 0, 0, 0, 0, 0, 0]), /索引条目数 0/],
    ['more index entries than rpm allows', Buffer.from([0, 1, 0, 0, 0, 0, 0, 0]), /索引条目数 65536/],
    ['a data store of 16 MiB or more', Buffer.from([0, 0, 0, 1, 1, 0, 0, 0]), /16 MiB/],
    ['index entries beyond the blob', (() => { const b = Buffer.from(good); b.writeUInt32BE(4000, 0); return b; })(), /实际只有/],
    ['data store beyond the blob', good.subarray(0, good.length - 1), /实际只有/],
    ['an offset beyond the data store', patch(good, 0, 2, 1 << 20), /偏移 1048576 超出数据区/],
    ['a negative offset', patch(good, 0, 2, -16), /偏移 -16 超出数据区/],
    ['an unknown type', patch(good, 0, 1, 77), /类型 77 无效/],
    ['an INT32 count beyond the data store', patch(good, 3, 3, 0x40000000), /1073741824 个元素超出数据区/],
    ['an INT32 count that overflows 32 bits', patch(good, 3, 3, 0xffffffff), /超出数据区/],
    ['a misaligned INT32', patch(good, 3, 2, 1), /未按 4 字节对齐/],
    ['a zero count', patch(good, 0, 3, 0), /元素个数为 0/],
  ];
  it.each(hostile)('refuses %s', (_label, blob, message) => {
    expect(() => parsePackageHeader(blob)).toThrow(HeaderError);
    expect(() => parsePackageHeader(blob)).toThrow(message);
  });

  it('refuses a string that runs off the end of the data store', () => {
    const blob = buildHeader([
      { tag: RpmTag.Version, type: RpmType.String, value: '1.0' },
      { tag: RpmTag.Name, type: RpmType.Bin, value: Buffer.from('no-terminator') },
    ]);
    const asString = patch(blob, 1, 1, RpmType.String);
    expect(() => parsePackageHeader(asString)).toThrow(/没有结束符/);
  });

  it('refuses a string array whose count exceeds its strings, without allocating for the count', () => {
    const blob = packageHeader({ name: 'a', version: '1', release: '1', files: ['/x/a', '/x/b'] });
    const h = new RpmHeader(blob);
    const basenames = [...Array(blob.readUInt32BE(0)).keys()].find((i) => blob.readInt32BE(8 + i * 16) === RpmTag.BaseNames)!;
    expect(h.stringArray(RpmTag.BaseNames)).toEqual(['a', 'b']);
    // 4 billion file names claimed: reading stops at the data store's end, not at the count.
    expect(() => parsePackageHeader(patch(blob, basenames, 3, 0xffffffff))).toThrow(HeaderError);
  });

  it('refuses a directory index outside the directory table and mismatched file tags', () => {
    const blob = packageHeader({ name: 'a', version: '1', release: '1', files: ['/x/a', '/y/b'] });
    const at = [...Array(blob.readUInt32BE(0)).keys()].find((i) => blob.readInt32BE(8 + i * 16) === RpmTag.DirIndexes)!;
    const off = blob.readInt32BE(8 + at * 16 + 8);
    const dataStart = 8 + blob.readUInt32BE(0) * 16;
    const bad = Buffer.from(blob);
    bad.writeUInt32BE(7, dataStart + off + 4);
    expect(() => parsePackageHeader(bad)).toThrow(/目录索引 7 超出目录表/);
    expect(() => parsePackageHeader(patch(blob, at, 3, 1))).toThrow(/2 个文件名，1 个目录索引/);
  });

  it('refuses a header without a name or version, and a name of the wrong type', () => {
    expect(() => parsePackageHeader(buildHeader([{ tag: RpmTag.Version, type: RpmType.String, value: '1' }]))).toThrow(/缺少包名/);
    expect(() => parsePackageHeader(buildHeader([{ tag: RpmTag.Name, type: RpmType.String, value: 'x' }]))).toThrow(/缺少版本/);
    expect(() => parsePackageHeader(buildHeader([{ tag: RpmTag.Name, type: RpmType.Int32, value: [1] }]))).toThrow(/应为字符串/);
  });

  it('lists at most MAX_FILES_PER_PACKAGE files and says it truncated', () => {
    const n = MAX_FILES_PER_PACKAGE + 3;
    const blob = buildHeader([
      { tag: RpmTag.Name, type: RpmType.String, value: 'huge' },
      { tag: RpmTag.Version, type: RpmType.String, value: '1' },
      { tag: RpmTag.DirIndexes, type: RpmType.Int32, value: new Array<number>(n).fill(0) },
      { tag: RpmTag.BaseNames, type: RpmType.StringArray, value: Array.from({ length: n }, (_, i) => `f${i}`) },
      { tag: RpmTag.DirNames, type: RpmType.StringArray, value: ['/d/'] },
    ]);
    const p = parsePackageHeader(blob);
    expect(p.files).toHaveLength(MAX_FILES_PER_PACKAGE);
    expect(p.files[0]).toBe('/d/f0');
    expect(p.filesTruncated).toBe(true);
  });
});
