// Shared by the integration tests that run the real embedded platform (server/server.ts).
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');
export const serverEntry = path.join(repoRoot, 'server', 'server.ts');
export const hasServer = existsSync(serverEntry);
export const ADMIN_PASSWORD = 'Cairn-Test@2025';

export const tempDir = (prefix: string): string => mkdtempSync(path.join(os.tmpdir(), prefix));

export function isAlive(pid: number | null): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function waitFor<T>(fn: () => T | Promise<T>, ok: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (ok(value)) return value;
    if (Date.now() > until) throw new Error(`timed out waiting; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
