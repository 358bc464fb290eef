import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { VersionScheme } from '../../../../server/engine/matchers/versions/scheme.ts';
import { pypiScheme } from '../../../../server/engine/matchers/versions/pypi.ts';
import { gemScheme } from '../../../../server/engine/matchers/versions/gem.ts';
import { composerScheme } from '../../../../server/engine/matchers/versions/composer.ts';
import { debScheme } from '../../../../server/engine/matchers/versions/deb.ts';
import { apkScheme } from '../../../../server/engine/matchers/versions/apk.ts';
import { rpmScheme } from '../../../../server/engine/matchers/versions/rpm.ts';

// The ordering corpora (osv-scanner's fixtures: hand-picked edge cases plus every release of
// popular packages in the registry's own order). Every line must hold in both directions.
const CORPORA = '../shared/corpora/versions/';

const FILES: readonly (readonly [string, VersionScheme])[] = [
  ['pypi-versions.txt', pypiScheme],
  ['pypi-versions-generated.txt', pypiScheme],
  ['rubygems-versions.txt', gemScheme],
  ['rubygems-versions-generated.txt', gemScheme],
  ['packagist-versions.txt', composerScheme],
  ['packagist-versions-generated.txt', composerScheme],
  ['debian-versions.txt', debScheme],
  ['debian-versions-generated.txt', debScheme],
  ['alpine-versions.txt', apkScheme],
  ['alpine-versions-generated.txt', apkScheme],
  ['redhat-versions.txt', rpmScheme],
];

const FLIP: Record<string, string> = { '<': '>', '=': '=', '>': '<' };

function sign(n: number): string {
  return n < 0 ? '<' : n > 0 ? '>' : '=';
}

function check(file: string, scheme: VersionScheme): { checked: number; failures: string[] } {
  const failures: string[] = [];
  let checked = 0;
  const lines = readFileSync(`${CORPORA}${file}`, 'utf8').split('\n');
  lines.forEach((line, index) => {
    const text = line.trim();
    if (text === '' || text.startsWith('#') || text.startsWith('//')) return;
    const m = /^(\S+) ([<=>]) (\S+)$/.exec(text);
    if (!m) {
      failures.push(`${file}:${index + 1} unreadable line: ${text}`);
      return;
    }
    const [, a, op, b] = m as unknown as [string, string, string, string];
    checked++;
    const forward = sign(scheme.compare(a, b));
    const backward = sign(scheme.compare(b, a));
    if (forward !== op || backward !== FLIP[op]) {
      failures.push(`${file}:${index + 1} ${text} — got ${a} ${forward} ${b}, ${b} ${backward} ${a}`);
    }
  });
  return { checked, failures };
}

describe('version ordering corpora (pypi, gem, composer, deb, apk, rpm)', () => {
  for (const [file, scheme] of FILES) {
    it(`${file} holds line by line`, () => {
      const { checked, failures } = check(file, scheme);
      console.log(`${file}: ${checked - failures.length}/${checked} lines hold`);
      expect(checked).toBeGreaterThan(0);
      expect(failures, `${failures.length} of ${checked} lines fail`).toEqual([]);
    });
  }
});
