// The task list's state in the URL query (subject, keyword, statuses, source type, sort, page), so
// back/forward and a reload keep it; and the request it turns into. Pure, tested in Node.
//
//   subjectId=3  q=order  status=2,3|never  type=30  sort=createdAt  order=desc  page=2  size=15
import { DEFAULT_PAGE_SIZE } from '../../../../contract/api/kit.ts';
import type { TaskListArgs } from '../../../api/taskApi.ts';
import { TASK_STATUS_ORDER, isCodeType } from '../../../../contract/enums.ts';
import { sameSourceCodes } from '../../../../contract/sources.ts';

export type TaskSortKey = 'createdAt' | 'finishedAt' | 'projectName' | 'status';
const TASK_SORT_KEYS: readonly TaskSortKey[] = ['createdAt', 'finishedAt', 'projectName', 'status'];
/** 'never': projects never analysed (the spec's task status has no code for them). */
export type StatusFilter = number | 'never';

export interface TaskListState {
  subjectId: number | null;
  keyword: string;
  statuses: StatusFilter[];
  codeType: number | null;
  sort: TaskSortKey;
  order: 'asc' | 'desc';
  page: number;
  size: number;
}

export const DEFAULT_TASK_LIST: TaskListState = {
  subjectId: null,
  keyword: '',
  statuses: [],
  codeType: null,
  sort: 'createdAt',
  order: 'desc',
  page: 1,
  size: DEFAULT_PAGE_SIZE,
};

const positive = (raw: string | null): number | null => {
  const n = Number(raw);
  return raw !== null && Number.isInteger(n) && n > 0 ? n : null;
};

export function parseTaskList(params: URLSearchParams): TaskListState {
  const statuses: StatusFilter[] = [];
  for (const part of (params.get('status') ?? '').split(',')) {
    if (part === 'never') statuses.push('never');
    else if (part !== '' && (TASK_STATUS_ORDER as readonly number[]).includes(Number(part))) statuses.push(Number(part));
  }
  const type = params.get('type');
  const sort = params.get('sort') as TaskSortKey | null;
  return {
    subjectId: positive(params.get('subjectId')),
    keyword: (params.get('q') ?? '').trim(),
    statuses: Array.from(new Set(statuses)),
    codeType: type !== null && type !== '' && isCodeType(Number(type)) ? Number(type) : null,
    sort: sort && TASK_SORT_KEYS.includes(sort) ? sort : DEFAULT_TASK_LIST.sort,
    order: params.get('order') === 'asc' ? 'asc' : 'desc',
    page: positive(params.get('page')) ?? 1,
    size: Math.min(positive(params.get('size')) ?? DEFAULT_TASK_LIST.size, 100),
  };
}

export function serializeTaskList(s: TaskListState): URLSearchParams {
  const p = new URLSearchParams();
  if (s.subjectId) p.set('subjectId', String(s.subjectId));
  if (s.keyword) p.set('q', s.keyword);
  if (s.statuses.length) p.set('status', s.statuses.join(','));
  if (s.codeType !== null) p.set('type', String(s.codeType));
  if (s.sort !== DEFAULT_TASK_LIST.sort) p.set('sort', s.sort);
  if (s.order !== DEFAULT_TASK_LIST.order) p.set('order', s.order);
  if (s.page !== 1) p.set('page', String(s.page));
  if (s.size !== DEFAULT_TASK_LIST.size) p.set('size', String(s.size));
  return p;
}

/** A change of anything but the page goes back to page 1. */
export const changedTaskList = (s: TaskListState, patch: Partial<TaskListState>): TaskListState =>
  ({ ...s, ...patch, page: patch.page ?? 1 });

export const hasTaskFilters = (s: TaskListState): boolean => Boolean(s.keyword) || s.statuses.length > 0 || s.codeType !== null;

/** The list call's arguments: statuses and 'never' travel as the contract's two filters. */
export function taskListArgs(s: TaskListState): TaskListArgs {
  const statuses = s.statuses.filter((x): x is number => x !== 'never') as NonNullable<TaskListArgs['filter']['statuses']>;
  const filter: TaskListArgs['filter'] = {};
  if (s.subjectId) filter.subjectId = s.subjectId;
  if (s.keyword) filter.keyword = s.keyword;
  if (statuses.length) filter.statuses = statuses;
  if (s.statuses.includes('never') && statuses.length === 0) filter.neverRun = true;
  // a source's every code (Git is 2, 4, 7 and 10): the filter names the source, not one code
  if (s.codeType !== null) filter.getCodeTypes = sameSourceCodes(s.codeType);
  return { paging: { page: s.page, size: s.size, sort: `${s.sort},${s.order}` } as TaskListArgs['paging'], filter };
}

/** Statuses whose progress the list polls (spec §4: -1 resend, 0 queued, 1 analysing). */
export const isPolledStatus = (status: number | null | undefined): boolean => status === -1 || status === 0 || status === 1;
