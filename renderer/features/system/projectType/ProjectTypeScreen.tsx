// /system/projectType 项目类型 (setup:projectType): the types an 应用 may be given, filtered by
// name or remark and status in the URL, with add and edit dialogs, the online/offline switch and
// delete (refused by the platform while an 应用 has the type). Built from the shared list pieces.
import { useState } from 'react';
import { Tag } from '@blueprintjs/core';
import { SUBJECT_TYPE_STATUS, type SubjectTypeRow } from '../../../../contract/api/project-type.ts';
import { ONLINE_STATUS_LABEL, labelOf } from '../../../../contract/enums.ts';
import { ADMIN_SUCCESS_MESSAGES } from '../../../../contract/errors.ts';
import { formatDateTime, orDash } from '../../../../contract/format.ts';
import { routeTitle } from '../../../../contract/routes.ts';
import { apiErrorMessage } from '../../../api/baseQuery.ts';
import { useProjectTypeListQuery, useRemoveProjectTypeMutation, useSetProjectTypeStatusMutation } from '../../../api/projectTypeApi.ts';
import { toastNotifier as notify } from '../../../app/toaster.ts';
import type { Column } from '../../../common/list/DataTable.tsx';
import type { FilterControls } from '../../../common/list/FilterBar.tsx';
import { ListScreen } from '../../../common/list/ListScreen.tsx';
import { useUrlState } from '../../../common/list/useListState.ts';
import { oneOf, text, type FieldValues } from '../../../common/list/urlState.ts';
import { ProjectTypeDialog } from './ProjectTypeDialog.tsx';
import { zh } from '../../../i18n/zh-CN.ts';

const t = zh.system.projectType;
const PATH = '/system/projectType';
const STATUSES = [String(SUBJECT_TYPE_STATUS.ONLINE), String(SUBJECT_TYPE_STATUS.OFFLINE)] as const;

/** ?q=…&status=0|1&page=&size= */
const FIELDS = { keyword: text('q'), status: oneOf('status', STATUSES, '') };

const FILTERS: FilterControls<FieldValues<typeof FIELDS>> = {
  keyword: { field: 'keyword', label: t.keyword, placeholder: t.keywordPlaceholder },
  rows: [[{
    kind: 'select', field: 'status', label: t.status,
    options: [{ value: '', label: zh.list.all }, ...STATUSES.map((s) => ({ value: s, label: labelOf(ONLINE_STATUS_LABEL, Number(s)) }))],
  }]],
};

const COLUMNS: ReadonlyArray<Column<SubjectTypeRow>> = [
  { key: 'name', title: t.name, className: 'cairn-col-name', cell: (r) => r.subjectTypeName },
  { key: 'remark', title: t.remark, cell: (r) => orDash(r.remark) },
  {
    key: 'status', title: t.status, cell: (r) => (
      <Tag minimal intent={r.status === SUBJECT_TYPE_STATUS.ONLINE ? 'success' : 'none'}>{labelOf(ONLINE_STATUS_LABEL, r.status)}</Tag>
    ),
  },
  { key: 'subjects', title: t.subjects, className: 'cairn-col-number', cell: (r) => r.subjects },
  { key: 'createdBy', title: t.createdBy, cell: (r) => orDash(r.createdBy) },
  { key: 'updatedAt', title: t.updatedAt, cell: (r) => formatDateTime(r.updatedAt) },
];

export default function ProjectTypeScreen() {
  const [state, setState] = useUrlState(FIELDS);
  const list = useProjectTypeListQuery({
    paging: { page: state.page, size: state.size },
    filter: { ...(state.keyword && { keyword: state.keyword }), ...(state.status !== '' && { status: Number(state.status) as 0 | 1 }) },
  });
  const [remove] = useRemoveProjectTypeMutation();
  const [switchStatus] = useSetProjectTypeStatusMutation();
  const [dialog, setDialog] = useState<{ row: SubjectTypeRow | null } | null>(null);

  const toggle = async (row: SubjectTypeRow) => {
    const status = row.status === SUBJECT_TYPE_STATUS.ONLINE ? SUBJECT_TYPE_STATUS.OFFLINE : SUBJECT_TYPE_STATUS.ONLINE;
    try {
      await switchStatus({ id: row.id, status }).unwrap();
      notify.success(status === SUBJECT_TYPE_STATUS.ONLINE ? ADMIN_SUCCESS_MESSAGES.online : ADMIN_SUCCESS_MESSAGES.offline);
    } catch (e) {
      notify.error(apiErrorMessage(e));
    }
  };

  return (
    <ListScreen
      title={routeTitle(PATH)}
      subtitle={t.subtitle}
      add={{ text: t.add, onClick: () => setDialog({ row: null }) }}
      fields={FIELDS}
      state={state}
      onState={setState}
      filters={FILTERS}
      list={list}
      columns={COLUMNS}
      rowKey={(row) => row.id}
      rowLabel={(row) => row.subjectTypeName}
      rowActions={(row) => [
        { icon: 'edit', text: zh.list.edit, onClick: () => setDialog({ row }) },
        row.status === SUBJECT_TYPE_STATUS.ONLINE
          ? { icon: 'arrow-down', text: t.offline, onClick: () => void toggle(row) }
          : { icon: 'arrow-up', text: t.online, intent: 'success', onClick: () => void toggle(row) },
      ]}
      remove={{ one: (row) => remove(row.id).unwrap(), texts: { title: t.removeTitle, one: (row) => t.removeBody(row.subjectTypeName), many: () => '' } }}
      texts={{ loadFailed: t.loadFailed, emptyFiltered: t.emptyFiltered, emptyFilteredBody: t.emptyFilteredBody }}
      empty={{ title: t.empty, description: t.emptyBody, icon: 'tag' }}
    >
      {dialog ? <ProjectTypeDialog row={dialog.row} onClose={() => setDialog(null)} /> : null}
    </ListScreen>
  );
}
