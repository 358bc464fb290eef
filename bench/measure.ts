// Timing helpers shared by the benchmarks: a bounded loop, a warm-up, percentiles.
export interface Figures { name: string; count: number; totalMs: number; perSecond: number; p50Ms: number; p95Ms: number }

export async function measure(name: string, count: number, fn: (i: number) => Promise<unknown>, warmup = Math.min(20, count)): Promise<Figures> {
  for (let i = 0; i < warmup; i++) await fn(i);
  const times: number[] = [];
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    await fn(i);
    times.push(performance.now() - t);
  }
  const totalMs = performance.now() - start;
  times.sort((a, b) => a - b);
  const pick = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
  const figures = { name, count, totalMs, perSecond: (count / totalMs) * 1000, p50Ms: pick(0.5), p95Ms: pick(0.95) };
  console.log(`${name.padEnd(44)} ${String(count).padStart(6)} 次  ${figures.perSecond.toFixed(1).padStart(9)} 次/秒  p50 ${figures.p50Ms.toFixed(2)} ms  p95 ${figures.p95Ms.toFixed(2)} ms`);
  return figures;
}
