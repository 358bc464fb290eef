// Decompression bombs (issue 13): each bomb of tests/integration/engine/bomb-makers.ts (made in a
// child process), unpacked at the default limits in this process after a warm-up of every
// decoder: time to the refusal and peak memory above the baseline (tests/integration/engine/
// memory-probe.ts); then `cairn scan <bomb>` as a command (wall time, exit code).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { unpackArchive } from '../server/engine/index.ts';
import type { Made } from '../tests/integration/engine/bomb-makers.ts';
import { measure } from '../tests/integration/engine/memory-probe.ts';

const ROOT = path.resolve(import.meta.dirname, '..');

export async function run(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cairn-bench-bombs-'));
  try {
    const made = JSON.parse(execFileSync(process.execPath, [path.join(ROOT, 'tests/integration/engine/bomb-makers.ts'), dir], { encoding: 'utf8' })) as Made;
    for (const { file } of made.legit.files) {
      await unpackArchive(path.join(dir, file), path.join(dir, 'warm-up'));
      await rm(path.join(dir, 'warm-up'), { recursive: true, force: true });
    }
    console.log('| format | compressed | expands to | refused after | peak extra RSS | peak extra external | refusal |');
    console.log('|---|---:|---:|---:|---:|---:|---|');
    for (const bomb of made.bombs) {
      const figures = await measure(() => unpackArchive(path.join(dir, bomb.file), path.join(dir, 'out')));
      const why = figures.outcome.ok ? '未拒绝' : (figures.outcome.error as Error).message;
      console.log(`| ${bomb.format} | ${bomb.bytes.toLocaleString('en')} B | ${bomb.expands ? `${(bomb.expands / 1024 ** 3).toFixed(2)} GiB` : '—'} | ${figures.ms.toFixed(0)} ms | ${figures.rssMiB.toFixed(0)} MiB | ${figures.buffersMiB.toFixed(0)} MiB | ${why} |`);
      await rm(path.join(dir, 'out'), { recursive: true, force: true });
    }
    console.log('\n| `cairn scan` | wall | exit |');
    console.log('|---|---:|---:|');
    for (const bomb of made.bombs) {
      const started = performance.now();
      const result = spawnSync(process.execPath, [path.join(ROOT, 'cli/cairn.ts'), 'scan', path.join(dir, bomb.file)], { encoding: 'utf8' });
      console.log(`| ${bomb.file} | ${((performance.now() - started) / 1000).toFixed(2)} s | ${result.status} |`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
