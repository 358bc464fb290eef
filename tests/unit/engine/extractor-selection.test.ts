// Which extractor families an analysis runs: binary extractors (executables, libraries) on a source
// input only with analysis mode 8; images and binary uploads keep every family. The engine leaves
// out the families it is told to skip — shown here with a real family (npm) over a real zip.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyse } from '../../../server/engine/analyse.ts';
import { BINARY_EXTRACTOR_FAMILIES, skippedExtractorFamilies } from '../../../server/engine/extractors/selection.ts';
import { makeZip } from '../../support/make-zip.ts';

const work = mkdtempSync(path.join(tmpdir(), 'cairn-families-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('extractor families of an analysis', () => {
  it('skips the binary families on a source input unless mode 8 is ticked; never on images and binaries', () => {
    expect(BINARY_EXTRACTOR_FAMILIES).toContain('native');
    expect(skippedExtractorFamilies('source', [1, 4, 7])).toEqual(['native']);
    expect(skippedExtractorFamilies('feature', [1])).toEqual(['native']);
    expect(skippedExtractorFamilies('source', [1, 8])).toEqual([]);
    expect(skippedExtractorFamilies('binary', [1])).toEqual([]);
    expect(skippedExtractorFamilies('image', [1])).toEqual([]);
  });

  it('leaves out the skipped families and runs the rest', async () => {
    const zip = path.join(work, 'app.zip');
    writeFileSync(zip, makeZip({
      entries: {
        'app/package-lock.json': JSON.stringify({ name: 'app', version: '1.0.0', lockfileVersion: 3, packages: { '': { name: 'app', version: '1.0.0', dependencies: { 'left-pad': '1.3.0' } }, 'node_modules/left-pad': { version: '1.3.0' } } }),
        'app/requirements.txt': 'flask==2.0.1\n',
      },
    }));
    const run = async (skip: string[] | undefined, dir: string) => {
      const result = await analyse({ file: zip, fileName: 'app.zip', kind: 'source', modes: [1], workDir: path.join(work, dir), ...(skip ? { skipExtractorFamilies: skip } : {}) }, () => undefined, new AbortController().signal);
      return result.components.map((c) => c.purl).sort();
    };
    expect(await run(undefined, 'all')).toEqual(['pkg:npm/left-pad@1.3.0', 'pkg:pypi/flask@2.0.1']);
    expect(await run(['npm'], 'no-npm')).toEqual(['pkg:pypi/flask@2.0.1']);
    // A family that is not registered (yet) is simply absent.
    expect(await run(['native'], 'no-native')).toEqual(['pkg:npm/left-pad@1.3.0', 'pkg:pypi/flask@2.0.1']);
  });
});
