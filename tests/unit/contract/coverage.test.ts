// The words of an incomplete result (contract/coverage.ts), shared by screens and reports.
import { describe, expect, it } from 'vitest';
import type { KbCoverage } from '../../../contract/api/kb-status.ts';
import { coverageReasons, coverageSentence, isComponentNotCovered, isEcosystemUncovered, isIncomplete, uncoveredEcosystems } from '../../../contract/coverage.ts';

const base: KbCoverage = {
  complete: true, empty: false, stale: false, staleDays: 30, lastUpdate: '2026-11-01T00:00:00.000Z', ageDays: 3,
  uncovered: [], uncoveredComponents: 0, uncoveredNoVulnerability: 0, reasons: [], checkedAt: '2026-11-04T00:00:00.000Z',
};

describe('coverage wording', () => {
  it('says why results are incomplete, empty first and alone', () => {
    expect(coverageReasons({ empty: true, stale: false, staleDays: 30, ageDays: null, uncovered: [{ ecosystem: 'npm', components: 3 }] }))
      .toEqual(['知识库中没有任何漏洞数据（尚未导入），未能检查组件的漏洞']);
    expect(coverageReasons({ empty: false, stale: true, staleDays: 30, ageDays: 45, uncovered: [{ ecosystem: 'npm', components: 3 }, { ecosystem: 'maven', components: 2 }] }))
      .toEqual(['知识库中没有 npm、maven 生态的漏洞数据（5 个组件未覆盖）', '知识库已 45 天未更新（超过 30 天）']);
    expect(coverageReasons({ empty: false, stale: false, staleDays: 30, ageDays: 1, uncovered: [] })).toEqual([]);
  });

  it('makes one sentence of an incomplete coverage and nothing of a complete or missing one', () => {
    const incomplete = { ...base, complete: false, stale: true, ageDays: 45, reasons: ['知识库已 45 天未更新（超过 30 天）'] };
    expect(coverageSentence(incomplete)).toBe('漏洞结果不完整：知识库已 45 天未更新（超过 30 天）');
    expect(coverageSentence(base)).toBeNull();
    expect(coverageSentence(null)).toBeNull();
    expect(isIncomplete(undefined)).toBe(false);
  });

  it('knows which ecosystems were not covered', () => {
    const c = { ...base, complete: false, uncovered: [{ ecosystem: 'npm', components: 2 }] };
    expect(isEcosystemUncovered(c, 'npm')).toBe(true);
    expect(isEcosystemUncovered(c, 'maven')).toBe(false);
    expect(isEcosystemUncovered({ ...base, empty: true }, 'maven')).toBe(true);
    expect(isEcosystemUncovered(null, 'npm')).toBe(false);
  });

  it('shows a component 未覆盖 only at 无漏洞 in an uncovered ecosystem (the rule the list filter shares)', () => {
    const c = { ...base, complete: false, uncovered: [{ ecosystem: 'npm', components: 2 }, { ecosystem: 'pypi', components: 1 }] };
    expect(uncoveredEcosystems(c)).toEqual(['npm', 'pypi']);
    expect(uncoveredEcosystems({ ...base, empty: true })).toBe('all');
    expect(uncoveredEcosystems(null)).toEqual([]);
    expect(isComponentNotCovered(c, 'npm', 32)).toBe(true);
    expect(isComponentNotCovered(c, 'npm', 2)).toBe(false);
    expect(isComponentNotCovered(c, 'npm', 64)).toBe(false);
    expect(isComponentNotCovered(c, 'maven', 32)).toBe(false);
    expect(isComponentNotCovered({ ...base, empty: true }, 'maven', 32)).toBe(true);
    expect(isComponentNotCovered(undefined, 'npm', 32)).toBe(false);
  });
});
