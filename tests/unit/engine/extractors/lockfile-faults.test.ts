// Every lockfile extractor reads a real lockfile (aquasecurity/trivy's integration test data in
// the shared corpora, read in place) into which an unknown section or field and one corrupt
// entry are inserted here: what the ecosystem's tool would pass over is passed over and listed
// among the scan's problems with its file and line, and everything else is still read.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { allExtractors } from '../../../../server/engine/extractors/index.ts';
import { TRIVY } from '../../../support/golden.ts';
import { useTempScan } from '../../../support/temp-scan.ts';

const { scan } = useTempScan('cairn-lockfaults-', allExtractors);

/** The corpus file `rel` with each [from, to] replacement applied once (each must apply). */
async function withFaults(rel: string, edits: Array<[string, string]>): Promise<string> {
  let text = await readFile(path.join(TRIVY, 'repo', rel), 'utf8');
  for (const [from, to] of edits) {
    expect(text, `${rel}: ${from}`).toContain(from);
    text = text.replace(from, to);
  }
  return text;
}

interface Case {
  corpus: string;
  file: string;
  edits: Array<[string, string]>;
  problems: string[];
  purls: string[];
}

const CASES: Record<string, Case> = {
  'Podfile.lock (CocoaPods)': {
    corpus: 'cocoapods/Podfile.lock', file: 'Podfile.lock',
    edits: [['PODS:\n', 'PODS:\n  - {}\n  - SwiftyJSON (5.0.1)\n'], ['COCOAPODS:', 'PLUGINS:\n  cocoapods-keys: {}\n\nCOCOAPODS:']],
    problems: ['Podfile.lock 第 2 行：PODS 条目不是“名称 (版本)”形式，已跳过'],
    purls: ['pkg:cocoapods/SwiftyJSON@5.0.1', 'pkg:cocoapods/_NIODataStructures@2.41.0'],
  },
  'pubspec.lock (dart pub)': {
    corpus: 'pubspec/pubspec.lock', file: 'pubspec.lock',
    edits: [['packages:\n', 'packages:\n  broken: 42\n'], ['    version: "1.3.1"\n', '    version: "1.3.1"\n    checksum: "abc"\n'], ['sdks:', 'catalog:\n  x: 1\nsdks:']],
    problems: ['pubspec.lock 第 4 行：packages 中的“broken”不是映射，已跳过'],
    purls: ['pkg:pub/http@0.13.2', 'pkg:pub/shelf@1.3.1'],
  },
  'gradle.lockfile (Gradle)': {
    corpus: 'gradle/gradle.lockfile', file: 'gradle.lockfile',
    edits: [['empty=', 'com.google.guava:guava=compileClasspath\norg.slf4j:slf4j-api:1.7.36=runtimeClasspath\nempty=']],
    problems: ['gradle.lockfile 第 5 行：“com.google.guava:guava=compileClasspath”不是“组:名称:版本=配置”形式，已跳过'],
    purls: ['pkg:maven/com.fasterxml.jackson.core/jackson-databind@2.9.1', 'pkg:maven/org.slf4j/slf4j-api@1.7.36'],
  },
  'packages.lock.json (NuGet)': {
    corpus: 'nuget/packages.lock.json', file: 'packages.lock.json',
    edits: [['"NuGet.Frameworks": {', '"Broken.Package": { "type": "Transitive" },\n            "NuGet.Frameworks": {'], ['"version": 1,', '"version": 1,\n    "futureSection": { "x": 1 },']],
    problems: ['packages.lock.json 第 12 行：“.NETCoreApp,Version=v5.0”中的“Broken.Package”没有 resolved 版本，已跳过'],
    purls: ['pkg:nuget/Newtonsoft.Json@12.0.3', 'pkg:nuget/NuGet.Frameworks@5.7.0'],
  },
  'pnpm-lock.yaml (pnpm)': {
    corpus: 'pnpm/pnpm-lock.yaml', file: 'pnpm-lock.yaml',
    edits: [['packages:\n', 'catalogs:\n  default: {}\n\npackages:\n\n  /broken:\n    resolution: {integrity: sha512-x}\n']],
    problems: ['pnpm-lock.yaml 第 20 行：条目“/broken”读不出包名或版本，已跳过'],
    purls: ['pkg:npm/jquery@3.3.9', 'pkg:npm/lodash@4.17.4'],
  },
  'package-lock.json v1 (npm)': {
    corpus: 'npm/package-lock.json', file: 'package-lock.json',
    edits: [['"asap": {\n      "version": "2.0.6",', '"asap": {'], ['"requires": true,', '"requires": true,\n  "packagesFuture": {},']],
    problems: ['package-lock.json 第 7 行：条目“node_modules/asap”没有 version，已跳过'],
    purls: [
      'pkg:npm/jquery@3.3.9', 'pkg:npm/js-tokens@4.0.0', 'pkg:npm/loose-envify@1.4.0', 'pkg:npm/object-assign@4.1.1', 'pkg:npm/promise@8.0.3', 'pkg:npm/prop-types@15.7.2',
      'pkg:npm/react-is@16.8.6', 'pkg:npm/react@16.8.6', 'pkg:npm/redux@4.0.1', 'pkg:npm/scheduler@0.13.6', 'pkg:npm/symbol-observable@1.2.0', 'pkg:npm/z-lock@1.0.0',
    ],
  },
  'poetry.lock (Poetry)': {
    corpus: 'poetry/poetry.lock', file: 'poetry.lock',
    edits: [['[[package]]\nname = "colorama"', '[[package]]\nversion = "1.0"\n\n[[package]]\nname = "colorama"'], ['[metadata]', '[tool.future]\nx = 1\n\n[metadata]']],
    problems: ['poetry.lock 第 18 行：[[package]] 缺少 name，已跳过'],
    purls: ['pkg:pypi/click@8.1.3', 'pkg:pypi/colorama@0.4.6', 'pkg:pypi/werkzeug@0.14'],
  },
  'uv.lock (uv)': {
    corpus: 'uv/uv.lock', file: 'uv.lock',
    edits: [['[[package]]\nname = "colorama"', '[[package]]\nversion = "1.0"\n\n[[package]]\nname = "colorama"'], ['requires-python = ">=3.11"', 'requires-python = ">=3.11"\nfuture-option = true']],
    problems: ['uv.lock 第 21 行：[[package]] 缺少 name，已跳过'],
    purls: ['pkg:pypi/click@8.1.3', 'pkg:pypi/colorama@0.4.6', 'pkg:pypi/werkzeug@0.11.1'],
  },
  'Pipfile.lock (pipenv)': {
    corpus: 'pipenv/Pipfile.lock', file: 'Pipfile.lock',
    edits: [['"default": {', '"default": {\n        "broken": {\n            "index": "pypi"\n        },'], ['"develop": {}', '"develop": {},\n    "future": []']],
    problems: ['Pipfile.lock 第 19 行：default 中的“broken”没有 version，已跳过'],
    purls: ['pkg:pypi/werkzeug@0.11.1'],
  },
  'pylock.toml (PEP 751)': {
    corpus: 'pylock/pylock.toml', file: 'pylock.toml',
    edits: [['[[packages]]\nname = "colorama"', '[[packages]]\nversion = "2.0"\n\n[[packages]]\nname = "colorama"'], ['created-by = "pip"', 'created-by = "pip"\nfuture-key = 1']],
    problems: ['pylock.toml 第 19 行：[[packages]] 缺少 name，已跳过'],
    purls: ['pkg:pypi/click@8.1.3', 'pkg:pypi/colorama@0.4.6', 'pkg:pypi/werkzeug@0.11.1'],
  },
  'Package.resolved (SwiftPM)': {
    corpus: 'swift/Package.resolved', file: 'Package.resolved',
    edits: [['"pins": [', '"pins": [\n      { "package": "broken", "state": {} },'], ['"version": 1\n}', '"version": 1,\n  "originHash": "abc"\n}']],
    problems: ['Package.resolved 第 4 行：依赖没有仓库地址或注册表标识，已跳过'],
    purls: ['pkg:swift/github.com/apple/swift-atomics@1.1.0', 'pkg:swift/github.com/apple/swift-nio@2.41.0'],
  },
  'composer.lock (Composer)': {
    corpus: 'composer/composer.lock', file: 'composer.lock',
    edits: [['"packages": [\n', '"packages": [\n        {\n            "version": "1.0.0"\n        },\n'], ['"content-hash"', '"future-section": {"x": 1},\n    "content-hash"']],
    problems: ['composer.lock 第 10 行：包条目缺少 name，已跳过'],
    purls: ['pkg:composer/guzzlehttp/guzzle@7.4.4', 'pkg:composer/guzzlehttp/psr7@1.8.3'],
  },
  'mix.lock (Mix)': {
    corpus: 'mixlock/mix.lock', file: 'mix.lock',
    edits: [['%{\n', '%{\n  "broken": "not a tuple",\n']],
    problems: ['mix.lock 第 2 行：条目“broken”不是 {:hex, ...} 等形式的元组，已跳过'],
    purls: [
      'pkg:hex/castore@0.1.18', 'pkg:hex/jason@1.4.0', 'pkg:hex/phoenix@1.6.13', 'pkg:hex/phoenix_html@3.2.0', 'pkg:hex/phoenix_pubsub@2.1.1',
      'pkg:hex/phoenix_template@1.0.0', 'pkg:hex/phoenix_view@2.0.1', 'pkg:hex/plug@1.14.0', 'pkg:hex/plug_crypto@1.2.3', 'pkg:hex/telemetry@1.1.0',
    ],
  },
};

describe('a real lockfile with an unknown part and one corrupt entry', () => {
  for (const [name, c] of Object.entries(CASES)) {
    it(name, async () => {
      const result = await scan({ [c.file]: await withFaults(c.corpus, c.edits) });
      expect(result.problems.map((p) => p.message)).toEqual(c.problems);
      expect(result.problems.every((p) => p.file === c.file)).toBe(true);
      expect(result.targets.flatMap((t) => t.components.map((x) => x.purl)).sort()).toEqual(c.purls);
    });
  }
});
