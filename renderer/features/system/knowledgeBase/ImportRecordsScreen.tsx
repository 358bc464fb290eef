// /system/knowledgeBase/vul/batch 漏洞导入批次: the import records with their status (排队中,
// 导入中 with progress, 导入成功, 导入失败, 已取消), refreshed every 3 s while any is open; an open
// one can be cancelled; a record's per-file outcomes (已导入 / 已跳过 / 已拒绝 with the reason) and its
// errors open in drawers.
import { useEffect, useState } from 'react';
import { Alert, Button, Callout, Card, Drawer, DrawerSize, ProgressBar, Tag } from '@blueprintjs/core';
import { useNavigate } from 'react-router';
import type { ImportFileRow } from '../../../../contract/api/kb-import.ts';
import type { ImportRecord } from '../../../../contract/api/vulnerability.ts';
import { formatDateTime, orDash } from '../../../../contract/format.ts';
import { routeTitle } from '../../../../contract/routes.ts';
import { apiErrorMessage } from '../../../api/baseQuery.ts';
import { toastNotifier as notify } from '../../../app/toaster.ts';
import { useCancelImportMutation, useImportFilesQuery, useImportHistoryQuery, useImportRecordsQuery } from '../../../api/vulnerabilityApi.ts';
import { kbImportZh as k } from '../../../i18n/kb-import.ts';
import { ImportCounts, ImportStatusTag, isOpenImport, useRefreshWhenImportEnds } from './importStatus.tsx';
import { Page } from '../../../common/PageHeader.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../../common/states.tsx';
import { DataTable, type Column } from '../../../common/list/DataTable.tsx';
import { Pager } from '../../../common/list/Pager.tsx';
import { QueryBody } from '../../../common/Panel.tsx';
import { zh } from '../../../i18n/zh-CN.ts';
import './styles.ts';

const t = zh.vul;
const POLL_MS = 3000;
const SIZE = 15;

const IMPORTING = 1;
export const anyImporting = (records: readonly Pick<ImportRecord, 'status'>[] | undefined): boolean =>
  Boolean(records?.some((r) => isOpenImport(r.status)));

function StatusCell({ r }: { r: ImportRecord }) {
  return (
    <div className="cairn-import-status">
      <ImportStatusTag r={r} />
      {r.status === IMPORTING ? (
        <div className="cairn-import-progress">
          <ProgressBar intent="primary" value={Math.max(0, Math.min(100, r.progress)) / 100} />
          <span className="cairn-muted">{r.progress}%</span>
        </div>
      ) : (r.status === 3 || r.status === 5) && r.message ? (
        <div className="cairn-muted cairn-cell-sub cairn-ellipsis-2 cairn-import-message" title={r.message}>
          {r.message}
        </div>
      ) : null}
    </div>
  );
}

const OUTCOME_INTENT = { 1: 'success', 2: 'none', 3: 'danger' } as const;

const FILE_COLUMNS: ReadonlyArray<Column<ImportFileRow & { key: string }>> = [
  { key: 'file', title: k.filesColumns.file, className: 'cairn-mono cairn-break', cell: (f) => f.file },
  { key: 'outcome', title: k.filesColumns.outcome, cell: (f) => <Tag minimal intent={OUTCOME_INTENT[f.outcome]}>{f.outcomeLabel}</Tag> },
  { key: 'advisories', title: k.filesColumns.advisories, cell: (f) => f.advisories.toLocaleString('zh-CN') },
  { key: 'reason', title: k.filesColumns.reason, cell: (f) => f.reason || <span className="cairn-muted">--</span> },
];

function FilesDrawer({ record, onClose }: { record: ImportRecord; onClose: () => void }) {
  const [page, setPage] = useState(1);
  const q = useImportFilesQuery({ recordId: record.id, paging: { page, size: SIZE } });
  return (
    <Drawer isOpen onClose={onClose} title={k.filesTitle(record.name)} icon="list" size={DrawerSize.LARGE}>
      <div className="cairn-drawer-body" data-testid="kb-import-files">
        {record.filesOmitted > 0 ? <Callout intent="warning" icon="info-sign">{k.filesOmitted(record.filesOmitted)}</Callout> : null}
        <QueryBody query={q} isEmpty={(d) => d.content.length === 0} emptyText={k.filesEmpty}>
          {(d) => (
            <>
              <DataTable rows={d.content.map((f, i) => ({ ...f, key: `${page}:${i}` }))} columns={FILE_COLUMNS} rowKey={(f) => f.key} rowLabel={(f) => f.file} compact />
              <Pager page={page} size={SIZE} total={d.total} onPage={setPage} />
            </>
          )}
        </QueryBody>
      </div>
    </Drawer>
  );
}

const ERROR_COLUMNS: ReadonlyArray<Column<{ file: string; message: string }>> = [
  { key: 'file', title: t.importErrorColumns.file, className: 'cairn-mono cairn-break', cell: (e) => e.file },
  { key: 'message', title: t.importErrorColumns.message, cell: (e) => e.message },
];

function ErrorsDrawer({ record, onClose }: { record: ImportRecord; onClose: () => void }) {
  const [page, setPage] = useState(1);
  const q = useImportHistoryQuery({ recordId: record.id, paging: { page, size: SIZE } });
  return (
    <Drawer isOpen onClose={onClose} title={t.importErrorsTitle(record.name)} icon="error" size={DrawerSize.STANDARD}>
      <div className="cairn-drawer-body">
        <QueryBody query={q} isEmpty={(d) => d.content.length === 0} emptyText={zh.states.empty}>
          {(d) => (
            <>
              <DataTable rows={d.content.map((e, i) => ({ ...e, key: `${e.file}:${i}` }))} columns={ERROR_COLUMNS} rowKey={(e) => e.key} rowLabel={(e) => e.file} compact />
              <Pager page={page} size={SIZE} total={d.total} onPage={setPage} />
            </>
          )}
        </QueryBody>
      </div>
    </Drawer>
  );
}

export default function ImportRecordsScreen() {
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const [polling, setPolling] = useState(false);
  const q = useImportRecordsQuery({ page, size: SIZE }, { pollingInterval: polling ? POLL_MS : 0, skipPollingIfUnfocused: true });
  const importing = anyImporting(q.data?.content);
  // Poll while any record is importing (decided from the last answer).
  useEffect(() => setPolling(importing), [importing]);
  useRefreshWhenImportEnds(importing);
  const [errorsOf, setErrorsOf] = useState<ImportRecord | null>(null);
  const [filesOf, setFilesOf] = useState<ImportRecord | null>(null);
  const [cancelOf, setCancelOf] = useState<ImportRecord | null>(null);
  const [cancel] = useCancelImportMutation();
  const doCancel = async (r: ImportRecord) => {
    setCancelOf(null);
    try {
      await cancel(r.id).unwrap();
      notify.success(k.cancelled);
    } catch (e) {
      notify.error(apiErrorMessage(e));
    }
  };
  const c = t.importColumns;

  let body: React.ReactNode;
  if (q.isLoading) body = <LoadingState />;
  else if (q.isError) body = <ErrorState title={t.importLoadFailed} message={q.error.message} onRetry={() => void q.refetch()} />;
  else if (!q.data || q.data.content.length === 0) body = <EmptyState title={t.importEmpty} description={t.importEmptyBody} icon="import" />;
  else {
    body = (
      <Card className="cairn-table-card">
        <DataTable
          className="cairn-import-table"
          rows={q.data.content}
          rowKey={(r) => r.id}
          rowLabel={(r) => r.name}
          columns={[
            { key: 'name', title: c.name, className: 'cairn-import-name', cell: (r) => r.name },
            { key: 'kind', title: c.kind, cell: (r) => <Tag minimal>{t.importKinds[r.kind] ?? r.kind}</Tag> },
            { key: 'status', title: c.status, cell: (r) => <StatusCell r={r} /> },
            { key: 'counts', title: c.counts, cell: (r) => <ImportCounts r={r} /> },
            { key: 'user', title: c.user, cell: (r) => orDash(r.userName) },
            { key: 'createdAt', title: c.createdAt, className: 'cairn-col-date', cell: (r) => formatDateTime(r.createdAt) },
            { key: 'finishedAt', title: c.finishedAt, className: 'cairn-col-date', cell: (r) => formatDateTime(r.finishedAt) },
            {
              key: 'actions',
              title: c.actions,
              className: 'cairn-col-actions',
              cell: (r) => {
                const actions = [
                  isOpenImport(r.status) ? <Button key="cancel" size="small" intent="warning" variant="minimal" icon="disable" text={k.cancelRecord} onClick={() => setCancelOf(r)} /> : null,
                  r.fileCount > 0 ? <Button key="files" size="small" variant="minimal" icon="document" text={k.filesButton(r.fileCount + r.filesOmitted)} onClick={() => setFilesOf(r)} /> : null,
                  r.errorCount > 0 ? <Button key="errors" size="small" intent="danger" variant="minimal" icon="list" text={t.importErrors(r.errorCount)} onClick={() => setErrorsOf(r)} /> : null,
                ].filter(Boolean);
                return actions.length ? <div className="cairn-import-actions">{actions}</div> : <span className="cairn-muted">--</span>;
              },
            },
          ]}
        />
        {importing ? <div className="cairn-table-note cairn-muted">{t.importAutoRefresh}</div> : null}
        <Pager page={page} size={SIZE} total={q.data.total} onPage={setPage} />
      </Card>
    );
  }

  return (
    <Page
      title={routeTitle('/system/knowledgeBase/vul/batch')}
      subtitle={t.importSubtitle}
      actions={
        <>
          <Button icon="arrow-left" text={t.backToSystem} onClick={() => navigate('/system/knowledgeBase/vul')} />
          <Button icon="refresh" aria-label={t.refresh} title={t.refresh} loading={q.isFetching && !q.isLoading} onClick={() => void q.refetch()} />
        </>
      }
    >
      {body}
      {errorsOf ? <ErrorsDrawer record={errorsOf} onClose={() => setErrorsOf(null)} /> : null}
      {filesOf ? <FilesDrawer record={filesOf} onClose={() => setFilesOf(null)} /> : null}
      <Alert isOpen={cancelOf !== null} intent="danger" icon="disable" confirmButtonText={k.cancelImport} cancelButtonText={k.close} onConfirm={() => cancelOf && void doCancel(cancelOf)} onCancel={() => setCancelOf(null)}>
        {k.cancelConfirm}
      </Alert>
    </Page>
  );
}
