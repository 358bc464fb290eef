import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cargoScheme } from '../../../../server/engine/matchers/versions/cargo.ts';
import { cranScheme } from '../../../../server/engine/matchers/versions/cran.ts';
import { golangScheme } from '../../../../server/engine/matchers/versions/golang.ts';
import { hackageScheme } from '../../../../server/engine/matchers/versions/hackage.ts';
import { hexScheme } from '../../../../server/engine/matchers/versions/hex.ts';
import { mavenScheme } from '../../../../server/engine/matchers/versions/maven.ts';
import { npmScheme } from '../../../../server/engine/matchers/versions/npm.ts';
import { nugetScheme } from '../../../../server/engine/matchers/versions/nuget.ts';
import { pubScheme } from '../../../../server/engine/matchers/versions/pub.ts';
import type { VersionScheme } from '../../../../server/engine/matchers/versions/scheme.ts';
import { semverScheme } from '../../../../server/engine/matchers/versions/semver.ts';

// The osv-scalibr ordering corpora (one `A <op> B` per line). Every line must hold in both
// directions; the only allowed exceptions are lines the upstream file itself marks as wrong.
const CORPORA = '../shared/corpora/versions'; // tests run from the repository root

const CASES: [string, VersionScheme][] = [
  ['semver-versions.txt', semverScheme],
  ['maven-versions.txt', mavenScheme],
  ['maven-versions-generated.txt', mavenScheme],
  ['nuget-versions.txt', nugetScheme],
  ['pub-versions.txt', pubScheme],
  ['cran-versions.txt', cranScheme],
  ['cran-versions-generated.txt', cranScheme],
  ['hackage-versions.txt', hackageScheme],
];

const FLIP: Record<string, string> = { '<': '>', '=': '=', '>': '<' };
const sign = (n: number) => (n < 0 ? '<' : n > 0 ? '>' : '=');

function corpusLines(file: string): string[] {
  return readFileSync(join(CORPORA, file), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#') && !l.startsWith('//'));
}

describe('version ordering corpora', () => {
  for (const [file, scheme] of CASES) {
    it(`${file} (${scheme.id})`, () => {
      const lines = corpusLines(file);
      const failures: string[] = [];
      for (const line of lines) {
        const m = /^(\S+) ([<=>]) (\S+)$/.exec(line);
        if (!m) {
          failures.push(`unreadable: ${line}`);
          continue;
        }
        const [, a, op, b] = m as unknown as [string, string, string, string];
        const forward = sign(scheme.compare(a, b));
        const backward = sign(scheme.compare(b, a));
        if (forward !== op || backward !== FLIP[op]) failures.push(`${line}  (got ${a} ${forward} ${b}, ${b} ${backward} ${a})`);
      }
      console.log(`${file}: ${lines.length - failures.length}/${lines.length} lines hold`);
      expect(lines.length).toBeGreaterThan(0);
      expect(failures).toEqual([]);
    });
  }
});

// Invalid input must never throw, and every scheme's fallback must still be a consistent order:
// compare(a, b) = -compare(b, a), and equal text compares equal.
const ODD = [
  '', ' ', 'abc', '...', '--', '+', 'v', 'vv1', '1..2', '1.2.', '.1', '-1', '1-', '1+', '1.0-', 'é', '1.0.0-ß',
  '1.2.3-a..b', '1.2.3+', 'v1.2.3-0', '1.2.3-01', '0', '00', '1.0.sp', '1-sp', '1.sp1', '1-0.1', '1.0.0.0.0.0.1',
  '1a', '1.A', '1.2.3.4', 'x', '*', '1.x', '9'.repeat(400), 'a.b.c', '1_0', '1 2', 'constructor', '__proto__',
  '1.0-alpha', '1.0.alpha', '1.0-SNAPSHOT', '1-ga', '1.0.final', '2.0.0+incompatible', '0.0.0-20210101000000-abcdef123456',
];

describe('odd versions', () => {
  const schemes = [semverScheme, npmScheme, golangScheme, cargoScheme, hexScheme, pubScheme, nugetScheme, mavenScheme, cranScheme, hackageScheme];
  for (const scheme of schemes) {
    it(`${scheme.id} never throws and stays antisymmetric`, () => {
      const failures: string[] = [];
      for (const a of ODD) {
        for (const b of ODD) {
          const forward = sign(scheme.compare(a, b));
          const backward = sign(scheme.compare(b, a));
          if (forward !== FLIP[backward] || (a === b && forward !== '=')) failures.push(`${JSON.stringify(a)} ${forward} ${JSON.stringify(b)}`);
        }
        expect(typeof scheme.isValid(a)).toBe('boolean');
      }
      expect(failures).toEqual([]);
    });
  }
});
