import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExtractError } from '../../../../server/engine/model.ts';
import { extractors } from '../../../../server/engine/extractors/bazel/index.ts';
import { parseBazelLock } from '../../../../server/engine/extractors/bazel/lock.ts';
import { parseModuleFile } from '../../../../server/engine/extractors/bazel/module-file.ts';
import { treeContext } from '../../../../server/engine/sources/tree.ts';
import { expectClaims, extractFile } from './extractor.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../../../fixtures/public/lockfiles/bazel');
const [lockExtractor, moduleExtractor] = extractors as [typeof extractors[0], typeof extractors[0]];

// lockFileVersion 6 (Bazel 7.0): moduleDepGraph, quoted from 12wrigja/bazel_git_override_demo's
// MODULE.bazel.lock (the module entries cut down to name, version, key and deps).
const V6 = `{
  "lockFileVersion": 6,
  "moduleDepGraph": {
    "<root>": { "name": "", "version": "", "key": "<root>",
      "deps": { "rules_apko": "rules_apko@_", "bazel_tools": "bazel_tools@_", "local_config_platform": "local_config_platform@_" } },
    "rules_apko@_": { "name": "rules_apko", "version": "0.0.0", "key": "rules_apko@_",
      "deps": { "bazel_skylib": "bazel_skylib@1.5.0", "platforms": "platforms@0.0.8", "aspect_bazel_lib": "aspect_bazel_lib@1.40.3", "bazel_tools": "bazel_tools@_" } },
    "bazel_tools@_": { "name": "bazel_tools", "version": "", "key": "bazel_tools@_", "deps": { "platforms": "platforms@0.0.8" } },
    "local_config_platform@_": { "name": "local_config_platform", "version": "", "key": "local_config_platform@_", "deps": { "platforms": "platforms@0.0.8" } },
    "bazel_skylib@1.5.0": { "name": "bazel_skylib", "version": "1.5.0", "key": "bazel_skylib@1.5.0", "deps": { "platforms": "platforms@0.0.8" } },
    "platforms@0.0.8": { "name": "platforms", "version": "0.0.8", "key": "platforms@0.0.8", "deps": { "rules_license": "rules_license@0.0.7" } },
    "aspect_bazel_lib@1.40.3": { "name": "aspect_bazel_lib", "version": "1.40.3", "key": "aspect_bazel_lib@1.40.3",
      "deps": { "bazel_skylib": "bazel_skylib@1.5.0", "platforms": "platforms@0.0.8" } },
    "rules_license@0.0.7": { "name": "rules_license", "version": "0.0.7", "key": "rules_license@0.0.7", "deps": {} }
  }
}`;

describe('Bazel modules', () => {
  it('claims MODULE.bazel.lock and MODULE.bazel', () => {
    expectClaims(lockExtractor, ['MODULE.bazel.lock', 'sub/MODULE.bazel.lock'], ['MODULE.bazel', 'WORKSPACE', 'module.bazel.lock']);
    expectClaims(moduleExtractor, ['MODULE.bazel', 'sub/MODULE.bazel'], ['MODULE.bazel.lock', 'BUILD.bazel']);
  });

  it('a registry-hash lock (lockFileVersion 18): the modules whose source.json was read, the declared one direct', async () => {
    const t = await extractFile(lockExtractor, path.join(FIXTURES, 'hello-bazel'), 'MODULE.bazel.lock');
    expect(t.type).toBe('bazel-lock');
    expect(t.project).toEqual({ purl: 'pkg:bazel/hello-bazel@0.0.0', name: 'hello-bazel', version: '0.0.0' });
    expect(t.components.map((c) => c.purl)).toEqual([
      'pkg:bazel/abseil-cpp@20240116.1', 'pkg:bazel/bazel_features@1.21.0', 'pkg:bazel/bazel_skylib@1.7.1', 'pkg:bazel/buildozer@7.1.2',
      'pkg:bazel/googletest@1.14.0.bcr.1', 'pkg:bazel/jsoncpp@1.9.5', 'pkg:bazel/platforms@0.0.11', 'pkg:bazel/protobuf@29.0',
      'pkg:bazel/pybind11_bazel@2.11.1', 'pkg:bazel/re2@2023-09-01', 'pkg:bazel/rules_android@0.1.1', 'pkg:bazel/rules_cc@0.0.17',
      'pkg:bazel/rules_fuzzing@0.5.2', 'pkg:bazel/rules_java@8.11.0', 'pkg:bazel/rules_jvm_external@6.3', 'pkg:bazel/rules_kotlin@1.9.6',
      'pkg:bazel/rules_license@1.0.0', 'pkg:bazel/rules_pkg@1.0.1', 'pkg:bazel/rules_proto@7.0.2', 'pkg:bazel/rules_python@1.4.1',
      'pkg:bazel/rules_shell@0.2.0', 'pkg:bazel/stardoc@0.7.2', 'pkg:bazel/zlib@1.3.1.bcr.3',
    ]);
    expect(t.roots).toEqual(['pkg:bazel/rules_python@1.4.1']);
    const python = t.components.find((c) => c.name === 'rules_python')!;
    expect([python.direct, python.scope, python.locations]).toEqual([true, 'runtime', [{ file: 'MODULE.bazel.lock', startLine: 126, endLine: 126 }]]);
    // MODULE.bazel beside a lock is read by the lock's extractor only.
    const root = path.join(FIXTURES, 'hello-bazel');
    expect(await moduleExtractor.extract({ path: 'MODULE.bazel', size: 0, read: async () => Buffer.from(''), text: async () => '' }, treeContext(root, new AbortController().signal))).toEqual([]);
  });

  it('a moduleDepGraph lock (lockFileVersion 6): versioned modules with their edges, Bazel\'s own modules left out', () => {
    const t = parseBazelLock(V6, 'MODULE.bazel.lock');
    expect(t.components.map((c) => [c.purl, c.direct, c.dependsOn])).toEqual([
      ['pkg:bazel/rules_apko@0.0.0', true, ['pkg:bazel/bazel_skylib@1.5.0', 'pkg:bazel/platforms@0.0.8', 'pkg:bazel/aspect_bazel_lib@1.40.3']],
      ['pkg:bazel/bazel_skylib@1.5.0', false, ['pkg:bazel/platforms@0.0.8']],
      ['pkg:bazel/platforms@0.0.8', false, ['pkg:bazel/rules_license@0.0.7']],
      ['pkg:bazel/aspect_bazel_lib@1.40.3', false, ['pkg:bazel/bazel_skylib@1.5.0', 'pkg:bazel/platforms@0.0.8']],
      ['pkg:bazel/rules_license@0.0.7', false, []],
    ]);
    expect(t.roots).toEqual(['pkg:bazel/rules_apko@0.0.0']);
  });

  it('MODULE.bazel alone: module and bazel_dep calls among extensions and comments', async () => {
    const t = await extractFile(moduleExtractor, path.join(FIXTURES, 'hello-bazel-module'), 'MODULE.bazel');
    expect(t.type).toBe('bazel-module');
    expect(t.project).toEqual({ purl: 'pkg:bazel/hello-bazel@0.0.0', name: 'hello-bazel', version: '0.0.0' });
    expect(t.components.map((c) => [c.purl, c.direct, c.scope, c.locations[0]!.startLine])).toEqual([
      ['pkg:bazel/rules_python@1.4.1', true, 'runtime', 6],
      ['pkg:bazel/rules_go@0.54.1', true, 'runtime', 7],
      ['pkg:bazel/gazelle@0.43.0', true, 'runtime', 8],
    ]);
  });

  it('dev dependencies, overrides and another registry', () => {
    const m = parseModuleFile([
      'module(name = "app", version = "1.0")',
      'bazel_dep(name = "googletest", version = "1.14.0", dev_dependency = True)',
      'bazel_dep(name = "abseil-cpp", version = "20230802.0")  # pinned below',
      'single_version_override(module_name = "abseil-cpp", version = "20240116.1")',
      'bazel_dep(name = "mylib", version = "0.1")',
      'git_override(module_name = "mylib", remote = "https://github.com/x/mylib.git", commit = "abc123")',
      'bazel_dep(name = "corp", version = "2.0")',
      'single_version_override(module_name = "corp", registry = "https://registry.example.com/")',
    ].join('\n'));
    expect(m.deps.map((d) => [d.name, d.version, d.dev])).toEqual([
      ['googletest', '1.14.0', true], ['abseil-cpp', '20230802.0', false], ['mylib', '0.1', false], ['corp', '2.0', false],
    ]);
    const t = parseBazelLock('{"lockFileVersion": 13, "registryFileHashes": {"https://bcr.bazel.build/modules/googletest/1.14.0/source.json": "x"}}', 'MODULE.bazel.lock', m, 'MODULE.bazel');
    expect(t.components.map((c) => [c.purl, c.scope, c.locations[0]!.file])).toEqual([
      ['pkg:bazel/googletest@1.14.0', 'development', 'MODULE.bazel.lock'],
      ['pkg:bazel/abseil-cpp@20240116.1', 'runtime', 'MODULE.bazel'],
      ['pkg:bazel/mylib@0.1?vcs_url=git%2Bhttps%3A%2F%2Fgithub.com%2Fx%2Fmylib.git%40abc123', 'runtime', 'MODULE.bazel'],
      ['pkg:bazel/corp@2.0?repository_url=https%3A%2F%2Fregistry.example.com', 'runtime', 'MODULE.bazel'],
    ]);
  });

  it('malformed lock files', () => {
    expect(() => parseBazelLock('{', 'MODULE.bazel.lock')).toThrow(ExtractError);
    expect(() => parseBazelLock('{"x": 1}', 'MODULE.bazel.lock')).toThrow(/lockFileVersion/);
  });
});
