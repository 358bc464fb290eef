// Issue 14 item 5 on the engine side: verifyArchive reads an upload through as the analysis would
// and refuses, in Chinese, a damaged or empty archive; the decoders' English never reaches the user;
// the list an analysis with nothing to read gives comes from the extractors themselves.
import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { allExtractors, noManifestMessage } from '../../../../server/engine/extractors/index.ts';
import { decoderMessage } from '../../../../server/engine/sources/archive/errors.ts';
import { UnpackError } from '../../../../server/engine/sources/unpack.ts';
import { verifyArchive } from '../../../../server/engine/sources/verify.ts';
import { writeBadArchives } from '../../../support/bad-archives.ts';
import { tarball, useWorkspace } from './archives.ts';

/** No run of ASCII letters that reads as an English word (file names and format names aside). */
const ENGLISH = /\b(?!zip\b|xz\b|CRC\b)[A-Za-z]{4,}\b/;

describe('verifyArchive', () => {
  const ws = useWorkspace();

  const refusal = async (file: string, name: string): Promise<UnpackError> => {
    const error = await verifyArchive(file, { name, tempDir: path.join(ws.dir, 'tmp') }).then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(UnpackError);
    return error as UnpackError;
  };

  it('answers null for a file that is not an archive, and a good archive\'s file count', async () => {
    const files = await writeBadArchives(ws.dir);
    expect(await verifyArchive(files.fake, { name: 'fake.zip', tempDir: path.join(ws.dir, 'tmp') })).toBeNull();
    expect(await verifyArchive(files.noManifest, { name: 'no-manifest.zip', tempDir: path.join(ws.dir, 'tmp') })).toMatchObject({ format: 'zip', files: 2 });
    // Nothing is left behind in the temporary folder.
    expect(await readdir(path.join(ws.dir, 'tmp'))).toEqual([]);
  });

  it('refuses a truncated zip, a bad CRC-32 and an empty zip in Chinese', async () => {
    const files = await writeBadArchives(ws.dir);
    const truncated = await refusal(files.truncated, 'truncated.zip');
    expect(truncated.code).toBe('corrupt');
    expect(truncated.message).toMatch(/^压缩包已损坏：/);
    expect(truncated.message).not.toMatch(ENGLISH);
    const crc = await refusal(files.badCrc, 'bad-crc.zip');
    expect(crc.message).toBe('压缩包已损坏：条目 src/main.c 的数据校验（CRC-32）失败');
    const empty = await refusal(files.empty, 'empty.zip');
    expect(empty).toMatchObject({ code: 'empty', message: '压缩包 empty.zip 中没有任何文件' });
    expect(await readdir(path.join(ws.dir, 'tmp'))).toEqual([]);
  });

  it('refuses a truncated or damaged tar.gz without zlib\'s English', async () => {
    const tgz = gzipSync(await tarball([{ name: 'a.txt', data: 'x'.repeat(100_000) }]));
    await writeFile(path.join(ws.dir, 'cut.tar.gz'), tgz.subarray(0, tgz.length - 100));
    const cut = await refusal(path.join(ws.dir, 'cut.tar.gz'), 'cut.tar.gz');
    expect(cut.message).toMatch(/^压缩包已损坏：/);
    expect(cut.message).not.toMatch(ENGLISH);
    const broken = Buffer.from(tgz);
    broken.fill(0xff, 20, 60);
    await writeFile(path.join(ws.dir, 'broken.tar.gz'), broken);
    const bad = await refusal(path.join(ws.dir, 'broken.tar.gz'), 'broken.tar.gz');
    expect(bad.message).not.toMatch(ENGLISH);
  });
});

describe('decoder messages', () => {
  it.each([
    ['unexpected end of file', '数据不完整（文件可能被截断）'],
    ['incorrect header check', '数据校验失败'],
    ['invalid distance too far back', '压缩数据无效'],
    ['invalid block type', '压缩数据无效'],
    ['end of central directory record signature not found', '找不到目录区或目录区已损坏（文件可能不完整）'],
    ['Unexpected end of data', '数据不完整（文件可能被截断）'],
    ['Invalid tar header. Maybe the tar is corrupted or it needs to be gunzipped?', '文件头无效'],
    ['Headers Error', '文件头无效'],
    ['CRC Failed : a.txt', '数据校验失败'],
    ['compressed/uncompressed size mismatch for stored file: 10 or 12', '条目大小与目录记录不符'],
    ['invalid central directory file header signature: 0x4034b50', '找不到目录区或目录区已损坏（文件可能不完整）'],
    ['something nobody expected', '数据无法解码'],
    ['bzip2 数据不完整', 'bzip2 数据不完整'],
  ])('%s', (english, chinese) => {
    expect(decoderMessage(english)).toBe(chinese);
  });
});

describe('what an analysis with nothing to read lists', () => {
  it('every extractor names what it reads, and each name is one it reads', () => {
    for (const extractor of allExtractors) {
      expect(extractor.reads.length, extractor.name).toBeGreaterThan(0);
      for (const name of extractor.reads) expect(extractor.matches(name.replaceAll('*', 'x')), `${extractor.name}: ${name}`).toBe(true);
    }
  });

  it('lists them from the registry', () => {
    const message = noManifestMessage();
    expect(message).toMatch(/^未识别到可分析的组件清单：/);
    for (const name of ['package-lock.json', 'pom.xml', 'go.mod', 'Cargo.lock', 'requirements.txt', 'bom.json']) expect(message).toContain(name);
  });
});
