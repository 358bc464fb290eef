import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { cargoScheme } from '../../../../server/engine/matchers/versions/cargo.ts';
import { cranScheme } from '../../../../server/engine/matchers/versions/cran.ts';
import { golangScheme } from '../../../../server/engine/matchers/versions/golang.ts';
import { hackageScheme } from '../../../../server/engine/matchers/versions/hackage.ts';
import { SCHEME_IDS, schemeFor, schemeForEcosystem } from '../../../../server/engine/matchers/versions/index.ts';
import { hexScheme } from '../../../../server/engine/matchers/versions/hex.ts';
import { mavenScheme } from '../../../../server/engine/matchers/versions/maven.ts';
import { npmScheme } from '../../../../server/engine/matchers/versions/npm.ts';
import { nugetScheme } from '../../../../server/engine/matchers/versions/nuget.ts';
import { pubScheme } from '../../../../server/engine/matchers/versions/pub.ts';
import { ConstraintError } from '../../../../server/engine/matchers/versions/scheme.ts';
import type { VersionScheme } from '../../../../server/engine/matchers/versions/scheme.ts';
import { semverScheme } from '../../../../server/engine/matchers/versions/semver.ts';

// [constraint, versions inside, versions outside]
type Case = [string, string[], string[]];

function check(scheme: VersionScheme, cases: Case[]) {
  for (const [text, inside, outside] of cases) {
    const matches = scheme.constraint(text);
    for (const v of inside) expect(matches(v), `${scheme.id}: ${v} in "${text}"`).toBe(true);
    for (const v of outside) expect(matches(v), `${scheme.id}: ${v} not in "${text}"`).toBe(false);
  }
}

describe('semver constraints', () => {
  it('reads comparator lists with commas, spaces, v prefixes and unions', () => {
    check(semverScheme, [
      ['>= 1.2.0, < 1.4', ['1.2.0', '1.3.9', '1.3.0-rc1'], ['1.1.9', '1.4.0', '1.2.0-rc1']],
      ['>=1.2 <1.4', ['1.2', '1.3.5'], ['1.4.0', '1.0']],
      ['< v2.8.0', ['2.7.9', 'v2.7.0', '2.8.0-beta'], ['2.8.0', 'v2.8.0', '3.0']],
      ['= 1.0', ['1.0', '1.0.0', 'v1'], ['1.0.1']],
      ['1.0', ['1.0.0'], ['1.0.1']],
      ['< 1.0 || >= 2.0, < 2.5 || = 3.1.4', ['0.9', '2.4.9', '3.1.4'], ['1.0', '2.5', '3.0']],
      ['> 1.0.0, <= 1.0.5, != 1.0.3', ['1.0.1', '1.0.5'], ['1.0.0', '1.0.3', '1.0.6']],
    ]);
  });

  it('rejects what it cannot read', () => {
    expect(() => semverScheme.constraint('')).toThrow(ConstraintError);
    expect(() => semverScheme.constraint('>= ')).toThrow(ConstraintError);
    expect(() => semverScheme.constraint('>> 1.0')).toThrow(ConstraintError);
  });
});

describe('npm constraints', () => {
  it('reads node-semver ranges', () => {
    check(npmScheme, [
      ['< 3.0.0', ['2.9.9', '0.0.1', '3.0.0-rc.1'], ['3.0.0', '3.0.1']],
      ['^1.2.3', ['1.2.3', '1.9.9'], ['1.2.2', '2.0.0', '2.0.0-alpha']],
      ['^0.2.3', ['0.2.3', '0.2.9'], ['0.3.0', '0.2.2']],
      ['^0.0.3', ['0.0.3'], ['0.0.4', '0.0.2']],
      ['~1.2', ['1.2.0', '1.2.9'], ['1.3.0', '1.1.9']],
      ['~1.2.3', ['1.2.3', '1.2.9'], ['1.3.0', '1.2.2']],
      ['1.x', ['1.0.0', '1.9.9'], ['2.0.0', '0.9.9']],
      ['1.2.3 - 2.3.4', ['1.2.3', '2.3.4'], ['1.2.2', '2.3.5']],
      ['1.2 - 2.3', ['1.2.0', '2.3.9'], ['1.1.9', '2.4.0']],
      ['>=1 <2 || >=3', ['1.0.0', '1.9.9', '3.0.0', '9.0.0'], ['0.9.0', '2.0.0', '2.9.9']],
      ['*', ['0.0.0', '1.2.3', '1.0.0-beta'], []],
      ['>= 4.0.0, < 4.17.12', ['4.17.11'], ['4.17.12', '3.10.1']],
      ['<=1.2', ['1.2.9', '1.0.0'], ['1.3.0']],
      ['>1.2', ['1.3.0'], ['1.2.9']],
      ['=1.2.3', ['1.2.3', 'v1.2.3', '1.2.3+build'], ['1.2.4']],
    ]);
  });

  it('lets a pre-release of a vulnerable line match (advisory intent, not includePrerelease)', () => {
    check(npmScheme, [['>= 1.0.0, < 1.4.2', ['1.3.0-rc.1', '1.4.2-beta'], ['1.0.0-beta', '1.4.2']]]);
  });

  it('rejects garbage', () => {
    expect(() => npmScheme.constraint('>= banana')).toThrow(ConstraintError);
  });
});

describe('golang constraints', () => {
  it('reads advisory comparator lists with and without v', () => {
    check(golangScheme, [
      ['>= 0, < 0.3.7', ['v0.0.0-20210101000000-abcdef123456', '0.3.6', 'v0.3.6'], ['v0.3.7', '0.4.0']],
      ['< v2.8.0', ['v2.7.1+incompatible', 'v2.8.0-rc.1'], ['v2.8.0', 'v2.8.0+incompatible']],
      ['>= 1.25.0, < 1.25.9', ['v1.25.8'], ['v1.25.9', 'v1.24.0']],
    ]);
  });

  it('orders pseudo-versions as pre-releases', () => {
    expect(golangScheme.compare('v0.0.0-20210101000000-abcdef123456', 'v0.0.0-20220101000000-abcdef123456')).toBeLessThan(0);
    expect(golangScheme.compare('v1.2.4-0.20210101000000-abcdef123456', 'v1.2.3')).toBeGreaterThan(0);
    expect(golangScheme.compare('v1.2.4-0.20210101000000-abcdef123456', 'v1.2.4')).toBeLessThan(0);
    expect(golangScheme.compare('v2.0.0+incompatible', 'v2.0.0')).toBe(0);
    expect(golangScheme.isValid('v1.2.3')).toBe(true);
    expect(golangScheme.isValid('v1.2')).toBe(false);
  });
});

describe('cargo, hex and pub constraints', () => {
  it('cargo: bare versions are caret requirements', () => {
    check(cargoScheme, [
      ['1.2.3', ['1.2.3', '1.9.0'], ['2.0.0', '1.2.2']],
      ['^0.2', ['0.2.0', '0.2.9'], ['0.3.0']],
      ['=1.0.0', ['1.0.0'], ['1.0.1']],
      ['>=1.0.0, <2.0.0', ['1.5.0'], ['2.0.0']],
      ['~1.2', ['1.2.7'], ['1.3.0']],
      ['1.2.*', ['1.2.0', '1.2.99'], ['1.3.0']],
    ]);
  });

  it('hex: pessimistic operator, and/or', () => {
    check(hexScheme, [
      ['~> 1.2', ['1.2.0', '1.9.9'], ['2.0.0', '1.1.0']],
      ['~> 1.2.3', ['1.2.3', '1.2.9'], ['1.3.0']],
      ['>= 1.0.0 and < 2.0.0 or == 3.0.0', ['1.0.0', '3.0.0'], ['2.0.0', '3.0.1']],
      ['^1.2.0', ['1.2.0', '1.8.0'], ['2.0.0']],
      ['>= 2.39.0, < 2.39.1', ['2.39.0'], ['2.39.1']],
    ]);
  });

  it('pub: caret stops at the next minor for 0.x, and builds order', () => {
    check(pubScheme, [
      ['^1.2.0', ['1.2.0', '1.9.0', '1.2.0+1'], ['2.0.0', '1.1.9']],
      ['^0.0.3', ['0.0.3', '0.0.9'], ['0.1.0']],
      ['>=1.0.0 <2.0.0', ['1.0.0', '1.99.0'], ['2.0.0', '0.9.0']],
      ['any', ['0.0.1', '99.0.0'], []],
      ['1.0.0+1', ['1.0.0+1'], ['1.0.0', '1.0.0+2']],
    ]);
  });
});

describe('nuget constraints', () => {
  it('reads intervals and comparator lists', () => {
    check(nugetScheme, [
      ['< 4.7.0', ['4.6.9', '4.7.0-preview1'], ['4.7.0', '4.7.0.0']],
      ['[1.0,2.0)', ['1.0', '1.0.0.0', '1.9.9'], ['0.9', '2.0', '2.0.0']],
      ['(,1.0]', ['0.1', '1.0.0'], ['1.0.1']],
      ['(1.0,)', ['1.0.1'], ['1.0']],
      ['[1.0]', ['1.0.0.0', '1.0'], ['1.0.1']],
      ['[1.0.0, 2.0.0]', ['2.0.0'], ['2.0.1']],
      ['>= 1.0.0-BETA, < 1.0.0', ['1.0.0-beta', '1.0.0-RC1'], ['1.0.0', '1.0.0-alpha']],
    ]);
  });

  it('rejects malformed intervals', () => {
    expect(() => nugetScheme.constraint('[1.0,2.0')).toThrow(ConstraintError);
    expect(() => nugetScheme.constraint('[,]')).toThrow(ConstraintError);
    expect(() => nugetScheme.constraint('[1.0,2.0) junk')).toThrow(ConstraintError);
  });
});

describe('maven constraints', () => {
  it('reads the advisory forms seen in the wild', () => {
    check(mavenScheme, [
      ['>= 2.0.0, <= 2.9.10.3', ['2.0.0', '2.9.10', '2.9.10.3'], ['1.9', '2.9.10.4', '2.9.11']],
      ['[2.9.0,2.9.10.7)', ['2.9.0', '2.9.10.6'], ['2.8.11', '2.9.10.7']],
      ['< 3.0', ['2.9', '3.0-rc1', '3.0-SNAPSHOT'], ['3.0', '3.0.0', '3.0.1']],
      ['(,1.0],[1.2,)', ['0.9', '1.0', '1.2', '5'], ['1.1', '1.0.1']],
      ['[1.0]', ['1', '1.0.0', '1-ga'], ['1.0.1']],
      ['>= 5.0.0, <= 5.2.4.2', ['5.2.4.RELEASE', '5.2.4.2'], ['5.2.4.3', '5.2.5.RELEASE']],
    ]);
  });
});

describe('cran and hackage constraints', () => {
  it('reads comparator lists', () => {
    check(cranScheme, [['>= 1.0, < 1.2.3', ['1.0', '1.0-1', '1.2.2'], ['0.9-9', '1.2.3']], ['>= 1.0-0', ['1.0-0', '1.0.1'], ['1.0']]]);
    check(hackageScheme, [
      ['>= 0.1 && < 0.4.2', ['0.1', '0.4.1.9'], ['0.0.9', '0.4.2']],
      ['< 1.0 || >= 2.0', ['0.9', '2.0'], ['1.0', '1.5']],
    ]);
  });
});

describe('line operators on lenient versions and Cabal sugar', () => {
  it('semver: ^, ~ and ~> work on versions of any length', () => {
    check(semverScheme, [
      ['~> 1.2', ['1.2', '1.9.9'], ['2.0', '2.0.0-beta', '1.1']],
      ['~> 1.2.3', ['1.2.3', '1.2.99'], ['1.3', '1.2.2']],
      ['^0.2.3', ['0.2.3', '0.2.9.1'], ['0.3.0']],
      ['~1.2.3.4', ['1.2.3.4', '1.2.9'], ['1.3.0']],
      ['>= 2.39.0, < 2.39.1', ['2.39.0'], ['2.39.1']],
      ['<8.44', ['8.43.9'], ['8.44', '8.45']],
    ]);
  });

  it('hackage: ==A.B.* and ^>=', () => {
    check(hackageScheme, [
      ['==1.2.*', ['1.2', '1.2.0.5', '1.2.9'], ['1.3', '1.1.9', '1']],
      ['^>= 1.2.3', ['1.2.3', '1.2.9.9'], ['1.3', '1.2.2']],
    ]);
  });
});

describe('scheme registry', () => {
  it('maps OSV ecosystems and purl types, case-insensitively, unknown to semver', () => {
    const cases: [string, string][] = [
      ['npm', 'npm'], ['Maven', 'maven'], ['PyPI', 'pypi'], ['Go', 'golang'], ['crates.io', 'cargo'],
      ['RubyGems', 'gem'], ['NuGet', 'nuget'], ['Packagist', 'composer'], ['Pub', 'pub'], ['Hex', 'hex'],
      ['CRAN', 'cran'], ['Hackage', 'hackage'], ['Debian', 'deb'], ['Debian:12', 'deb'], ['Ubuntu:22.04:LTS', 'deb'],
      ['Alpine:v3.19', 'apk'], ['Red Hat', 'rpm'], ['Red Hat:enterprise_linux:9::appstream', 'rpm'],
      ['Rocky Linux:9', 'rpm'], ['AlmaLinux:8', 'rpm'], ['openSUSE:Leap 15.5', 'rpm'], ['SUSE:Linux Enterprise Server 15', 'rpm'],
      ['Mageia:9', 'rpm'], ['golang', 'golang'], ['cargo', 'cargo'], ['gem', 'gem'], ['composer', 'composer'],
      ['deb', 'deb'], ['apk', 'apk'], ['rpm', 'rpm'], ['cocoapods', 'semver'], ['swift', 'semver'],
      ['conan', 'semver'], ['conda', 'semver'], ['generic', 'semver'], ['MAVEN', 'maven'], ['something-new', 'semver'],
      ['constructor', 'semver'], ['toString', 'semver'],
      // Trivy bucket names
      ['npm::GitHub Security Advisory Npm', 'npm'], ['pip::GitHub Security Advisory Pip', 'pypi'],
      ['erlang::GitHub Security Advisory Erlang', 'hex'], ['cargo::Open Source Vulnerability', 'cargo'],
      ['alpine 3.10', 'apk'], ['alpine edge', 'apk'], ['debian 10', 'deb'], ['ubuntu 22.04', 'deb'], ['alma 8', 'rpm'],
      ['rocky 8', 'rpm'], ['amazon linux 2', 'rpm'], ['Oracle Linux 8', 'rpm'], ['Photon OS 3.0', 'rpm'],
      ['CBL-Mariner 1.0', 'rpm'], ['SUSE Linux Enterprise Micro 5.3', 'rpm'], ['openSUSE Leap 15.1', 'rpm'],
      ['openSUSE Tumbleweed', 'rpm'], ['Red Hat CPE', 'rpm'],
      // pacman's packages (purl type alpm) order like rpm's.
      ['alpm', 'rpm'], ['Arch Linux', 'rpm'],
    ];
    for (const [eco, id] of cases) expect(schemeForEcosystem(eco).id, eco).toBe(id);
  });

  it('has a scheme for every id', () => {
    for (const id of SCHEME_IDS) expect(schemeFor(id).id).toBe(id);
    expect(SCHEME_IDS).toHaveLength(16);
  });
});

// Trivy's test database: every language advisory's constraint strings must be readable by the
// scheme its bucket maps to (`npm::GitHub Security Advisory Npm` → npm, ...).
describe('trivy advisory constraints', () => {
  interface Node { bucket?: string; pairs?: Node[]; value?: unknown }
  it('all parse with the scheme of their bucket', () => {
    const dir = '../shared/corpora/trivy/db';
    const failures: string[] = [];
    let read = 0;
    const walk = (nodes: Node[], bucket: string) => {
      for (const node of nodes) {
        if (node.pairs) walk(node.pairs, bucket || (node.bucket ?? ''));
        const value = node.value as Record<string, unknown> | undefined;
        for (const field of ['VulnerableVersions', 'PatchedVersions']) {
          const list = value?.[field];
          if (!Array.isArray(list)) continue;
          for (const text of list.map(String)) {
            read++;
            try {
              schemeForEcosystem(bucket).constraint(text);
            } catch (e) {
              failures.push(`${bucket} ${field} "${text}": ${(e as Error).message}`);
            }
          }
        }
      }
    };
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.yaml'))) {
      const doc = parse(readFileSync(join(dir, file), 'utf8')) as unknown;
      if (Array.isArray(doc)) walk(doc as Node[], '');
    }
    expect(read).toBeGreaterThan(50);
    expect(failures).toEqual([]);
  });

  it('the vulnerable ranges of the real examples hold the versions they should', () => {
    expect(schemeForEcosystem('maven::GitHub Security Advisory Maven').constraint('>= 2.0.0, <= 2.9.10.3')('2.9.10.3')).toBe(true);
    expect(schemeForEcosystem('go::GitHub Security Advisory Go').constraint('< v2.8.0')('v2.7.1+incompatible')).toBe(true);
    expect(schemeForEcosystem('npm::GitHub Security Advisory Npm').constraint('< 4.17.12')('4.17.11')).toBe(true);
    expect(schemeForEcosystem('nuget::GitHub Security Advisory Nuget').constraint('< 4.7.0')('4.7.0')).toBe(false);
  });
});
