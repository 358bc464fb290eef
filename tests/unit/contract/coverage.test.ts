// The words of an incomplete result (contract/coverage.ts), shared by screens and reports.
import { describe, expect, it } from 'vitest';
import type { KbCoverage } from '../../../contract/api/kb-status.ts';
import { coverageReasons, coverageSentence, isEcosystemUncovered, isIncomplete } from '../../../contract/coverage.ts';

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
});
