import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExtractError } from '../../../../server/engine/model.ts';
import { parsePackageResolved, swiftPackageName } from '../../../../server/engine/extractors/swift/package-resolved.ts';
import { extractors } from '../../../../server/engine/extractors/swift/index.ts';
import { TRIVY } from '../../../support/golden.ts';
import { expectClaims } from './extractor.ts';

const V2 = `{
  "originHash" : "abc",
  "pins" : [
    {
      "identity" : "swift-log",
      "kind" : "remoteSourceControl",
      "location" : "https://github.com/apple/swift-log.git",
      "state" : {
        "revision" : "32e8d724467f8fe623624570367e3d50c5638e46",
        "version" : "1.5.2"
      }
    },
    {
      "identity" : "element-sdk",
      "kind" : "remoteSourceControl",
      "location" : "git@github.com:element-hq/sdk.git",
      "state" : { "branch" : "main", "revision" : "deadbeef" }
    },
    {
      "identity" : "pinned-rev",
      "kind" : "remoteSourceControl",
      "location" : "https://gitlab.com/org/pinned-rev",
      "state" : { "revision" : "0123456789abcdef" }
    },
    {
      "identity" : "local",
      "kind" : "fileSystem",
      "location" : "/Users/me/local",
      "state" : { "version" : "1.0.0" }
    },
    {
      "identity" : "mona.linkedlist",
      "kind" : "registry",
      "location" : "",
      "state" : { "version" : "1.1.0" }
    }
  ],
  "version" : 3
}
`;

describe('swift Package.resolved', () => {
  it('matches Package.resolved only', () => {
    expectClaims(extractors[0]!, ['App.xcworkspace/xcshareddata/swiftpm/Package.resolved'], ['Package.swift']);
  });

  it('reads the v1 trivy fixture with names from the repository URL and pin lines', () => {
    const t = parsePackageResolved(readFileSync(path.join(TRIVY, 'repo/swift/Package.resolved'), 'utf8'), 'Package.resolved');
    expect(t.components.map((c) => [c.purl, c.name, c.version, c.locations[0]!.startLine, c.locations[0]!.endLine])).toEqual([
      ['pkg:swift/github.com/apple/swift-atomics@1.1.0', 'github.com/apple/swift-atomics', '1.1.0', 4, 12],
      ['pkg:swift/github.com/apple/swift-nio@2.41.0', 'github.com/apple/swift-nio', '2.41.0', 13, 21],
    ]);
  });

  it('reads v2/v3 pins: version, else branch, else revision; skips local packages', () => {
    const t = parsePackageResolved(V2, 'Package.resolved');
    expect(t.components.map((c) => c.purl)).toEqual([
      'pkg:swift/github.com/apple/swift-log@1.5.2',
      'pkg:swift/github.com/element-hq/sdk@main',
      'pkg:swift/gitlab.com/org/pinned-rev@0123456789abcdef',
      'pkg:swift/mona/linkedlist@1.1.0',
    ]);
    expect(t.components[0]!.locations).toEqual([{ file: 'Package.resolved', startLine: 4, endLine: 12 }]);
  });

  it('normalises repository URLs', () => {
    expect(swiftPackageName('https://github.com/a/b.git')).toBe('github.com/a/b');
    expect(swiftPackageName('git@github.com:a/b.git')).toBe('github.com/a/b');
    expect(swiftPackageName('ssh://git@github.com/a/b')).toBe('github.com/a/b');
    expect(swiftPackageName('http://example.com/a/b/')).toBe('example.com/a/b');
  });

  it('malformed input throws ExtractError in Chinese with the line', () => {
    for (const bad of ['{', '{"pins": [ {"location": "x",} ]}', '[1, 2]', '{"pins": 5, "version": 2}', '{"foo": 1}', '"x"', '{"a": tru}', '']) {
      expect(() => parsePackageResolved(bad, 'Package.resolved'), bad).toThrow(ExtractError);
    }
    expect(() => parsePackageResolved('{\n "pins": [\n  oops\n ]\n}', 'Package.resolved')).toThrow(/第 3 行/);
  });

  it('reads 5,000 pins', () => {
    const pins = Array.from({ length: 5000 }, (_, i) => ({ identity: `p${i}`, kind: 'remoteSourceControl', location: `https://github.com/o/p${i}.git`, state: { revision: 'r', version: `1.0.${i}` } }));
    const text = JSON.stringify({ pins, version: 2 }, null, 2);
    const t = parsePackageResolved(text, 'Package.resolved');
    expect(t.components).toHaveLength(5000);
  });

  it('reads syft\'s v3 Package.resolved: a branch pin is versioned by its branch (as trivy does), a tagged one by its version', () => {
    const file = path.resolve(import.meta.dirname, '../../../fixtures/public/lockfiles/swift/syft-v3/Package.resolved');
    const t = parsePackageResolved(readFileSync(file, 'utf8'), 'Package.resolved');
    expect(t.problems).toBeUndefined();
    expect(t.components.map((c) => [c.purl, c.name, c.version, c.locations[0]!.startLine])).toEqual([
      ['pkg:swift/github.com/apple/swift-mmio@swift-embedded-examples', 'github.com/apple/swift-mmio', 'swift-embedded-examples', 4],
      ['pkg:swift/github.com/apple/swift-syntax@509.1.1', 'github.com/apple/swift-syntax', '509.1.1', 13],
    ]);
  });

  it('an ssh location names the same package as its https one (user and port dropped)', () => {
    const t = parsePackageResolved(JSON.stringify({ pins: [
      { identity: 'bkscore', kind: 'remoteSourceControl', location: 'git@github.com:bkatnich/BKSCore.git', state: { revision: 'c83ff21', version: '1.0.1' } },
      { identity: 'x', kind: 'remoteSourceControl', location: 'ssh://git@gitlab.example.com:2222/team/x.git', state: { revision: 'abc', version: '2.0.0' } },
    ], version: 2 }, null, 2), 'Package.resolved');
    expect(t.components.map((c) => c.purl)).toEqual(['pkg:swift/github.com/bkatnich/BKSCore@1.0.1', 'pkg:swift/gitlab.example.com/team/x@2.0.0']);
  });
});
