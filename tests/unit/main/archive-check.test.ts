// The desktop's check before an upload (issue 14 item 5), format by format: what is refused and
// with which Chinese message, and what passes (a file that is not an archive and is not named like
// one: a lockfile, an SBOM, a binary). The zips of the Done-when are in
// tests/integration/main/uploads.test.ts, through the upload service.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { crc32, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { ARCHIVE_CHECK_MSG, checkArchive } from '../../../main/services/archive-check.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'cairn-archive-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const write = (name: string, bytes: Buffer | string) => {
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  return file;
};
const refused = (file: string) => checkArchive(file).then(() => null, (e: { code: string; message: string }) => e);

/** A ustar header for one small file, then its data and the end-of-archive blocks. */
function tar(name: string, data: string): Buffer {
  const header = Buffer.alloc(512);
  header.write(name, 0);
  header.write('0000644\0', 100);
  header.write('0000000\0', 108);
  header.write('0000000\0', 116);
  header.write(`${data.length.toString(8).padStart(11, '0')}\0`, 124);
  header.write('00000000000\0', 136);
  header.write('0', 156);
  header.write('ustar\0', 257);
  header.write('00', 263);
  header.fill(0x20, 148, 156);
  let sum = 0;
  for (const b of header) sum += b;
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  const body = Buffer.alloc(Math.ceil(data.length / 512) * 512);
  body.write(data);
  return Buffer.concat([header, body, Buffer.alloc(1024)]);
}

/** A 7z signature header whose next header is `size` bytes at `offset`, with a right (or wrong) CRC. */
function sevenZip(offset: bigint, size: bigint, rightCrc = true, extra = 0): Buffer {
  const head = Buffer.alloc(32 + extra);
  Buffer.from([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c, 0, 4]).copy(head);
  head.writeBigUInt64LE(offset, 12);
  head.writeBigUInt64LE(size, 20);
  head.writeUInt32LE(0x12345678, 28);
  head.writeUInt32LE(rightCrc ? crc32(head.subarray(12, 32)) : 1, 8);
  return head;
}

describe('checkArchive', () => {
  it('lets through files that are not archives and are not named like one', async () => {
    expect(await refused(write('package-lock.json', '{"lockfileVersion":3}'))).toBeNull();
    expect(await refused(write('bom.xml', '<bom/>'))).toBeNull();
    expect(await refused(write('tool.exe', Buffer.from([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0])))).toBeNull();
  });

  it('refuses an unsupported format named like an archive', async () => {
    expect(await refused(write('app.zip', Buffer.from([0x52, 0x61, 0x72, 0x21, 0x1a, 0x07, 0x01, 0x00, 1, 2, 3])))).toEqual(
      expect.objectContaining({ code: 'bad-archive', message: ARCHIVE_CHECK_MSG.unsupported('app.zip', 'rar') }),
    );
  });

  it('checks a tar.gz: good, empty, not a tar inside, not gzip data', async () => {
    expect(await refused(write('good.tar.gz', gzipSync(tar('src/a.c', 'int main;'))))).toBeNull();
    expect((await refused(write('empty.tar.gz', gzipSync(Buffer.alloc(10240)))))?.message).toBe(ARCHIVE_CHECK_MSG.empty('empty.tar.gz'));
    expect((await refused(write('text.tgz', gzipSync('just some text\n'.repeat(100)))))?.message).toBe(ARCHIVE_CHECK_MSG.corrupt('text.tgz', '解压后的内容不是有效的 tar 包'));
    const broken = Buffer.concat([Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]), Buffer.alloc(64, 0xff)]);
    expect((await refused(write('broken.tar.gz', broken)))?.message).toBe(ARCHIVE_CHECK_MSG.corrupt('broken.tar.gz', 'gzip 数据无法解码（文件可能不完整）'));
  });

  it('checks a tar: good, and all zeros', async () => {
    expect(await refused(write('good.tar', tar('a.txt', 'hello')))).toBeNull();
    expect((await refused(write('zeros.tar', Buffer.alloc(10240))))?.message).toBe(ARCHIVE_CHECK_MSG.empty('zeros.tar'));
  });

  it('checks a 7z start header: CRC, a directory past the end, empty', async () => {
    expect(await refused(write('ok.7z', sevenZip(0n, 16n, true, 16)))).toBeNull();
    expect((await refused(write('crc.7z', sevenZip(0n, 16n, false, 16))))?.message).toBe(ARCHIVE_CHECK_MSG.corrupt('crc.7z', '7z 文件头校验失败'));
    expect((await refused(write('cut.7z', sevenZip(1000n, 16n, true, 16))))?.message).toBe(ARCHIVE_CHECK_MSG.corrupt('cut.7z', '文件不完整（7z 目录超出文件末尾）'));
    expect((await refused(write('empty.7z', sevenZip(0n, 0n))))?.message).toBe(ARCHIVE_CHECK_MSG.empty('empty.7z'));
  });
});
