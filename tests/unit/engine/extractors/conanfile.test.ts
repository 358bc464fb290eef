import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { conanfilePyExtractor, conanfileTxtExtractor, parseConanfilePy } from '../../../../server/engine/extractors/conan/conanfile.ts';
import { extractors } from '../../../../server/engine/extractors/conan/index.ts';
import type { Target } from '../../../../server/engine/model.ts';
import { scanTree } from '../../../../server/engine/scan.ts';
import { useTempScan } from '../../../support/temp-scan.ts';
import { expectClaims, extractFile } from './extractor.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../../../fixtures/public/lockfiles/conan');
const { scan } = useTempScan('cairn-conanfile-', extractors);
const summary = (t: Target) => t.components.map((c) => [c.purl, c.version, c.constraint, c.scope, c.locations[0]!.startLine]);

describe('conanfile.txt and conanfile.py', () => {
  it('claims the two manifests by name', () => {
    expectClaims(conanfileTxtExtractor, ['conanfile.txt', 'x/conanfile.txt'], ['conanfile.py', 'my-conanfile.txt']);
    expectClaims(conanfilePyExtractor, ['conanfile.py', 'test_package/conanfile.py'], ['conanfile.txt', 'conanfile.pyc']);
  });

  it('reads syft\'s conanfile.txt: user/channel and revisions, [generators] passed over', async () => {
    const t = await extractFile(conanfileTxtExtractor, path.join(FIXTURES, 'syft-conanfile-txt'), 'conanfile.txt');
    expect(t).toMatchObject({ type: 'conanfile', ecosystem: 'conan', project: null });
    expect(summary(t)).toEqual([
      ['pkg:conan/catch2@2.13.8', '2.13.8', undefined, 'runtime', 4],
      ['pkg:conan/docopt.cpp@0.6.3', '0.6.3', undefined, 'runtime', 5],
      ['pkg:conan/fmt@8.1.1', '8.1.1', undefined, 'runtime', 6],
      ['pkg:conan/my_user/spdlog@1.9.2?channel=my_channel', '1.9.2', undefined, 'runtime', 7],
      ['pkg:conan/sdl@2.0.20', '2.0.20', undefined, 'runtime', 8],
      ['pkg:conan/my_user/fltk@1.3.8?channel=my_channel', '1.3.8', undefined, 'runtime', 9],
    ]);
    expect(t.components.every((c) => c.direct)).toBe(true);
    expect(t.roots).toHaveLength(6);
  });

  it('reads the conan-center-index alpaka recipe: self.requires range, tool_requires in build_requirements', async () => {
    const t = await extractFile(conanfilePyExtractor, path.join(FIXTURES, 'cci-alpaka'), 'conanfile.py');
    expect(t.project).toEqual({ purl: 'pkg:conan/alpaka', name: 'alpaka', version: '' });
    expect(summary(t)).toEqual([
      ['pkg:conan/boost', '', '>=1.74.0 <2', 'runtime', 26],
      ['pkg:conan/cmake', '', '>=3.25', 'development', 29],
    ]);
  });

  it('reads class attributes: a build_requires tuple (ranges and pins) and a bare requires tuple', async () => {
    const devel = await extractFile(conanfilePyExtractor, path.join(FIXTURES, 'system-setup-devel'), 'conanfile.py');
    expect(devel.project).toEqual({ purl: 'pkg:conan/devel@0.0.2', name: 'devel', version: '0.0.2' });
    expect(summary(devel)).toEqual([
      ['pkg:conan/ccache', '', '>=4.2.1', 'development', 16],
      ['pkg:conan/cmake', '', '>=3.20.2', 'development', 17],
      ['pkg:conan/ninja@1.10.2', '1.10.2', undefined, 'development', 18],
      ['pkg:conan/gtest@1.10.0', '1.10.0', undefined, 'development', 19],
      ['pkg:conan/nvim@0.5.0-dev-24e0c16', '0.5.0-dev-24e0c16', undefined, 'development', 20],
    ]);
    const aoc = await extractFile(conanfilePyExtractor, path.join(FIXTURES, 'advent-of-code'), 'conanfile.py');
    expect(aoc.project).toBeNull();
    expect(summary(aoc)).toEqual([
      ['pkg:conan/range-v3@0.12.0', '0.12.0', undefined, 'runtime', 9],
      ['pkg:conan/fmt@10.1.1', '10.1.1', undefined, 'runtime', 9],
      ['pkg:conan/ctre@3.8.1', '3.8.1', undefined, 'runtime', 9],
      ['pkg:conan/ms-gsl@4.0.0', '4.0.0', undefined, 'runtime', 9],
    ]);
  });

  it('conanfile.txt sections: tool_requires, build_requires and test_requires are development; comments and ranges', async () => {
    const result = await scan({
      'conanfile.txt': '[requires]\nzlib/1.3 # the compression\nopenssl/[>=3.0 <4]@\n# poco/1.12.4\n\n[tool_requires]\ncmake/3.27.0\n\n[build_requires]\nninja/[~1.11]\n\n[test_requires]\ngtest/1.14.0\n\n[options]\nzlib/*:shared=True\n\n[generators]\nCMakeDeps\n',
    });
    expect(result.problems).toEqual([]);
    expect(summary(result.targets[0]!)).toEqual([
      ['pkg:conan/zlib@1.3', '1.3', undefined, 'runtime', 2],
      ['pkg:conan/openssl', '', '>=3.0 <4', 'runtime', 3],
      ['pkg:conan/cmake@3.27.0', '3.27.0', undefined, 'development', 7],
      ['pkg:conan/ninja', '', '~1.11', 'development', 10],
      ['pkg:conan/gtest@1.14.0', '1.14.0', undefined, 'development', 13],
    ]);
  });

  it('conanfile.py is read, never run: comments, f-strings, %-formatting, build=True, non-literal references', async () => {
    const text = `from conan import ConanFile
class App(ConanFile):
    name = "app"
    version = "1.0"
    # requires = "old/0.1"
    tool_requires = "protobuf/3.21.12"
    test_requires = ["catch2/3.4.0"]

    def requirements(self):
        self.requires("zlib-ng/[>=2.2.4]@%s/stable" % self.user)
        self.requires(f"fmt/{self._fmt_version}")
        self.requires("openssl/3.1.2@acme/stable#rev1", transitive_headers=True)
        # self.requires("commented/1.0")
        self.requires(self._dep_ref)
        self.requires("flatc/23.5.26", build=True)
        self.requires(
            "spdlog/1.12.0"
        )
`;
    const parsed = parseConanfilePy(text);
    expect(parsed.name).toBe('app');
    expect(parsed.version).toBe('1.0');
    expect(parsed.declared.map((d) => [d.text, d.scope, d.line])).toEqual([
      ['protobuf/3.21.12', 'development', 6],
      ['catch2/3.4.0', 'development', 7],
      ['zlib-ng/[>=2.2.4]@%s/stable', 'runtime', 10],
      ['fmt/{self._fmt_version}', 'runtime', 11],
      ['openssl/3.1.2@acme/stable#rev1', 'runtime', 12],
      ['flatc/23.5.26', 'development', 15],
      ['spdlog/1.12.0', 'runtime', 17],
    ]);
    const t = (await scan({ 'conanfile.py': text })).targets[0]!;
    expect(t.project).toEqual({ purl: 'pkg:conan/app@1.0', name: 'app', version: '1.0' });
    expect(summary(t)).toEqual([
      ['pkg:conan/protobuf@3.21.12', '3.21.12', undefined, 'development', 6],
      ['pkg:conan/catch2@3.4.0', '3.4.0', undefined, 'development', 7],
      // the user is a placeholder: the reference keeps its name and range
      ['pkg:conan/zlib-ng', '', '>=2.2.4', 'runtime', 10],
      // the version is computed: unknown
      ['pkg:conan/fmt', '', undefined, 'runtime', 11],
      ['pkg:conan/acme/openssl@3.1.2?channel=stable', '3.1.2', undefined, 'runtime', 12],
      ['pkg:conan/flatc@23.5.26', '23.5.26', undefined, 'development', 15],
      ['pkg:conan/spdlog@1.12.0', '1.12.0', undefined, 'runtime', 17],
    ]);
  });

  it('a conanfile with conan.lock beside it is left to the lock; scans read both manifests otherwise', async () => {
    const withLock = await scan({
      'conanfile.txt': '[requires]\nzlib/1.3\n',
      'conan.lock': '{"version": "0.5", "requires": ["zlib/1.3#abc%1"], "build_requires": []}',
    });
    expect(withLock.targets.map((t) => t.type)).toEqual(['conan']);
    const noLock = await scanTree(FIXTURES, { extractors });
    expect(noLock.problems).toEqual([]);
    expect(noLock.targets.map((t) => [t.file, t.type])).toEqual([
      ['advent-of-code/conanfile.py', 'conanfile.py'],
      ['cci-alpaka/conanfile.py', 'conanfile.py'],
      ['syft-conanfile-txt/conanfile.txt', 'conanfile'],
      ['system-setup-devel/conanfile.py', 'conanfile.py'],
    ]);
  });
});
