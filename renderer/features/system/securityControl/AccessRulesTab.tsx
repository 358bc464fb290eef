// The 安全管控 tab of IP access rules: the caller's own address (GET /api/ip) and how the rules
// decide, the filters in the URL (keyword, allow/deny, state), the paged table with 编辑,
// 启用/停用 and 删除 (with confirmation) per row, and the add/edit dialog. The platform refuses a
// command that would shut the administrator out; the refusal is shown as a toast (row actions) or
// in the dialog.
import { useState } from 'react';
import { Button, ButtonGroup, Callout, Tag, Tooltip } from '@blueprintjs/core';
import { ACCESS_ACTION, ACCESS_SCOPE, type AccessRuleRow } from '../../../../contract/api/access.ts';
import { ADMIN_SUCCESS_MESSAGES } from '../../../../contract/errors.ts';
import { formatDateTime, orDash } from '../../../../contract/format.ts';
import { apiErrorMessage } from '../../../api/baseQuery.ts';
import { useAccessRuleListQuery, useEditAccessRuleMutation, useMyAddressQuery, useRemoveAccessRuleMutation } from '../../../api/accessApi.ts';
import { toastNotifier as notify } from '../../../app/toaster.ts';
import { DataTable, type Column } from '../../../common/list/DataTable.tsx';
import { UrlFilterBar, type FilterControls } from '../../../common/list/FilterBar.tsx';
import { PagedListBody } from '../../../common/list/PagedListBody.tsx';
import { useConfirmDelete } from '../../../common/list/useConfirmDelete.tsx';
import { changed, clearFilters, hasFilters, type FieldValues, type UrlState } from '../../../common/list/urlState.ts';
import { EmptyState } from '../../../common/states.tsx';
import { securityZh as t } from '../../../i18n/security.ts';
import { zh } from '../../../i18n/zh-CN.ts';
import { AccessRuleDialog } from './AccessRuleDialog.tsx';
import { SECURITY_FIELDS } from './fields.ts';

type Fields = typeof SECURITY_FIELDS;

const FILTERS: FilterControls<FieldValues<Fields>> = {
  keyword: { field: 'keyword', label: t.keyword, placeholder: t.keywordPlaceholder },
  rows: [[
    { kind: 'select', field: 'action', label: t.action, options: ['', ACCESS_ACTION.ALLOW, ACCESS_ACTION.DENY].map((v) => ({ value: v, label: t.actions[v]! })) },
    { kind: 'select', field: 'state', label: t.state, options: ['', 'on', 'off'].map((v) => ({ value: v, label: t.states[v]! })) },
  ]],
};

const userNames = (r: AccessRuleRow) => r.users.map((u) => (u.name && u.name !== u.username ? `${u.name}（${u.username}）` : u.username)).join('、');

const COLUMNS: ReadonlyArray<Column<AccessRuleRow>> = [
  { key: 'address', title: t.address, className: 'cairn-col-name', cell: (r) => <code className="cairn-access-address">{r.address}</code> },
  {
    key: 'action', title: t.action, cell: (r) => (
      <Tag minimal intent={r.action === ACCESS_ACTION.ALLOW ? 'success' : 'danger'}>{t.actions[r.action]}</Tag>
    ),
  },
  { key: 'scope', title: t.scope, cell: (r) => (r.scope === ACCESS_SCOPE.ALL ? t.allUsers : <span title={userNames(r)}>{userNames(r) || '--'}</span>) },
  { key: 'enabled', title: t.enabled, cell: (r) => <Tag minimal intent={r.enabled ? 'success' : 'none'}>{r.enabled ? t.on : t.off}</Tag> },
  { key: 'remark', title: t.remark, cell: (r) => orDash(r.remark) },
  { key: 'createdBy', title: t.createdBy, cell: (r) => orDash(r.createdBy) },
  { key: 'updatedAt', title: t.updatedAt, cell: (r) => formatDateTime(r.updatedAt) },
];

function MyAddress() {
  const me = useMyAddressQuery();
  return (
    <Callout className="cairn-access-note" icon="globe-network" intent="primary" title={me.data ? t.myAddress(me.data.ip) : t.myAddressLoading}>
      <p>{t.myAddressHelp}</p>
      <p className="cairn-access-order-title">{t.orderTitle}</p>
      <ol className="cairn-access-order">{t.order.map((line) => <li key={line}>{line}</li>)}</ol>
    </Callout>
  );
}

export function AccessRulesTab({ state, onState }: { state: UrlState<Fields>; onState: (next: UrlState<Fields>) => void }) {
  const list = useAccessRuleListQuery({
    page: state.page,
    size: state.size,
    ...(state.keyword && { keyword: state.keyword }),
    ...(state.action !== '' && { action: state.action }),
    ...(state.state !== '' && { enabled: state.state === 'on' }),
  });
  const [edit] = useEditAccessRuleMutation();
  const [remove] = useRemoveAccessRuleMutation();
  const [dialog, setDialog] = useState<{ row: AccessRuleRow | null } | null>(null);
  const rows = list.data?.content ?? [];
  const removal = useConfirmDelete<AccessRuleRow, number>({
    rowKey: (r) => r.id,
    removeOne: (r) => remove(r.id).unwrap(),
    texts: { title: t.removeTitle, one: (r) => t.removeBody(r.address) },
    paging: { page: state.page, rows: rows.length, onPage: (page) => onState(changed(state, { page })) },
  });

  const toggle = async (row: AccessRuleRow) => {
    try {
      await edit({
        id: row.id, address: row.address, action: row.action, scope: row.scope, userIds: row.users.map((u) => u.userId), enabled: !row.enabled, remark: row.remark,
      }).unwrap();
      notify.success(ADMIN_SUCCESS_MESSAGES.modified);
    } catch (e) {
      notify.error(apiErrorMessage(e));
    }
  };

  const addButton = <Button icon="add" intent="primary" text={t.add} onClick={() => setDialog({ row: null })} />;
  return (
    <>
      <MyAddress />
      <div className="cairn-access-toolbar">{addButton}</div>
      <UrlFilterBar fields={SECURITY_FIELDS} controls={FILTERS} state={state} onChange={onState} />
      <PagedListBody
        list={list}
        texts={{ loadFailed: t.loadFailed, emptyFiltered: t.emptyFiltered, emptyFilteredBody: t.emptyFilteredBody }}
        filtered={hasFilters(SECURITY_FIELDS, state)}
        onReset={() => onState(clearFilters(SECURITY_FIELDS, state))}
        emptyAll={<EmptyState title={t.empty} description={t.emptyBody} icon="shield" action={addButton} />}
        page={state.page}
        size={state.size}
        onPage={(page) => onState(changed(state, { page }))}
        onSize={(size) => onState(changed(state, { size }))}
        table={(shown) => (
          <DataTable
            rows={shown}
            columns={COLUMNS}
            rowKey={(r) => r.id}
            rowLabel={(r) => r.address}
            actions={(row) => (
              <ButtonGroup variant="minimal">
                <Tooltip content={t.edit}>
                  <Button icon="edit" aria-label={`${t.edit} ${row.address}`} onClick={() => setDialog({ row })} />
                </Tooltip>
                <Tooltip content={row.enabled ? t.disable : t.enable}>
                  <Button
                    icon={row.enabled ? 'disable' : 'tick-circle'}
                    intent={row.enabled ? 'none' : 'success'}
                    aria-label={`${row.enabled ? t.disable : t.enable} ${row.address}`}
                    onClick={() => void toggle(row)}
                  />
                </Tooltip>
                <Tooltip content={zh.list.remove}>
                  <Button icon="trash" intent="danger" aria-label={`${zh.list.remove} ${row.address}`} onClick={() => removal.ask({ kind: 'one', row })} />
                </Tooltip>
              </ButtonGroup>
            )}
          />
        )}
      />
      {dialog ? <AccessRuleDialog row={dialog.row} onClose={() => setDialog(null)} /> : null}
      {removal.element}
    </>
  );
}
