// The shared claim-run-beat loop over an in-memory queue: concurrency, failures recorded (and
// logged only when unexpected), jobs taken away aborted on the next beat, silent workers' jobs
// given back, and stop() handing running jobs back instead of failing them.
import { afterEach, describe, expect, it } from 'vitest';
import { JobLoop, type JobLog, type JobSource } from '../../../../server/jobs/job-loop.ts';

interface Job { id: number; status: 'waiting' | 'running' | 'done' | 'failed'; worker: string | null; beatAt: number; message?: string }

/** A queue table in memory; `work` decides how each job runs. */
function memoryQueue(ids: number[], work: (job: Job, signal: AbortSignal) => Promise<void>) {
  const jobs = new Map(ids.map((id) => [id, { id, status: 'waiting', worker: null, beatAt: 0 } as Job]));
  const errors: string[] = [];
  const source: JobSource<Job> = {
    label: 'test',
    claim: async (worker) => {
      const job = [...jobs.values()].find((j) => j.status === 'waiting');
      if (!job) return null;
      Object.assign(job, { status: 'running', worker, beatAt: Date.now() });
      return job;
    },
    idOf: (job) => job.id,
    describe: (job) => ({ id: job.id }),
    run: async (job, signal) => {
      await work(job, signal);
      job.status = 'done';
    },
    fail: async (job, error) => {
      Object.assign(job, { status: 'failed', worker: null, message: (error as Error).message });
    },
    expected: (error) => (error as Error).message.startsWith('预期'),
    beat: async (running, worker) => {
      for (const id of running) if (jobs.get(id)?.worker === worker) jobs.get(id)!.beatAt = Date.now();
      return running.filter((id) => jobs.get(id)?.worker !== worker);
    },
    goneReason: () => new Error('已被取走'),
    requeueStale: async (before, worker) => {
      let n = 0;
      for (const job of jobs.values()) {
        if (job.status !== 'running' || (worker ? job.worker !== worker : job.beatAt >= Date.parse(before))) continue;
        Object.assign(job, { status: 'waiting', worker: null });
        n++;
      }
      return n;
    },
    stopReason: () => new Error('正在停止'),
  };
  const log = {
    info() {},
    warn() {},
    error: (...args: unknown[]) => void errors.push(String(args[1])),
  } as unknown as JobLog;
  return { jobs, source, log, errors };
}

const until = async (check: () => boolean, ms = 2000) => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
};

/** A job that runs until it is aborted (then rejects with the abort reason). */
const untilAborted = (_job: Job, signal: AbortSignal) => new Promise<void>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error)));

let loops: JobLoop<Job>[] = [];
afterEach(async () => {
  await Promise.all(loops.map((l) => l.stop()));
  loops = [];
});

function startLoop(q: ReturnType<typeof memoryQueue>, options: { concurrency?: number; heartbeatMs?: number; staleMs?: number } = {}) {
  const loop = new JobLoop(q.source, { concurrency: options.concurrency ?? 1, log: q.log, pollMs: 10, heartbeatMs: options.heartbeatMs ?? 20, staleMs: options.staleMs ?? 60_000 });
  loops.push(loop);
  return loop;
}

describe('job loop', () => {
  it('runs jobs up to its concurrency and takes the next as one finishes', async () => {
    const release = new Map<number, () => void>();
    const q = memoryQueue([1, 2, 3], (job) => new Promise<void>((resolve) => release.set(job.id, resolve)));
    const loop = startLoop(q, { concurrency: 2 });
    await loop.start();
    await until(() => release.size === 2);
    expect(loop.active).toBe(2);
    expect(q.jobs.get(3)!.status).toBe('waiting');
    release.get(1)!();
    await until(() => q.jobs.get(3)!.status === 'running');
    release.get(2)!();
    release.get(3)!();
    await until(() => [...q.jobs.values()].every((j) => j.status === 'done'));
    expect(loop.active).toBe(0);
  });

  it('records failures, and logs only the unexpected ones', async () => {
    const q = memoryQueue([1, 2], async (job) => {
      throw new Error(job.id === 1 ? '预期的失败：压缩包损坏' : 'boom');
    });
    await startLoop(q).start();
    await until(() => q.jobs.get(2)!.status === 'failed');
    expect(q.jobs.get(1)).toMatchObject({ status: 'failed', message: '预期的失败：压缩包损坏' });
    expect(q.jobs.get(2)).toMatchObject({ status: 'failed', message: 'boom' });
    expect(q.errors).toEqual(['test failed']);
  });

  it('aborts a job the next beat finds taken away, and aborts one on request', async () => {
    const q = memoryQueue([1, 2], untilAborted);
    const loop = startLoop(q, { concurrency: 2 });
    await loop.start();
    await until(() => loop.active === 2);
    q.jobs.get(1)!.worker = 'another-process';
    await until(() => q.jobs.get(1)!.status === 'failed');
    expect(q.jobs.get(1)!.message).toBe('已被取走');
    expect(loop.abort(2, new Error('已暂停'))).toBe(true);
    await until(() => q.jobs.get(2)!.status === 'failed');
    expect(q.jobs.get(2)!.message).toBe('已暂停');
    expect(loop.abort(2, new Error('已暂停'))).toBe(false);
  });

  it('gives back the jobs of a worker that went silent, at start and on each beat', async () => {
    const q = memoryQueue([1, 2], untilAborted);
    Object.assign(q.jobs.get(1)!, { status: 'running', worker: 'crashed', beatAt: Date.now() - 5000 });
    const loop = startLoop(q, { concurrency: 2, staleMs: 1000 });
    await loop.start();
    // Job 1 was queued again at start and claimed by this loop together with job 2.
    await until(() => loop.active === 2);
    expect(q.jobs.get(1)!.worker).toBe(loop.worker);
    // Another worker's job that stops beating is given back too, and this loop picks it up.
    q.jobs.set(3, { id: 3, status: 'running', worker: 'silent', beatAt: Date.now() - 5000 });
    await until(() => q.jobs.get(3)!.status === 'waiting');
  });

  it('stop() hands running jobs back to the queue instead of failing them, and claims nothing more', async () => {
    const q = memoryQueue([1, 2], untilAborted);
    const loop = startLoop(q);
    await loop.start();
    await until(() => loop.active === 1);
    await loop.stop();
    expect(loop.active).toBe(0);
    expect(q.jobs.get(1)).toMatchObject({ status: 'waiting', worker: null });
    expect(q.jobs.get(2)!.status).toBe('waiting');
    loop.wake();
    await new Promise((r) => setTimeout(r, 50));
    expect(loop.active).toBe(0);
  });
});
