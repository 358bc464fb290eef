// The SBOM extractor inside a directory scan: claimed by name, format sniffed from content,
// unrelated bom.json files ignored, invalid documents reported as Chinese problems.
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSbom, scanTree } from '../../../server/engine/index.ts';

const { extractors } = await loadSbom();

const corpora = resolve(import.meta.dirname, '../../../../shared/corpora');
let root = '';

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'cairn-sbom-'));
  await mkdir(join(root, 'dist'), { recursive: true });
  await writeFile(join(root, 'bom.json'), '{"name": "not an sbom"}');
  await writeFile(join(root, 'dist/app.cdx.json'), await readFile(resolve(corpora, 'sbom/examples/laravel-7.12.0/bom.1.4.json')));
  await writeFile(join(root, 'dist/app.spdx'), await readFile(resolve(corpora, 'trivy/sbom/centos-7-spdx.txt')));
  await writeFile(join(root, 'dist/broken.cdx.json'), JSON.stringify({ bomFormat: 'CycloneDX', specVersion: '1.6', components: [{ type: 'nope', name: 'x' }] }));
});
afterAll(async () => { if (root) await rm(root, { recursive: true, force: true }); });

describe('SBOM extractor in a scan', () => {
  it('imports SBOMs, skips other bom.json files and reports invalid ones', async () => {
    const result = await scanTree(root, { extractors });
    expect(result.targets.map((t) => [t.file, t.type, t.components.length])).toEqual([
      ['dist/app.cdx.json', 'cyclonedx', 62],
      ['dist/app.spdx', 'spdx', 3],
    ]);
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]!.file).toBe('dist/broken.cdx.json');
    expect(result.problems[0]!.message).toMatch(/^CycloneDX 1\.6 文档不符合规范：\/components\/0\/type 必须是以下值之一/);
  }, 60_000);
});
