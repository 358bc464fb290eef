// /system/user/record 导入记录 (setup:user:user:list): every Excel import of users — the file, who
// imported it and when, its status and counts, or why the whole file was refused — and, per
// record, each row's outcome with the reason a row was not imported.
import { useState } from 'react';
import { Button, Dialog, DialogBody, DialogFooter, Tag } from '@blueprintjs/core';
import { useNavigate } from 'react-router';
import { USER_IMPORT_STATUS, type UserImportRecord } from '../../../../contract/api/user.ts';
import { formatDateTime, orDash } from '../../../../contract/format.ts';
import { routeTitle } from '../../../../contract/routes.ts';
import { useUserImportRecordsQuery } from '../../../api/userApi.ts';
import type { Column } from '../../../common/list/DataTable.tsx';
import { ListScreen } from '../../../common/list/ListScreen.tsx';
import { useUrlState } from '../../../common/list/useListState.ts';
import { usersZh as t } from '../../../i18n/users.ts';
import { ImportRows } from './ImportRows.tsx';
import './user.css';

const PATH = '/system/user/record';
const FIELDS = {};

const statusIntent = (status: number) => (status === USER_IMPORT_STATUS.SUCCEEDED ? 'success' : status === USER_IMPORT_STATUS.FAILED ? 'danger' : 'primary');

const COLUMNS: ReadonlyArray<Column<UserImportRecord>> = [
  { key: 'file', title: t.file, className: 'cairn-col-name', cell: (r) => r.fileName },
  { key: 'status', title: t.recordStatus, cell: (r) => <Tag minimal intent={statusIntent(r.status)}>{r.statusLabel}</Tag> },
  { key: 'total', title: t.total, className: 'cairn-col-number', cell: (r) => r.total },
  { key: 'succeeded', title: t.succeeded, className: 'cairn-col-number', cell: (r) => r.succeeded },
  { key: 'failed', title: t.failed, className: 'cairn-col-number', cell: (r) => r.failed },
  { key: 'message', title: t.message, cell: (r) => orDash(r.message) },
  { key: 'createdBy', title: t.createdBy, cell: (r) => orDash(r.createdBy) },
  { key: 'createdAt', title: t.importedAt, cell: (r) => formatDateTime(r.createTime) },
];

export default function UserRecordScreen() {
  const navigate = useNavigate();
  const [state, setState] = useUrlState(FIELDS);
  const list = useUserImportRecordsQuery({ page: state.page, size: state.size });
  const [open, setOpen] = useState<UserImportRecord | null>(null);
  return (
    <ListScreen
      title={routeTitle(PATH)}
      subtitle={t.recordsSubtitle}
      add={{ text: t.import, onClick: () => void navigate('/system/user/import') }}
      fields={FIELDS}
      state={state}
      onState={setState}
      list={list}
      columns={COLUMNS}
      rowKey={(row) => row.id}
      rowLabel={(row) => row.fileName}
      onOpen={(row) => row.total > 0 && setOpen(row)}
      rowActions={(row) => (row.total > 0 ? [{ icon: 'th-list', text: t.rows, onClick: () => setOpen(row) }] : [])}
      texts={{ loadFailed: t.recordsLoadFailed, emptyFiltered: t.recordsEmpty, emptyFilteredBody: t.recordsEmptyBody }}
      empty={{ title: t.recordsEmpty, description: t.recordsEmptyBody, icon: 'history' }}
    >
      {open ? (
        <Dialog isOpen title={t.rowsTitle(open.fileName)} icon="th-list" className="cairn-dialog" style={{ width: 820 }} onClose={() => setOpen(null)}>
          <DialogBody>
            <ImportRows recordId={open.id} failedFirst={open.failed > 0} />
          </DialogBody>
          <DialogFooter actions={<Button text={t.close} onClick={() => setOpen(null)} />} />
        </Dialog>
      ) : null}
    </ListScreen>
  );
}
