// /system/sensitive 敏感信息规则 (setup:sys): the rules analyses with mode 9 (敏感信息检测) look
// with — the built-in ones (not deletable, can be turned off) and the administrators' own — filtered
// by name or pattern, type and source in the URL, with the add dialog, 启用/停用 and delete of an
// administrator's rule. Built from the shared list pieces.
import { useState } from 'react';
import { Tag } from '@blueprintjs/core';
import type { LeakRuleRow } from '../../../../contract/api/leak.ts';
import { ADMIN_SUCCESS_MESSAGES } from '../../../../contract/errors.ts';
import { labelOf } from '../../../../contract/enums.ts';
import { formatDateTime, orDash } from '../../../../contract/format.ts';
import { LEAK_TYPE_LABEL, LEAK_TYPES, type LeakType } from '../../../../contract/leak-types.ts';
import { routeTitle } from '../../../../contract/routes.ts';
import { apiErrorMessage } from '../../../api/baseQuery.ts';
import { useEnableLeakRuleMutation, useLeakRuleListQuery, useRemoveLeakRuleMutation } from '../../../api/leakApi.ts';
import { toastNotifier as notify } from '../../../app/toaster.ts';
import type { Column } from '../../../common/list/DataTable.tsx';
import type { FilterControls } from '../../../common/list/FilterBar.tsx';
import { ListScreen } from '../../../common/list/ListScreen.tsx';
import { useUrlState } from '../../../common/list/useListState.ts';
import { oneOf, text, type FieldValues } from '../../../common/list/urlState.ts';
import { SensitiveRuleDialog } from './SensitiveRuleDialog.tsx';
import './sensitive.css';
import { zh } from '../../../i18n/zh-CN.ts';

const t = zh.system.sensitive;
const PATH = '/system/sensitive';
const SOURCES = ['builtin', 'user'] as const;

/** ?q=…&type=token&source=builtin|user&page=&size= */
const FIELDS = { keyword: text('q'), type: oneOf('type', LEAK_TYPES, ''), source: oneOf('source', SOURCES, '') };

const FILTERS: FilterControls<FieldValues<typeof FIELDS>> = {
  keyword: { field: 'keyword', label: t.keyword, placeholder: t.keywordPlaceholder },
  rows: [[
    { kind: 'select', field: 'type', label: t.type, options: [{ value: '', label: zh.list.all }, ...LEAK_TYPES.map((v) => ({ value: v, label: labelOf(LEAK_TYPE_LABEL, v) }))] },
    { kind: 'select', field: 'source', label: t.source, options: ['', ...SOURCES].map((v) => ({ value: v, label: t.sources[v]! })) },
  ]],
};

const COLUMNS: ReadonlyArray<Column<LeakRuleRow>> = [
  {
    key: 'name', title: t.name, className: 'cairn-col-name', cell: (r) => (
      <>
        {r.name} {r.builtin ? <Tag minimal round intent="primary">{t.builtin}</Tag> : null}
      </>
    ),
  },
  { key: 'type', title: t.type, cell: (r) => labelOf(LEAK_TYPE_LABEL, r.type) },
  { key: 'pattern', title: t.pattern, cell: (r) => <code className="cairn-leak-pattern" title={r.pattern}>{r.pattern}</code> },
  { key: 'ignoreCase', title: t.ignoreCase, cell: (r) => (r.ignoreCase ? '是' : '否') },
  { key: 'enabled', title: t.enabled, cell: (r) => <Tag minimal intent={r.enabled ? 'success' : 'none'}>{r.enabled ? t.on : t.off}</Tag> },
  { key: 'createdBy', title: t.createdBy, cell: (r) => (r.builtin ? t.builtin : orDash(r.createdBy)) },
  { key: 'createdAt', title: t.createdAt, cell: (r) => (r.createdAt ? formatDateTime(r.createdAt) : '--') },
];

export default function SensitiveRuleScreen() {
  const [state, setState] = useUrlState(FIELDS);
  const list = useLeakRuleListQuery({
    paging: { page: state.page, size: state.size },
    filter: {
      ...(state.keyword && { keyword: state.keyword }),
      ...(state.type !== '' && { type: state.type as LeakType }),
      ...(state.source !== '' && { builtin: state.source === 'builtin' }),
    },
  });
  const [remove] = useRemoveLeakRuleMutation();
  const [enable] = useEnableLeakRuleMutation();
  const [adding, setAdding] = useState(false);

  const toggle = async (row: LeakRuleRow) => {
    try {
      await enable({ key: row.key, enabled: !row.enabled }).unwrap();
      notify.success(ADMIN_SUCCESS_MESSAGES.done);
    } catch (e) {
      notify.error(apiErrorMessage(e));
    }
  };

  return (
    <ListScreen
      title={routeTitle(PATH)}
      subtitle={t.subtitle}
      add={{ text: t.add, onClick: () => setAdding(true) }}
      fields={FIELDS}
      state={state}
      onState={setState}
      filters={FILTERS}
      list={list}
      columns={COLUMNS}
      rowKey={(row) => row.key}
      rowLabel={(row) => row.name}
      rowActions={(row) => [
        row.enabled
          ? { icon: 'disable', text: t.disable, onClick: () => void toggle(row) }
          : { icon: 'tick-circle', text: t.enable, intent: 'success', onClick: () => void toggle(row) },
      ]}
      remove={{
        one: (row) => remove(row.id!).unwrap(),
        can: (row) => !row.builtin && row.id !== null,
        texts: { title: t.removeTitle, one: (row) => t.removeBody(row.name), many: () => '' },
      }}
      texts={{ loadFailed: t.loadFailed, emptyFiltered: t.emptyFiltered, emptyFilteredBody: t.emptyFilteredBody }}
      empty={{ title: t.empty, description: t.emptyBody, icon: 'shield' }}
    >
      {adding ? <SensitiveRuleDialog onClose={() => setAdding(false)} /> : null}
    </ListScreen>
  );
}
