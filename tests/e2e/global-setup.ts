// Once per e2e run, before any spec: the built platform (dist/server) that every spec's web host
// starts, rebuilt only when server/ or contract/ changed since; and a scratch folder for what the
// specs of this run share (knowledge bases imported once, web-host.ts), removed at the end.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, isStale } from '../../scripts/build.ts';
import { RUN_CACHE_VARIABLE } from './web-host.ts';

export default async function globalSetup(): Promise<() => void> {
  if (isStale('server')) await build(['server']);
  const cache = mkdtempSync(join(tmpdir(), 'cairn-e2e-run-'));
  // Workers start after this and inherit the runner's environment.
  process.env[RUN_CACHE_VARIABLE] = cache;
  return () => rmSync(cache, { recursive: true, force: true });
}
