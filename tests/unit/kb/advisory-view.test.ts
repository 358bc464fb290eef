// How an advisory reads on the detail screens: ranges as constraints, references by purpose, CWE
// names, and the recommended upgrade in the ecosystem's own version order.
import { describe, expect, it } from 'vitest';
import {
  affectedTexts, normalizeCweId, rangeText, recommendedUpgrade, referenceGroup, spacedConstraint, weaknessesOf,
} from '../../../server/kb/advisory-view.ts';

const ecosystem = (...events: Record<string, string>[]) => ({ type: 'ECOSYSTEM', events });

describe('affected ranges', () => {
  it('reads introduced/fixed pairs as >= and <, and introduced 0 as no lower bound', () => {
    expect(rangeText(ecosystem({ introduced: '1.0.0' }, { fixed: '1.2.3' }))).toEqual(['>= 1.0.0, < 1.2.3']);
    expect(rangeText(ecosystem({ introduced: '0' }, { fixed: '4.17.21' }))).toEqual(['< 4.17.21']);
    // tokio, RUSTSEC-2023-0001: three release lines in one range.
    expect(rangeText({ type: 'SEMVER', events: [{ introduced: '1.7.0' }, { fixed: '1.18.4' }, { introduced: '1.19.0' }, { fixed: '1.20.3' }, { introduced: '1.21.0' }, { fixed: '1.23.1' }] }))
      .toEqual(['>= 1.7.0, < 1.18.4', '>= 1.19.0, < 1.20.3', '>= 1.21.0, < 1.23.1']);
  });

  it('reads last_affected as <=, limit as <, and an open interval as every later version', () => {
    expect(rangeText(ecosystem({ introduced: '0' }, { last_affected: '1.11.0' }))).toEqual(['<= 1.11.0']);
    expect(rangeText(ecosystem({ introduced: '2.0' }, { limit: '3.0' }))).toEqual(['>= 2.0, < 3.0']);
    expect(rangeText(ecosystem({ introduced: '2.0' }, { limit: '*' }))).toEqual(['>= 2.0']);
    expect(rangeText(ecosystem({ introduced: '0' }))).toEqual(['全部版本']);
    expect(rangeText(ecosystem({ introduced: '1.0' }, { introduced: '2.0' }, { fixed: '2.1' }))).toEqual(['>= 1.0', '>= 2.0, < 2.1']);
  });

  it('ignores an end before any start and shortens commit hashes of GIT ranges', () => {
    expect(rangeText(ecosystem({ fixed: '1.0' }, { introduced: '2.0' }, { fixed: '2.5' }))).toEqual(['>= 2.0, < 2.5']);
    expect(rangeText({ type: 'GIT', events: [{ introduced: '0' }, { fixed: 'a71af9c144f9579f6dbe945341c1df37aaf09c0d' }] }))
      .toEqual(['< a71af9c144f9（Git 提交）']);
  });

  it('spaces the stated constraints of trivy and custom entries, and leaves interval notation alone', () => {
    expect(spacedConstraint('>=1.0.0,<1.2.3')).toBe('>= 1.0.0, < 1.2.3');
    expect(spacedConstraint('>= 2.0.0, <= 2.9.10.3')).toBe('>= 2.0.0, <= 2.9.10.3');
    expect(spacedConstraint('[2.0,3.0)')).toBe('[2.0, 3.0)');
    expect(affectedTexts([ecosystem({ introduced: '0' }, { fixed: '1.3.1' })], ['<1.3.1', '~>2.0'])).toEqual(['< 1.3.1', '~> 2.0']);
  });
});

describe('references', () => {
  it('groups by the OSV type where it is specific', () => {
    expect(referenceGroup('ADVISORY', 'https://rustsec.org/advisories/RUSTSEC-2023-0001.html')).toBe('advisory');
    expect(referenceGroup('FIX', 'https://github.com/gin-gonic/gin/pull/2237')).toBe('fix');
    expect(referenceGroup('report', 'https://github.com/x/y/issues/1')).toBe('report');
    expect(referenceGroup('DISCUSSION', 'https://example.org/thread')).toBe('report');
  });

  it('places WEB, PACKAGE and untyped links by their address', () => {
    expect(referenceGroup('WEB', 'https://github.com/tokio-rs/tokio/pull/5336')).toBe('fix');
    expect(referenceGroup('WEB', 'https://github.com/x/y/commit/a71af9c144f9579f6dbe945341c1df37aaf09c0d')).toBe('fix');
    expect(referenceGroup('', 'https://nvd.nist.gov/vuln/detail/CVE-2021-44228')).toBe('advisory');
    expect(referenceGroup('WEB', 'https://github.com/x/y/security/advisories/GHSA-7rrj-xr53-82p7')).toBe('advisory');
    expect(referenceGroup('WEB', 'https://bugzilla.redhat.com/show_bug.cgi?id=1')).toBe('report');
    expect(referenceGroup('PACKAGE', 'https://crates.io/crates/tokio')).toBe('web');
    expect(referenceGroup('WEB', 'https://learn.microsoft.com/en-us/windows/win32/api/winbase/nf-winbase-createnamedpipea')).toBe('web');
  });
});

describe('CWE names', () => {
  it('normalises ids and names the ones the table holds', () => {
    expect(normalizeCweId('cwe-079')).toBe('CWE-79');
    expect(normalizeCweId('1321')).toBe('CWE-1321');
    expect(weaknessesOf(['CWE-79', 'cwe-79', 'CWE-1321', 'CWE-99999', 'NVD-CWE-noinfo'])).toEqual([
      { id: 'CWE-79', name: "Improper Neutralization of Input During Web Page Generation ('Cross-site Scripting')" },
      { id: 'CWE-1321', name: "Improperly Controlled Modification of Object Prototype Attributes ('Prototype Pollution')" },
      { id: 'CWE-99999', name: null },
      { id: 'NVD-CWE-noinfo', name: 'Insufficient Information' },
    ]);
  });
});

describe('recommended upgrade', () => {
  it('takes the smallest fixed version above the installed one, in the ecosystem order', () => {
    // tokio 1.20.1: 1.18.4 fixes an older line; 1.20.3 is the nearest fix above.
    expect(recommendedUpgrade('cargo', '1.20.1', ['1.18.4', '1.20.3', '1.23.1']).version).toBe('1.20.3');
    // Maven order: 2.3.1 < 2.12.2 < 2.15.0 (not string order, where 2.12.2 < 2.3.1).
    expect(recommendedUpgrade('maven', '2.5', ['2.15.0', '2.3.1', '2.12.2']).version).toBe('2.12.2');
    // PEP 440: 4.0.6 > 4.0.6rc1 > 4.0.5.
    expect(recommendedUpgrade('pypi', '4.0.5', ['4.0.6', '4.0.6rc1']).version).toBe('4.0.6rc1');
    expect(recommendedUpgrade('npm', '4.17.20', ['4.17.21'])).toEqual({ version: '4.17.21', reason: '升级到 4.17.21 或更高版本可修复该漏洞' });
  });

  it('says so when there is no fixed version, none above the installed one, or no installed version', () => {
    expect(recommendedUpgrade('npm', '1.0.0', [])).toEqual({ version: null, reason: '知识库中没有该漏洞的修复版本，请关注官方发布或采取缓解措施' });
    expect(recommendedUpgrade('npm', '3.0.0', ['1.2.0', '2.0.1'])).toEqual({ version: null, reason: '已知修复版本（1.2.0、2.0.1）均不高于当前版本 3.0.0，请核实受影响范围' });
    expect(recommendedUpgrade('npm', '', ['1.2.0']).version).toBeNull();
  });
});
