// Issue 16: a ~500 MB, 5-layer OCI image with ~3,100 OS and language packages (bench/large-image.ts,
// made once and cached) analysed as the platform does it — the analysis thread
// (analyseInWorker, heap-capped) with modes 1, 4, 7: layers applied into one root, the tree
// scanned, components attributed to layers, every file read for licences and copyrights. Wall time,
// this process's peak resident size (the thread is inside it: sampled every 2 ms by another thread
// and the kernel's VmHWM, tests/integration/engine/memory-probe.ts), where the time went (stage
// boundaries from the thread's progress), components and files. Run: `npm run bench -- image`.
// CAIRN_BENCH_IMAGE_MB changes the size (default 500); CAIRN_BENCH_IMAGE_MODES the modes (1,4,7).
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { analyseInWorker, type AnalyseProgress, type AnalyseResult } from '../server/engine/index.ts';
import { measure } from '../tests/integration/engine/memory-probe.ts';
import { largeImage } from './large-image.ts';

const MiB = 1024 * 1024;

export async function run(): Promise<void> {
  const totalMb = Number(process.env.CAIRN_BENCH_IMAGE_MB ?? 500);
  const modes = (process.env.CAIRN_BENCH_IMAGE_MODES ?? '1,4,7').split(',').map(Number);
  let started = performance.now();
  const image = await largeImage(totalMb);
  console.log(`镜像：${image.tar}，${(image.bytes / MiB).toFixed(0)} MiB，${image.layers.length} 层（准备 ${((performance.now() - started) / 1000).toFixed(1)} 秒，已缓存则为 0）`);
  for (const [i, l] of image.layers.entries()) console.log(`  第 ${i + 1} 层 ${(l.compressed / MiB).toFixed(1).padStart(6)} MiB ${String(l.files).padStart(6)} 个文件  ${l.step}`);
  console.log(`  植入的包：dpkg ${image.planted.dpkg}，npm ${image.planted.npm}，Python ${image.planted.python}`);

  const workDir = await mkdtemp(path.join(tmpdir(), 'cairn-bench-image-run-'));
  // Stage boundaries with the process's CPU time (all threads; the main thread only waits), which
  // a loaded machine does not inflate the way it does wall time.
  const stages: Array<{ stage: string; at: number; cpu: number }> = [];
  const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
  const onProgress = (p: AnalyseProgress) => {
    if (stages.at(-1)?.stage !== p.stage) stages.push({ stage: p.stage, at: performance.now(), cpu: cpu() });
  };
  const load = loadavg()[0]!.toFixed(1);
  try {
    let startCpu = 0;
    let endCpu = 0;
    let ended = 0;
    const figures = await measure(async () => {
      started = performance.now();
      startCpu = cpu();
      try {
        return await analyseInWorker({ file: image.tar, fileName: 'image.tar', kind: 'image', modes, workDir, imageReference: 'bench/app:latest' }, { onProgress });
      } finally {
        endCpu = cpu();
        ended = performance.now();
      }
    });
    if (!figures.outcome.ok) throw figures.outcome.error;
    const result: AnalyseResult = figures.outcome.value;
    const byType = new Map<string, number>();
    for (const c of result.components) byType.set(c.ecosystem, (byType.get(c.ecosystem) ?? 0) + 1);
    const perLayer = result.image?.layers.map((l) => l.components).join(' / ') ?? '—';
    const licenceFiles = result.findings.filter((f) => f.licenses.length).length;
    const copyrightFiles = result.findings.filter((f) => f.copyrights.length).length;
    console.log(`\n模式 ${modes.join(',')}，负载 ${load}`);
    console.log(`分析：${(figures.ms / 1000).toFixed(1)} 秒（CPU ${((endCpu - startCpu) / 1000).toFixed(1)} 秒）；进程 RSS：基线 ${figures.baselineMiB.toFixed(0)} MiB，峰值 ${(figures.baselineMiB + figures.rssMiB).toFixed(0)} MiB（增加 ${figures.rssMiB.toFixed(0)} MiB，external 增加 ${figures.buffersMiB.toFixed(0)} MiB）`);
    console.log(`组件 ${result.components.length}（${[...byType].map(([k, v]) => `${k} ${v}`).join('，')}），各层 ${perLayer}`);
    console.log(`文件 ${result.stats.files}（${(result.stats.bytes / MiB).toFixed(0)} MiB），有许可证的文件 ${licenceFiles}，有版权声明的文件 ${copyrightFiles}，问题 ${result.problems.length}`);
    const names: Record<string, string> = { preparing: '逐层展开（preparing）', scanning: '扫描与层归属（scanning）', licenses: '许可证与版权逐文件读取（licenses）' };
    const marks = [{ stage: 'start', at: started, cpu: startCpu }, ...stages, { stage: 'end', at: ended, cpu: endCpu }];
    for (let i = 1; i < marks.length - 1; i++) console.log(`  ${names[marks[i]!.stage] ?? marks[i]!.stage}：${((marks[i + 1]!.at - marks[i]!.at) / 1000).toFixed(1)} 秒，CPU ${((marks[i + 1]!.cpu - marks[i]!.cpu) / 1000).toFixed(1)} 秒`);
    console.log(`  （线程启动到第一个进度：${(((stages[0]?.at ?? ended) - started) / 1000).toFixed(1)} 秒；licenses 段含结果汇总、镜像摘要和结果传回主线程）`);
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}
