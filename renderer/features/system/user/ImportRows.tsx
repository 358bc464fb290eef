// The per-row outcome of one user import (GET /api/user/importHistorys): row number, username,
// name, 导入成功/导入失败 and the reason a row was refused; optionally the refused rows only.
import { useState } from 'react';
import { Switch, Tag } from '@blueprintjs/core';
import { USER_IMPORT_OUTCOME } from '../../../../contract/api/user.ts';
import { useUserImportRowsQuery } from '../../../api/userApi.ts';
import type { Column } from '../../../common/list/DataTable.tsx';
import { DataTable } from '../../../common/list/DataTable.tsx';
import { Pager } from '../../../common/list/Pager.tsx';
import { ErrorState, LoadingState } from '../../../common/states.tsx';
import { usersZh as t } from '../../../i18n/users.ts';

interface Row { rowNo: number; username: string; name: string; outcome: number; outcomeLabel: string; reason: string }

const COLUMNS: ReadonlyArray<Column<Row>> = [
  { key: 'rowNo', title: t.rowNo, className: 'cairn-col-number', cell: (r) => r.rowNo },
  { key: 'username', title: t.username, cell: (r) => r.username || '--' },
  { key: 'name', title: t.name, cell: (r) => r.name || '--' },
  { key: 'outcome', title: t.outcome, cell: (r) => <Tag minimal intent={r.outcome === USER_IMPORT_OUTCOME.IMPORTED ? 'success' : 'danger'}>{r.outcomeLabel}</Tag> },
  { key: 'reason', title: t.reason, cell: (r) => r.reason || '--' },
];

export function ImportRows({ recordId, failedFirst = false }: { recordId: number; failedFirst?: boolean }) {
  const [onlyFailed, setOnlyFailed] = useState(failedFirst);
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(15);
  const rows = useUserImportRowsQuery({ recordId, page, size, ...(onlyFailed && { outcome: USER_IMPORT_OUTCOME.REFUSED }) });
  return (
    <div data-testid="user-import-rows">
      <Switch label={t.onlyFailed} checked={onlyFailed} onChange={(e) => { setOnlyFailed(e.currentTarget.checked); setPage(1); }} />
      {rows.isError ? <ErrorState title={t.recordsLoadFailed} onRetry={() => void rows.refetch()} /> : null}
      {rows.isLoading ? <LoadingState /> : null}
      {rows.data ? (
        <>
          <DataTable compact rows={rows.data.content} columns={COLUMNS} rowKey={(r) => r.rowNo} rowLabel={(r) => `${t.rowNo} ${r.rowNo}`} />
          <Pager page={page} size={size} total={rows.data.total} onPage={setPage} onSize={(s) => { setSize(s); setPage(1); }} />
        </>
      ) : null}
    </div>
  );
}
