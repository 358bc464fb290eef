import { describe, expect, it } from 'vitest';
import { ConstraintError } from '../../../../server/engine/matchers/versions/scheme.ts';
import type { VersionScheme } from '../../../../server/engine/matchers/versions/scheme.ts';
import { pypiScheme } from '../../../../server/engine/matchers/versions/pypi.ts';
import { gemScheme } from '../../../../server/engine/matchers/versions/gem.ts';
import { composerScheme } from '../../../../server/engine/matchers/versions/composer.ts';
import { debScheme } from '../../../../server/engine/matchers/versions/deb.ts';
import { apkScheme } from '../../../../server/engine/matchers/versions/apk.ts';
import { rpmScheme } from '../../../../server/engine/matchers/versions/rpm.ts';

type Case = readonly [constraint: string, inside: readonly string[], outside: readonly string[]];

function check(scheme: VersionScheme, cases: readonly Case[]): void {
  const wrong: string[] = [];
  for (const [text, inside, outside] of cases) {
    const matches = scheme.constraint(text);
    for (const v of inside) if (!matches(v)) wrong.push(`${v} should satisfy "${text}"`);
    for (const v of outside) if (matches(v)) wrong.push(`${v} should not satisfy "${text}"`);
  }
  expect(wrong, scheme.id).toEqual([]);
}

describe('pypi constraints', () => {
  it('reads the advisory strings trivy carries', () => {
    check(pypiScheme, [
      ['< 0.11.6', ['0.11.5', '0.11.6rc1', '0.11.6.dev0', '0.1'], ['0.11.6', '0.11.6.post1', '0.12']],
      ['< 0.15.3', ['0.15.2.post4', '0.15'], ['0.15.3', '1.0']],
      ['< 65.5.1', ['65.5.0', '65.5.1b1', '0.6c11'], ['65.5.1', '65.6.0', '66']],
    ]);
  });

  it('reads PEP 440 specifiers', () => {
    check(pypiScheme, [
      ['>=1.0,<2.0', ['1.0', '1.5', '1.9.9.post1', '2.0.dev1'], ['0.9', '1.0rc1', '2.0']],
      ['>= 1.0, < 2.0', ['1.0', '1.99'], ['2.0', '0.99']],
      ['~=1.4.2', ['1.4.2', '1.4.9', '1.4.2.post1'], ['1.4.1', '1.5.0', '1.4.2rc1']],
      ['~=2.2', ['2.2', '2.3', '2.9.1'], ['3.0', '2.1']],
      ['~=1.4.5a4', ['1.4.5a4', '1.4.5', '1.4.9'], ['1.4.5a3', '1.5']],
      ['==1.2.*', ['1.2', '1.2.0', '1.2.7', '1.2.7.post1', '1.2rc1'], ['1.3', '1.20', '1.1.9']],
      ['!=1.3.*', ['1.2', '1.4', '2.0'], ['1.3', '1.3.5']],
      ['==1.0', ['1.0', '1.0.0', 'v1.0', '1.0+local.7'], ['1.0.1', '1.0.post1']],
      ['==1.0+abc', ['1.0+abc', '1.0+ABC'], ['1.0', '1.0+abd']],
      ['===1.0', ['1.0', ' 1.0 '], ['1.0.0', '1.0+abc']],
      ['!=1.3', ['1.2', '1.3.1'], ['1.3', '1.3.0']],
      ['1.5', ['1.5', '1.5.0'], ['1.5.1']],
      ['< 1.0 || >= 2.0, < 2.1', ['0.9', '2.0.5'], ['1.5', '2.1']],
      ['>=1!1.0', ['1!1.0', '1!2.0'], ['2.0', '99']],
    ]);
  });

  it('ignores a candidate local label against a bound without one', () => {
    // PEP 440: 1.0.0+local satisfies <=1.0.0 and >=1.0.0 but neither < nor >.
    check(pypiScheme, [
      ['<=1.0.0', ['1.0.0+local'], []],
      ['>=1.0.0', ['1.0.0+local'], []],
      ['<1.0.0', [], ['1.0.0+local']],
      ['>1.0.0', [], ['1.0.0+local']],
    ]);
  });

  it('normalises spellings and orders legacy versions below valid ones', () => {
    expect(pypiScheme.compare('1.0-ALPHA_1', '1.0a1')).toBe(0);
    expect(pypiScheme.compare('V1.0.Preview2', '1.0rc2')).toBe(0);
    expect(pypiScheme.compare('1.0-1', '1.0.post1')).toBe(0);
    expect(pypiScheme.compare(' 1.0 ', '1.0')).toBe(0);
    expect(pypiScheme.compare('1.0+ubuntu-1', '1.0+ubuntu.1')).toBe(0);
    expect(pypiScheme.isValid('0.9-doduo')).toBe(false);
    expect(pypiScheme.isValid('1!2.0.post3.dev4+x.1')).toBe(true);
    expect(pypiScheme.compare('0.9-doduo', '0.0.1.dev0')).toBeLessThan(0);
    expect(pypiScheme.compare('2013-01-21T20:33:09+0100', '2013-02-01T20:50:46+0100')).toBeLessThan(0);
  });

  it('rejects unreadable constraints', () => {
    expect(() => pypiScheme.constraint('>= banana!')).toThrow(ConstraintError);
    expect(() => pypiScheme.constraint('~=1')).toThrow(ConstraintError);
    expect(() => pypiScheme.constraint('')).toThrow(ConstraintError);
  });
});

describe('gem constraints', () => {
  it('reads the advisory strings trivy carries', () => {
    check(gemScheme, [
      ['>= 0', ['0', '0.0.1', '6.0.3'], []],
      ['>= 3.0.0, <= 3.2.22.4', ['3.0.0', '3.2.22.4', '3.2.22'], ['2.3.18', '3.2.22.5', '4.0.0.beta1']],
      ['>= 4.1.0, < 4.1.11', ['4.1.0', '4.1.10'], ['4.1.0.rc1', '4.1.11', '4.2.0']],
      ['>= 4.2.0, < 4.2.2', ['4.2.0', '4.2.1', '4.2.2.rc1'], ['4.1.14', '4.2.2']],
      ['>= 5.0.0, <= 5.2.4.2', ['5.0.0', '5.2.4.2', '5.2.4.1'], ['5.2.4.3', '5.2.5', '4.2.11']],
      ['>= 6.0.0, <= 6.0.3', ['6.0.0', '6.0.3'], ['6.0.3.1', '6.0.0.rc2']],
      ['< 4.1.11', ['4.1.10', '0.1', '4.1.11.rc1'], ['4.1.11', '5']],
    ]);
  });

  it('reads pessimistic and other operators', () => {
    check(gemScheme, [
      ['~> 3.2', ['3.2', '3.2.9', '3.9', '3.10.1'], ['3.1.9', '4.0', '4.0.0.pre', '3.2.0.beta']],
      ['~> 3.2.1', ['3.2.1', '3.2.19'], ['3.2.0', '3.3.0', '3.3.0.rc1']],
      ['~> 3', ['3.0', '3.99'], ['4.0', '2.9']],
      ['= 1.2', ['1.2', '1.2.0'], ['1.2.1', '1.2.a']],
      ['!= 1.3', ['1.2', '1.3.1'], ['1.3', '1.3.0']],
      ['>= 1.0, < 2.0', ['1.0', '1.99'], ['2.0', '1.0.rc1']],
      ['> 1.0.a', ['1.0.b', '1.0'], ['1.0.a']],
      ['< 1.0 || >= 2.0', ['0.9', '2.1'], ['1.5']],
    ]);
  });

  it('orders like Gem::Version and rejects unreadable constraints', () => {
    expect(gemScheme.compare('1.0-rc1', '1.0.pre.rc1')).toBe(0);
    expect(gemScheme.compare('1.0.a.0', '1.0.a')).toBe(0);
    expect(gemScheme.compare('1.0', '1')).toBe(0);
    expect(gemScheme.compare('not a version', '0')).toBeLessThan(0);
    expect(gemScheme.isValid('1.0 beta')).toBe(false);
    expect(() => gemScheme.constraint('~> banana')).toThrow(ConstraintError);
    expect(() => gemScheme.constraint('')).toThrow(ConstraintError);
  });
});

describe('composer constraints', () => {
  it('reads the advisory strings trivy carries', () => {
    // Composer reads `<1.8.4` as `<1.8.4.0-dev`: the 1.8.4 pre-releases are already outside.
    check(composerScheme, [['< 1.8.4', ['1.8.3', 'v1.8.3', '1.0', '1.8.3.9'], ['1.8.4', '1.8.4.0', '1.8.4-beta1', '2.0']]]);
  });

  it('reads Composer constraint syntax', () => {
    check(composerScheme, [
      ['^1.2', ['1.2', '1.2.0', '1.9.9', 'v1.3'], ['1.1.9', '2.0.0', '2.0.0-beta1']],
      ['^0.3', ['0.3.0', '0.3.9'], ['0.4.0', '0.2.9']],
      ['^0.0.3', ['0.0.3'], ['0.0.4', '0.0.2']],
      ['~1.2', ['1.2', '1.9.0'], ['2.0', '1.1']],
      ['~1.2.3', ['1.2.3', '1.2.9'], ['1.3.0', '1.2.2']],
      ['>=1.0 <2.0', ['1.0.0', '1.5'], ['2.0', '0.9', '2.0.0-RC1']],
      ['>=1.0,<2.0', ['1.0.0', '1.5', '1.0.0.0'], ['2.0']],
      ['>= 1.0, < 2.0', ['1.0.0'], ['2.0']],
      ['1.0.*', ['1.0', '1.0.9', '1.0.0-beta1'], ['1.1', '0.9']],
      ['<1.0 || >=2.0', ['0.9', '2.1'], ['1.5']],
      ['<1.0 | >=2.0', ['0.9', '2.1'], ['1.5']],
      ['<=1.2.3', ['1.2.3', '1.2.3.0', 'v1.2.3'], ['1.2.4', '1.2.3-patch1']],
      ['>1.2', ['1.2.1', '1.2-patch1'], ['1.2', '1.2.0.0']],
      ['!=1.2', ['1.3'], ['1.2.0']],
      ['1.0 - 2.0', ['1.0', '2.0.9'], ['2.1', '0.9']],
      ['1.0 - 2.0.0', ['2.0.0'], ['2.0.1']],
      ['*', ['1.0', 'dev-master'], []],
      ['dev-master', ['dev-master'], ['1.0']],
      ['^1.2@beta', ['1.2.0', '1.3.0-beta1'], ['2.0']],
      ['<1.2', ['1.1.9'], ['1.2.0-beta1', '1.2', 'dev-master']],
      ['>=1.2', ['1.2.0-beta1', '1.2'], ['1.1.9', 'dev-master']],
    ]);
  });

  it('normalises like VersionParser and orders like version_compare', () => {
    expect(composerScheme.isValid('1.0.0-beta2')).toBe(true);
    expect(composerScheme.isValid('dev-main')).toBe(true);
    expect(composerScheme.isValid('1.x-dev')).toBe(true);
    expect(composerScheme.isValid('not a version')).toBe(false);
    expect(composerScheme.compare('1.0-dev', '1.0alpha')).toBeLessThan(0);
    expect(composerScheme.compare('1.0RC1', '1.0')).toBeLessThan(0);
    expect(composerScheme.compare('1.0', '1.0-patch1')).toBeLessThan(0);
    expect(() => composerScheme.constraint('>= banana')).toThrow(ConstraintError);
  });
});

describe('deb, apk and rpm comparator lists', () => {
  it('deb', () => {
    check(debScheme, [
      ['< 1.2-3', ['1.2-2', '1.2~rc1-9', '1.1'], ['1.2-3', '1.2-3+deb9u1', '1:0.1']],
      ['>= 2.7.4+reloaded2-13, < 2.7.4+reloaded2-13+deb9u1', ['2.7.4+reloaded2-13', '2.7.4+reloaded2-13+deb9u0'],
        ['2.7.4+reloaded2-13+deb9u1', '2.7.4+reloaded2-12']],
      ['<= 1:2.0', ['1:2.0', '1:2.0-0', '2.5'], ['1:2.0-1']],
      ['= 0.0.0', ['0:0.0.0-0', '0.0.0-00'], ['0.0.0-1']],
      ['< 1.0 || > 2.0', ['0.9', '2.1'], ['1.5']],
    ]);
    expect(debScheme.isValid('1:2.3-4')).toBe(true);
    expect(debScheme.isValid('2:1.0~rc1+dfsg-3ubuntu0.1')).toBe(true);
    expect(debScheme.isValid('abc')).toBe(false);
    expect(debScheme.isValid('a:1.0')).toBe(false);
    expect(debScheme.isValid('1.0-')).toBe(false);
    expect(debScheme.isValid('1.0-1:2')).toBe(false);
    expect(() => debScheme.constraint('')).toThrow(ConstraintError);
  });

  it('apk', () => {
    check(apkScheme, [
      ['< 1.2.3-r4', ['1.2.3-r3', '1.2.3_rc1-r9', '1.2.2'], ['1.2.3-r4', '1.2.3_p1-r0', '1.2.4']],
      ['>= 1.0_alpha1, < 1.0', ['1.0_alpha1', '1.0_beta2', '1.0_rc1-r5'], ['1.0', '0.9', '1.0_p1']],
      ['<= 2.2.39-r1', ['2.2.39', '2.2.39-r1'], ['2.2.39-r2', '2.2.39a']],
    ]);
    expect(apkScheme.isValid('1.2.3b_rc1~abc0-r2')).toBe(true);
    expect(apkScheme.isValid('1.2_blah')).toBe(false);
    expect(() => apkScheme.constraint(' , ')).toThrow(ConstraintError);
  });

  it('rpm', () => {
    check(rpmScheme, [
      ['< 0:3.10.0-229.1.2.el7', ['3.10.0-229.el7', '3.10.0-229.1.1.el7', '3.9'], ['3.10.0-229.1.2.el7', '1:1.0']],
      ['>= 1.0^git1, < 1.01', ['1.0^git1', '1.0^git9'], ['1.0', '1.01', '1.0~rc1']],
      ['< 2.0~rc1', ['1.9', '2.0~beta1'], ['2.0~rc1', '2.0']],
      ['= 1.0-1', ['1.0-1', '0:1.0-1', '1.0-01'], ['1.0-2', '1.0']],
    ]);
    expect(rpmScheme.isValid('1:2.3-4.el8')).toBe(true);
    expect(rpmScheme.isValid('')).toBe(false);
    expect(() => rpmScheme.constraint('<')).toThrow(ConstraintError);
  });
});
