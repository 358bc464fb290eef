// Archives end to end: real project folders from the corpus packed at test time, unpacked by
// openInput and walked like a scan would; bombs at the default limits; GNU tar's own output.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { openInput, unpackArchive, UnpackError } from '../../../server/engine/index.ts';
import { hasCommand } from '../../support/commands.ts';
import { gzip, probeScan, tarball, useWorkspace, zip } from '../../unit/engine/sources/archives.ts';

const REPO = path.resolve('../shared/corpora/trivy/repo');
const MiB = 1024 ** 2;

const ws = useWorkspace();

/** Every regular file under a folder, node_modules included (walkTree skips it). */
async function filesOf(root: string): Promise<{ name: string; data: Buffer }[]> {
  const files = [];
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const absolute = path.join(entry.parentPath, entry.name);
    files.push({ name: path.relative(root, absolute).split(path.sep).join('/'), data: await readFile(absolute) });
  }
  return files.sort((a, b) => a.name.localeCompare(b.name));
}

/** path -> sha256 of every regular file under a folder. */
async function digest(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const file of await filesOf(root)) out[file.name] = createHash('sha256').update(file.data).digest('hex');
  return out;
}

async function leftovers(): Promise<string[]> {
  return (await readdir(ws.dir)).filter((n) => n === 'out' || n.startsWith('.out.'));
}

describe('openInput + scanTree on corpus projects packed at test time', () => {
  for (const project of ['npm', 'pom', 'composer', 'gomod']) {
    it(`${project}: zip and tar.gz unpack to the same files as the folder`, async () => {
      const source = path.join(REPO, project);
      const files = await filesOf(source);
      const expected = await digest(source);
      for (const [name, data] of [[`${project}.zip`, zip(files.map((f) => ({ name: `${project}/${f.name}`, data: f.data })))], [`${project}.tgz`, gzip(await tarball(files.map((f) => ({ name: `${project}/${f.name}`, data: f.data }))))]] as const) {
        const input = await openInput(await ws.put(name, data), { tempDir: ws.dir });
        try {
          expect(await digest(path.join(input.root, project))).toEqual(expected);
          const seen = await probeScan(input.root, (p) => /(^|\/)(package-lock\.json|pom\.xml|composer\.json|go\.mod)$/.test(p));
          expect(seen.length).toBeGreaterThan(0);
        } finally {
          await input.cleanup();
        }
      }
      expect((await readdir(ws.dir)).filter((n) => n.startsWith('cairn-input-'))).toEqual([]);
    });
  }
});

describe('bombs at the default limits', () => {
  it('an 8 GiB gzip bomb (128 gzip members of 64 MiB zeros) is stopped early by the ratio', async () => {
    const member = gzipSync(Buffer.alloc(64 * MiB), { level: 9 });
    const bomb = Buffer.concat(Array.from({ length: 128 }, () => member));
    const error = await unpackArchive(await ws.put('bomb.gz', bomb), path.join(ws.dir, 'out')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnpackError);
    expect((error as UnpackError).message).toBe('压缩包 bomb.gz 的压缩比超过 200:1 上限，疑似压缩炸弹，已拒绝');
    expect(await leftovers()).toEqual([]);
  });

  it('without a ratio limit, the same bomb as a tar is stopped by the total size', async () => {
    const tarHead = (await tarball([{ name: 'zeros.bin', data: Buffer.alloc(0) }])).subarray(0, 512);
    // A valid tar header declaring 1 GiB - 1 bytes, then gzip members of zeros as its body.
    const header = Buffer.from(tarHead);
    header.write(`${(1024 ** 3 - 1).toString(8).padStart(11, '0')}\0`, 124, 'latin1');
    header.fill(0x20, 148, 156);
    let sum = 0;
    for (const b of header) sum += b;
    header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
    const member = gzipSync(Buffer.alloc(64 * MiB), { level: 9 });
    const bomb = Buffer.concat([gzipSync(header), ...Array.from({ length: 16 }, () => member)]);
    const error = await unpackArchive(await ws.put('bomb.tgz', bomb), path.join(ws.dir, 'out'), { limits: { maxRatio: 1e9, maxTotalBytes: 32 * MiB } }).catch((e: unknown) => e);
    expect((error as UnpackError).message).toBe('压缩包 bomb.tgz 解压后超过 32 MiB 上限，疑似压缩炸弹，已拒绝');
    expect(await leftovers()).toEqual([]);
  });

  it('a zip of 200 001 empty entries is refused before anything is written', async () => {
    const items = Array.from({ length: 200_001 }, (_, i) => ({ name: `f${i}`, data: '' }));
    const error = await unpackArchive(await ws.put('many.zip', zip(items)), path.join(ws.dir, 'out')).catch((e: unknown) => e);
    expect((error as UnpackError).message).toBe('压缩包 many.zip 中的条目超过 200000 个上限，疑似压缩炸弹，已拒绝');
    expect(await leftovers()).toEqual([]);
  });
});

const hasTar = hasCommand('tar', '--version');

describe.skipIf(!hasTar)('archives written by the system tar', () => {
  for (const format of ['gnu', 'posix', 'v7']) {
    it(`--format=${format}, gzip`, async () => {
      const source = path.join(REPO, 'npm');
      const archive = path.join(ws.dir, `npm-${format}.tgz`);
      execFileSync('tar', [`--format=${format}`, '-czf', archive, '-C', source, '.']);
      const result = await unpackArchive(archive, path.join(ws.dir, 'out'));
      expect(result.entries).toEqual([]);
      expect(await digest(path.join(ws.dir, 'out'))).toEqual(await digest(source));
      expect(await readFile(path.join(ws.dir, 'out', 'package-lock.json'), 'utf8')).toBe(await readFile(path.join(source, 'package-lock.json'), 'utf8'));
    });
  }
});
