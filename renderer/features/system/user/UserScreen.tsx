// /system/user/user 用户管理 (setup:user:user:list): the platform's accounts filtered by username or
// name, type, role and lock state in the URL, with the add and edit dialogs, 重置密码 (platform
// and open-API users: LDAP and synchronised users keep their password at the source), 锁定/解锁
// and delete (the platform answers SUCCESS, or the reason it refused, shown as a warning).
import { useState } from 'react';
import { Button, Tag } from '@blueprintjs/core';
import { useNavigate } from 'react-router';
import { LOCK_FLAG, USER_DELETE_SUCCESS, USER_TYPE_FILTERS, type UserRow } from '../../../../contract/api/user.ts';
import { ADMIN_SUCCESS_MESSAGES, userDeletionWarning } from '../../../../contract/errors.ts';
import { USER_TYPE_LABEL, labelOf } from '../../../../contract/enums.ts';
import { formatDateTime, orDash } from '../../../../contract/format.ts';
import { routeTitle } from '../../../../contract/routes.ts';
import { apiErrorMessage } from '../../../api/baseQuery.ts';
import { useLockUsersMutation, useRemoveUsersMutation, useUnlockUsersMutation, useUserListQuery } from '../../../api/userApi.ts';
import { useRoleListQuery } from '../../../api/roleApi.ts';
import { useAppSelector } from '../../../app/hooks.ts';
import { toastNotifier as notify } from '../../../app/toaster.ts';
import type { Column } from '../../../common/list/DataTable.tsx';
import type { FilterControls } from '../../../common/list/FilterBar.tsx';
import { ListScreen } from '../../../common/list/ListScreen.tsx';
import { useUrlState } from '../../../common/list/useListState.ts';
import { oneOf, text, type FieldValues } from '../../../common/list/urlState.ts';
import { usersZh as t } from '../../../i18n/users.ts';
import { zh } from '../../../i18n/zh-CN.ts';
import { ResetPasswordDialog } from './ResetPasswordDialog.tsx';
import { SyncDialog } from './SyncDialog.tsx';
import { UserDialog } from './UserDialog.tsx';
import './user.css';
import '@blueprintjs/select/lib/css/blueprint-select.css';

const PATH = '/system/user/user';
const TYPES = USER_TYPE_FILTERS.map(String);
const LOCKS = [LOCK_FLAG.UNLOCKED, LOCK_FLAG.LOCKED] as const;

/** ?q=…&type=0|2|3|6&role=<id>&lock=Y|N&page=&size= (role: any id; the select offers the roles there are). */
const FIELDS = { keyword: text('q'), type: oneOf('type', TYPES, ''), role: text('role', 12), lock: oneOf('lock', LOCKS, '') };

function StatusTag({ row }: { row: UserRow }) {
  if (row.isLock === LOCK_FLAG.LOCKED) return <Tag minimal intent="danger" icon="lock">{t.locked}</Tag>;
  if (row.lockedUntil) return <Tag minimal intent="warning" icon="time" title={formatDateTime(row.lockedUntil)}>{t.autoLocked}</Tag>;
  return (
    <>
      <Tag minimal intent="success">{t.normal}</Tag>
      {row.updatedPwd ? null : <Tag minimal className="cairn-user-tag-gap">{t.mustChange}</Tag>}
    </>
  );
}

const COLUMNS: ReadonlyArray<Column<UserRow>> = [
  { key: 'username', title: t.username, className: 'cairn-col-name', cell: (r) => r.username },
  { key: 'name', title: t.name, cell: (r) => r.name },
  { key: 'type', title: t.type, cell: (r) => r.userTypeLabel },
  { key: 'roles', title: t.roles, cell: (r) => r.roles.map((role) => <Tag key={role.id} minimal className="cairn-user-tag-gap">{role.name}</Tag>) },
  { key: 'groups', title: t.groups, cell: (r) => (r.groups.length ? r.groups.map((g) => g.name).join('、') : orDash(null)) },
  { key: 'email', title: t.email, cell: (r) => orDash(r.email) },
  { key: 'status', title: t.status, cell: (r) => <StatusTag row={r} /> },
  { key: 'createdAt', title: t.createdAt, cell: (r) => formatDateTime(r.createTime) },
];

/** DELETE answers SUCCESS, or a reason the screen shows as a warning (spec doc 2 §8). */
async function deleted(answer: Promise<string>): Promise<void> {
  let text: string;
  try {
    text = await answer;
  } catch (e) {
    text = apiErrorMessage(e);
  }
  const warning = userDeletionWarning(text === USER_DELETE_SUCCESS ? text : text || null);
  if (warning) throw new Error(warning);
}

export default function UserScreen() {
  const navigate = useNavigate();
  const [state, setState] = useUrlState(FIELDS);
  const me = useAppSelector((s) => s.session.user?.userId);
  const roles = useRoleListQuery();
  const roleId = Number(state.role);
  const list = useUserListQuery({
    page: state.page,
    size: state.size,
    ...(state.keyword && { keyword: state.keyword }),
    ...(state.type !== '' && { userType: Number(state.type) }),
    ...(Number.isInteger(roleId) && roleId > 0 && { roleId }),
    ...(state.lock !== '' && { isLock: state.lock }),
  });
  const [remove] = useRemoveUsersMutation();
  const [lock] = useLockUsersMutation();
  const [unlock] = useUnlockUsersMutation();
  const [dialog, setDialog] = useState<{ kind: 'edit'; row: UserRow | null } | { kind: 'reset'; row: UserRow } | { kind: 'sync' } | null>(null);

  const filters: FilterControls<FieldValues<typeof FIELDS>> = {
    keyword: { field: 'keyword', label: t.keyword, placeholder: t.keywordPlaceholder },
    rows: [[
      { kind: 'select', field: 'type', label: t.type, options: [{ value: '', label: zh.list.all }, ...TYPES.map((v) => ({ value: v, label: labelOf(USER_TYPE_LABEL, Number(v)) }))] },
      { kind: 'select', field: 'role', label: t.role, options: [{ value: '', label: zh.list.all }, ...(roles.data ?? []).map((r) => ({ value: String(r.id), label: r.name }))] },
      { kind: 'select', field: 'lock', label: t.lockState, options: ['', ...LOCKS].map((v) => ({ value: v, label: t.lockStates[v]! })) },
    ]],
  };

  const setLocked = async (row: UserRow, locked: boolean) => {
    try {
      await (locked ? lock([row.userId]) : unlock([row.userId])).unwrap();
      notify.success(ADMIN_SUCCESS_MESSAGES.done);
    } catch (e) {
      notify.error(apiErrorMessage(e));
    }
  };

  return (
    <ListScreen
      title={routeTitle(PATH)}
      subtitle={t.subtitle}
      actions={(
        <>
          <Button icon="import" text={t.import} onClick={() => void navigate('/system/user/import')} />
          <Button icon="history" text={t.records} onClick={() => void navigate('/system/user/record')} />
          <Button icon="refresh" text={t.sync} onClick={() => setDialog({ kind: 'sync' })} />
        </>
      )}
      add={{ text: t.add, onClick: () => setDialog({ kind: 'edit', row: null }) }}
      fields={FIELDS}
      state={state}
      onState={setState}
      filters={filters}
      list={list}
      columns={COLUMNS}
      rowKey={(row) => row.userId}
      rowLabel={(row) => row.username}
      rowActions={(row) => [
        { icon: 'edit', text: t.edit, onClick: () => setDialog({ kind: 'edit', row }) },
        ...(row.localPassword ? [{ icon: 'key' as const, text: t.reset, onClick: () => setDialog({ kind: 'reset', row }) }] : []),
        ...(row.userId === me ? [] : row.isLock === LOCK_FLAG.LOCKED || row.lockedUntil
          ? [{ icon: 'unlock' as const, text: t.unlock, intent: 'success' as const, onClick: () => void setLocked(row, false) }]
          : [{ icon: 'lock' as const, text: t.lock, intent: 'warning' as const, onClick: () => void setLocked(row, true) }]),
      ]}
      remove={{
        one: (row) => deleted(remove([row.userId]).unwrap()),
        many: (ids) => deleted(remove(ids).unwrap()),
        can: (row) => row.userId !== me,
        texts: { title: t.removeTitle, one: (row) => t.removeOne(row.username), many: t.removeMany, refusalAsWarning: true },
      }}
      texts={{ loadFailed: t.loadFailed, emptyFiltered: t.emptyFiltered, emptyFilteredBody: t.emptyFilteredBody }}
      empty={{ title: t.empty, description: t.emptyBody, icon: 'people' }}
    >
      {dialog?.kind === 'edit' ? <UserDialog row={dialog.row} onClose={() => setDialog(null)} /> : null}
      {dialog?.kind === 'reset' ? <ResetPasswordDialog row={dialog.row} onClose={() => setDialog(null)} /> : null}
      {dialog?.kind === 'sync' ? <SyncDialog onClose={() => setDialog(null)} /> : null}
    </ListScreen>
  );
}
