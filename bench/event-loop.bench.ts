// Issue 13: the API never stalls. The platform runs in a child process (SQLite as the desktop
// embeds it; PostgreSQL when CAIRN_BENCH_PG_URL is set) with the corpora's advisories; a generated
// project of 60,000 components (CAIRN_BENCH_COMPONENTS) is uploaded and analysed while this process
// calls GET /api/health and the task list (POST /api/project-task-view/list) 20 times a second each,
// on a fixed schedule whatever the answers take. Recorded: each call's latency, the platform's
// event-loop delay (250 ms windows of monitorEventLoopDelay) and its stalls over 50 ms, per stage
// of the run. Run: `npm run bench -- event-loop`.
import http from 'node:http';
import { cpus } from 'node:os';
import { largeProject } from './large-project.ts';
import {
  BenchClient, benchDatabase, fmt, knowledgeBaseTemplate, loadAverage, prepareDatabase, quantile, startPlatform, type Platform,
} from './platform.ts';

interface Sample { call: 'health' | 'list'; at: number; ms: number; ok: boolean }
interface Mark { at: number; stage: string }

const RATE = 20;
const MAX_OUTSTANDING = 200;

/** Calls `fire` RATE times a second per call until stopped, never more than MAX_OUTSTANDING at once. */
function poll(samples: Sample[], calls: Array<[Sample['call'], () => Promise<{ body: { code: number } }>]>) {
  let outstanding = 0;
  let skipped = 0;
  const timers = calls.map(([call, fire], i) => {
    const tick = () => {
      if (outstanding >= MAX_OUTSTANDING) { skipped++; return; }
      outstanding++;
      const at = Date.now();
      const started = performance.now();
      fire().then((answer) => samples.push({ call, at, ms: performance.now() - started, ok: answer.body.code === 1 }))
        .catch(() => samples.push({ call, at, ms: performance.now() - started, ok: false }))
        .finally(() => { outstanding--; });
    };
    // The two calls are offset by half a period so they do not always arrive together.
    let timer: NodeJS.Timeout | undefined;
    const start = setTimeout(() => { timer = setInterval(tick, 1000 / RATE); }, (i * 500) / RATE);
    return () => { clearTimeout(start); clearInterval(timer); };
  });
  return {
    get skipped() { return skipped; },
    async stop() {
      for (const stop of timers) stop();
      while (outstanding > 0) await new Promise((r) => setTimeout(r, 20));
    },
  };
}

function phaseOf(marks: Mark[], at: number): string {
  let stage = 'idle';
  for (const m of marks) if (m.at <= at) stage = m.stage;
  return stage;
}

function report(platform: Platform, samples: Sample[], marks: Mark[], start: number, from: number, to: number): void {
  const phases = ['idle', ...new Set(marks.map((m) => m.stage))];
  const rows: string[][] = [];
  const line = (name: string, inPhase: (at: number) => boolean, seconds: number) => {
    const health = samples.filter((s) => s.call === 'health' && inPhase(s.at)).map((s) => s.ms);
    const list = samples.filter((s) => s.call === 'list' && inPhase(s.at)).map((s) => s.ms);
    const windows = platform.windows.filter((w) => w.at >= start && inPhase(w.at));
    const stalls = platform.stalls.filter((s) => s.at >= start && inPhase(s.at));
    rows.push([
      name, `${seconds.toFixed(1)} s`,
      fmt(Math.max(0, ...windows.map((w) => w.max))), fmt(quantile(windows.map((w) => w.p99), 0.99)),
      `${stalls.length} / ${fmt(stalls.reduce((n, s) => n + s.ms, 0))}`,
      `${health.length}`, fmt(quantile(health, 0.5)), fmt(quantile(health, 0.99)), fmt(Math.max(0, ...health)),
      `${list.length}`, fmt(quantile(list, 0.5)), fmt(quantile(list, 0.99)), fmt(Math.max(0, ...list)),
    ]);
  };
  const bounds = marks.map((m, i) => [m.stage, m.at, marks[i + 1]?.at ?? to] as const);
  for (const phase of phases) {
    const spans = phase === 'idle' ? [[phase, start, from] as const] : bounds.filter(([stage]) => stage === phase);
    const seconds = spans.reduce((n, [, a, b]) => n + (b - a) / 1000, 0);
    line(phase, (at) => phaseOf(marks, at) === phase && (phase !== 'idle' || at < from), seconds);
  }
  line('分析与保存全程', (at) => at >= from && at <= to, (to - from) / 1000);
  const head = ['阶段', '时长', '事件循环最大延迟', '窗口 p99 的 p99', '卡顿>50ms 次数/合计', 'health 次', 'p50', 'p99', '最大', 'list 次', 'p50', 'p99', '最大'];
  console.log(`| ${head.join(' | ')} |`);
  console.log(`|${head.map((_, i) => (i ? '---:' : '---')).join('|')}|`);
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
  const worst = [...platform.stalls].filter((s) => s.at >= from && s.at <= to).sort((a, b) => b.ms - a.ms).slice(0, 12);
  if (worst.length) {
    console.log('最长的卡顿（开始于分析后的秒数，所在阶段）：');
    console.log(worst.map((s) => `  ${fmt(s.ms)} @ +${((s.at - from) / 1000).toFixed(2)} s（${phaseOf(marks, s.at)}）`).join('\n'));
  }
}

export async function run(): Promise<void> {
  const total = Number(process.env.CAIRN_BENCH_COMPONENTS ?? 60_000);
  const project = await largeProject(total, await knowledgeBaseTemplate());
  const database = await benchDatabase();
  let platform: Platform | undefined;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  try {
    if (database.config.kind === 'sqlite') await prepareDatabase(database.config, database.dataDir);
    platform = await startPlatform(database);
    const admin = new BenchClient(platform.url, agent);
    await admin.signIn('admin', 'Cairn@123');
    const subject = await admin.call<{ id: number }>('POST', '/api/subject/create', { name: '事件循环基准', description: '', importance: 3 });
    const uploadId = await admin.upload(project.zip);
    console.log(`${database.config.kind}，${cpus().length} 核，负载 ${loadAverage()}；项目 ${total} 个组件（其中 ${project.known} 个知识库中的 Go/PyPI 软件包）`);

    const samples: Sample[] = [];
    const start = Date.now();
    const pollers = poll(samples, [
      ['health', () => admin.request('GET', '/api/health')],
      ['list', () => admin.request('POST', '/api/project-task-view/list?page=1&size=15', { subjectId: subject.id })],
    ]);
    await new Promise((r) => setTimeout(r, 3000));

    const from = Date.now();
    const launched = await admin.call<{ projectId: number }>('POST', '/api/analysis', { subjectId: subject.id, projectName: 'large', getCodeType: 0, uploadId, analysisModes: '1,4,7' });
    const marks: Mark[] = [];
    let row: { status: number; stage: string; message: string; progress: number };
    for (;;) {
      row = (await admin.call<typeof row[]>('GET', `/api/project-task-view/progress?projectIds=${launched.projectId}`))[0]!;
      const stage = row.status === 2 || row.status === 3 ? 'done' : row.stage || 'queued';
      if (marks.at(-1)?.stage !== stage) marks.push({ at: Date.now(), stage });
      if (row.status === 2 || row.status === 3) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const to = Date.now();
    await new Promise((r) => setTimeout(r, 2000));
    await pollers.stop();
    const done = marks.pop()!;
    marks.push({ at: done.at, stage: 'after' });

    const tasks = await admin.call<{ content: Array<{ summary: { components: number; vulnerabilities: number } | null }> }>('POST', '/api/project-task-view/list?page=1&size=15', { subjectId: subject.id });
    const summary = tasks.content[0]?.summary;
    console.log(`分析${row.status === 2 ? '成功' : `失败（${row.message}）`}，${((to - from) / 1000).toFixed(1)} 秒：${summary?.components ?? '?'} 个组件，${summary?.vulnerabilities ?? '?'} 个漏洞；负载 ${loadAverage()}；因积压跳过 ${pollers.skipped} 次调用；失败 ${samples.filter((s) => !s.ok).length} 次`);
    report(platform, samples, marks, start, from, to);
  } finally {
    agent.destroy();
    await platform?.stop();
    await database.drop();
  }
}
