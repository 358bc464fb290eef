// `npm run bench -- peers`: Cairn against its peers, whole command against whole command, pair by
// pair and interleaved (A B A B …) so that a drift of the machine's speed hits both sides alike.
// Each pair's ratio is the median of the per-run ratios peer/Cairn (above 1: Cairn is faster).
//   scan:      Cairn `scan --format cyclonedx -o` vs cdxgen (offline switches, bench/peers.ts) on the
//              shared trivy projects, a generated 2,500-entry npm lock (bench/huge-lock.ts), and a copy of this project's
//              node_modules (~80,000 files, walked as a tree).
//   licences:  Cairn `licenses -o` vs Debian's licensecheck `--recursive --check . --copyright`
//              (licence and copyright on both sides) on 20,000 node_modules text files and on the
//              ScanCode lic1 licence texts.
// PEERS_ONLY=trivy,lock,tree,files,lic1 picks parts; PEERS_RUNS (default 3) counted runs per side,
// after one warm-up each. Wall and CPU seconds and peak RSS come from GNU time.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { copyFile, mkdir } from 'node:fs/promises';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { hugeLock } from './huge-lock.ts';
import { licenceBenchFiles } from './licenses.bench.ts';
import { benchCache, CDXGEN_ARGS, CDXGEN_ENV, ensureCdxgen, licensecheck } from './peers.ts';

const repoRoot = path.resolve(import.meta.dirname, '..');
const corpora = path.resolve(repoRoot, '../shared/corpora');
const RUNS = Math.max(1, Number(process.env.PEERS_RUNS ?? 3));
const ONLY = new Set((process.env.PEERS_ONLY ?? 'trivy,lock,tree,files,lic1').split(','));
const work = path.join(tmpdir(), `cairn-peers-${process.pid}`);

interface Run { wall: number; cpu: number; rssMB: number; ok: boolean }
interface Side { command: string[]; env?: NodeJS.ProcessEnv; output?: string }

function timed(side: Side): Run {
  if (side.output) rmSync(side.output, { force: true });
  const r = spawnSync('/usr/bin/time', ['-f', '@@%e %U %S %M', ...side.command], { encoding: 'utf8', env: { ...process.env, ...side.env }, cwd: work, maxBuffer: 1 << 30 });
  const m = /@@([\d.]+) ([\d.]+) ([\d.]+) (\d+)\s*$/.exec(r.stderr);
  return m ? { wall: Number(m[1]), cpu: Number(m[2]) + Number(m[3]), rssMB: Number(m[4]) / 1024, ok: r.status === 0 } : { wall: NaN, cpu: NaN, rssMB: NaN, ok: false };
}

const median = (xs: number[]) => { const s = xs.filter(Number.isFinite).sort((a, b) => a - b); return s.length ? s[Math.floor((s.length - 1) / 2)]! : NaN; };

function components(file: string | undefined): string {
  if (!file || !existsSync(file)) return '';
  try { return String((JSON.parse(readFileSync(file, 'utf8')) as { components?: unknown[] }).components?.length ?? 0); } catch { return '?'; }
}

export interface PairResult { name: string; ours: Run[]; theirs: Run[]; wallRatio: number; cpuRatio: number; oursCount: string; theirsCount: string }

/** Warm-up once each, then RUNS interleaved pairs. */
function pair(name: string, ours: Side, theirs: Side): PairResult {
  timed(ours);
  timed(theirs);
  const a: Run[] = [];
  const b: Run[] = [];
  for (let i = 0; i < RUNS; i++) { a.push(timed(ours)); b.push(timed(theirs)); }
  const result = {
    name, ours: a, theirs: b,
    // A failed run (cdxgen on trivy/pubspec exits 1) is no time to compare.
    wallRatio: median(a.map((x, i) => (x.ok && b[i]!.ok ? b[i]!.wall / x.wall : NaN))),
    cpuRatio: median(a.map((x, i) => (x.ok && b[i]!.ok ? b[i]!.cpu / x.cpu : NaN))),
    oursCount: components(ours.output), theirsCount: components(theirs.output),
  };
  const cell = (runs: Run[]) => runs.every((r) => r.ok) ? `${median(runs.map((r) => r.wall)).toFixed(2)} s ${median(runs.map((r) => r.rssMB)).toFixed(0)} MB` : '失败';
  const ratio = (r: number, bold: boolean) => (Number.isFinite(r) ? (bold ? `**${r.toFixed(1)}×**` : `${r.toFixed(1)}×`) : '—');
  console.log(`| ${name} | ${cell(a)} | ${cell(b)} | ${ratio(result.wallRatio, true)} | ${ratio(result.cpuRatio, false)} | ${result.oursCount} | ${result.theirsCount} |`);
  return result;
}

const cairn = (...args: string[]): string[] => [process.execPath, path.join(repoRoot, 'cli/cairn.ts'), ...args];

/** A copy of this project's node_modules, so both tools walk the same ~80,000 files from a cold start of each process. */
function nodeModulesCopy(): string {
  const root = path.join(benchCache, 'node-modules-copy');
  const tree = path.join(root, 'node_modules');
  if (!existsSync(path.join(root, '.complete'))) {
    rmSync(root, { recursive: true, force: true });
    cpSync(path.join(repoRoot, 'node_modules'), tree, { recursive: true, verbatimSymlinks: true });
    writeFileSync(path.join(root, '.complete'), '');
  }
  return tree;
}

/** The same selection as licenses.bench.ts (the first 20,000 text files ≤ 1 MiB of node_modules), copied so both tools read it. */
async function licenceFiles(): Promise<string> {
  const root = path.join(benchCache, 'licence-files-20000');
  if (existsSync(path.join(root, '.complete'))) return path.join(root, 'files');
  rmSync(root, { recursive: true, force: true });
  for await (const file of licenceBenchFiles()) {
    const to = path.join(root, 'files', file.path);
    await mkdir(path.dirname(to), { recursive: true });
    await copyFile(file.absolute, to);
  }
  writeFileSync(path.join(root, '.complete'), '');
  return path.join(root, 'files');
}

function lic1(): string {
  const root = path.join(benchCache, 'scancode-lic1');
  if (!existsSync(path.join(root, '.complete'))) {
    const from = path.join(corpora, 'licenses/scancode/lic1');
    mkdirSync(root, { recursive: true });
    // The texts only; the .yml files beside them are ScanCode's expected answers.
    for (const f of readdirSync(from)) if (!f.endsWith('.yml')) cpSync(path.join(from, f), path.join(root, f));
    writeFileSync(path.join(root, '.complete'), '');
  }
  return root;
}

export async function run(): Promise<void> {
  if (!existsSync('/usr/bin/time')) { console.log('需要 GNU time（apt-get install time）'); return; }
  mkdirSync(work, { recursive: true });
  const bundled = existsSync(path.join(repoRoot, 'dist/cli/cairn.js'));
  console.log(`机器：${cpus().length} 核，${(totalmem() / 2 ** 30).toFixed(0)} GiB，Node ${process.version}；负载 ${loadavg().map((l) => l.toFixed(2)).join(' ')}；每对 ${RUNS} 次交替运行（各先预热一次）；Cairn ${bundled ? '从构建产物运行（dist/cli）' : '从源码运行（未构建）'}`);
  const header = '| 输入 | Cairn（中位，峰值内存） | 对手（中位，峰值内存） | 对手/Cairn 耗时 | 对手/Cairn CPU | Cairn 组件 | 对手组件 |\n|---|---:|---:|---:|---:|---:|---:|';
  const results: PairResult[] = [];
  try {
    const scanPairs: Array<[string, string]> = [];
    if (ONLY.has('trivy')) {
      const repo = path.join(corpora, 'trivy/repo');
      for (const n of readdirSync(repo).sort()) scanPairs.push([`trivy/${n}`, path.join(repo, n)]);
    }
    if (ONLY.has('lock')) scanPairs.push(['生成的 npm 锁文件（2,500 项）', path.join(hugeLock(2500).root, 'npm')]);
    if (ONLY.has('tree')) scanPairs.push(['node_modules 副本（目录树）', nodeModulesCopy()]);
    if (scanPairs.length) {
      const cdxgen = ensureCdxgen();
      console.log(`\n扫描：Cairn scan --format cyclonedx 对 cdxgen ${CDXGEN_ARGS.join(' ')}\n${header}`);
      for (const [name, dir] of scanPairs) {
        results.push(pair(name,
          { command: cairn('scan', dir, '--format', 'cyclonedx', '--output', path.join(work, 'cairn.json')), output: path.join(work, 'cairn.json') },
          { command: [process.execPath, cdxgen, ...CDXGEN_ARGS, '-o', path.join(work, 'cdxgen.json'), dir], env: CDXGEN_ENV, output: path.join(work, 'cdxgen.json') }));
      }
      const trivy = results.filter((r) => r.name.startsWith('trivy/') && Number.isFinite(r.wallRatio));
      if (trivy.length) console.log(`trivy 项目 ${trivy.length} 个：耗时比的几何平均 ${Math.exp(trivy.reduce((s, r) => s + Math.log(r.wallRatio), 0) / trivy.length).toFixed(1)}×，最小 ${Math.min(...trivy.map((r) => r.wallRatio)).toFixed(1)}×`);
    }
    const licencePairs: Array<[string, string]> = [];
    if (ONLY.has('files')) licencePairs.push(['node_modules 文本文件 20,000 个', await licenceFiles()]);
    if (ONLY.has('lic1')) licencePairs.push(['ScanCode lic1 许可证文本', lic1()]);
    const lc = licencePairs.length ? licensecheck() : undefined;
    if (lc) {
      console.log(`\n许可证与版权：Cairn licenses 对 licensecheck --recursive --check . --copyright（默认读每个文件前 60 行）\n${header}`);
      for (const [name, dir] of licencePairs) {
        results.push(pair(name,
          { command: cairn('licenses', dir, '--output', path.join(work, 'licenses.json')) },
          { command: [lc, '--recursive', '--check', '.', '--copyright', dir] }));
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  console.log(`\n结束时负载 ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
}
