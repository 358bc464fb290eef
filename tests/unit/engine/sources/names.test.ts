import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { detectBuffer, isTarHeader } from '../../../../server/engine/sources/archive/detect.ts';
import { decodeName, safeEntryPath, unicodePathField } from '../../../../server/engine/sources/archive/names.ts';
import { linkEscapes } from '../../../../server/engine/sources/archive/sink.ts';
import { DEFAULT_LIMITS, formatBytes, resolveLimits } from '../../../../server/engine/sources/limits.ts';
import { crc32 } from 'node:zlib';
import { tarball } from './archives.ts';

describe('safeEntryPath', () => {
  it('normalises harmless names', () => {
    expect(safeEntryPath('./a//b/./c.txt', 1024)).toEqual({ ok: true, path: 'a/b/c.txt' });
    expect(safeEntryPath('a\\b\\c.txt', 1024)).toEqual({ ok: true, path: 'a/b/c.txt' });
    expect(safeEntryPath('a/x/../b', 1024)).toEqual({ ok: true, path: 'a/b' });
    expect(safeEntryPath('./', 1024)).toEqual({ ok: true, path: '' });
  });

  it('throws for names that leave the destination', () => {
    for (const name of ['../x', '/etc/x', 'C:\\x', 'c:x', 'a/../../x', '\\\\host\\share', '..']) {
      expect(() => safeEntryPath(name, 1024), name).toThrow(/试图写到解压目录之外/);
    }
  });

  it('skips unusable names with a reason', () => {
    expect(safeEntryPath('a\0b', 1024)).toMatchObject({ ok: false });
    expect(safeEntryPath(`${'x'.repeat(256)}/y`, 1024)).toMatchObject({ ok: false });
    expect(safeEntryPath('a/'.repeat(600), 1024)).toMatchObject({ ok: false });
    expect(safeEntryPath('con.txt', 1024, 'win32')).toMatchObject({ ok: false });
    expect(safeEntryPath('ab:c', 1024, 'win32')).toMatchObject({ ok: false });
    expect(safeEntryPath('ab:c', 1024, 'linux')).toEqual({ ok: true, path: 'ab:c' });
  });
});

describe('linkEscapes', () => {
  it('judges a link target from the link folder', () => {
    expect(linkEscapes('a/b/link', '../c')).toBe(false);
    expect(linkEscapes('a/link', '../../c')).toBe(true);
    expect(linkEscapes('link', '/etc/passwd')).toBe(true);
    expect(linkEscapes('link', 'C:\\Windows')).toBe(true);
    expect(linkEscapes('link', '')).toBe(true);
  });
});

describe('decodeName', () => {
  it('UTF-8 by flag or when valid; GBK; CP437 as the last resort; a forced encoding', () => {
    expect(decodeName(Buffer.from('中文.txt'), true)).toBe('中文.txt');
    expect(decodeName(Buffer.from('中文.txt'))).toBe('中文.txt');
    expect(decodeName(iconv.encode('中文.txt', 'gbk'))).toBe('中文.txt');
    expect(decodeName(Buffer.from([0x82, 0xff]))).toBe('é\u00a0');
    expect(decodeName(iconv.encode('ü.txt', 'cp437'), false, 'cp437')).toBe('ü.txt');
  });

  it('reads the Info-ZIP Unicode Path field when its CRC matches the raw name', () => {
    const raw = iconv.encode('名.txt', 'gbk');
    const data = Buffer.concat([Buffer.from([1]), Buffer.alloc(4), Buffer.from('名.txt')]);
    data.writeUInt32LE(crc32(raw), 1);
    expect(unicodePathField([{ id: 0x7075, data }], raw)).toBe('名.txt');
    expect(unicodePathField([{ id: 0x7075, data }], Buffer.from('other'))).toBeUndefined();
  });
});

describe('detectBuffer', () => {
  it('names formats by magic bytes', async () => {
    expect(detectBuffer(Buffer.from('PK\x03\x04', 'latin1'))).toEqual({ kind: 'archive', format: 'zip' });
    expect(detectBuffer(Buffer.from([0x1f, 0x8b, 8]))).toEqual({ kind: 'archive', format: 'gzip' });
    expect(detectBuffer(Buffer.from('BZh9', 'latin1'))).toEqual({ kind: 'archive', format: 'bzip2' });
    expect(detectBuffer(Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0]))).toEqual({ kind: 'archive', format: 'xz' });
    expect(detectBuffer(Buffer.from([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]))).toEqual({ kind: 'archive', format: '7z' });
    expect(detectBuffer(Buffer.from([0x28, 0xb5, 0x2f, 0xfd]))).toEqual({ kind: 'unsupported', format: 'zstd' });
    expect(detectBuffer(Buffer.from('hello'))).toEqual({ kind: 'none' });
    const tarData = await tarball([{ name: 'a.txt', data: 'a' }]);
    expect(detectBuffer(tarData.subarray(0, 512))).toEqual({ kind: 'archive', format: 'tar' });
  });

  it('recognises a v7 tar header by its checksum', async () => {
    const header = Buffer.from((await tarball([{ name: 'a.txt', data: 'a' }])).subarray(0, 512));
    header.fill(0, 257, 265); // no ustar magic
    expect(isTarHeader(header)).toBe(false);
    header.fill(0x20, 148, 156);
    let sum = 0;
    for (const b of header) sum += b;
    header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
    expect(isTarHeader(header)).toBe(true);
    expect(isTarHeader(Buffer.alloc(512))).toBe(false);
  });
});

describe('limits', () => {
  it('defaults, overrides and validation', () => {
    expect(DEFAULT_LIMITS).toMatchObject({ maxTotalBytes: 4 * 1024 ** 3, maxFiles: 200_000, maxRatio: 200, maxDepth: 3 });
    expect(resolveLimits({ maxFiles: 10, maxDepth: undefined })).toMatchObject({ maxFiles: 10, maxDepth: 3 });
    expect(() => resolveLimits({ maxRatio: -1 })).toThrow(RangeError);
    expect(formatBytes(4 * 1024 ** 3)).toBe('4 GiB');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(12)).toBe('12 B');
  });
});
