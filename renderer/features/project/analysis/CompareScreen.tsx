// /project/analysis/compare (a desktop screen: the spec lists no comparison route).
//   ?projectId=&base=&compare=   task vs task (two succeeded runs, usually of one project)
//   ?subjects=a,b                subject vs subject (the latest succeeded runs of all their projects)
// Two views (组件 / 漏洞, view= in the URL), each with change tabs 新增/移除/变化/相同 and their
// counts, a keyword, and the two sides side by side.
import { useState, type ReactNode } from 'react';
import { Button, Card, HTMLSelect, HTMLTable, SegmentedControl, Tag, type Intent } from '@blueprintjs/core';
import { useNavigate, useSearchParams } from 'react-router';
import type { ComponentCompareRow, VulnerabilityCompareRow } from '../../../../contract/api/result/index.ts';
import { TASK_STATUS_LABEL, labelOf } from '../../../../contract/enums.ts';
import { formatDateTime, formatVulnerabilityId } from '../../../../contract/format.ts';
import {
  useBatchListQuery,
  useCompareSubjectComponentQuery,
  useCompareSubjectVulnerabilityQuery,
  useCompareTaskComponentQuery,
  useCompareTaskVulnerabilityQuery,
} from '../../../api/resultApi.ts';
import { KeywordSearch } from '../../../common/list/filters.tsx';
import { Page } from '../../../common/PageHeader.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../../common/states.tsx';
import { Pager } from '../../../common/list/Pager.tsx';
import { LevelTag } from '../../../common/levels.tsx';
import { RiskTag, VexTag, VulMarkTag } from './parts.tsx';
import { detailsUrl, withParams } from '../../../app/router/links.ts';
import { compareUrl, readCompareState } from './taskUrl.ts';
import { zh } from '../../../i18n/zh-CN.ts';
import './styles.ts';

const t = zh.task.compareScreen;
type Change = 'added' | 'removed' | 'changed' | 'same';
const CHANGES: readonly Change[] = ['added', 'removed', 'changed', 'same'];
const CHANGE_INTENT: Record<Change, Intent> = { added: 'success', removed: 'danger', changed: 'warning', same: 'none' };
const SIZE = 20;

function ChangeTag({ change }: { change: Change }) {
  return (
    <Tag intent={CHANGE_INTENT[change]} minimal={change === 'same'}>
      {t.changes[change]}
    </Tag>
  );
}

const none = <span className="cairn-muted">{t.notPresent}</span>;

function ComponentRows({ rows, subject }: { rows: ComponentCompareRow[]; subject: boolean }) {
  const c = t.columns;
  return (
    <HTMLTable className="cairn-table" striped compact>
      <thead>
        <tr>
          <th>{c.name}</th>
          <th>{c.ecosystem}</th>
          <th>{c.change}</th>
          <th>{`${t.base} · ${c.version}`}</th>
          <th>{`${t.base} · ${c.risk}`}</th>
          <th>{`${t.target} · ${c.version}`}</th>
          <th>{`${t.target} · ${c.risk}`}</th>
          <th>{`${c.vulns}（${t.base} → ${t.target}）`}</th>
          {subject ? <th>{`${c.projects}（${t.base} / ${t.target}）`}</th> : null}
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={`${r.ecosystem}:${r.name}:${r.base?.version ?? ''}:${r.compare?.version ?? ''}`}>
            <td>
              <b>{r.name}</b>
            </td>
            <td>
              <Tag minimal>{r.ecosystem}</Tag>
            </td>
            <td>
              <ChangeTag change={r.change} />
            </td>
            <td className={r.change === 'changed' ? 'cairn-side-old' : undefined}>{r.base ? r.base.version || '--' : none}</td>
            <td>{r.base ? <RiskTag risk={r.base.riskLevel} /> : none}</td>
            <td>{r.compare ? <b>{r.compare.version || '--'}</b> : none}</td>
            <td>{r.compare ? <RiskTag risk={r.compare.riskLevel} /> : none}</td>
            <td className="cairn-nowrap">
              {r.base?.vulCount ?? '—'} → {r.compare?.vulCount ?? '—'}
            </td>
            {subject ? (
              <td>
                {r.base?.projectCount ?? 0} / {r.compare?.projectCount ?? 0}
              </td>
            ) : null}
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );
}

function VulnerabilityRows({ rows }: { rows: VulnerabilityCompareRow[] }) {
  const c = t.columns;
  return (
    <HTMLTable className="cairn-table" striped compact>
      <thead>
        <tr>
          <th>{c.id}</th>
          <th>{c.name}</th>
          <th>{c.change}</th>
          <th>{`${t.base} · ${c.level}`}</th>
          <th>{`${t.base} · ${c.mark}`}</th>
          <th>{`${t.target} · ${c.level}`}</th>
          <th>{`${t.target} · ${c.mark}`}</th>
          <th>{`${t.target} · ${c.vex}`}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={`${r.identify}:${r.ecosystem}:${r.componentName}`}>
            <td>
              <span className="cairn-vul-id-text">{formatVulnerabilityId(r)}</span>
              <div className="cairn-muted cairn-ellipsis-2 cairn-cell-sub" title={r.summary}>
                {r.summary}
              </div>
            </td>
            <td className="cairn-nowrap">
              {r.componentName}
              <div className="cairn-muted cairn-cell-sub">
                {r.base?.componentVersion ?? '—'} → {r.compare?.componentVersion ?? '—'}
              </div>
            </td>
            <td>
              <ChangeTag change={r.change} />
            </td>
            <td>{r.base ? <LevelTag level={r.base.level} /> : none}</td>
            <td>{r.base ? <VulMarkTag mark={r.base.mark} /> : none}</td>
            <td>{r.compare ? <LevelTag level={r.compare.level} /> : none}</td>
            <td>{r.compare ? <VulMarkTag mark={r.compare.mark} /> : none}</td>
            <td>{r.compare ? <VexTag vex={r.compare.vex} /> : none}</td>
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );
}

interface CompareData<R> {
  base: { id: number; label: string; finishedAt: string | null };
  compare: { id: number; label: string; finishedAt: string | null };
  totals: Record<Change, number>;
  content: R[];
  total: number;
}
interface CompareQ<R> {
  isLoading: boolean;
  isError: boolean;
  isFetching: boolean;
  error?: { message?: string | undefined } | undefined;
  data?: CompareData<R> | undefined;
  refetch: () => unknown;
}

function Results<R>({ q, change, onChange, page, onPage, table }: { q: CompareQ<R>; change: Change | ''; onChange: (c: Change | '') => void; page: number; onPage: (n: number) => void; table: (rows: R[]) => ReactNode }) {
  if (q.isLoading) return <LoadingState />;
  if (q.isError || !q.data) return <ErrorState title={t.loadFailed} message={q.error?.message} onRetry={() => void q.refetch()} />;
  const d = q.data;
  const all = CHANGES.reduce((n, k) => n + d.totals[k], 0);
  return (
    <>
      <Card className="cairn-panel cairn-compare-sides">
        <span>
          {t.base}：<b>{d.base.label}</b> <span className="cairn-muted">{formatDateTime(d.base.finishedAt)}</span>
        </span>
        <span>→</span>
        <span>
          {t.target}：<b>{d.compare.label}</b> <span className="cairn-muted">{formatDateTime(d.compare.finishedAt)}</span>
        </span>
      </Card>
      <SegmentedControl
        className="cairn-level-segments"
        aria-label={t.columns.change}
        value={change || 'all'}
        onValueChange={(v) => onChange(v === 'all' ? '' : (v as Change))}
        options={[{ value: 'all', label: `${t.all} ${all}` }, ...CHANGES.map((k) => ({ value: k, label: `${t.changes[k]} ${d.totals[k]}` }))]}
      />
      {d.content.length === 0 ? (
        <EmptyState title={t.empty} icon="comparison" />
      ) : (
        <Card className={q.isFetching ? 'cairn-table-card cairn-refreshing' : 'cairn-table-card'}>
          {table(d.content)}
          <Pager page={page} size={SIZE} total={d.total} onPage={onPage} />
        </Card>
      )}
    </>
  );
}

function RunPicker({ projectId, label, value, onPick }: { projectId: number; label: string; value: number; onPick: (id: number) => void }) {
  const runs = useBatchListQuery({ projectId, page: 1, size: 100, status: 2 });
  const rows = runs.data?.content ?? [];
  if (rows.length === 0) return null;
  return (
    <label className="cairn-inline-label">
      {label}{' '}
      <HTMLSelect
        aria-label={label}
        value={value}
        onChange={(e) => onPick(Number(e.currentTarget.value))}
        options={rows.map((r) => ({ value: r.id, label: zh.task.runOption(r.seq, labelOf(TASK_STATUS_LABEL, r.status), formatDateTime(r.finishedAt)) }))}
      />
    </label>
  );
}

export default function CompareScreen() {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const state = readCompareState(params);
  const view = params.get('view') === 'vulnerability' ? 'vulnerability' : 'component';
  const [change, setChange] = useState<Change | ''>('');
  const [keyword, setKeyword] = useState('');
  const [applied, setApplied] = useState('');
  const [page, setPage] = useState(1);
  const filter = { page, size: SIZE, ...(change ? { change } : {}), ...(applied ? { keyword: applied } : {}) };
  const taskBody = state.mode === 'task' ? { baseTaskId: state.base, compareTaskId: state.compare, ...filter } : null;
  const subjectBody = state.mode === 'subject' ? { baseSubjectId: state.base, compareSubjectId: state.compare, ...filter } : null;
  const tc = useCompareTaskComponentQuery(taskBody!, { skip: !taskBody || view !== 'component' });
  const tv = useCompareTaskVulnerabilityQuery(taskBody!, { skip: !taskBody || view !== 'vulnerability' });
  const sc = useCompareSubjectComponentQuery(subjectBody!, { skip: !subjectBody || view !== 'component' });
  const sv = useCompareSubjectVulnerabilityQuery(subjectBody!, { skip: !subjectBody || view !== 'vulnerability' });
  const title = state.mode === 'subject' ? t.subjectTitle : t.title;
  const back = <Button icon="arrow-left" text={zh.task.back} onClick={() => (window.history.length > 1 ? navigate(-1) : navigate('/project/taskList'))} />;

  if (state.mode === 'invalid') {
    return (
      <Page title={t.title} actions={back}>
        <EmptyState title={state.reason === 'same' ? t.same : t.missing} description={t.missingBody} icon="comparison" />
      </Page>
    );
  }
  const reset = (c: Change | '') => {
    setChange(c);
    setPage(1);
  };
  const projectId = state.mode === 'task' ? state.projectId : undefined;
  const actions = (
    <>
      {state.mode === 'task' && projectId ? (
        <>
          <RunPicker projectId={projectId} label={t.pickBase} value={state.base} onPick={(id) => navigate(compareUrl(projectId, id, state.compare), { replace: true })} />
          <Button icon="swap-horizontal" text={t.swap} onClick={() => navigate(compareUrl(projectId, state.compare, state.base), { replace: true })} />
          <RunPicker projectId={projectId} label={t.pickTarget} value={state.compare} onPick={(id) => navigate(compareUrl(projectId, state.base, id), { replace: true })} />
          <Button icon="document-open" text={t.openDetails} onClick={() => navigate(detailsUrl(projectId, { taskId: state.compare }))} />
        </>
      ) : (
        back
      )}
    </>
  );

  return (
    <Page title={title} actions={actions}>
      <Card className="cairn-filter-bar cairn-filter-row">
        <SegmentedControl
          aria-label={title}
          value={view}
          onValueChange={(v) => {
            setParams((old) => withParams(old, { view: v === 'vulnerability' ? v : undefined }), { replace: true });
            reset('');
          }}
          options={[
            { value: 'component', label: t.components },
            { value: 'vulnerability', label: t.vulnerabilities },
          ]}
        />
        <KeywordSearch label={t.keyword} placeholder={t.keywordPlaceholder} value={keyword} onValueChange={setKeyword} onSearch={(k) => { setApplied(k); setPage(1); }} />
      </Card>
      {view === 'component' ? (
        <Results<ComponentCompareRow> q={state.mode === 'task' ? tc : sc} change={change} onChange={reset} page={page} onPage={setPage} table={(rows) => <ComponentRows rows={rows} subject={state.mode === 'subject'} />} />
      ) : (
        <Results<VulnerabilityCompareRow> q={state.mode === 'task' ? tv : sv} change={change} onChange={reset} page={page} onPage={setPage} table={(rows) => <VulnerabilityRows rows={rows} />} />
      )}
    </Page>
  );
}
