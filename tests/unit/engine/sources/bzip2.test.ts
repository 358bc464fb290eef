// The streaming bzip2 decoder: byte-exact against 7-Zip's bzip2 encoder (7z-wasm) on runs, random
// and text data, several blocks and concatenated streams; damaged data refused; and output given
// out a bounded chunk at a time however much one block expands.
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { SevenZipModuleFactory } from '7z-wasm';
import { describe, expect, it } from 'vitest';
import { bunzip2, Bzip2Decoder, Bzip2Error } from '../../../../server/engine/sources/archive/bzip2.ts';
import { DEMO_TAR_BZ2 } from './archives.ts';

/** bzip2 by 7-Zip (7z-wasm), block size `block` (100k .. 900k). */
async function bzip2(data: Buffer, block = '900k'): Promise<Buffer> {
  const factory = ((await import('7z-wasm')) as unknown as { default: SevenZipModuleFactory }).default;
  const module = await factory({ print: () => {}, printErr: () => {}, stdin: () => null as unknown as number });
  module.FS.writeFile('/data', data);
  const exitCode = process.exitCode;
  try {
    module.callMain(['a', '-tbzip2', `-md=${block}`, '-mx=5', '-bsp0', '-bso0', '/data.bz2', '/data']);
  } finally {
    process.exitCode = exitCode;
  }
  return Buffer.from(module.FS.readFile('/data.bz2'));
}

/** Decodes through the stream, fed in chunks of `chunk` bytes. */
async function decode(compressed: Buffer, chunk = 4096): Promise<{ data: Buffer; consumed: number; largest: number }> {
  const parts = [];
  for (let i = 0; i < compressed.length; i += chunk) parts.push(compressed.subarray(i, i + chunk));
  const { output, consumed } = bunzip2(Readable.from(parts));
  const out: Buffer[] = [];
  let largest = 0;
  for await (const piece of output) {
    out.push(piece as Buffer);
    largest = Math.max(largest, (piece as Buffer).length);
  }
  return { data: Buffer.concat(out), consumed: consumed(), largest };
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Text-like data: words from a small vocabulary, pseudo-random. */
function words(bytes: number): Buffer {
  const vocabulary = ['const', 'return', 'package', 'version', 'license', '依赖', '组件', '\n', '{', '}', ' '];
  let seed = 7;
  const parts: string[] = [];
  let length = 0;
  while (length < bytes) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const word = vocabulary[seed % vocabulary.length]!;
    parts.push(word);
    length += Buffer.byteLength(word);
  }
  return Buffer.from(parts.join('')).subarray(0, bytes);
}

describe('bzip2 decoder', () => {
  const cases: [string, Buffer, string?][] = [
    ['empty', Buffer.alloc(0)],
    ['one byte', Buffer.from('x')],
    ['a run of exactly 4', Buffer.from('aaaa')],
    ['a run of 5, then others', Buffer.from('aaaaab')],
    ['runs of 255, 256, 259 and 1000', Buffer.concat([Buffer.alloc(255, 1), Buffer.alloc(256, 2), Buffer.alloc(259, 3), Buffer.alloc(1000, 4)])],
    ['every byte value, repeated', Buffer.concat(Array.from({ length: 64 }, (_, i) => Buffer.from(Array.from({ length: 256 }, (__, b) => (b * 7 + i) & 0xff))))],
    ['random 300 KiB', randomBytes(300 * 1024)],
    ['text, 100k blocks (several blocks)', words(450 * 1024), '100k'],
    ['zeros and random, 100k blocks', Buffer.concat([Buffer.alloc(200_000), randomBytes(150_000), Buffer.alloc(400_000)]), '100k'],
  ];
  for (const [name, data, block] of cases) {
    it(`round-trips ${name}`, async () => {
      const compressed = await bzip2(data, block);
      const { data: decoded, consumed } = await decode(compressed, 1000);
      expect(decoded.length).toBe(data.length);
      expect(sha(decoded)).toBe(sha(data));
      expect(consumed).toBe(compressed.length);
    });
  }

  it('decodes the demo tar.bz2 made by bzip2 -9', async () => {
    const { data } = await decode(DEMO_TAR_BZ2);
    expect(data.toString('latin1')).toContain('{"name":"demo","version":"1.0.0"}');
  });

  it('decodes concatenated streams in turn and ignores bytes after the last one', async () => {
    const a = randomBytes(5000);
    const b = words(70_000);
    const both = Buffer.concat([await bzip2(a), await bzip2(b)]);
    expect(sha((await decode(both, 333)).data)).toBe(sha(Buffer.concat([a, b])));
    const trailing = Buffer.concat([both, Buffer.from('garbage after the end')]);
    expect(sha((await decode(trailing)).data)).toBe(sha(Buffer.concat([a, b])));
  });

  it('refuses damaged data: truncated, a flipped bit (CRC), not bzip2', async () => {
    const compressed = await bzip2(words(200_000));
    await expect(decode(compressed.subarray(0, compressed.length - 30))).rejects.toThrow(Bzip2Error);
    const flipped = Buffer.from(compressed);
    flipped[Math.floor(flipped.length / 2)]! ^= 0x10;
    await expect(decode(flipped)).rejects.toThrow(Bzip2Error);
    await expect(decode(Buffer.from('BZh0 not really'))).rejects.toThrow('不是 bzip2 数据');
    await expect(decode(Buffer.from('hello'))).rejects.toThrow('不是 bzip2 数据');
  });

  it('gives a block that expands 20,000-fold out a chunk at a time, having consumed only that block', async () => {
    // 45,000,000 zeros: one block of 900k, about 50 bytes compressed.
    const compressed = await bzip2(Buffer.alloc(45_000_000));
    expect(compressed.length).toBeLessThan(100);
    const decoder = new Bzip2Decoder();
    decoder.push(compressed);
    decoder.end();
    let total = 0;
    for (let i = 0; i < 10; i++) {
      const chunk = decoder.read(65_536);
      expect(chunk.length).toBe(65_536);
      expect(chunk.every((b) => b === 0)).toBe(true);
      total += chunk.length;
    }
    expect(total).toBe(655_360);
    // The block is parsed whole before its output starts; the end-of-stream marker is not yet read.
    expect(decoder.consumed).toBeLessThan(compressed.length);
    expect(decoder.consumed).toBeGreaterThan(compressed.length - 12);
    const { data, largest } = await decode(compressed);
    expect(data.length).toBe(45_000_000);
    expect(largest).toBeLessThanOrEqual(65_536);
  });

  it('decodes only as fast as its output is read (backpressure)', async () => {
    const compressed = await bzip2(Buffer.alloc(45_000_000));
    // Four streams of 45 MB each: 180 MB if everything were decoded ahead.
    const { output, consumed } = bunzip2(Readable.from(Array.from({ length: 4 }, () => compressed)));
    const first = (await output[Symbol.asyncIterator]().next()).value as Buffer;
    expect(first.length).toBe(65_536);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(output.readableLength).toBeLessThanOrEqual(2 * 65_536);
    expect(consumed()).toBeLessThan(compressed.length);
    output.destroy();
  });
});
