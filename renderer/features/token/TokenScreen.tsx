// /tokenManagement 令牌管理 (any signed-in user, from the user menu): the user's own personal
// tokens — name, last four characters, on/off switch, expiry, last use — filtered by name in the
// URL, with create (the token shown once), rename and delete. Built from the shared list pieces.
import { useState } from 'react';
import { Switch, Tag } from '@blueprintjs/core';
import type { PersonalTokenRow } from '../../../contract/api/token.ts';
import { formatDateTime, orDash } from '../../../contract/format.ts';
import { routeTitle } from '../../../contract/routes.ts';
import { apiErrorMessage } from '../../api/baseQuery.ts';
import { useRemoveTokenMutation, useTokenListQuery, useUpdateTokenMutation } from '../../api/tokenApi.ts';
import { toastNotifier as notify } from '../../app/toaster.ts';
import type { Column } from '../../common/list/DataTable.tsx';
import type { FilterControls } from '../../common/list/FilterBar.tsx';
import { ListScreen } from '../../common/list/ListScreen.tsx';
import { useUrlState } from '../../common/list/useListState.ts';
import { text, type FieldValues } from '../../common/list/urlState.ts';
import { CreatedTokenDialog, CreateTokenDialog, RenameTokenDialog, type CreatedToken } from './TokenDialogs.tsx';
import { zh } from '../../i18n/zh-CN.ts';
import './token.css';

const t = zh.token.tokens;
const PATH = '/tokenManagement';

/** ?q=…&page=&size= */
const FIELDS = { keyword: text('q', 100) };

const FILTERS: FilterControls<FieldValues<typeof FIELDS>> = {
  keyword: { field: 'keyword', label: t.keyword, placeholder: t.keywordPlaceholder },
  rows: [],
};

function StatusTag({ row }: { row: PersonalTokenRow }) {
  if (row.expired) return <Tag minimal intent="danger">{t.expired}</Tag>;
  return row.enabled ? <Tag minimal intent="success">{t.enabled}</Tag> : <Tag minimal>{t.disabled}</Tag>;
}

type Dialog = { kind: 'create' } | { kind: 'created'; token: CreatedToken } | { kind: 'rename'; row: PersonalTokenRow } | null;

export default function TokenScreen() {
  const [state, setState] = useUrlState(FIELDS);
  // Last use moves with calls made elsewhere: read afresh on each visit.
  const list = useTokenListQuery({ page: state.page, size: state.size, ...(state.keyword && { keyword: state.keyword }) }, { refetchOnMountOrArgChange: true });
  const [update] = useUpdateTokenMutation();
  const [remove] = useRemoveTokenMutation();
  const [dialog, setDialog] = useState<Dialog>(null);

  const toggle = async (row: PersonalTokenRow) => {
    try {
      await update({ id: row.id, enabled: !row.enabled }).unwrap();
      notify.success(row.enabled ? t.disabledToast : t.enabledToast);
    } catch (e) {
      notify.error(apiErrorMessage(e));
    }
  };

  const columns: ReadonlyArray<Column<PersonalTokenRow>> = [
    { key: 'name', title: t.name, className: 'cairn-col-name', cell: (r) => r.name },
    { key: 'hint', title: t.hint, cell: (r) => <span className="cairn-token-hint">{orDash(r.hint)}</span> },
    {
      key: 'enabled', title: t.status, cell: (r) => (
        <span className="cairn-token-status">
          <Switch
            inline
            checked={r.enabled}
            aria-label={r.enabled ? t.switchOff(r.name) : t.switchOn(r.name)}
            onChange={() => void toggle(r)}
          />
          <StatusTag row={r} />
        </span>
      ),
    },
    { key: 'expiresAt', title: t.expiresAt, cell: (r) => (r.expiresAt ? formatDateTime(r.expiresAt) : t.never) },
    {
      key: 'lastUsed', title: t.lastUsed, cell: (r) => (r.lastUsedAt
        ? <span title={r.lastUsedIp ? t.lastUsedFrom(r.lastUsedIp) : undefined}>{formatDateTime(r.lastUsedAt)}{r.lastUsedIp ? `（${r.lastUsedIp}）` : ''}</span>
        : t.neverUsed),
    },
    { key: 'createdAt', title: t.createdAt, cell: (r) => formatDateTime(r.createdAt) },
  ];

  return (
    <ListScreen
      title={routeTitle(PATH)}
      subtitle={t.subtitle}
      add={{ text: t.add, onClick: () => setDialog({ kind: 'create' }) }}
      fields={FIELDS}
      state={state}
      onState={setState}
      filters={FILTERS}
      list={list}
      columns={columns}
      rowKey={(row) => row.id}
      rowLabel={(row) => row.name}
      rowActions={(row) => [{ icon: 'edit', text: t.rename, onClick: () => setDialog({ kind: 'rename', row }) }]}
      remove={{ one: (row) => remove(row.id).unwrap(), texts: { title: t.removeTitle, one: (row) => t.removeBody(row.name) } }}
      texts={{ loadFailed: t.loadFailed, emptyFiltered: t.emptyFiltered, emptyFilteredBody: t.emptyFilteredBody }}
      empty={{ title: t.empty, description: t.emptyBody, icon: 'key' }}
    >
      {dialog?.kind === 'create' ? (
        <CreateTokenDialog onClose={() => setDialog((d) => (d?.kind === 'create' ? null : d))} onCreated={(token) => setDialog({ kind: 'created', token })} />
      ) : null}
      {dialog?.kind === 'created' ? <CreatedTokenDialog created={dialog.token} onClose={() => setDialog(null)} /> : null}
      {dialog?.kind === 'rename' ? <RenameTokenDialog row={dialog.row} onClose={() => setDialog(null)} /> : null}
    </ListScreen>
  );
}
