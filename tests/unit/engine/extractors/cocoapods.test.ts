import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExtractError } from '../../../../server/engine/model.ts';
import { cocoapodsPurl, parsePodfileLock, splitPod } from '../../../../server/engine/extractors/cocoapods/podfile-lock.ts';
import { extractors } from '../../../../server/engine/extractors/cocoapods/index.ts';
import { TRIVY } from '../../../support/golden.ts';
import { expectClaims } from './extractor.ts';

const LOCK = `PODS:
  - Alamofire (5.6.2)
  - Firebase/Analytics (10.0.0):
    - Firebase/Core
    - FirebaseAnalytics (~> 10.0.0)
  - Firebase/Core (10.0.0):
    - FirebaseCore (= 10.0.0)
  - FirebaseAnalytics (10.0.0)
  - FirebaseCore (10.0.0)
  - "GoogleUtilities/NSData+zlib (7.5.2)"
  - LocalPod (0.1.0):
    - Alamofire

DEPENDENCIES:
  - Alamofire (~> 5.6)
  - Firebase/Analytics
  - "GoogleUtilities/NSData+zlib"
  - LocalPod (from \`../LocalPod\`)

SPEC CHECKSUMS:
  Alamofire: 0123

COCOAPODS: 1.12.1
`;

describe('cocoapods Podfile.lock', () => {
  it('matches Podfile.lock only', () => {
    expect(extractors.map((e) => e.name)).toEqual(['cocoapods']);
    expectClaims(extractors[0]!, ['ios/Podfile.lock'], ['ios/Podfile']);
  });

  it('reads the trivy fixture', () => {
    const file = 'Podfile.lock';
    const t = parsePodfileLock(readFileSync(path.join(TRIVY, 'repo/cocoapods', file), 'utf8'), file);
    expect(t.components.map((c) => [c.purl, c.name, c.version, c.direct])).toEqual([
      ['pkg:cocoapods/_NIODataStructures@2.41.0', '_NIODataStructures', '2.41.0', true],
    ]);
    expect(t.roots).toEqual(['pkg:cocoapods/_NIODataStructures@2.41.0']);
    expect(t.components[0]!.locations).toEqual([{ file, startLine: 2, endLine: 2 }]);
  });

  it('maps subspecs to the subpath, edges from nested lists, direct from DEPENDENCIES', () => {
    const t = parsePodfileLock(LOCK, 'Podfile.lock');
    const byName = new Map(t.components.map((c) => [c.name, c]));
    expect(byName.get('Firebase/Analytics')!.purl).toBe('pkg:cocoapods/Firebase@10.0.0#Analytics');
    expect(byName.get('GoogleUtilities/NSData+zlib')!.purl).toBe('pkg:cocoapods/GoogleUtilities@7.5.2#NSData%2Bzlib');
    expect(byName.get('Firebase/Analytics')!.dependsOn).toEqual(['pkg:cocoapods/Firebase@10.0.0#Core', 'pkg:cocoapods/FirebaseAnalytics@10.0.0']);
    expect(byName.get('Firebase/Core')!.dependsOn).toEqual(['pkg:cocoapods/FirebaseCore@10.0.0']);
    expect(byName.get('LocalPod')!.dependsOn).toEqual(['pkg:cocoapods/Alamofire@5.6.2']);
    expect(t.components.filter((c) => c.direct).map((c) => c.name).sort()).toEqual(['Alamofire', 'Firebase/Analytics', 'GoogleUtilities/NSData+zlib', 'LocalPod']);
    expect(t.roots).toHaveLength(4);
    expect(byName.get('Firebase/Analytics')!.locations).toEqual([{ file: 'Podfile.lock', startLine: 3, endLine: 5 }]);
    expect(t.components).toHaveLength(7);
  });

  it('helpers', () => {
    expect(splitPod('A (= 1.0)')).toEqual({ name: 'A', spec: '= 1.0' });
    expect(splitPod('A')).toEqual({ name: 'A', spec: '' });
    expect(cocoapodsPurl('A/B/C', '1')).toBe('pkg:cocoapods/A@1#B/C');
  });

  it('empty input gives an empty target; malformed input throws ExtractError in Chinese', () => {
    expect(parsePodfileLock('', 'Podfile.lock').components).toEqual([]);
    expect(parsePodfileLock('COCOAPODS: 1.0\n', 'Podfile.lock').components).toEqual([]);
    for (const bad of ['PODS:\n  - [unclosed\n', 'PODS: 5\n', '- a\n- b\n', 'PODS:\n  - A (1.0)\n   bad: [\n']) {
      expect(() => parsePodfileLock(bad, 'Podfile.lock')).toThrow(ExtractError);
      try { parsePodfileLock(bad, 'Podfile.lock'); } catch (e) { expect((e as Error).message).toMatch(/Podfile\.lock/); }
    }
  });

  it('hostile input neither hangs nor crashes', () => {
    const t = parsePodfileLock(`PODS:\n  - ${'a('.repeat(100_000)} x\n`, 'Podfile.lock');
    expect(t.components).toHaveLength(1);
  });

  it('reads 5,000 pods quickly', () => {
    const lines = ['PODS:'];
    for (let i = 0; i < 5000; i++) lines.push(`  - Pod${i} (1.0.${i}):`, `    - Pod${(i + 1) % 5000} (~> 1.0)`);
    lines.push('', 'DEPENDENCIES:', '  - Pod0');
    const t = parsePodfileLock(lines.join('\n') + '\n', 'Podfile.lock');
    expect(t.components).toHaveLength(5000);
    expect(t.components[0]!.dependsOn).toEqual(['pkg:cocoapods/Pod1@1.0.1']);
  });

  it('reads syft\'s Podfile.lock with external sources: subspecs in the purl subpath, git and path pods kept', () => {
    const file = path.resolve(import.meta.dirname, '../../../fixtures/public/lockfiles/cocoapods/syft-external-sources/Podfile.lock');
    const t = parsePodfileLock(readFileSync(file, 'utf8'), 'Podfile.lock');
    expect(t.problems).toBeUndefined();
    expect(t.components.map((c) => [c.purl, c.name, c.version, c.direct])).toEqual([
      ['pkg:cocoapods/Analytics@1.4.0', 'Analytics', '1.4.0', true],
      ['pkg:cocoapods/Flutter@1.0.0', 'Flutter', '1.0.0', true],
      ['pkg:cocoapods/Flutter@1.0.0#Core', 'Flutter/Core', '1.0.0', false],
      ['pkg:cocoapods/GlossButtonNode@3.1.2', 'GlossButtonNode', '3.1.2', true],
      ['pkg:cocoapods/GlossButtonNode@3.1.2#Core', 'GlossButtonNode/Core', '3.1.2', false],
    ]);
  });
});
