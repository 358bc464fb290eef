// Project statistics: what a filter (contract/api/statistic.ts StatisticFilter) names — the
// projects of the caller's scope in the product, and the range of days as instants. Anything the
// caller may not see is answered as missing, exactly like something that does not exist.
import { STATISTIC_DEFAULT_DAYS, STATISTIC_MAX_DAYS, type StatisticFilter } from '../../contract/api/statistic.ts';
import { UserError } from '../errors.ts';
import { RESULT_MSG, type Db } from '../db/repositories/results.ts';
import { projectsInScope, subjectInScope, versionSubjects, type InstantRange, type ScopedProject } from '../db/repositories/statistics.ts';

export const STATISTIC_MSG = {
  subjectNotFound: RESULT_MSG.subjectNotFound,
  projectNotFound: RESULT_MSG.projectNotFound,
  versionNotFound: '版本不存在',
  dateInvalid: (day: string) => `日期无效：${day}`,
  startAfterEnd: '开始日期不能晚于结束日期',
  rangeTooLong: `统计时间范围不能超过 ${STATISTIC_MAX_DAYS} 天`,
} as const;

const DAY_MS = 86_400_000;

/** Midnight UTC of a YYYY-MM-DD day in ms, or a refusal when the day does not exist. */
function dayStart(day: string): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const ms = Date.UTC(y, m - 1, d);
  const back = new Date(ms);
  if (Number.isNaN(ms) || back.getUTCFullYear() !== y || back.getUTCMonth() !== m - 1 || back.getUTCDate() !== d || y < 1970) {
    throw new UserError(STATISTIC_MSG.dateInvalid(day), 'invalid', { field: 'startDate' });
  }
  return ms;
}

const dayText = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

export interface DayRange {
  /** First and last day (YYYY-MM-DD), both included; null where the filter sets no bound. */
  startDate: string | null;
  endDate: string | null;
  /** The same as instants. */
  instants: InstantRange;
  /** Every day from the first to the last (trends only). */
  days: string[];
  offset: number;
}

/**
 * The filter's days as instants, in the caller's time zone. `trend`: a bounded range of at most
 * STATISTIC_MAX_DAYS, the last STATISTIC_DEFAULT_DAYS up to today when the filter sets none.
 */
export function dayRange(filter: Pick<StatisticFilter, 'startDate' | 'endDate' | 'utcOffset'>, trend: boolean, now = Date.now()): DayRange {
  const offset = filter.utcOffset ?? 0;
  const offsetMs = offset * 60_000;
  let start = filter.startDate ? dayStart(filter.startDate) : null;
  let end = filter.endDate ? dayStart(filter.endDate) : null;
  if (start !== null && end !== null && start > end) throw new UserError(STATISTIC_MSG.startAfterEnd, 'invalid', { field: 'startDate' });
  if (trend) {
    const today = dayStart(dayText(now + offsetMs));
    if (end === null) end = start !== null && start > today ? start : today;
    if (start === null) start = end - (STATISTIC_DEFAULT_DAYS - 1) * DAY_MS;
    if ((end - start) / DAY_MS + 1 > STATISTIC_MAX_DAYS) throw new UserError(STATISTIC_MSG.rangeTooLong, 'invalid', { field: 'startDate' });
  }
  const days: string[] = [];
  if (trend && start !== null && end !== null) for (let d = start; d <= end; d += DAY_MS) days.push(dayText(d));
  return {
    startDate: start === null ? null : dayText(start),
    endDate: end === null ? null : dayText(end),
    instants: {
      from: start === null ? null : new Date(start - offsetMs).toISOString(),
      to: end === null ? null : new Date(end + DAY_MS - offsetMs).toISOString(),
    },
    days,
    offset,
  };
}

export interface ScopeOptions {
  product: number;
  subjects: number[] | 'all';
}

/**
 * The projects the filter names within the caller's scope and product: a 应用, project or version
 * outside it is refused as missing (项目（应用）不存在 / 项目不存在 / 版本不存在). The tag filter keeps
 * the projects carrying one of the tags unless `keepTags` (the tag trend lists every tag).
 */
export async function statisticProjects(db: Db, filter: StatisticFilter, scope: ScopeOptions, keepTags = false): Promise<ScopedProject[]> {
  const { subjectId } = filter;
  if (subjectId !== undefined && !(await subjectInScope(db, { ...scope, subjectId }))) {
    throw new UserError(STATISTIC_MSG.subjectNotFound, 'not-found', { field: 'subjectId' });
  }
  const projectIds = filter.projectIds?.length ? [...new Set(filter.projectIds)] : undefined;
  let projects = await projectsInScope(db, { ...scope, ...(subjectId !== undefined && { subjectId }), ...(projectIds && { projectIds }) });
  if (projectIds && projects.length !== projectIds.length) throw new UserError(STATISTIC_MSG.projectNotFound, 'not-found', { field: 'projectIds' });
  if (filter.versionIds?.length) {
    const wanted = [...new Set(filter.versionIds)];
    const versions = await versionSubjects(db, wanted, scope.product);
    const visible = versions.filter((v) => (scope.subjects === 'all' || scope.subjects.includes(v.subjectId)) && (subjectId === undefined || v.subjectId === subjectId));
    if (visible.length !== wanted.length) throw new UserError(STATISTIC_MSG.versionNotFound, 'not-found', { field: 'versionIds' });
    projects = projects.filter((p) => p.versionId !== null && wanted.includes(p.versionId));
  }
  if (!keepTags && filter.tags?.length) {
    const tags = new Set(filter.tags.map((t) => t.trim()));
    projects = projects.filter((p) => p.tags.some((t) => tags.has(t)));
  }
  return projects;
}
