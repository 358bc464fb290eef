// 漏洞: the run's findings grouped by level (a segmented control with the counts of each level
// under the other filters; level=… in the URL), keyword / mark / VEX filters, a server-paged
// table, batch mark and VEX with a remark, and the finding drawer (tab=bugInfo&finding=…).
import { useMemo, useState } from 'react';
import { Button, Card, Checkbox, HTMLTable, SegmentedControl } from '@blueprintjs/core';
import type { FindingRow } from '../../../../../contract/api/result/index.ts';
import { VEX_LABEL, VULNERABILITY_MARK_LABEL, labelOf, type VexCode, type VulnerabilityMark } from '../../../../../contract/enums.ts';
import { formatDate, formatVulnerabilityId } from '../../../../../contract/format.ts';
import { useFindingStatisticQuery } from '../../../../api/resultApi.ts';
import { CheckTagGroup, KeywordSearch, ResetButton } from '../../../../common/list/filters.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../../../common/states.tsx';
import { Pager } from '../../../../common/list/Pager.tsx';
import { FindingLevelTag, LevelTag, formatScore } from '../../../../common/levels.tsx';
import { FixedIn } from '../../../../common/vulnerability/FixState.tsx';
import { levelName, sumLevels } from '../../../../common/charts.ts';
import { useTaskView } from '../context.ts';
import { FindingDrawer } from '../FindingDrawer.tsx';
import { FindingMarkDialogs, type FindingDialog } from '../FindingMarkDialogs.tsx';
import { FindingIdSummary, NameAtVersion } from '../../../../common/cells.tsx';
import { VexTag, VulMarkTag } from '../parts.tsx';
import { findingChanges } from '../taskUrl.ts';
import { VexExportButton } from '../../reports/ExportDialogs.tsx';
import { zh } from '../../../../i18n/zh-CN.ts';

const t = zh.task.bug;
const MARK_CODES = [0, 1, 2, 3, 4, 5, 6, 7] as const;
const VEX_CODES = [0, 1, 2, 3, 4] as const;
const LEVELS = [1, 2, 4, 8, 16] as const;

const toggle = <T,>(list: readonly T[], v: T): T[] => (list.includes(v) ? list.filter((x) => x !== v) : [...list, v]);

export function BugTab() {
  const view = useTaskView();
  const { projectId, run, state, setUrl } = view;
  const [keyword, setKeyword] = useState('');
  const [applied, setApplied] = useState('');
  const [marks, setMarks] = useState<VulnerabilityMark[]>([]);
  const [vex, setVex] = useState<VexCode[]>([]);
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(15);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [dialog, setDialog] = useState<FindingDialog>(null);

  const query = useMemo(() => {
    const q: Record<string, unknown> = { page, size, taskId: run.id };
    if (state.level) q.level = state.level;
    if (applied) q.keyword = applied;
    if (marks.length) q.marks = [...marks].sort().join(',');
    if (vex.length) q.vex = [...vex].sort().join(',');
    return q as { page: number; size: number; taskId: number };
  }, [page, size, run.id, state.level, applied, marks, vex]);
  const q = useFindingStatisticQuery({ projectId, query });
  // The open finding, wherever the list is paged: all findings of its component.
  const own = useFindingStatisticQuery(
    { projectId, query: { taskId: run.id, componentId: state.findingComponentId ?? 0, size: 500 } },
    { skip: !state.findingId || !state.findingComponentId },
  );
  const rows = q.data?.content ?? [];
  const openFinding = rows.find((r) => r.id === state.findingId) ?? own.data?.content.find((r) => r.id === state.findingId);

  const reset = () => {
    setPage(1);
    setSelected(new Set());
  };
  const filtered = Boolean(applied) || marks.length > 0 || vex.length > 0;
  const counts = q.data?.counts;
  const allOnPage = rows.length > 0 && rows.every((r) => selected.has(r.id));
  const c = t.columns;

  let table;
  if (q.isLoading) table = <LoadingState />;
  else if (q.isError) table = <ErrorState title={t.loadFailed} message={q.error?.message} onRetry={() => void q.refetch()} />;
  else if (!q.data || q.data.total === 0)
    table = filtered || state.level ? <EmptyState title={t.emptyFiltered} description={t.emptyFilteredBody} icon="search" /> : <EmptyState title={t.empty} description={t.emptyBody} icon="shield" />;
  else {
    table = (
      <Card className={q.isFetching ? 'cairn-table-card cairn-refreshing' : 'cairn-table-card'}>
        <HTMLTable className="cairn-table cairn-finding-table" interactive striped compact>
          <thead>
            <tr>
              {view.canVul ? (
                <th className="cairn-col-check">
                  <Checkbox
                    aria-label={zh.task.component.selectPage}
                    checked={allOnPage}
                    indeterminate={!allOnPage && rows.some((r) => selected.has(r.id))}
                    onChange={() => setSelected((s) => { const n = new Set(s); for (const r of rows) { if (allOnPage) n.delete(r.id); else n.add(r.id); } return n; })}
                  />
                </th>
              ) : null}
              <th>{c.id}</th>
              <th>{c.level}</th>
              <th>{c.score}</th>
              <th>{c.component}</th>
              <th>{c.fixed}</th>
              <th>{c.upgrade}</th>
              <th>{c.mark}</th>
              <th>{c.vex}</th>
              <th>{c.published}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r: FindingRow) => (
              <tr key={r.id} className="cairn-clickable-row" onClick={() => setUrl(findingChanges(r))}>
                {view.canVul ? (
                  <td className="cairn-col-check" onClick={(e) => e.stopPropagation()}>
                    <Checkbox aria-label={formatVulnerabilityId(r)} checked={selected.has(r.id)} onChange={() => setSelected((s) => { const n = new Set(s); if (n.has(r.id)) n.delete(r.id); else n.add(r.id); return n; })} />
                  </td>
                ) : null}
                <td className="cairn-col-id">
                  <FindingIdSummary row={r} />
                </td>
                <td>
                  {r.level === r.originalLevel ? <FindingLevelTag level={r.level} source={r.severitySource} /> : <LevelTag level={r.level} />}
                  {r.level !== r.originalLevel ? <div className="cairn-muted cairn-cell-sub">{t.customLevelTag}</div> : null}
                </td>
                <td>{formatScore(r.score)}</td>
                <td className="cairn-break cairn-col-component">
                  <NameAtVersion name={r.componentName} version={r.componentVersion} />
                </td>
                <td className="cairn-break cairn-col-fixed">
                  <FixedIn versions={r.fixedVersions} state={r.fixState} max={3} empty={zh.task.findingDetail.noFix} />
                </td>
                {/* The smallest fixed version above the installed one; when there is none, why (as its tooltip). */}
                <td className="cairn-break cairn-col-upgrade" title={r.upgrade.reason} data-testid="finding-upgrade">
                  {r.upgrade.version ? <b>{r.upgrade.version}</b> : <span className="cairn-muted">--</span>}
                </td>
                <td>
                  <VulMarkTag mark={r.mark} />
                </td>
                <td>
                  <VexTag vex={r.vex} />
                </td>
                <td className="cairn-nowrap">{formatDate(r.published)}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
        <Pager page={page} size={size} total={q.data.total} onPage={setPage} onSize={(n) => { setSize(n); setPage(1); }} />
      </Card>
    );
  }

  return (
    <div className="cairn-bug-tab">
      <Card className="cairn-filter-bar">
        <SegmentedControl
          aria-label={zh.task.bug.columns.level}
          className="cairn-level-segments"
          value={String(state.level ?? 'all')}
          onValueChange={(v) => {
            setUrl({ level: v === 'all' ? undefined : v });
            reset();
          }}
          options={[
            { value: 'all', label: `${t.all} ${counts ? sumLevels(counts) : ''}` },
            ...LEVELS.map((l) => ({ value: String(l), label: `${levelName(l)} ${counts ? counts[l] : ''}` })),
          ]}
        />
        <KeywordSearch label={t.keyword} placeholder={t.keywordPlaceholder} value={keyword} onValueChange={setKeyword} onSearch={(k) => { setApplied(k); reset(); }} />
        <CheckTagGroup label={t.marks} codes={MARK_CODES} selected={marks} labelOf={(m) => labelOf(VULNERABILITY_MARK_LABEL, m)} onToggle={(m) => { setMarks((x) => toggle(x, m)); reset(); }} />
        <CheckTagGroup label={t.vex} codes={VEX_CODES} selected={vex} labelOf={(m) => labelOf(VEX_LABEL, m)} onToggle={(m) => { setVex((x) => toggle(x, m)); reset(); }} />
        <div className="cairn-filter-row">
          <ResetButton disabled={!filtered} onReset={() => { setKeyword(''); setApplied(''); setMarks([]); setVex([]); reset(); }} />
          <span className="cairn-pager-spacer" />
          <VexExportButton projectId={view.projectId} taskId={view.run.id} />
        </div>
      </Card>
      {view.canVul && rows.length > 0 ? (
        <div className="cairn-batch-bar">
          <span className="cairn-muted">{t.selected(selected.size)}</span>
          <Button icon="tag" text={t.batchMark} disabled={selected.size === 0} onClick={() => setDialog('mark')} />
          <Button icon="endorsed" text={t.batchVex} disabled={selected.size === 0} onClick={() => setDialog('vex')} />
          {selected.size ? <Button variant="minimal" text={zh.task.component.clearSelection} onClick={() => setSelected(new Set())} /> : null}
        </div>
      ) : null}
      {table}
      <FindingDrawer finding={openFinding} loading={q.isFetching || own.isFetching} onClose={() => setUrl({ ...findingChanges(undefined) })} />
      <FindingMarkDialogs open={dialog} ids={[...selected]} initialMark="1" initialVex="1" onClose={() => setDialog(null)} onSaved={() => setSelected(new Set())} />
    </div>
  );
}
