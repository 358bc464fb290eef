// Where the built app lies (scripts/build.ts writes it): main is bundled to dist/main/index.js and
// finds its siblings from there — the sandboxed preload, the renderer the app:// protocol serves
// and the entries the utilityProcesses start (the platform, the feature-file writer).
import path from 'node:path';

export interface BuiltPaths {
  /** dist/preload/index.cjs: preload/index.ts bundled to CommonJS for the sandbox. */
  preload: string;
  /** dist/renderer/ */
  renderer: string;
  /** dist/server/server.js */
  server: string;
  /** dist/server/feature-writer.js: the feature-file writer process (server/worker-url.ts WORKER_ENTRIES). */
  featureWriter: string;
}

export function builtPaths(distDir: string): BuiltPaths {
  return {
    preload: path.join(distDir, 'preload', 'index.cjs'),
    renderer: path.join(distDir, 'renderer'),
    server: path.join(distDir, 'server', 'server.js'),
    featureWriter: path.join(distDir, 'server', 'feature-writer.js'),
  };
}
