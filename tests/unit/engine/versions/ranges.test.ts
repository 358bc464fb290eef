import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cargoScheme } from '../../../../server/engine/matchers/versions/cargo.ts';
import { golangScheme } from '../../../../server/engine/matchers/versions/golang.ts';
import { mavenScheme } from '../../../../server/engine/matchers/versions/maven.ts';
import { npmScheme } from '../../../../server/engine/matchers/versions/npm.ts';
import { pypiScheme } from '../../../../server/engine/matchers/versions/pypi.ts';
import { inRanges, inVersionList } from '../../../../server/engine/matchers/versions/ranges.ts';
import type { OsvRange } from '../../../../server/engine/matchers/versions/ranges.ts';
import type { VersionScheme } from '../../../../server/engine/matchers/versions/scheme.ts';
import { semverScheme } from '../../../../server/engine/matchers/versions/semver.ts';

const affected = (version: string, ranges: OsvRange[], scheme = mavenScheme) => inRanges(version, ranges, scheme, semverScheme);

describe('OSV range evaluation', () => {
  it('introduced 0 means from the beginning; fixed is exclusive', () => {
    const ranges: OsvRange[] = [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '2.9.10.7' }] }];
    expect(affected('1.0', ranges)).toBe(true);
    expect(affected('2.9.10.6', ranges)).toBe(true);
    expect(affected('2.9.10.7', ranges)).toBe(false);
    expect(affected('2.10.0', ranges)).toBe(false);
  });

  it('evaluates several introduced/fixed pairs in version order, whatever order they are listed in', () => {
    const ranges: OsvRange[] = [{
      type: 'ECOSYSTEM',
      events: [{ fixed: '2.6.7.3' }, { introduced: '2.7.0' }, { introduced: '2.0.0' }, { fixed: '2.9.10.7' }],
    }];
    expect(affected('1.9', ranges)).toBe(false);
    expect(affected('2.0.0', ranges)).toBe(true);
    expect(affected('2.6.7.2', ranges)).toBe(true);
    expect(affected('2.6.7.3', ranges)).toBe(false);
    expect(affected('2.6.9', ranges)).toBe(false);
    expect(affected('2.7.0', ranges)).toBe(true);
    expect(affected('2.9.10.7', ranges)).toBe(false);
  });

  it('last_affected is inclusive', () => {
    const ranges: OsvRange[] = [{ type: 'ECOSYSTEM', events: [{ introduced: '1.0' }, { last_affected: '1.4' }] }];
    expect(affected('0.9', ranges)).toBe(false);
    expect(affected('1.4', ranges)).toBe(true);
    expect(affected('1.4.0', ranges)).toBe(true);
    expect(affected('1.4.1', ranges)).toBe(false);
  });

  it('an open range stays affected, and limit caps it', () => {
    expect(affected('99', [{ type: 'ECOSYSTEM', events: [{ introduced: '1.0' }] }])).toBe(true);
    const limited: OsvRange[] = [{ type: 'ECOSYSTEM', events: [{ introduced: '1.0' }, { limit: '2.0' }] }];
    expect(affected('1.5', limited)).toBe(true);
    expect(affected('2.0', limited)).toBe(false);
    expect(affected('1.5', [{ type: 'ECOSYSTEM', events: [{ introduced: '1.0' }, { limit: '*' }] }])).toBe(true);
  });

  it('an empty range (introduced X, fixed X) affects nothing', () => {
    expect(affected('1.0', [{ type: 'ECOSYSTEM', events: [{ introduced: '1.0' }, { fixed: '1.0' }] }])).toBe(false);
  });

  it('SEMVER ranges use the semver scheme, ECOSYSTEM ranges the ecosystem scheme', () => {
    // Maven says 1.0-alpha < 1.0; lenient semver agrees; a Maven-only rule tells them apart:
    // in Maven `1.0.sp1` sorts after 1.0, in semver `1.0.sp1` is a pre-release of 1.0.
    const events = [{ introduced: '0' }, { fixed: '1.0' }];
    expect(inRanges('1.0.sp1', [{ type: 'ECOSYSTEM', events }], mavenScheme, semverScheme)).toBe(false);
    expect(inRanges('1.0.sp1', [{ type: 'SEMVER', events }], mavenScheme, semverScheme)).toBe(true);
    expect(inRanges('0.3.6', [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: '0.3.7' }] }], golangScheme, semverScheme)).toBe(true);
  });

  it('ignores GIT ranges and needs only one range to match', () => {
    const git: OsvRange = { type: 'GIT', events: [{ introduced: '0' }, { fixed: 'abc123' }] };
    expect(affected('1.0', [git])).toBe(false);
    const second: OsvRange = { type: 'ECOSYSTEM', events: [{ introduced: '3.0' }, { fixed: '3.1' }] };
    expect(affected('3.0.5', [git, { type: 'ECOSYSTEM', events: [{ introduced: '1.0' }, { fixed: '2.0' }] }, second])).toBe(true);
  });

  it('handles npm pre-releases by ordering', () => {
    const ranges: OsvRange[] = [{ type: 'SEMVER', events: [{ introduced: '1.0.0' }, { fixed: '1.4.2' }] }];
    expect(inRanges('1.4.2-beta.1', ranges, npmScheme, semverScheme)).toBe(true);
    expect(inRanges('1.0.0-rc.1', ranges, npmScheme, semverScheme)).toBe(false);
  });
});

describe('version lists', () => {
  it('matches by scheme equality, not by text', () => {
    expect(inVersionList('1.0', ['0.9', '1.0.0'], mavenScheme)).toBe(true);
    expect(inVersionList('1.0.1', ['0.9', '1.0.0'], mavenScheme)).toBe(false);
    expect(inVersionList('v1.2.3', ['1.2.3'], golangScheme)).toBe(true);
    expect(inVersionList('1.2.3', [], golangScheme)).toBe(false);
  });
});

// The Go vulnerability database and RustSec list each SEMVER range's events in ascending order,
// so the real data checks both ordering and evaluation: events must be non-decreasing under our
// scheme, every introduced version must be affected, every fixed version must not be.
describe('real OSV advisories (golang/vulndb, RustSec)', () => {
  const corpora: [string, VersionScheme][] = [['go', golangScheme], ['crates.io', cargoScheme]];
  for (const [folder, scheme] of corpora) {
    it(`${folder}: events are ordered, introduced is affected, fixed is not`, () => {
      const dir = join('../shared/corpora/advisories', folder);
      const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
      const failures: string[] = [];
      let ranges = 0;
      for (const file of files) {
        const doc = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { id: string; affected?: { ranges?: OsvRange[] }[] };
        for (const range of (doc.affected ?? []).flatMap((a) => a.ranges ?? [])) {
          if (range.type !== 'SEMVER') continue;
          ranges++;
          const versions = range.events.map((e) => e.introduced ?? e.fixed ?? e.last_affected ?? e.limit ?? '');
          const fail = (why: string) => failures.push(`${doc.id}: ${why}`);
          for (const v of versions) if (v !== '0' && !scheme.isValid(v)) fail(`invalid ${v}`);
          for (let i = 1; i < versions.length; i++) {
            if (versions[i - 1] !== '0' && scheme.compare(versions[i - 1]!, versions[i]!) > 0) fail(`${versions[i - 1]} listed before ${versions[i]}`);
          }
          for (const e of range.events) {
            // RustSec writes some empty ranges (introduced 1.2.0, fixed 1.2.0): nothing is affected.
            const empty = range.events.some((f) => f.fixed === e.introduced);
            if (e.introduced && e.introduced !== '0' && !empty && !inRanges(e.introduced, [range], scheme, scheme)) fail(`introduced ${e.introduced} not affected`);
            if (e.fixed && inRanges(e.fixed, [range], scheme, scheme)) fail(`fixed ${e.fixed} affected`);
          }
        }
      }
      console.log(`${folder}: ${files.length} advisories, ${ranges} SEMVER ranges, ${failures.length} failures`);
      expect(ranges).toBeGreaterThan(1000);
      expect(failures).toEqual([]);
    });
  }
});

describe('OSV ranges as advisory databases write them', () => {
  it('overlapping introduced/fixed pairs in one range each still cover their versions (wagtail, pyspark)', () => {
    const wagtail: OsvRange[] = [{ type: 'ECOSYSTEM', events: [{ introduced: '2.11' }, { fixed: '2.11.7' }, { introduced: '0' }, { fixed: '2.11.6' }, { introduced: '2.12' }, { fixed: '2.12.4' }] }];
    expect(affected('2.11.6', wagtail, pypiScheme)).toBe(true);
    expect(affected('2.11.7', wagtail, pypiScheme)).toBe(false);
    expect(affected('2.12.4', wagtail, pypiScheme)).toBe(false);
    const pyspark: OsvRange[] = [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '3.1.1' }, { introduced: '3.2.0' }, { fixed: '3.2.2' }, { introduced: '3.1.1' }, { fixed: '3.1.3' }] }];
    expect(affected('3.1.1', pyspark, pypiScheme)).toBe(true);
    expect(affected('3.1.3', pyspark, pypiScheme)).toBe(false);
    expect(affected('3.2.2', pyspark, pypiScheme)).toBe(false);
  });

  it('PEP 440: introduced 3.2 includes the pre-releases of 3.2, not those of earlier releases', () => {
    const django: OsvRange[] = [{ type: 'ECOSYSTEM', events: [{ introduced: '3.2' }, { fixed: '3.2.19' }] }];
    expect(affected('3.2a1', django, pypiScheme)).toBe(true);
    expect(affected('3.2rc1', django, pypiScheme)).toBe(true);
    expect(affected('3.2.dev0', django, pypiScheme)).toBe(true);
    expect(affected('3.1.14', django, pypiScheme)).toBe(false);
    expect(affected('3.2.19rc1', django, pypiScheme)).toBe(true);
    expect(affected('3.2.19', django, pypiScheme)).toBe(false);
    // A pre-release bound is taken as written.
    expect(affected('3.2a1', [{ type: 'ECOSYSTEM', events: [{ introduced: '3.2b1' }] }], pypiScheme)).toBe(false);
  });
});
