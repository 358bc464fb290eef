// The analysis thread: a real analysis of a zip, and a thread that runs out of its heap cap ends as
// a failed analysis with a Chinese message while this process goes on.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyseInWorker } from '../../../server/engine/index.ts';
import { isUserError } from '../../../server/errors.ts';

const work = mkdtempSync(path.join(tmpdir(), 'cairn-analyse-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const zip = path.join(work, 'npm.zip');
execFileSync('zip', ['-qr', zip, '.'], { cwd: path.resolve('../shared/corpora/trivy/repo/npm') });

describe('analyseInWorker', () => {
  it('analyses an archive in a worker thread with progress', async () => {
    const stages = new Set<string>();
    const result = await analyseInWorker(
      { file: zip, fileName: 'npm.zip', kind: 'source', modes: [1, 4, 7], workDir: mkdtempSync(path.join(work, 'run-')) },
      { onProgress: (p) => stages.add(p.stage) },
    );
    expect(result.components.length).toBeGreaterThan(5);
    expect(result.files.some((f) => f.path === 'package-lock.json')).toBe(true);
    expect([...stages]).toEqual(expect.arrayContaining(['preparing', 'scanning', 'licenses']));
  });

  it('refuses a file that is not an archive for a source project', async () => {
    await expect(analyseInWorker({ file: path.resolve('package.json'), fileName: 'package.json', kind: 'source', modes: [1], workDir: mkdtempSync(path.join(work, 'run-')) }))
      .rejects.toThrow(/不是可识别的压缩包/);
  });

  it('keeps a refusal a UserError across the thread, so a run shows its message as it is', async () => {
    const error: unknown = await analyseInWorker({ file: path.resolve('package.json'), fileName: 'package.json', kind: 'source', modes: [1], workDir: mkdtempSync(path.join(work, 'run-')) })
      .catch((e: unknown) => e);
    expect(isUserError(error)).toBe(true);
  });

  it('ends a thread that exceeds its heap cap without harming this process', async () => {
    await expect(analyseInWorker({ file: zip, fileName: 'npm.zip', kind: 'source', modes: [1, 4, 7], workDir: mkdtempSync(path.join(work, 'run-')) }, { maxHeapMb: 4 }))
      .rejects.toThrow(/内存超出上限|异常退出/);
    expect(process.memoryUsage().rss).toBeGreaterThan(0);
  });
});
