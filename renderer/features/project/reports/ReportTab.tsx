// One tab of 报告管理: its filters (keyword on report, subject and project names; status; format),
// the paged list, re-fetched every 3 s while a report is waiting or generating, row and batch
// deletes, and downloads into the desktop report library.
import { useEffect, useMemo, useState } from 'react';
import { Button, Card, FormGroup, HTMLSelect, Spinner, SpinnerSize } from '@blueprintjs/core';
import { useNavigate, useSearchParams } from 'react-router';
import type { ReportRow } from '../../../../contract/api/report.ts';
import { EXPORT_STATUS_LABEL } from '../../../../contract/enums.ts';
import { useReportListQuery, useReportRemoveMutation, type ReportListQuery } from '../../../api/reportApi.ts';
import { usePermissions } from '../../../app/hooks.ts';
import { toastNotifier as notify, toastWithAction } from '../../../app/toaster.ts';
import { KeywordSearch, ResetButton } from '../../../common/list/filters.tsx';
import { PagedListBody } from '../../../common/list/PagedListBody.tsx';
import { useConfirmDelete } from '../../../common/list/useConfirmDelete.tsx';
import { EmptyState } from '../../../common/states.tsx';
import { desktopErrorMessage } from '../../../platform/desktop.ts';
import { GenerateReportDialog } from './GenerateReportDialog.tsx';
import { ReportTable } from './ReportTable.tsx';
import { anyPending, DEFAULT_REPORT_STATE, readReportState, reportTypeLabel, STATUS_FILTER_CODES, writeReportState, type ReportListState, type ReportTabDef } from './reportModel.ts';
import type { LibraryDownloads } from './useLibraryDownloads.ts';
import { zh } from '../../../i18n/zh-CN.ts';

const t = zh.report;
/** Spec: reports are generated asynchronously; the list follows them while any is unfinished. */
const PENDING_POLL_MS = 3000;

export function ReportTab({ tab, downloads }: { tab: ReportTabDef; downloads: LibraryDownloads }) {
  const navigate = useNavigate();
  const has = usePermissions();
  // Filters and page live in the URL: back/forward, a reload and a shared link keep them.
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => readReportState(params, tab), [params, tab]);
  const setState = (next: ReportListState) => setParams((old) => writeReportState(next, old));
  const { page, size } = state;
  const [keyword, setKeyword] = useState(state.keyword);
  useEffect(() => setKeyword(state.keyword), [state.keyword]);
  const [poll, setPoll] = useState(false);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [generating, setGenerating] = useState(false);
  const [remove] = useReportRemoveMutation();

  const query: ReportListQuery = {
    page,
    size,
    ...(state.keyword ? { keyword: state.keyword } : {}),
    ...(state.status !== null ? { status: state.status } : {}),
    ...(state.reportType !== null ? { reportType: state.reportType } : {}),
  };
  const list = useReportListQuery({ kind: tab.key, query }, { pollingInterval: poll ? PENDING_POLL_MS : 0 });
  const rows = list.data?.content;
  useEffect(() => setPoll(anyPending(rows)), [rows]);

  const update = (changes: Partial<Pick<ReportListState, 'keyword' | 'status' | 'reportType'>>) => setState({ ...state, ...changes, page: 1 });
  const filtered = state.keyword !== '' || state.status !== null || state.reportType !== null;
  const batchDelete = tab.key === 'project';
  const canStatistic = tab.key === 'statistic' && has('statistic-project:summary:report');

  const onSelect = (ids: number[], on: boolean) =>
    setSelected((old) => {
      const next = new Set(old);
      for (const id of ids) {
        if (on) next.add(id);
        else next.delete(id);
      }
      return next;
    });

  // The selection may span pages: a batch delete names the checked ids.
  const removal = useConfirmDelete<ReportRow, number>({
    rowKey: (r) => r.id,
    removeOne: (r) => remove({ kind: tab.key, ids: [r.id] }).unwrap(),
    removeMany: (ids) => remove({ kind: tab.key, ids }).unwrap(),
    texts: { one: (r) => t.confirmDeleteOne(r.name), many: t.confirmDeleteMany, confirm: t.confirm, done: t.deleted },
    selection: { drop: (ids) => onSelect([...ids], false) },
    paging: { page, rows: rows?.length ?? 0, onPage: (n) => setState({ ...state, page: n }) },
  });

  const download = async (row: ReportRow) => {
    if (!downloads.available) {
      notify.error(t.noDesktop);
      return;
    }
    try {
      await downloads.start(row);
      toastWithAction(t.downloadStarted, { text: t.openLibrary, onClick: () => navigate('/desktop/library') });
    } catch (e) {
      notify.error(desktopErrorMessage(e, t.downloadFailed));
    }
  };

  const generateButton = canStatistic ? <Button intent="primary" icon="document" text={t.generateStatistic} onClick={() => setGenerating(true)} /> : undefined;

  return (
    <div className="cairn-report-tab">
      <Card className="cairn-filter-bar">
        <div className="cairn-filter-row">
          <KeywordSearch label={t.keyword} placeholder={t.keywordPlaceholder} value={keyword} onValueChange={setKeyword} onSearch={(k) => update({ keyword: k })} />
          <FormGroup inline label={t.status} className="cairn-filter-group">
            <HTMLSelect
              aria-label={t.status}
              value={state.status ?? ''}
              onChange={(e) => update({ status: e.currentTarget.value === '' ? null : Number(e.currentTarget.value) })}
              options={[{ value: '', label: t.allStatuses }, ...STATUS_FILTER_CODES.map((s) => ({ value: s, label: EXPORT_STATUS_LABEL[s] }))]}
            />
          </FormGroup>
          <FormGroup inline label={t.format} className="cairn-filter-group">
            <HTMLSelect
              aria-label={t.format}
              value={state.reportType ?? ''}
              onChange={(e) => update({ reportType: e.currentTarget.value === '' ? null : Number(e.currentTarget.value) })}
              options={[{ value: '', label: t.allFormats }, ...tab.reportTypes.map((c) => ({ value: c, label: reportTypeLabel(c) }))]}
            />
          </FormGroup>
          <ResetButton
            disabled={!filtered}
            onReset={() => {
              setKeyword('');
              setState({ ...DEFAULT_REPORT_STATE, size });
            }}
          />
          <span className="cairn-pager-spacer" />
          {poll ? (
            <span className="cairn-muted cairn-report-polling" role="status">
              <Spinner size={SpinnerSize.SMALL} /> {t.refreshing}
            </span>
          ) : null}
          <Button icon="refresh" variant="minimal" text={t.refresh} loading={list.isFetching && !list.isLoading} onClick={() => void list.refetch()} />
          {generateButton}
        </div>
      </Card>
      {batchDelete && selected.size > 0 ? (
        <div className="cairn-batch-bar" role="toolbar" aria-label={t.selected(selected.size)}>
          <strong>{t.selected(selected.size)}</strong>
          <Button size="small" variant="minimal" text={t.clearSelection} onClick={() => setSelected(new Set())} />
          <span className="cairn-pager-spacer" />
          <Button
            size="small"
            intent="danger"
            icon="trash"
            text={t.batchDelete}
            onClick={() => removal.ask({ kind: 'many', keys: [...selected] })}
          />
        </div>
      ) : null}
      <PagedListBody
        list={list}
        texts={t}
        filtered={filtered}
        emptyAll={
          <EmptyState
            title={t.emptyAll}
            description={t.tabHelp[tab.key]}
            icon="document"
            {...(generateButton ? { action: generateButton } : {})}
          />
        }
        page={page}
        size={size}
        onPage={(n) => setState({ ...state, page: n })}
        onSize={(n) => setState({ ...state, size: n, page: 1 })}
        table={(pageRows) => (
          <ReportTable
            rows={pageRows}
            scoped={tab.key !== 'statistic'}
            {...(batchDelete ? { selection: { selected, onSelect } } : {})}
            downloads={downloads.byReport}
            onDownload={(row) => void download(row)}
            onDelete={(row) => removal.ask({ kind: 'one', row })}
          />
        )}
      />
      {removal.element}
      {tab.key === 'statistic' ? <GenerateReportDialog target={generating ? { variant: 'statistic' } : null} onClose={() => setGenerating(false)} /> : null}
    </div>
  );
}

