// Where a worker thread's entry lives. Run from source (Node's type stripping) it is the `.ts`
// file beside the caller; in the built platform every worker entry is bundled on its own as
// `dist/server/<name>.js` beside server.js (scripts/build.ts), and `import.meta.url` of any
// bundled module is server.js itself.
export function workerUrl(callerUrl: string, sourcePath: string, bundleName: string): URL {
  return callerUrl.endsWith('.ts') ? new URL(sourcePath, callerUrl) : new URL(`./${bundleName}.js`, callerUrl);
}

/** The worker entries the build bundles, by bundle name, relative to server/. */
export const WORKER_ENTRIES = {
  'analyse-worker': 'engine/analyse-worker.ts',
  'scan-worker': 'engine/scan-worker.ts',
  'examine-worker': 'engine/examine-worker.ts',
  'verify-worker': 'engine/verify-worker.ts',
  'walk-worker': 'engine/sources/walk-worker.ts',
  'report-writer': 'reports/writer-worker.ts',
  'run-worker': 'jobs/run-worker.ts',
  // Not a thread: the desktop's feature-file writer, a process main starts (main/services/feature-writer.ts).
  'feature-writer': 'engine/feature/writer-process.ts',
} as const;
