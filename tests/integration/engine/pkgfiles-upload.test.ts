// Package files in an uploaded archive, end to end: the real package files of
// tests/fixtures/public/pkgfiles zipped together, unpacked by openInput (which also unpacks the
// wheels, eggs, tarballs and apk beside themselves into `<name>!/` folders), scanned with every
// extractor: each package file is one target of its own type, the packages the unpacked copies
// yield (python-pkg's METADATA) are the same purls (the inventory merges them), and no problem.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadExtractors, openInput, scanTree } from '../../../server/engine/index.ts';
import { useWorkspace, zip } from '../../unit/engine/sources/archives.ts';

const FIXTURES = path.resolve('tests/fixtures/public/pkgfiles');
const PACKAGES = readdirSync(FIXTURES).filter((n) => /\.(deb|tgz|whl|egg)$/.test(n)).sort();

const ws = useWorkspace();

describe('package files in an uploaded zip', () => {
  it('are each one component, merged with what the unpacked copies yield', async () => {
    const upload = zip(PACKAGES.map((n) => ({ name: `release/${n}`, data: readFileSync(path.join(FIXTURES, n)) })));
    const input = await openInput(await ws.put('release.zip', upload), { tempDir: ws.dir });
    try {
      const result = await scanTree(input.root, { extractors: (await loadExtractors()).allExtractors });
      expect(result.problems).toEqual([]);
      const byType = new Map<string, string[]>();
      for (const t of result.targets) byType.set(t.type, [...(byType.get(t.type) ?? []), t.file]);
      expect(byType.get('deb-file')).toEqual(['release/liblzf1_3.6-3_amd64.deb', 'release/python3-webencodings_0.5.1-5_all.deb']);
      expect(byType.get('wheel')).toEqual(['release/example-21.12-py3-none-any.whl', 'release/example2-1.0.0-py3-none-any.whl']);
      expect(byType.get('egg')).toEqual(['release/example-21.12-py3.6.egg']);
      expect(byType.get('npm-tarball')).toEqual(['release/chalk-4.1.2.tgz', 'release/debug-4.3.4.tgz', 'release/ms-2.1.2.tgz', 'release/types-ms-0.7.34.tgz']);

      const purls = new Set(result.targets.flatMap((t) => t.components.map((c) => c.purl)));
      for (const purl of [
        'pkg:deb/debian/liblzf1@3.6-3?arch=amd64&upstream=liblzf', 'pkg:deb/debian/python3-webencodings@0.5.1-5?arch=all&upstream=python-webencodings',
        'pkg:pypi/example@21.12', 'pkg:pypi/example2@1.0.0', 'pkg:npm/chalk@4.1.2', 'pkg:npm/debug@4.3.4', 'pkg:npm/ms@2.1.2', 'pkg:npm/%40types/ms@0.7.34',
      ]) expect([...purls], purl).toContain(purl);
      // The wheel and egg read in place, and their unpacked metadata read by python-pkg: one purl.
      const example = result.targets.filter((t) => t.components.some((c) => c.purl === 'pkg:pypi/example@21.12')).map((t) => `${t.type} ${t.file}`).sort();
      expect(example).toEqual([
        'egg release/example-21.12-py3.6.egg',
        'python-pkg release/example-21.12-py3-none-any.whl!/example-21.12.dist-info/METADATA',
        'python-pkg release/example-21.12-py3.6.egg!/EGG-INFO/PKG-INFO',
        'wheel release/example-21.12-py3-none-any.whl',
      ]);
      // Components from package files carry their evidence.
      for (const t of result.targets.filter((x) => ['deb-file', 'wheel', 'egg', 'npm-tarball'].includes(x.type))) {
        expect(t.components[0]!.evidence?.[0]?.file, t.file).toMatch(new RegExp(`^${t.file.replace(/[.]/g, '\\.')}!/`));
      }
    } finally {
      await input.cleanup();
    }
  });
});
