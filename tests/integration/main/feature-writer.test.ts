// The feature-file writer process as Electron runs it (a utilityProcess: messages over parentPort,
// no fork channel), imitated without Electron by tests/support/parent-port-host.ts: main's
// createFeatureWriter gets the file and its summary, and the process, which waits for its parent
// once its message is out, is gone when the write resolves; a cancel stops it mid-walk.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { createFeatureWriter } from '../../../main/services/feature-writer.ts';
import type { PlatformSpawner } from '../../../main/services/local-platform.ts';
import { isAlive, repoRoot, tempDir } from './helpers.ts';

const work = tempDir('cairn-feature-writer-');
afterAll(() => rmSync(work, { recursive: true, force: true }));

const pids: number[] = [];
const kills: string[] = [];
/** Like main/electron/utility-spawner.ts: messages as they come, kill as SIGTERM. */
const parentPortSpawner: PlatformSpawner = {
  spawn(env, handlers) {
    const child = spawn(process.execPath, [path.join(repoRoot, 'tests/support/parent-port-host.ts'), path.join(repoRoot, 'server/engine/feature/writer-process.ts')], {
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    pids.push(child.pid!);
    createInterface({ input: child.stdout }).on('line', (line) => handlers.onMessage(JSON.parse(line)));
    createInterface({ input: child.stderr }).on('line', (line) => handlers.onOutput(line, 'stderr'));
    child.on('exit', (code, signal) => handlers.onExit(code, signal));
    return {
      pid: child.pid ?? null,
      send: (message) => child.stdin.write(`${JSON.stringify(message)}\n`),
      kill: (signal) => { kills.push(signal); if (child.exitCode === null && child.signalCode === null) child.kill(signal); },
    };
  },
};

describe('the feature-file writer over parentPort (Electron utilityProcess)', () => {
  const write = createFeatureWriter(parentPortSpawner, { version: '9.9.9' });

  it('writes the feature file, answers its summary, and the process is gone', { timeout: 60_000 }, async () => {
    const folder = path.join(work, 'api');
    mkdirSync(path.join(folder, 'src'), { recursive: true });
    writeFileSync(path.join(folder, 'package.json'), '{"name":"api","version":"1.0.0"}');
    writeFileSync(path.join(folder, 'LICENSE'), 'MIT License\n');
    writeFileSync(path.join(folder, 'src/index.js'), 'console.log(1);\n');
    const out = path.join(work, 'api.cairn-feature.zip');
    const progress: number[] = [];
    const summary = await write(folder, out, { onProgress: (files) => progress.push(files) });
    expect(summary).toMatchObject({ files: 3, included: 2, problems: 0 });
    expect(summary.includedBytes).toBeLessThan(summary.bytes);
    expect(existsSync(out)).toBe(true);
    // Ended by its parent once the summary arrived (it would otherwise wait on its own timer).
    expect(kills).toEqual(['SIGTERM']);
    expect(isAlive(pids.at(-1)!)).toBe(false);
    expect(progress.length).toBeGreaterThan(0);
  });

  it('stops when cancelled, and leaves no file', { timeout: 60_000 }, async () => {
    const folder = path.join(work, 'many');
    mkdirSync(folder, { recursive: true });
    for (let i = 0; i < 3000; i += 1) writeFileSync(path.join(folder, `f${i}.txt`), 'x'.repeat(2000));
    const out = path.join(work, 'many.cairn-feature.zip');
    const controller = new AbortController();
    const writing = write(folder, out, { signal: controller.signal, onProgress: () => controller.abort(new Error('cancelled by test')) });
    await expect(writing).rejects.toThrow('cancelled by test');
    expect(existsSync(out)).toBe(false);
    expect(existsSync(`${out}.partial`)).toBe(false);
    expect(isAlive(pids.at(-1)!)).toBe(false);
  });
});
