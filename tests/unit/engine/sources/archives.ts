// Builds real archives at test time: a tiny zip writer (stored or deflated entries, Unix modes,
// the UTF-8 flag, raw names), tar via tar-stream, gzip via node:zlib. xz and bzip2 have no
// compressor among our libraries: small archives made once with `xz -9` / `bzip2 -9` are inlined.
// Also the temporary workspace the archive tests unpack into, and a scan of what they unpacked.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { crc32, deflateRawSync, gzipSync } from 'node:zlib';
import tar from 'tar-stream';
import type { Header } from 'tar-stream';
import { afterEach, beforeEach, expect } from 'vitest';
import { scanTree, walkTree, type Extractor } from '../../../../server/engine/index.ts';

export interface ZipItem {
  name: string | Buffer;
  data?: Buffer | string;
  /** 8 deflate (default for files), 0 stored. */
  method?: 0 | 8;
  /** Unix mode including the type bits (0o100644, 0o120777 for a link, 0o040755 for a folder). */
  mode?: number;
  /** Sets general-purpose bit 11 (names are UTF-8). Default: true for string names. */
  utf8?: boolean;
}

export function zip(items: readonly ZipItem[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const item of items) {
    const name = typeof item.name === 'string' ? Buffer.from(item.name) : item.name;
    const data = typeof item.data === 'string' ? Buffer.from(item.data) : (item.data ?? Buffer.alloc(0));
    const method = item.method ?? (data.length ? 8 : 0);
    const body = method === 8 ? deflateRawSync(data, { level: 9 }) : data;
    const flag = (item.utf8 ?? typeof item.name === 'string') ? 0x800 : 0;
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flag, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, body);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(item.mode !== undefined ? (3 << 8) | 20 : 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flag, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(item.mode !== undefined ? (item.mode << 16) >>> 0 : 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const zip64 = items.length > 0xffff;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(zip64 ? 0xffff : items.length, 8);
  end.writeUInt16LE(zip64 ? 0xffff : items.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  if (!zip64) return Buffer.concat([...locals, directory, end]);
  // More than 65 535 entries: a Zip64 end record and its locator carry the real count.
  const record = Buffer.alloc(56);
  record.writeUInt32LE(0x06064b50, 0);
  record.writeBigUInt64LE(44n, 4);
  record.writeUInt16LE(45, 12);
  record.writeUInt16LE(45, 14);
  record.writeBigUInt64LE(BigInt(items.length), 24);
  record.writeBigUInt64LE(BigInt(items.length), 32);
  record.writeBigUInt64LE(BigInt(directory.length), 40);
  record.writeBigUInt64LE(BigInt(offset), 48);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(0x07064b50, 0);
  locator.writeBigUInt64LE(BigInt(offset + directory.length), 8);
  locator.writeUInt32LE(1, 16);
  return Buffer.concat([...locals, directory, record, locator, end]);
}

export type TarItem = Partial<Header> & { name: string; data?: Buffer | string };

export async function tarball(items: readonly TarItem[]): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  const done = (async () => {
    for await (const chunk of pack) chunks.push(chunk as Buffer);
  })();
  for (const { data, ...header } of items) {
    const body = typeof data === 'string' ? Buffer.from(data) : data;
    await new Promise<void>((resolve, reject) => {
      const type = header.type ?? 'file';
      if (type === 'file') pack.entry({ mode: 0o644, ...header, size: body?.length ?? 0 }, body ?? Buffer.alloc(0), (e) => (e ? reject(e) : resolve()));
      else pack.entry({ mode: 0o755, ...header }, (e) => (e ? reject(e) : resolve()));
    });
  }
  pack.finalize();
  await done;
  return Buffer.concat(chunks);
}

export const gzip = (buf: Buffer) => gzipSync(buf);

/** Replaces the name of the tar header at `offset` with raw bytes (at most 100) and fixes its checksum. */
export function rawTarName(tarData: Buffer, offset: number, raw: Buffer): void {
  tarData.fill(0, offset, offset + 100);
  raw.copy(tarData, offset);
  tarData.fill(0x20, offset + 148, offset + 156);
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += tarData[offset + i]!;
  tarData.write(`${sum.toString(8).padStart(6, '0')}\0 `, offset + 148, 'latin1');
}

/** `pkg/package.json` ({"name":"demo","version":"1.0.0"}) and `pkg/README.md` ("# 示例"). */
export const DEMO_TAR_XZ = Buffer.from(
  '/Td6WFoAAATm1rRGAgAhARwAAAAQz1jM4Cf/ALldADgayRWYrNGyNLfPL52tDilYvn2Hqbykh0i1kFuxOn4i5GoLyhKWenF9LdVdLKUkgAK2ic72wQF3IlJYEHH2AkMjssfvCKqq+1HbdXHbWri3xyW+aTvjzf3axf9yS5XiDm3B+ef2q9QsFZ/hPwnX/RobYz73LQ789isYiMtzAxnE3kJquK2mswqHCYPlMBP1y3UyvwuKPemhEOfc2SkT74MuOJGvJQ3OrnpfrSQpaWxKaT1L5YFBWOCkAAAAAJCh1InsrQfdAAHVAYBQAAB66CM9scRn+wIAAAAABFla',
  'base64',
);
export const DEMO_TAR_BZ2 = Buffer.from(
  'QlpoOTFBWSZTWReWmzUAAMZf2cqQWAX/kCYCWARuu98KAAgEAAARBIAEKDAAutBlFGjyj1AeoAyAeUGhmiNPUK9RNNBpMATRgCAyGQwBkoT01NPU0PUYgyAaYmE0AOm9mNqQD8iYkBJRYJBGXO1AtgOEwqU6XyQQhAhBh8mQtn2NemGpn7WnHd4dziEhJlGkpABd0e0gX0BUWKcC1HmCBzSogFFYQcEWsIcOIWB1wlkjJjFMkj1rnvU5BHv1upM9GBEs9SjchvoYU2+LwxiqckXBZX4qrKzWWKRZGyMe0xBA/i7kinChIC8tNmo=',
  'base64',
);
/** A bare xz file holding "plain xz text\n". */
export const NOTE_XZ = Buffer.from('/Td6WFoAAATm1rRGAgAhARYAAAB0L+WjAQANcGxhaW4geHogdGV4dAoAAADQSj/ugslfGAABJg4IG+AEH7bzfQEAAAAABFla', 'base64');

export interface Workspace {
  dir: string;
  /** Writes an archive into the workspace and returns its path. */
  put(name: string, data: Buffer): Promise<string>;
  dispose(): Promise<void>;
}

async function workspace(): Promise<Workspace> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cairn-unpack-test-'));
  return {
    dir,
    async put(name, data) {
      const file = path.join(dir, name);
      await writeFile(file, data);
      return file;
    },
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}

/**
 * A fresh workspace for every test of the calling file: made before each test, removed after it.
 * Call it at the top of the file; the answer stands for the current test's workspace.
 */
export function useWorkspace(): Workspace {
  let current: Workspace | undefined;
  beforeEach(async () => {
    current = await workspace();
  });
  afterEach(async () => {
    await current?.dispose();
    current = undefined;
  });
  const now = (): Workspace => {
    if (!current) throw new Error('useWorkspace: no test is running');
    return current;
  };
  return {
    get dir() {
      return now().dir;
    },
    put: (name, data) => now().put(name, data),
    dispose: () => now().dispose(),
  };
}

/**
 * Scans an unpacked tree with a probe extractor for the files `matches` accepts, expects the scan
 * to have counted every file walkTree yields, and answers the paths the probe was given.
 */
export async function probeScan(root: string, matches: (file: string) => boolean): Promise<string[]> {
  const seen: string[] = [];
  const probe: Extractor = {
    name: 'probe',
    ecosystem: 'generic',
    reads: [],
    matches,
    extract: async (file) => {
      seen.push(file.path);
      return [];
    },
  };
  const result = await scanTree(root, { extractors: [probe] });
  let walked = 0;
  for await (const _ of walkTree(root)) walked++;
  expect(result.stats.files).toBe(walked);
  return seen;
}
