// Scans a directory: offers every file to the extractors that claim it, runs them with bounded
// concurrency, and collects targets and problems. A malformed input is a problem reported in
// Chinese; the rest of the scan goes on.
import type { Extractor, ScanProblem, ScanResult, Target } from './model.ts';
import { ExtractError } from './model.ts';
import { treeContext, walkTree } from './sources/tree.ts';

export interface ScanOptions {
  extractors: readonly Extractor[];
  signal?: AbortSignal;
  /** Extractions in flight at once (they are mostly I/O bound). */
  concurrency?: number;
  onProgress?: (event: { file: string; extractor: string }) => void;
}

export async function scanTree(root: string, options: ScanOptions): Promise<ScanResult> {
  const started = performance.now();
  const signal = options.signal ?? new AbortController().signal;
  const ctx = treeContext(root, signal);
  const targets: Target[] = [];
  const problems: ScanProblem[] = [];
  const limit = Math.max(1, options.concurrency ?? 8);
  const running = new Set<Promise<void>>();
  let files = 0;
  let bytes = 0;

  for await (const file of walkTree(root, signal, { installedPackages: true })) {
    files++;
    bytes += file.size;
    for (const extractor of options.extractors) {
      if (!extractor.matches(file.path)) continue;
      options.onProgress?.({ file: file.path, extractor: extractor.name });
      const job = extractor
        .extract(file, ctx)
        .then((found) => {
          for (const target of found) {
            for (const message of target.problems ?? []) problems.push({ file: file.path, message });
            delete target.problems;
            targets.push(target);
          }
        })
        .catch((error: unknown) => { problems.push({ file: file.path, message: problemMessage(extractor, error) }); })
        .finally(() => running.delete(job));
      running.add(job);
      if (running.size >= limit) await Promise.race(running);
    }
  }
  await Promise.all(running);
  signal.throwIfAborted();
  targets.sort((a, b) => a.file.localeCompare(b.file) || a.type.localeCompare(b.type));
  problems.sort((a, b) => a.file.localeCompare(b.file));
  return { root, targets, problems, stats: { files, bytes, ms: Math.round(performance.now() - started) } };
}

function problemMessage(extractor: Extractor, error: unknown): string {
  if (error instanceof ExtractError) return error.message;
  const detail = error instanceof Error ? error.message : String(error);
  return `${extractor.name} 解析失败：${detail}`;
}
