// Peak memory of this process while a piece of work runs: resident size sampled every 2 ms by a
// separate thread (it keeps sampling while the main thread is busy in a synchronous decoder), the
// kernel's own high-water mark where Linux lets us reset it, and `external` (buffers and
// WebAssembly memories) sampled on the main thread whenever its event loop turns.
import { readFileSync, writeFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Worker } from 'node:worker_threads';

const MiB = 1024 ** 2;

export interface Measured<T> {
  /** The work's result, or what it threw. */
  outcome: { ok: true; value: T } | { ok: false; error: unknown };
  ms: number;
  /** Peak resident size above the baseline taken just before the work, MiB. */
  rssMiB: number;
  /** Peak `external` (buffers, WebAssembly memories) above the baseline, MiB (sampled between event-loop turns only). */
  buffersMiB: number;
  /** The baseline's resident size, MiB. */
  baselineMiB: number;
}

const SAMPLER = `
const { workerData, parentPort } = require('node:worker_threads');
const state = new Int32Array(workerData);
parentPort.postMessage('ready');
while (Atomics.load(state, 1) === 0) {
  const kib = Math.round(process.memoryUsage.rss() / 1024);
  if (kib > state[0]) Atomics.store(state, 0, kib);
  Atomics.wait(state, 1, 0, 2);
}
`;

let gc: (() => void) | undefined;
function collect(): void {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
  gc();
}

/** VmHWM (peak RSS) of this process in KiB, after resetting it; undefined where that is not possible. */
function resetHighWaterMark(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}
function highWaterMarkKiB(): number | undefined {
  try {
    const match = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

export async function measure<T>(work: () => Promise<T>): Promise<Measured<T>> {
  const state = new Int32Array(new SharedArrayBuffer(8));
  const sampler = new Worker(SAMPLER, { eval: true, workerData: state.buffer });
  await new Promise((resolve) => sampler.once('message', resolve));
  collect();
  await new Promise((resolve) => setTimeout(resolve, 20));
  const base = process.memoryUsage();
  const baseBuffers = base.external; // includes arrayBuffers
  state[0] = Math.round(base.rss / 1024);
  const hwm = resetHighWaterMark();
  let peakBuffers = baseBuffers;
  const tick = setInterval(() => {
    const m = process.memoryUsage();
    peakBuffers = Math.max(peakBuffers, m.external);
  }, 5);
  const started = performance.now();
  let outcome: Measured<T>['outcome'];
  try {
    outcome = { ok: true, value: await work() };
  } catch (error) {
    outcome = { ok: false, error };
  }
  const ms = performance.now() - started;
  clearInterval(tick);
  const end = process.memoryUsage();
  peakBuffers = Math.max(peakBuffers, end.external);
  Atomics.store(state, 1, 1);
  Atomics.notify(state, 1);
  await sampler.terminate();
  let peakKiB = Math.max(state[0]!, Math.round(end.rss / 1024));
  const kernel = hwm ? highWaterMarkKiB() : undefined;
  if (kernel !== undefined) peakKiB = Math.max(peakKiB, kernel);
  return {
    outcome,
    ms,
    rssMiB: Math.max(0, peakKiB * 1024 - base.rss) / MiB,
    buffersMiB: Math.max(0, peakBuffers - baseBuffers) / MiB,
    baselineMiB: base.rss / MiB,
  };
}
