// Wording of a run's knowledge-base coverage (contract/api/kb-status.ts KbCoverage): the same words
// on the task header, the overview, the task list, the dashboard and in every report.
import type { KbCoverage } from './api/kb-status.ts';

/** The headline every incomplete result carries. */
export const COVERAGE_INCOMPLETE = '漏洞结果不完整';
/** Short marker for lists (task list, dashboard rows). */
export const COVERAGE_INCOMPLETE_MARK = '不完整';
/** A component of an ecosystem the knowledge base holds nothing for: shown instead of 无漏洞. */
export const COMPONENT_NOT_COVERED = '未覆盖';
export const COMPONENT_NOT_COVERED_REASON = '知识库未收录该生态';

/** Whether a run's results must be flagged: a coverage record that says incomplete. */
export const isIncomplete = (coverage: KbCoverage | null | undefined): coverage is KbCoverage => Boolean(coverage && !coverage.complete);

/** `漏洞结果不完整：知识库中没有 npm 生态的漏洞数据；知识库已 45 天未更新`, or null when complete (or unknown). */
export function coverageSentence(coverage: KbCoverage | null | undefined): string | null {
  if (!isIncomplete(coverage)) return null;
  return `${COVERAGE_INCOMPLETE}：${coverage.reasons.join('；')}`;
}

/**
 * The ecosystems the knowledge base did not cover for a run: 'all' when it held nothing at all,
 * none for a run analysed before coverage was recorded. The one rule the component list's filter
 * (server) and the risk tags (renderer) share.
 */
export function uncoveredEcosystems(coverage: KbCoverage | null | undefined): 'all' | string[] {
  if (!coverage) return [];
  return coverage.empty ? 'all' : coverage.uncovered.map((u) => u.ecosystem);
}

/** Whether a component of `ecosystem` is outside what the knowledge base covered for the run. */
export function isEcosystemUncovered(coverage: KbCoverage | null | undefined, ecosystem: string): boolean {
  const uncovered = uncoveredEcosystems(coverage);
  return uncovered === 'all' || uncovered.includes(ecosystem);
}

/** The risk code (无漏洞) a component of an uncovered ecosystem is shown 未覆盖 instead of. */
export const NOT_COVERED_RISK = 32;

/** Whether a component is shown 未覆盖: risk 无漏洞 in an ecosystem the knowledge base did not cover for the run. */
export const isComponentNotCovered = (coverage: KbCoverage | null | undefined, ecosystem: string | undefined, risk: number | null | undefined): boolean =>
  risk === NOT_COVERED_RISK && ecosystem !== undefined && isEcosystemUncovered(coverage, ecosystem);

interface CoverageFacts {
  empty: boolean;
  stale: boolean;
  staleDays: number;
  ageDays: number | null;
  uncovered: { ecosystem: string; components: number }[];
}

/** The reasons of an incomplete result, in the order a reader needs them. */
export function coverageReasons(facts: CoverageFacts): string[] {
  if (facts.empty) return ['知识库中没有任何漏洞数据（尚未导入），未能检查组件的漏洞'];
  const reasons: string[] = [];
  if (facts.uncovered.length) {
    const names = facts.uncovered.map((u) => u.ecosystem).join('、');
    const count = facts.uncovered.reduce((n, u) => n + u.components, 0);
    reasons.push(`知识库中没有 ${names} 生态的漏洞数据（${count} 个组件未覆盖）`);
  }
  if (facts.stale) {
    reasons.push(facts.ageDays === null ? '知识库的更新时间未知' : `知识库已 ${facts.ageDays} 天未更新（超过 ${facts.staleDays} 天）`);
  }
  return reasons;
}
