// 历史组件: components seen in earlier succeeded runs of the project (by default those no longer in
// the latest run), with a state filter, keyword, and 刷新 (recomputes over every run and updates
// their risk from the current knowledge base).
import { useState } from 'react';
import { Button, Card, HTMLTable, SegmentedControl, Tag } from '@blueprintjs/core';
import { formatDateTime } from '../../../../../contract/format.ts';
import { apiErrorMessage } from '../../../../api/baseQuery.ts';
import { useHistoryListQuery, useHistoryRefreshMutation } from '../../../../api/resultApi.ts';
import { toastNotifier } from '../../../../app/toaster.ts';
import { KeywordSearch } from '../../../../common/list/filters.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../../../common/states.tsx';
import { Pager } from '../../../../common/list/Pager.tsx';
import { useTaskView } from '../context.ts';
import { RiskTag } from '../parts.tsx';
import { zh } from '../../../../i18n/zh-CN.ts';

const t = zh.task.history;
type HState = 'removed' | 'present' | 'all';

export function HistoryTab() {
  const { projectId } = useTaskView();
  const [state, setState] = useState<HState>('removed');
  const [keyword, setKeyword] = useState('');
  const [applied, setApplied] = useState('');
  const [page, setPage] = useState(1);
  const q = useHistoryListQuery({ projectId, query: { page, size: 15 }, filter: { state, ...(applied ? { keyword: applied } : {}) } });
  const [refresh, refreshing] = useHistoryRefreshMutation();
  const c = t.columns;

  const doRefresh = async () => {
    try {
      const r = await refresh(projectId).unwrap();
      toastNotifier.success(t.refreshed(r.total, r.removed));
    } catch (e) {
      toastNotifier.error(apiErrorMessage(e));
    }
  };

  let body;
  if (q.isLoading) body = <LoadingState />;
  else if (q.isError) body = <ErrorState title={t.loadFailed} message={q.error?.message} onRetry={() => void q.refetch()} />;
  else if (!q.data || q.data.content.length === 0) body = <EmptyState title={t.empty} description={t.emptyBody} icon="history" />;
  else
    body = (
      <Card className={q.isFetching ? 'cairn-table-card cairn-refreshing' : 'cairn-table-card'}>
        <HTMLTable className="cairn-table" striped compact>
          <thead>
            <tr>
              <th>{c.name}</th>
              <th>{c.version}</th>
              <th>{c.current}</th>
              <th>{c.risk}</th>
              <th>{c.vulns}</th>
              <th>{c.first}</th>
              <th>{c.last}</th>
              <th>{c.runs}</th>
              <th>{c.state}</th>
            </tr>
          </thead>
          <tbody>
            {q.data.content.map((r) => (
              <tr key={r.id}>
                <td>
                  {r.name} <Tag minimal>{r.ecosystem}</Tag>
                </td>
                <td>{r.version || '--'}</td>
                <td>{r.currentVersion ?? <span className="cairn-muted">{t.gone}</span>}</td>
                <td>
                  <RiskTag risk={r.riskLevel} />
                </td>
                <td>{r.vulCount}</td>
                <td>{t.seq(r.firstSeq)}</td>
                <td>
                  {t.seq(r.lastSeq)}
                  <div className="cairn-muted cairn-cell-sub">{formatDateTime(r.lastSeenAt)}</div>
                </td>
                <td>{r.runCount}</td>
                <td>
                  <Tag minimal intent={r.present ? 'success' : 'warning'}>
                    {r.present ? t.states.present : t.states.removed}
                  </Tag>
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
        <Pager page={page} size={15} total={q.data.total} onPage={setPage} />
      </Card>
    );

  return (
    <div className="cairn-history-tab">
      <Card className="cairn-filter-bar cairn-filter-row">
        <SegmentedControl
          aria-label={t.state}
          value={state}
          onValueChange={(v) => { setState(v as HState); setPage(1); }}
          options={(['removed', 'present', 'all'] as const).map((k) => ({ value: k, label: t.states[k]! }))}
        />
        <KeywordSearch label={t.keyword} placeholder={t.keywordPlaceholder} value={keyword} onValueChange={setKeyword} onSearch={(k) => { setApplied(k); setPage(1); }} />
        <span className="cairn-pager-spacer" />
        <Button icon="refresh" text={t.refresh} loading={refreshing.isLoading} onClick={() => void doRefresh()} />
      </Card>
      {body}
    </div>
  );
}
