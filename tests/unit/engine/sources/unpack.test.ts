import { randomBytes } from 'node:crypto';
import { lstat, mkdir, readFile, readdir, readlink, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { UnpackError, openInput, unpackArchive } from '../../../../server/engine/sources/unpack.ts';
import type { UnpackResult } from '../../../../server/engine/sources/unpack.ts';
import { DEMO_TAR_BZ2, DEMO_TAR_XZ, NOTE_XZ, gzip, rawTarName, tarball, useWorkspace, zip } from './archives.ts';

const ws = useWorkspace();

const dest = () => path.join(ws.dir, 'out');
const text = (rel: string) => readFile(path.join(dest(), rel), 'utf8');

/** Nothing beside the archives: no destination, no temporary `.out.unpacking-*` folder. */
async function expectNothingLeft(): Promise<void> {
  const names = await readdir(ws.dir);
  expect(names.filter((n) => n === 'out' || n.startsWith('.out.'))).toEqual([]);
}

async function refused(file: string, limits?: Parameters<typeof unpackArchive>[2]): Promise<UnpackError> {
  const error = await unpackArchive(file, dest(), limits).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UnpackError);
  await expectNothingLeft();
  return error as UnpackError;
}

const demoItems = [
  { name: 'pkg/', type: 'directory' as const },
  { name: 'pkg/package.json', data: '{"name":"demo","version":"1.0.0"}\n' },
  { name: 'pkg/README.md', data: '# 示例\n' },
];

describe('unpackArchive: formats round-trip (detected by content, not name)', () => {
  async function expectDemo(result: UnpackResult, format: string) {
    expect(result.format).toBe(format);
    expect(result.files).toBe(2);
    expect(JSON.parse(await text('pkg/package.json'))).toEqual({ name: 'demo', version: '1.0.0' });
    expect(await text('pkg/README.md')).toBe('# 示例\n');
  }

  it('tar', async () => {
    await expectDemo(await unpackArchive(await ws.put('a.bin', await tarball(demoItems)), dest()), 'tar');
  });

  it('tar.gz under a misleading name', async () => {
    await expectDemo(await unpackArchive(await ws.put('a.zip', gzip(await tarball(demoItems))), dest()), 'gzip');
  });

  it('tar.bz2', async () => {
    await expectDemo(await unpackArchive(await ws.put('demo.tbz2', DEMO_TAR_BZ2), dest()), 'bzip2');
  });

  it('tar.xz', async () => {
    await expectDemo(await unpackArchive(await ws.put('demo.tar.xz', DEMO_TAR_XZ), dest()), 'xz');
  });

  it('zip, and the same container as .jar / .whl', async () => {
    const data = zip([{ name: 'pkg/', mode: 0o040755 }, { name: 'pkg/package.json', data: '{"name":"demo","version":"1.0.0"}\n' }, { name: 'pkg/README.md', data: '# 示例\n', method: 0 }]);
    await expectDemo(await unpackArchive(await ws.put('demo.whl', data), dest()), 'zip');
    expect((await unpackArchive(await ws.put('demo.jar', data), path.join(ws.dir, 'jar'))).files).toBe(2);
  });

  it('a single gzipped, bzip2 or xz file is unpacked under its name without the suffix', async () => {
    const result = await unpackArchive(await ws.put('package.json.gz', gzip(Buffer.from('{"a":1}'))), dest());
    expect(result).toMatchObject({ format: 'gzip', files: 1, bytes: 7 });
    expect(await text('package.json')).toBe('{"a":1}');
    await unpackArchive(await ws.put('note.txt.xz', NOTE_XZ), path.join(ws.dir, 'xz'));
    expect(await readFile(path.join(ws.dir, 'xz', 'note.txt'), 'utf8')).toBe('plain xz text\n');
  });

  it('an empty zip and an existing empty destination folder are fine', async () => {
    await mkdir(dest());
    expect(await unpackArchive(await ws.put('e.zip', zip([])), dest())).toMatchObject({ files: 0, bytes: 0, entries: [] });
    expect(await readdir(dest())).toEqual([]);
  });

  it('refuses a destination that is not empty', async () => {
    await mkdir(dest());
    await writeFile(path.join(dest(), 'x'), 'x');
    await expect(unpackArchive(await ws.put('e.zip', zip([])), dest())).rejects.toMatchObject({ code: 'destination' });
  });
});

describe('unpackArchive: refuses what it cannot read, with a Chinese message', () => {
  it('not an archive', async () => {
    const error = await refused(await ws.put('x.zip', Buffer.from('just text, not a zip')));
    expect(error.message).toBe('文件不是支持的压缩格式');
  });

  it('rar is recognised but unsupported; a 7z signature with garbage behind it is a corrupt 7z', async () => {
    const sevenZip = Buffer.from([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c, 0, 4, ...Buffer.alloc(40)]);
    const bad = await refused(await ws.put('a.7z', sevenZip));
    expect(bad.code).toBe('corrupt');
    expect(bad.message).toMatch(/^压缩包已损坏：/);
    expect((await refused(await ws.put('a.rar', Buffer.from('Rar!\x1a\x07\x01\x00', 'latin1')))).message).toBe('不支持的压缩格式：rar');
  });

  it('a truncated tar.gz is a corrupt archive', async () => {
    const whole = gzip(await tarball([{ name: 'big.txt', data: Buffer.alloc(200_000, 'a') }, ...demoItems]));
    const error = await refused(await ws.put('t.tgz', whole.subarray(0, Math.floor(whole.length / 2))));
    expect(error.code).toBe('corrupt');
    expect(error.message).toMatch(/^压缩包已损坏：/);
  });

  it('a zip with damaged data or directory is a corrupt archive', async () => {
    const good = zip([{ name: 'a.txt', data: Buffer.alloc(10_000, 'x') }, { name: 'b.txt', data: 'b' }]);
    const damaged = Buffer.from(good);
    damaged.fill(0xff, 40, 60); // inside a.txt's deflate stream
    expect((await refused(await ws.put('d.zip', damaged))).code).toBe('corrupt');
    const cut = good.subarray(0, good.length - 30); // end record gone: found by magic, then unreadable
    expect((await refused(await ws.put('c.zip', cut))).message).toMatch(/^压缩包已损坏：/);
  });

  it('a corrupt bzip2 and xz stream', async () => {
    const bz = Buffer.from(DEMO_TAR_BZ2);
    bz.fill(0, 40, 80);
    expect((await refused(await ws.put('x.tbz2', bz))).code).toBe('corrupt');
    const xz = Buffer.from(DEMO_TAR_XZ);
    xz.fill(0, 40, 80);
    expect((await refused(await ws.put('x.txz', xz))).code).toBe('corrupt');
    // xz-decompress serialises streams behind one lock: a failed one must not block the next.
    expect((await unpackArchive(await ws.put('ok.txz', DEMO_TAR_XZ), path.join(ws.dir, 'again'))).files).toBe(2);
  });
});

describe('unpackArchive: path traversal is refused and nothing is written', () => {
  for (const name of ['../x', '/etc/x', 'C:\\x', 'C:/x', 'a/../../x', '..\\..\\x', '\\\\server\\share\\x']) {
    it(`tar entry ${JSON.stringify(name)}`, async () => {
      const file = await ws.put('t.tar', await tarball([{ name: 'ok.txt', data: 'fine' }, { name, data: 'pwned' }]));
      const error = await refused(file);
      expect(error.code).toBe('traversal');
      expect(error.message).toBe(`压缩包中的条目 ${name} 试图写到解压目录之外，已拒绝`);
    });
  }

  it('zip entries too, including the example from the message', async () => {
    const error = await refused(await ws.put('z.zip', zip([{ name: 'a.txt', data: 'a' }, { name: '../../etc/passwd', data: 'root::0:0' }])));
    expect(error.message).toBe('压缩包中的条目 ../../etc/passwd 试图写到解压目录之外，已拒绝');
    expect((await refused(await ws.put('w.zip', zip([{ name: 'sub\\..\\..\\evil.txt', data: 'x' }])))).code).toBe('traversal');
  });

  it('`..` that stays inside, `./` prefixes and backslashes are normalised', async () => {
    await unpackArchive(await ws.put('n.zip', zip([{ name: './a/../b.txt', data: 'b' }, { name: 'dir\\c.txt', data: 'c' }])), dest());
    expect(await text('b.txt')).toBe('b');
    expect(await text('dir/c.txt')).toBe('c');
  });
});

describe('unpackArchive: links, special files, modes, duplicates', () => {
  it('keeps links that resolve inside and skips links that leave, directly or through another link', async () => {
    const file = await ws.put('l.tar', await tarball([
      { name: 'pkg/package.json', data: '{}' },
      { name: 'inside', type: 'symlink', linkname: 'pkg/package.json' },
      { name: 'abs', type: 'symlink', linkname: '/etc/passwd' },
      { name: 'up', type: 'symlink', linkname: '../../outside' },
      { name: 'x/b', type: 'symlink', linkname: '..' },
      { name: 'x/a', type: 'symlink', linkname: 'b/../..' },
      { name: 'dangling', type: 'symlink', linkname: 'nope' },
    ]));
    const result = await unpackArchive(file, dest());
    expect(await readlink(path.join(dest(), 'inside'))).toBe('pkg/package.json');
    expect(await text('inside')).toBe('{}');
    expect((await lstat(path.join(dest(), 'x/b'))).isSymbolicLink()).toBe(true);
    for (const gone of ['abs', 'up', 'x/a', 'dangling']) await expect(lstat(path.join(dest(), gone))).rejects.toThrow();
    expect(result.entries.map((e) => e.entry).sort()).toEqual(['abs', 'dangling', 'up', 'x/a']);
    expect(result.entries.find((e) => e.entry === 'abs')?.reason).toContain('指向解压目录之外');
  });

  it('never writes through a link: a file under an escaping link name lands in a real folder', async () => {
    const outside = path.join(ws.dir, 'outside');
    await mkdir(outside);
    const file = await ws.put('w.tar', await tarball([
      { name: 'd', type: 'symlink', linkname: outside },
      { name: 'd/pwned', data: 'x' },
    ]));
    await unpackArchive(file, dest());
    expect(await readdir(outside)).toEqual([]);
    expect((await lstat(path.join(dest(), 'd'))).isDirectory()).toBe(true);
  });

  it('zip symlinks (Unix mode) are treated the same way', async () => {
    const file = await ws.put('s.zip', zip([
      { name: 'a.txt', data: 'a', mode: 0o100644 },
      { name: 'good', data: 'a.txt', mode: 0o120777, method: 0 },
      { name: 'evil', data: '../../../../etc/passwd', mode: 0o120777, method: 0 },
    ]));
    const result = await unpackArchive(file, dest());
    expect(await text('good')).toBe('a');
    await expect(lstat(path.join(dest(), 'evil'))).rejects.toThrow();
    expect(result.entries).toHaveLength(1);
  });

  it('hard links are copies of earlier files; ones pointing outside or nowhere are skipped', async () => {
    const file = await ws.put('h.tar', await tarball([
      { name: 'a.txt', data: 'aaa' },
      { name: 'b.txt', type: 'link', linkname: 'a.txt' },
      { name: 'c.txt', type: 'link', linkname: '../../etc/passwd' },
      { name: 'd.txt', type: 'link', linkname: 'missing.txt' },
    ]));
    const result = await unpackArchive(file, dest());
    expect(await text('b.txt')).toBe('aaa');
    expect((await stat(path.join(dest(), 'b.txt'))).nlink).toBe(1);
    expect(result.entries.map((e) => e.entry)).toEqual(['c.txt', 'd.txt']);
    expect(result.files).toBe(2);
  });

  it('skips devices and FIFOs; files are owner-only (setuid/setgid and every group/world bit dropped, owner execute kept)', async () => {
    const file = await ws.put('d.tar', await tarball([
      { name: 'dev/null', type: 'character-device', devmajor: 1, devminor: 3 },
      { name: 'dev/sda', type: 'block-device', devmajor: 8, devminor: 0 },
      { name: 'fifo', type: 'fifo' },
      { name: 'bin/su', data: '#!/bin/sh\n', mode: 0o4777 },
      { name: 'etc/conf', data: 'x', mode: 0o666 },
    ]));
    const result = await unpackArchive(file, dest());
    expect(result.entries.map((e) => e.entry)).toEqual(['dev/null', 'dev/sda', 'fifo']);
    expect(result.entries[0]!.reason).toContain('设备文件');
    expect((await stat(path.join(dest(), 'bin/su'))).mode & 0o7777).toBe(0o700);
    expect((await stat(path.join(dest(), 'etc/conf'))).mode & 0o7777).toBe(0o600);
    await expect(lstat(path.join(dest(), 'fifo'))).rejects.toThrow();
  });

  it.skipIf(process.platform === 'win32')('under a permissive umask, everything unpacked is owner-only, nested archives and hard links too', async () => {
    const umask = process.umask(0o000);
    try {
      const tgz = gzip(await tarball([
        { name: 'open/', type: 'directory', mode: 0o777 },
        { name: 'open/world.txt', data: 'w', mode: 0o666 },
        { name: 'open/run.sh', data: '#!/bin/sh\n', mode: 0o777 },
        { name: 'open/again.txt', type: 'link', linkname: 'open/world.txt' },
      ]));
      const file = await ws.put('perm.zip', zip([
        { name: 'dir/', mode: 0o040777 },
        { name: 'dir/everyone.txt', data: 'x', mode: 0o100666 },
        { name: 'dir/tool', data: 'x', mode: 0o104777 },
        { name: 'lib/inner.tgz', data: tgz },
      ]));
      await unpackArchive(file, dest());
      const seen: string[] = [];
      const walk = async (dir: string): Promise<void> => {
        for (const entry of await readdir(dir, { withFileTypes: true })) {
          const full = path.join(dir, entry.name);
          const mode = (await lstat(full)).mode & 0o7777;
          seen.push(`${path.relative(dest(), full)} ${mode.toString(8)}`);
          if (entry.isDirectory()) await walk(full);
        }
      };
      expect((await stat(dest())).mode & 0o777).toBe(0o700);
      await walk(dest());
      expect(seen.sort()).toEqual([
        'dir 700', 'dir/everyone.txt 600', 'dir/tool 700',
        'lib 700', 'lib/inner.tgz 600', 'lib/inner.tgz! 700',
        'lib/inner.tgz!/open 700', 'lib/inner.tgz!/open/again.txt 600', 'lib/inner.tgz!/open/run.sh 700', 'lib/inner.tgz!/open/world.txt 600',
      ]);
    } finally {
      process.umask(umask);
    }
  });

  it('duplicate entries: the later file wins; a file where a folder is (or the reverse) is skipped', async () => {
    const file = await ws.put('dup.tar', await tarball([
      { name: 'a.txt', data: 'first' },
      { name: 'a.txt', data: 'second' },
      { name: 'd/x', data: 'x' },
      { name: 'd', data: 'file over a folder' },
      { name: 'f', data: 'file' },
      { name: 'f/y', data: 'under a file' },
    ]));
    const result = await unpackArchive(file, dest());
    expect(await text('a.txt')).toBe('second');
    expect(await text('d/x')).toBe('x');
    expect(await text('f')).toBe('file');
    expect(result.files).toBe(3);
    expect(result.entries.map((e) => e.entry)).toEqual(['a.txt', 'd', 'f/y']);
  });

  it('decodes entry names: UTF-8 flag, unflagged UTF-8, GBK (Chinese Windows), CP437', async () => {
    const file = await ws.put('names.zip', zip([
      { name: '中文/说明.txt', data: '1' },
      { name: Buffer.from('未标记/文件.txt'), data: '2', utf8: false },
      { name: iconv.encode('资料/报告.txt', 'gbk'), data: '3', utf8: false },
      { name: Buffer.from([0x80, 0xff, 0x2e, 0x74, 0x78, 0x74]), data: '4', utf8: false },
    ]));
    await unpackArchive(file, dest());
    expect(await text('中文/说明.txt')).toBe('1');
    expect(await text('未标记/文件.txt')).toBe('2');
    expect(await text('资料/报告.txt')).toBe('3');
    expect(await text('Ç\u00a0.txt')).toBe('4');
  });

  it('tar names in GBK and pax (UTF-8) names', async () => {
    const gbkName = iconv.encode('旧/名字.txt', 'gbk');
    const tarData = await tarball([{ name: 'x'.repeat(gbkName.length), data: 'gbk' }, { name: `${'长'.repeat(60)}/pax.txt`, data: 'pax' }]);
    rawTarName(tarData, 0, gbkName); // tar-stream writes names as UTF-8: put the GBK bytes in by hand
    await unpackArchive(await ws.put('n.tar', tarData), dest());
    expect(await text('旧/名字.txt')).toBe('gbk');
    expect(await text(`${'长'.repeat(60)}/pax.txt`)).toBe('pax');
  });
});

describe('unpackArchive: bombs are stopped early', () => {
  it('a highly compressible zip entry is refused from its header, before any byte is written', async () => {
    const file = await ws.put('bomb.zip', zip([{ name: 'zeros.bin', data: Buffer.alloc(64 * 1024 ** 2) }]));
    const error = await refused(file);
    expect(error.code).toBe('ratio');
    expect(error.message).toBe('压缩包 bomb.zip 的压缩比超过 200:1 上限，疑似压缩炸弹，已拒绝');
  });

  it('a gzip bomb is stopped while streaming by the ratio', async () => {
    // Zeros, then a tar of zeros: both are refused by what the decompressor produces.
    for (const [name, data] of [['bomb.gz', gzip(Buffer.alloc(96 * 1024 ** 2))], ['bomb.tgz', gzip(await tarball([{ name: 'z', data: Buffer.alloc(96 * 1024 ** 2) }]))]] as const) {
      const error = await refused(await ws.put(name, data), { limits: { ratioGraceBytes: 1024 ** 2 } });
      expect(error.code).toBe('ratio');
    }
  });

  it('the total size limit, with the message of the brief', async () => {
    const file = await ws.put('big.tgz', gzip(await tarball([{ name: 'a', data: Buffer.alloc(3 * 1024 ** 2, 1) }, { name: 'b', data: Buffer.alloc(3 * 1024 ** 2, 2) }])));
    const error = await refused(file, { limits: { maxTotalBytes: 4 * 1024 ** 2, maxRatio: 1e9 } });
    expect(error.message).toBe('压缩包 big.tgz 解压后超过 4 MiB 上限，疑似压缩炸弹，已拒绝');
    expect(error.code).toBe('too-large');
  });

  it('the per-file limit', async () => {
    const file = await ws.put('one.tar', await tarball([{ name: 'dir/huge.bin', data: Buffer.alloc(2 * 1024 ** 2) }]));
    const error = await refused(file, { limits: { maxFileBytes: 1024 ** 2 } });
    expect(error.message).toBe('压缩包 one.tar 中的文件 dir/huge.bin 解压后超过单个文件 1 MiB 上限，已拒绝');
  });

  it('a zip with too many entries is refused from its directory record', async () => {
    const items = Array.from({ length: 300 }, (_, i) => ({ name: `f${i}`, data: '' }));
    const error = await refused(await ws.put('many.zip', zip(items)), { limits: { maxFiles: 100 } });
    expect(error.message).toBe('压缩包 many.zip 中的条目超过 100 个上限，疑似压缩炸弹，已拒绝');
  });

  it('a zip entry that inflates past its declared size is stopped there', async () => {
    const data = Buffer.alloc(4 * 1024 ** 2, 'a');
    const good = zip([{ name: 'a.txt', data }]);
    // Both headers claim 1,000 bytes.
    const liar = Buffer.from(good);
    liar.writeUInt32LE(1000, 22);
    liar.writeUInt32LE(1000, liar.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])) + 24);
    const error = await refused(await ws.put('liar.zip', liar));
    expect(error.code).toBe('corrupt');
    expect(error.message).toBe('压缩包已损坏：条目 a.txt 解压后超过其声明的 1000 字节');
  });

  it('zip entries sharing their data (the overlapping-files bomb) are refused', async () => {
    const one = zip([{ name: 'a.txt', data: randomBytes(4096), method: 0 }]);
    const central = one.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    const end = one.indexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    const record = one.subarray(central, end);
    const copies = Array.from({ length: 5 }, (_, i) => {
      const copy = Buffer.from(record);
      copy.write(`${i}`, 46); // a.txt -> 0.txt, 1.txt, ...: same data offset
      return copy;
    });
    const eocd = Buffer.from(one.subarray(end));
    eocd.writeUInt16LE(5, 8);
    eocd.writeUInt16LE(5, 10);
    eocd.writeUInt32LE(record.length * 5, 12);
    const overlapping = Buffer.concat([one.subarray(0, central), ...copies, eocd]);
    const error = await refused(await ws.put('overlap.zip', overlapping));
    expect(error.code).toBe('ratio');
    expect(error.message).toBe('压缩包 overlap.zip 中的条目数据相互重叠，疑似压缩炸弹，已拒绝');
  });

  it('an xz whose dictionary is over 64 MiB is refused, not decoded', async () => {
    const xz = Buffer.from(NOTE_XZ);
    xz[16] = 30; // the block header's LZMA2 dictionary: 128 MiB
    xz.writeUInt32LE(crc32(xz.subarray(12, 20)), 20);
    const error = await refused(await ws.put('note.txt.xz', xz));
    expect(error.code).toBe('unsupported');
    expect(error.message).toBe('压缩包 note.txt.xz 的 xz 字典大于 64 MiB，解压所需内存超过上限，无法解压');
  });

  it('a tar with too many entries is refused once it passes the count', async () => {
    const items = Array.from({ length: 150 }, (_, i) => ({ name: `d${i}/`, type: 'directory' as const }));
    expect((await refused(await ws.put('many.tar', await tarball(items)), { limits: { maxFiles: 100 } })).code).toBe('too-many-files');
  });
});

describe('unpackArchive: nested archives', () => {
  it('unpacks a .jar in a .war and a .tgz in a .zip into `<name>!/` folders', async () => {
    const jar = zip([{ name: 'META-INF/maven/org.demo/lib/pom.properties', data: 'version=1.2.3\n' }]);
    const war = zip([{ name: 'WEB-INF/lib/lib-1.2.3.jar', data: jar }, { name: 'vendor/dep.tgz', data: gzip(await tarball(demoItems)) }]);
    const result = await unpackArchive(await ws.put('app.war', war), dest());
    expect(await text('WEB-INF/lib/lib-1.2.3.jar!/META-INF/maven/org.demo/lib/pom.properties')).toBe('version=1.2.3\n');
    expect(await text('vendor/dep.tgz!/pkg/README.md')).toBe('# 示例\n');
    expect((await stat(path.join(dest(), 'WEB-INF/lib/lib-1.2.3.jar'))).isFile()).toBe(true);
    expect(result.files).toBe(2 + 1 + 2);
  });

  it('stops at the depth limit with a note, and notes a damaged nested archive without failing', async () => {
    const level3 = zip([{ name: 'deep.txt', data: 'deep' }]);
    const level2 = zip([{ name: 'c.jar', data: level3 }]);
    const level1 = zip([{ name: 'b.jar', data: level2 }, { name: 'broken.jar', data: Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(64)]) }]);
    const result = await unpackArchive(await ws.put('a.zip', level1), dest(), { limits: { maxDepth: 1 } });
    expect((await stat(path.join(dest(), 'b.jar!/c.jar'))).isFile()).toBe(true);
    await expect(stat(path.join(dest(), 'b.jar!/c.jar!'))).rejects.toThrow();
    await expect(stat(path.join(dest(), 'broken.jar!'))).rejects.toThrow();
    expect(result.entries.map((e) => e.entry).sort()).toEqual(['b.jar!/c.jar', 'broken.jar']);
    expect(result.entries.find((e) => e.entry === 'broken.jar')?.reason).toMatch(/^内嵌压缩包未解压：压缩包已损坏/);
    // Both are problems of the scan: their contents were not read.
    expect(result.problems.map((p) => p.file).sort()).toEqual(['b.jar!/c.jar', 'broken.jar']);
    expect(result.problems.find((p) => p.file === 'b.jar!/c.jar')?.message).toBe('嵌套压缩包超过 1 层，未解压：a.zip!/b.jar!/c.jar');
    expect(result.problems.find((p) => p.file === 'broken.jar')?.message).toMatch(/^嵌套压缩包 a\.zip!\/broken\.jar 未解压：压缩包已损坏/);
  });

  it('with nesting turned off (maxDepth 0), nested archives are neither unpacked nor problems', async () => {
    const result = await unpackArchive(await ws.put('a.zip', zip([{ name: 'b.jar', data: zip([{ name: 'x', data: 'x' }]) }])), dest(), { limits: { maxDepth: 0 } });
    expect(result.problems).toEqual([]);
    await expect(stat(path.join(dest(), 'b.jar!'))).rejects.toThrow();
  });

  it('a traversal inside a nested archive rejects the whole upload', async () => {
    const inner = zip([{ name: '../../escape.txt', data: 'x' }]);
    const error = await refused(await ws.put('outer.zip', zip([{ name: 'lib/inner.jar', data: inner }])));
    expect(error.code).toBe('traversal');
  });

  it('limits are shared across nesting levels', async () => {
    const inner = zip(Array.from({ length: 60 }, (_, i) => ({ name: `i${i}`, data: '' })));
    const outer = zip([...Array.from({ length: 50 }, (_, i) => ({ name: `o${i}`, data: '' })), { name: 'x.jar', data: inner }]);
    expect((await refused(await ws.put('o.zip', outer), { limits: { maxFiles: 100 } })).code).toBe('too-many-files');
  });
});

describe('unpackArchive: abort', () => {
  it('an already aborted signal does nothing', async () => {
    const file = await ws.put('a.tar', await tarball(demoItems));
    await expect(unpackArchive(file, dest(), { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
    await expectNothingLeft();
  });

  it('aborting midway rejects with the abort reason and removes everything', async () => {
    const items = Array.from({ length: 200 }, (_, i) => ({ name: `f/${i}.txt`, data: Buffer.alloc(20_000, i) }));
    for (const [name, data] of [['m.tgz', gzip(await tarball(items))], ['m.zip', zip(items)]] as const) {
      const controller = new AbortController();
      const file = await ws.put(name, data);
      const promise = unpackArchive(file, dest(), { signal: controller.signal, onProgress: (e) => e.files === 50 && controller.abort() });
      await expect(promise).rejects.toMatchObject({ name: 'AbortError' });
      await expectNothingLeft();
    }
  });
});

describe('unpackArchive: abort releases the xz decoder', () => {
  it('an aborted xz unpack does not block the next one', async () => {
    const controller = new AbortController();
    const file = await ws.put('demo.txz', DEMO_TAR_XZ);
    await expect(unpackArchive(file, dest(), { signal: controller.signal, onProgress: () => controller.abort() })).rejects.toMatchObject({ name: 'AbortError' });
    await expectNothingLeft();
    expect((await unpackArchive(file, dest())).files).toBe(2);
  });
});

describe('openInput', () => {
  it('uses a folder as it is', async () => {
    const input = await openInput(ws.dir);
    expect(input.root).toBe(ws.dir);
    expect(input.unpacked).toBeUndefined();
    await input.cleanup();
    expect((await stat(ws.dir)).isDirectory()).toBe(true);
  });

  it('unpacks an archive into a temporary folder that cleanup() removes', async () => {
    const tempDir = path.join(ws.dir, 'tmp');
    await mkdir(tempDir);
    const input = await openInput(await ws.put('upload-123', gzip(await tarball(demoItems))), { tempDir });
    expect(input.unpacked?.files).toBe(2);
    expect(await readFile(path.join(input.root, 'pkg/package.json'), 'utf8')).toContain('demo');
    await input.cleanup();
    expect(await readdir(tempDir)).toEqual([]);
  });

  it('refuses a missing path or a non-archive file and leaves no temporary folder', async () => {
    const tempDir = path.join(ws.dir, 'tmp');
    await mkdir(tempDir);
    await expect(openInput(path.join(ws.dir, 'missing.zip'), { tempDir })).rejects.toMatchObject({ code: 'not-archive' });
    await expect(openInput(await ws.put('readme.txt', Buffer.from('hi')), { tempDir })).rejects.toThrow('文件不是支持的压缩格式');
    expect(await readdir(tempDir)).toEqual([]);
  });
});
