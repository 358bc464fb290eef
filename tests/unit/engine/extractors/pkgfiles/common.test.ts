// The pieces the package-file extractors share: bounded decoding of each compression, the
// streaming tar scanner (GNU long names, pax paths, data fed in odd-sized pieces, damaged headers)
// and the ar member listing.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { ExtractError } from '../../../../../server/engine/model.ts';
import { bufferAccess } from '../../../../../server/engine/extractors/common/random-access.ts';
import type { Compression, TarEntry } from '../../../../../server/engine/extractors/pkgfiles/common.ts';
import { ArFormatError, compressionOf, decode, evidenceText, listAr, TarFormatError, TarScanner } from '../../../../../server/engine/extractors/pkgfiles/common.ts';
import { DEMO_TAR_BZ2, DEMO_TAR_XZ } from '../../sources/archives.ts';

const work = mkdtempSync(path.join(tmpdir(), 'cairn-pkgcommon-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function* pieces(buf: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let i = 0; i < buf.length; i += size) yield buf.subarray(i, i + size);
}

/** Every file entry of a (compressed) tar, read through decode and the scanner. */
async function entriesOf(compression: Compression, data: Buffer, piece = 4096): Promise<TarEntry[]> {
  const out: TarEntry[] = [];
  const scanner = new TarScanner(() => true, (e) => { out.push(e); });
  await decode(compression, pieces(data, piece), { label: 't', compressedSize: data.length, cap: 1 << 30, onData: (c) => scanner.feed(c) });
  return out;
}

/** A tar written by GNU tar in the given format. */
function gnuTar(format: 'gnu' | 'pax' | 'ustar', files: Record<string, string>): Buffer {
  const dir = mkdtempSync(path.join(work, 'tar-'));
  for (const [rel, body] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), body);
  }
  execFileSync('tar', [`--format=${format}`, '-cf', 'out.tar', ...Object.keys(files)], { cwd: dir });
  return readFileSync(path.join(dir, 'out.tar'));
}

describe('package-file helpers', () => {
  it('names compressions by suffix and cleans evidence text', () => {
    expect(['control.tar', 'control.tar.gz', 'data.tar.xz', 'data.tar.bz2', 'control.tar.zst', 'x.tgz', 'data.tar.lzma'].map(compressionOf))
      .toEqual(['none', 'gzip', 'xz', 'bzip2', 'zstd', 'gzip', undefined]);
    expect(evidenceText('Package: a\nVersion:\t1\u0000')).toBe('Package: a Version: 1');
    expect(evidenceText('x'.repeat(300))).toHaveLength(200);
  });

  it('decodes xz and bzip2 tars', async () => {
    for (const [compression, data] of [['xz', DEMO_TAR_XZ], ['bzip2', DEMO_TAR_BZ2]] as const) {
      const entries = await entriesOf(compression, data, 7);
      expect(entries.map((e) => [e.name, e.data.toString('utf8').trim()]).sort(), compression).toEqual([
        ['pkg/README.md', '# 示例'], ['pkg/package.json', '{"name":"demo","version":"1.0.0"}'],
      ]);
    }
  });

  it('reads GNU long names and pax paths, fed a few bytes at a time', async () => {
    const long = `package/${'very-long-folder-name/'.repeat(8)}package.json`;
    for (const format of ['gnu', 'pax'] as const) {
      const entries = await entriesOf('none', gnuTar(format, { [long]: '{"a":1}', 'package/b.txt': 'b' }), 37);
      expect(entries.map((e) => [e.name, e.data.toString()]), format).toEqual([[long, '{"a":1}'], ['package/b.txt', 'b']]);
    }
  });

  it('stops where the caller asks, and refuses a damaged header', async () => {
    const tar = gnuTar('ustar', { 'a.txt': 'a', 'b.txt': 'b', 'c.txt': 'c' });
    const seen: string[] = [];
    const scanner = new TarScanner((n) => n !== 'a.txt', (e) => { seen.push(e.name); return e.name === 'b.txt'; });
    expect(scanner.feed(tar)).toBe(true);
    expect(seen).toEqual(['b.txt']);
    const damaged = Buffer.from(tar);
    damaged[1024 + 3] = 0x41; // inside the second header's name (after a.txt's header and data block): its checksum no longer holds
    expect(() => new TarScanner(() => true, () => undefined).feed(damaged)).toThrow(TarFormatError);
  });

  it('reports a decompression beyond the cap as a bomb, quietly when asked', async () => {
    const bomb = gzipSync(Buffer.alloc(8 * 1024 * 1024));
    // The ratio (8 MiB from about 8 KiB) is past 200:1 once the first MiB is out.
    await expect(decode('gzip', pieces(bomb, 65536), { label: '测试数据', compressedSize: bomb.length, cap: 1 << 30, onData: () => false }))
      .rejects.toThrow(new ExtractError('测试数据 的压缩比超过 200:1 上限，疑似压缩炸弹，已停止读取'));
    // The cap, the ratio aside (the whole member said to be large).
    const run = (quietCap: boolean) => decode('gzip', pieces(bomb, 65536), { label: '测试数据', compressedSize: 1 << 30, cap: 2 * 1024 * 1024, quietCap, onData: () => false });
    await expect(run(false)).rejects.toThrow(new ExtractError('测试数据 解压后超过 2 MiB 上限，疑似压缩炸弹，已停止读取'));
    await expect(run(true)).resolves.toBe(false);
    await expect(decode('gzip', pieces(Buffer.from('not gzip at all'), 4), { label: '测试数据', compressedSize: 15, cap: 1024, onData: () => false }))
      .rejects.toThrow(/^测试数据 无法解压：/);
  });

  it('lists ar members and refuses damaged archives', async () => {
    const deb = readFileSync(path.resolve('tests/fixtures/public/pkgfiles/liblzf1_3.6-3_amd64.deb'));
    expect((await listAr(bufferAccess(deb))).map((m) => m.name)).toEqual(['debian-binary', 'control.tar.xz', 'data.tar.xz']);
    await expect(listAr(bufferAccess(Buffer.from('!<arc>\n.......')))).rejects.toThrow(ArFormatError);
    await expect(listAr(bufferAccess(deb.subarray(0, deb.length - 10)))).rejects.toThrow(/超出文件末尾（文件被截断）/);
    const badSize = Buffer.from(deb);
    badSize.write('12x4      ', 8 + 48, 'latin1');
    await expect(listAr(bufferAccess(badSize))).rejects.toThrow(/成员大小“12x4”无效/);
  });
});
