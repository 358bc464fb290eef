// A scan in a worker thread gives the same result as in-process, reports progress, and stops
// when aborted.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadExtractors, scanInWorker, scanTree } from '../../../server/engine/index.ts';
import { TRIVY } from '../../support/golden.ts';

const { allExtractors } = await loadExtractors();

describe('scanInWorker', () => {
  it('matches an in-process scan and reports progress', async () => {
    const root = path.join(TRIVY, 'repo');
    const seen: string[] = [];
    const [inWorker, inProcess] = await Promise.all([
      scanInWorker(root, { onProgress: (e) => seen.push(e.file) }),
      scanTree(root, { extractors: allExtractors }),
    ]);
    expect(inWorker.targets).toEqual(inProcess.targets);
    expect(inWorker.problems).toEqual(inProcess.problems);
    expect(seen).toContain('npm/package-lock.json');
  });

  it('rejects with the abort reason and stops the worker', async () => {
    const controller = new AbortController();
    const scan = scanInWorker(path.join(TRIVY, 'repo'), { signal: controller.signal });
    controller.abort(new Error('用户取消了扫描'));
    await expect(scan).rejects.toThrow('用户取消了扫描');
  });
});
