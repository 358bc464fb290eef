// Cairn vs cdxgen on the same inputs, each as a whole command (process start, scan, CycloneDX
// written to a file): every trivy fixture project and the generated 5,000-component monorepo.
// Wall time and peak RSS come from GNU time (Debian package `time`). cdxgen is installed on
// first use into the bench cache outside the repository and run offline (bench/peers.ts).
// peers.bench.ts is the interleaved, ratio-per-pair version of this table.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateMonorepo } from './monorepo.ts';
import { CDXGEN_ENV, ensureCdxgen } from './peers.ts';

const here = import.meta.dirname;
const repoRoot = path.resolve(here, '..');
const TRIVY_REPO = path.resolve(repoRoot, '../shared/corpora/trivy/repo');

interface Run { seconds: number; maxRssMB: number; components: number; ok: boolean }

function timed(args: string[], out: string, env: NodeJS.ProcessEnv = {}): Run {
  const r = spawnSync('/usr/bin/time', ['-f', '@@%e %M', process.execPath, ...args], { encoding: 'utf8', env: { ...process.env, ...env }, cwd: repoRoot });
  const m = /@@([\d.]+) (\d+)/.exec(r.stderr);
  let components = 0;
  try { components = (JSON.parse(readFileSync(out, 'utf8')) as { components?: unknown[] }).components?.length ?? 0; } catch {}
  return { seconds: m ? Number(m[1]) : NaN, maxRssMB: m ? Number(m[2]) / 1024 : NaN, components, ok: r.status === 0 };
}

export async function run(): Promise<void> {
  if (!existsSync('/usr/bin/time')) { console.log('需要 GNU time（apt-get install time）'); return; }
  const cdxgenBin = ensureCdxgen();
  const work = mkdtempSync(path.join(tmpdir(), 'cairn-compare-'));
  const inputs: Array<[string, string]> = [
    ['monorepo (5,000)', generateMonorepo().root],
    ...readdirSync(TRIVY_REPO).sort().map((n): [string, string] => [`trivy/${n}`, path.join(TRIVY_REPO, n)]),
  ];
  console.log(`${'输入'.padEnd(26)} ${'Cairn 秒'.padStart(9)} ${'MB'.padStart(6)} ${'组件'.padStart(6)}   ${'cdxgen 秒'.padStart(9)} ${'MB'.padStart(6)} ${'组件'.padStart(6)}`);
  try {
    for (const [name, dir] of inputs) {
      const ours = timed(['cli/cairn.ts', 'scan', dir, '--format', 'cyclonedx', '--output', path.join(work, 'cairn.json')], path.join(work, 'cairn.json'));
      const theirs = timed([cdxgenBin, '--no-install-deps', '-o', path.join(work, 'cdxgen.json'), dir], path.join(work, 'cdxgen.json'), CDXGEN_ENV);
      const cell = (r: Run) => `${(r.ok ? r.seconds.toFixed(2) : '失败').padStart(9)} ${r.maxRssMB.toFixed(0).padStart(6)} ${String(r.components).padStart(6)}`;
      console.log(`${name.padEnd(26)} ${cell(ours)}   ${cell(theirs)}`);
      rmSync(path.join(work, 'cairn.json'), { force: true });
      rmSync(path.join(work, 'cdxgen.json'), { force: true });
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
