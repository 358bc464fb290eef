// /system/knowledgeBase/vul/batch 漏洞导入批次: the import records with their status (导入中 with
// progress, 导入成功, 导入失败), refreshed every 3 s while any is importing; a record's per-file
// errors open in a drawer.
import { useEffect, useState } from 'react';
import { Button, Card, Drawer, DrawerSize, Intent, ProgressBar, Tag, Tooltip } from '@blueprintjs/core';
import { useNavigate } from 'react-router';
import type { ImportRecord } from '../../../../contract/api/vulnerability.ts';
import { IMPORT_RECORD_STATUS_LABEL, labelOf } from '../../../../contract/enums.ts';
import { formatDateTime, orDash } from '../../../../contract/format.ts';
import { routeTitle } from '../../../../contract/routes.ts';
import { useImportHistoryQuery, useImportRecordsQuery } from '../../../api/vulnerabilityApi.ts';
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
  Boolean(records?.some((r) => r.status === IMPORTING));

const STATUS_INTENT: Record<number, Intent> = { 1: Intent.PRIMARY, 2: Intent.SUCCESS, 3: Intent.DANGER };
const STATUS_ICON = { 1: 'refresh', 2: 'tick-circle', 3: 'error' } as const;

function StatusCell({ r }: { r: ImportRecord }) {
  const label = labelOf(IMPORT_RECORD_STATUS_LABEL, r.status);
  return (
    <div className="cairn-import-status">
      <Tooltip content={r.message || undefined} disabled={!r.message}>
        <Tag minimal intent={STATUS_INTENT[r.status]} icon={STATUS_ICON[r.status]}>
          {label}
        </Tag>
      </Tooltip>
      {r.status === IMPORTING ? (
        <div className="cairn-import-progress">
          <ProgressBar intent="primary" value={Math.max(0, Math.min(100, r.progress)) / 100} />
          <span className="cairn-muted">{r.progress}%</span>
        </div>
      ) : r.status === 3 && r.message ? (
        <div className="cairn-muted cairn-cell-sub cairn-ellipsis-2 cairn-import-message" title={r.message}>
          {r.message}
        </div>
      ) : null}
    </div>
  );
}

const COUNT_KEYS = ['total', 'imported', 'updated', 'unchanged', 'failed'] as const;

function Counts({ r }: { r: ImportRecord }) {
  return (
    <div className="cairn-import-counts">
      {COUNT_KEYS.map((k) => (
        <span key={k} className={k === 'failed' && r.failed > 0 ? 'cairn-import-count cairn-import-count-bad' : 'cairn-import-count'}>
          <span className="cairn-muted">{t.importCountLabels[k]}</span> {r[k].toLocaleString('zh-CN')}
        </span>
      ))}
    </div>
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
  const [errorsOf, setErrorsOf] = useState<ImportRecord | null>(null);
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
            { key: 'counts', title: c.counts, cell: (r) => <Counts r={r} /> },
            { key: 'user', title: c.user, cell: (r) => orDash(r.userName) },
            { key: 'createdAt', title: c.createdAt, className: 'cairn-col-date', cell: (r) => formatDateTime(r.createdAt) },
            { key: 'finishedAt', title: c.finishedAt, className: 'cairn-col-date', cell: (r) => formatDateTime(r.finishedAt) },
            {
              key: 'actions',
              title: c.actions,
              className: 'cairn-col-actions',
              cell: (r) => (r.errorCount > 0 ? <Button size="small" intent="danger" variant="minimal" icon="list" text={t.importErrors(r.errorCount)} onClick={() => setErrorsOf(r)} /> : <span className="cairn-muted">--</span>),
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
    </Page>
  );
}
