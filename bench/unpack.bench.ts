// Unpacking untrusted archives (server/engine/sources/unpack.ts): a generated ~50 MB source tree
// (text files of varied sizes, like a repository with vendored code) as tar.gz and zip, unpacked
// with the default limits. Throughput is uncompressed MB written per second.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { unpackArchive } from '../server/engine/index.ts';
import { tarball, zip } from '../tests/unit/engine/sources/archives.ts';
import { measure } from './measure.ts';

const TARGET_BYTES = 50 * 1024 * 1024;

/** Pseudo-random source-like text: compresses around 4-6:1, like real code. */
function generateFiles(): { name: string; data: Buffer }[] {
  const words = ['const', 'function', 'return', 'import', 'export', 'value', 'result', 'index', 'package', 'version', 'dependency', 'license', 'if', 'else', 'for', 'await', '{', '}', '(', ')', ';', '=>', '\n'];
  let seed = 42;
  const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  const files = [];
  let total = 0;
  for (let i = 0; total < TARGET_BYTES; i++) {
    const size = Math.floor(512 + random() * random() * 200_000);
    const parts: string[] = [];
    let length = 0;
    while (length < size) {
      const word = random() < 0.1 ? `id${Math.floor(random() * 100_000)}` : words[Math.floor(random() * words.length)]!;
      parts.push(word, ' ');
      length += word.length + 1;
    }
    const data = Buffer.from(parts.join(''));
    files.push({ name: `src/module${i % 97}/file${i}.ts`, data });
    total += data.length;
  }
  return files;
}

export async function run(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cairn-bench-unpack-'));
  try {
    const files = generateFiles();
    const bytes = files.reduce((n, f) => n + f.data.length, 0);
    const tgz = path.join(dir, 'tree.tar.gz');
    const zipFile = path.join(dir, 'tree.zip');
    await writeFile(tgz, gzipSync(await tarball(files)));
    await writeFile(zipFile, zip(files));
    const mb = bytes / 1024 / 1024;
    console.log(`生成的源码树：${files.length} 个文件，${mb.toFixed(1)} MiB`);
    for (const [label, file] of [['tar.gz', tgz], ['zip', zipFile]] as const) {
      let n = 0;
      const figures = await measure(`解压 ${label}（${mb.toFixed(0)} MiB，${files.length} 个文件）`, 5, async () => {
        await unpackArchive(file, path.join(dir, `out-${label}-${n++}`));
      }, 1);
      console.log(`  ${label}: ${(mb / (figures.p50Ms / 1000)).toFixed(1)} MiB/s（p50）`);
      for (let i = 0; i < n; i++) await rm(path.join(dir, `out-${label}-${i}`), { recursive: true, force: true });
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
