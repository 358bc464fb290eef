// The task-detail and comparison screens' state in the URL query, so back/forward, reload and a
// shared link land on the same view. Pure functions of URLSearchParams, tested in Node.
//
//   details: projectId=12 [taskId=40] tab=overview|component|source|bug|bugInfo|license|…
//            component=<row id> (component drawer)  finding=<row id> (with tab=bugInfo: finding drawer)
//            tree=dependence|file|layer  level=1|2|4|8|16 (bug tab)  sub=license|copyright|conflict
//   compare: projectId=12 base=40 compare=41  |  subjects=3,5

const DETAIL_TABS = ['overview', 'component', 'source', 'bug', 'license', 'sensitiveInfo', 'historyComponent', 'codeSnippetComponent'] as const;
export type DetailTab = (typeof DETAIL_TABS)[number];
/** layer: the image → layers → components tree of an image run. */
export type TreeKind = 'dependence' | 'file' | 'layer';
export type LicenseSub = 'license' | 'copyright' | 'conflict';

const positiveInt = (raw: string | null): number | undefined => {
  if (!raw || !/^\d{1,12}$/.test(raw.trim())) return undefined;
  const n = Number(raw.trim());
  return n >= 1 && Number.isSafeInteger(n) ? n : undefined;
};

export interface DetailState {
  projectId: number | undefined;
  taskId: number | undefined;
  tab: DetailTab;
  /** The finding drawer (tab=bugInfo, the spec's other identifier of the bug tab). */
  findingId: number | undefined;
  /** The component of the open finding (fcomp=): lets the drawer load it wherever the list pages are. */
  findingComponentId: number | undefined;
  componentId: number | undefined;
  tree: TreeKind;
  level: 1 | 2 | 4 | 8 | 16 | undefined;
  sub: LicenseSub;
}

export function readDetailState(params: URLSearchParams): DetailState {
  const rawTab = params.get('tab') ?? '';
  const tab: DetailTab = rawTab === 'bugInfo' ? 'bug' : (DETAIL_TABS as readonly string[]).includes(rawTab) ? (rawTab as DetailTab) : 'overview';
  const level = Number(params.get('level'));
  const sub = params.get('sub');
  return {
    projectId: positiveInt(params.get('projectId')),
    taskId: positiveInt(params.get('taskId')),
    tab,
    findingId: tab === 'bug' ? positiveInt(params.get('finding')) : undefined,
    findingComponentId: tab === 'bug' ? positiveInt(params.get('fcomp')) : undefined,
    componentId: positiveInt(params.get('component')),
    tree: params.get('tree') === 'file' ? 'file' : params.get('tree') === 'layer' ? 'layer' : 'dependence',
    level: level === 1 || level === 2 || level === 4 || level === 8 || level === 16 ? level : undefined,
    sub: sub === 'copyright' || sub === 'conflict' ? sub : 'license',
  };
}

/** Opening a finding sets tab=bugInfo (the detail view), finding=<id> and fcomp=<its component>; closing returns to tab=bug. */
export function findingChanges(finding: { id: number; componentId: number } | undefined): Record<string, string | number | undefined> {
  return { tab: finding ? 'bugInfo' : 'bug', finding: finding?.id, fcomp: finding?.componentId };
}

// ---- comparison ------------------------------------------------------------------------------

export type CompareState =
  | { mode: 'task'; projectId: number | undefined; base: number; compare: number }
  | { mode: 'subject'; base: number; compare: number }
  | { mode: 'invalid'; reason: 'missing' | 'same' };

export function readCompareState(params: URLSearchParams): CompareState {
  const subjects = (params.get('subjects') ?? '').split(',').map((s) => positiveInt(s)).filter((n): n is number => n !== undefined);
  if (params.has('subjects')) {
    if (subjects.length !== 2) return { mode: 'invalid', reason: 'missing' };
    if (subjects[0] === subjects[1]) return { mode: 'invalid', reason: 'same' };
    return { mode: 'subject', base: subjects[0]!, compare: subjects[1]! };
  }
  const base = positiveInt(params.get('base'));
  const compare = positiveInt(params.get('compare'));
  if (!base || !compare) return { mode: 'invalid', reason: 'missing' };
  if (base === compare) return { mode: 'invalid', reason: 'same' };
  return { mode: 'task', projectId: positiveInt(params.get('projectId')), base, compare };
}

export function compareUrl(projectId: number, base: number, compare: number): string {
  return `/project/analysis/compare?projectId=${projectId}&base=${base}&compare=${compare}`;
}

/** Default pair for 对比: the shown run against the newest other succeeded run (older as base). */
export function defaultComparePair(runs: ReadonlyArray<{ id: number; seq: number; status: number }>, shown: number | undefined): [number, number] | null {
  const ok = runs.filter((r) => r.status === 2).sort((a, b) => b.seq - a.seq);
  if (ok.length < 2) return null;
  const current = ok.find((r) => r.id === shown) ?? ok[0]!;
  const other = ok.find((r) => r.id !== current.id)!;
  return current.seq > other.seq ? [other.id, current.id] : [current.id, other.id];
}
