// The task list body shared by /project/taskList (one subject, or all when none is given) and the
// /project/analysis entry (all subjects): filters in the URL, the table with live progress, row
// actions, and the batch bar (批量发起, 批量重新分析, 定时设置, 修改负责人, 删除).
import { useCallback, useMemo, useState } from 'react';
import { Alert, Button, FormGroup, HTMLSelect } from '@blueprintjs/core';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { LAUNCH_SUCCESS, type TaskRow } from '../../../../contract/api/task.ts';
import { TASK_STATUS_LABEL } from '../../../../contract/enums.ts';
import { apiErrorMessage } from '../../../api/baseQuery.ts';
import {
  useProjectDeleteMutation,
  useProjectRelaunchMutation,
  useProjectStopMutation,
  useProjectTaskRowsQuery,
} from '../../../api/taskApi.ts';
import { useSubjectAllQuery } from '../../../api/subjectApi.ts';
import { toastNotifier as notify } from '../../../app/toaster.ts';
import { usePermissions } from '../../../app/hooks.ts';
import { CheckTagGroup, KeywordSearch, ResetButton } from '../../../common/list/filters.tsx';
import { EmptyState } from '../../../common/states.tsx';
import { PagedListBody } from '../../../common/list/PagedListBody.tsx';
import { useConfirmDelete } from '../../../common/list/useConfirmDelete.tsx';
import { BatchCronDialog, BatchOwnerDialog } from './BatchDialogs.tsx';
import { GenerateReportDialog } from '../reports/GenerateReportDialog.tsx';
import { storeSelection, type SelectedProject, type SelectionSource } from './batchSelection.ts';
import { SourceTypeOptions } from './SourceTypeOptions.tsx';
import { TaskTable } from './TaskTable.tsx';
import { DEFAULT_TASK_LIST, changedTaskList, hasTaskFilters, parseTaskList, serializeTaskList, taskListArgs, type StatusFilter, type TaskListState } from './taskListQuery.ts';
import { useProgressPoll } from './useProgressPoll.ts';
import { zh } from '../../../i18n/zh-CN.ts';

const t = zh.project.list;
const STATUS_CODES: readonly StatusFilter[] = ['never', 0, 1, 2, 3, 4, -1];
const statusLabel = (s: StatusFilter) => (s === 'never' ? t.neverRun : (TASK_STATUS_LABEL as Record<string, string>)[String(s)] ?? String(s));

const toSelected = (r: TaskRow): SelectedProject => ({
  projectId: r.projectId,
  projectName: r.projectName,
  subjectName: r.subjectName,
  getCodeType: r.getCodeType,
  status: r.status,
  analysisModes: r.analysisModes,
  retentionAudit: r.retentionAudit,
});

export function TaskListView({ source }: { source: SelectionSource }) {
  const [params, setParams] = useSearchParams();
  const state = parseTaskList(params);
  const setState = (next: TaskListState) => setParams(serializeTaskList(next));
  const navigate = useNavigate();
  const location = useLocation();
  const has = usePermissions();
  const list = useProjectTaskRowsQuery(taskListArgs(state));
  const subjects = useSubjectAllQuery(undefined, { skip: source !== 'analysis' && state.subjectId !== null });
  const refetch = list.refetch;
  const onFinished = useCallback(() => void refetch(), [refetch]);
  const progress = useProgressPoll(list.data?.content, onFinished);

  // Selection survives paging and filtering: rows are kept by id.
  const [selected, setSelected] = useState<Map<number, TaskRow>>(new Map());
  const [stopping, setStopping] = useState<TaskRow | null>(null);
  const [dialog, setDialog] = useState<'cron' | 'owner' | 'report' | null>(null);
  const [keyword, setKeyword] = useState(state.keyword);
  const [relaunch] = useProjectRelaunchMutation();
  const [stop] = useProjectStopMutation();
  const [remove] = useProjectDeleteMutation();

  const ids = useMemo(() => new Set(selected.keys()), [selected]);
  const select = (row: TaskRow, on: boolean) => {
    const next = new Map(selected);
    if (on) next.set(row.projectId, row);
    else next.delete(row.projectId);
    setSelected(next);
  };
  const selectPage = (on: boolean) => {
    const next = new Map(selected);
    for (const r of list.data?.content ?? []) {
      if (on) next.set(r.projectId, r);
      else next.delete(r.projectId);
    }
    setSelected(next);
  };

  const goBatch = (path: string) => {
    storeSelection(source, [...selected.values()].map(toSelected));
    // The batch screen returns to this list as it is now (subject, filters, page).
    navigate(path, { state: { back: `${location.pathname}${location.search}` } });
  };
  const reanalysisPath = source === 'taskList' ? '/project/taskList/batchReanalysis' : '/project/analysis/batchReanalysis';

  const doRelaunch = async (row: TaskRow) => {
    const answer = await relaunch({ taskId: row.projectId });
    if ('error' in answer) notify.error(apiErrorMessage(answer.error));
    else if (answer.data.message === LAUNCH_SUCCESS) notify.success(zh.project.launchSuccess);
    else notify.warning(answer.data.message || zh.project.form.notLaunched);
  };
  const doStop = async (row: TaskRow) => {
    const answer = await stop(row.projectId);
    if ('error' in answer) notify.error(apiErrorMessage(answer.error));
    else notify.success(zh.project.operationDone);
    setStopping(null);
  };
  const removal = useConfirmDelete<TaskRow, number>({
    rowKey: (r) => r.projectId,
    removeOne: (r) => remove([r.projectId]).unwrap(),
    removeMany: (projectIds) => remove(projectIds).unwrap(),
    texts: { one: (r) => t.confirmDeleteOne(r.projectName), many: t.confirmDelete, confirm: t.confirm, done: zh.project.deleted },
    selection: {
      drop: (gone) => setSelected((old) => new Map([...old].filter(([id]) => !gone.includes(id)))),
    },
    paging: { page: state.page, rows: list.data?.content.length ?? 0, onPage: (page) => setState(changedTaskList(state, { page })) },
  });

  const showSubjectFilter = source === 'analysis' || state.subjectId === null;
  const filters = (
    <div className="cairn-filter-bar cairn-task-filter">
      <div className="cairn-filter-row">
        <KeywordSearch
          label={t.keyword}
          placeholder={t.keywordPlaceholder}
          value={keyword}
          onValueChange={setKeyword}
          onSearch={(value) => setState(changedTaskList(state, { keyword: value }))}
        />
        {showSubjectFilter ? (
          <FormGroup inline label={t.subject} labelFor="tl-subject" className="cairn-filter-group">
            <HTMLSelect id="tl-subject" value={state.subjectId ?? ''} onChange={(e) => setState(changedTaskList(state, { subjectId: e.currentTarget.value ? Number(e.currentTarget.value) : null }))}>
              <option value="">{t.allSubjects}</option>
              {(subjects.data ?? []).map((s) => <option key={s.id} value={s.id}>{s.name}</option>)}
            </HTMLSelect>
          </FormGroup>
        ) : null}
        <FormGroup inline label={t.codeType} labelFor="tl-type" className="cairn-filter-group">
          <HTMLSelect id="tl-type" value={state.codeType ?? ''} onChange={(e) => setState(changedTaskList(state, { codeType: e.currentTarget.value === '' ? null : Number(e.currentTarget.value) }))}>
            <option value="">{t.allTypes}</option>
            <SourceTypeOptions />
          </HTMLSelect>
        </FormGroup>
        <FormGroup inline label={t.sort} labelFor="tl-sort" className="cairn-filter-group">
          <HTMLSelect id="tl-sort" value={state.sort} onChange={(e) => setState(changedTaskList(state, { sort: e.currentTarget.value as TaskListState['sort'] }))}>
            {Object.entries(t.sorts).map(([k, label]) => <option key={k} value={k}>{label}</option>)}
          </HTMLSelect>
          <Button
            minimal
            icon={state.order === 'asc' ? 'sort-asc' : 'sort-desc'}
            aria-label={state.order === 'asc' ? t.asc : t.desc}
            title={state.order === 'asc' ? t.asc : t.desc}
            onClick={() => setState(changedTaskList(state, { order: state.order === 'asc' ? 'desc' : 'asc' }))}
          />
        </FormGroup>
        <ResetButton
          disabled={!hasTaskFilters(state)}
          onReset={() => {
            setKeyword('');
            setState({ ...DEFAULT_TASK_LIST, subjectId: state.subjectId, size: state.size });
          }}
        />
        <Button minimal icon="refresh" text={t.refresh} onClick={() => void refetch()} />
      </div>
      <CheckTagGroup
        label={t.status}
        codes={STATUS_CODES}
        selected={state.statuses}
        labelOf={statusLabel}
        onToggle={(code) =>
          setState(changedTaskList(state, { statuses: state.statuses.includes(code) ? state.statuses.filter((s) => s !== code) : [...state.statuses, code] }))
        }
      />
    </div>
  );

  const batchBar = selected.size > 0 ? (
    <div className="cairn-batch-bar" role="toolbar" aria-label={t.selected(selected.size)}>
      <strong>{t.selected(selected.size)}</strong>
      <Button small minimal text={t.clearSelection} onClick={() => setSelected(new Map())} />
      <span className="cairn-pager-spacer" />
      <Button small icon="play" text={t.batchLaunch} onClick={() => goBatch(`/project/analysis/batchLaunch?from=${source}`)} />
      <Button small intent="primary" icon="refresh" text={t.batchReanalysis} onClick={() => goBatch(reanalysisPath)} />
      <Button small icon="time" text={t.batchCron} onClick={() => setDialog('cron')} />
      {has('setup:user:user:list') ? <Button small icon="person" text={t.batchOwner} onClick={() => setDialog('owner')} /> : null}
      {has('report:list') ? <Button small icon="document" text={zh.report.batchGenerate} onClick={() => setDialog('report')} /> : null}
      <Button small intent="danger" icon="trash" text={t.batchDelete} onClick={() => removal.ask({ kind: 'many', keys: [...selected.keys()] })} />
    </div>
  ) : null;

  return (
    <>
      {filters}
      {batchBar}
      <PagedListBody
        list={list}
        texts={t}
        filtered={hasTaskFilters(state)}
        emptyAll={
          <EmptyState
            title={t.emptyAll}
            description={t.emptyAllBody}
            icon="folder-new"
            action={<Button intent="primary" icon="plus" text={t.newProject} onClick={() => navigate(`/project/newProject${state.subjectId ? `?subjectId=${state.subjectId}` : ''}`)} />}
          />
        }
        page={state.page}
        size={state.size}
        onPage={(page) => setState(changedTaskList(state, { page }))}
        onSize={(size) => setState(changedTaskList(state, { size }))}
        table={(rows) => (
          <TaskTable
            rows={rows}
            progress={progress}
            selected={ids}
            onSelect={select}
            onSelectPage={selectPage}
            showSubject={showSubjectFilter}
            actions={{
              onOpen: (row) => navigate(`/project/analysis/details?projectId=${row.projectId}`),
              onRelaunch: (row) => void doRelaunch(row),
              onStop: setStopping,
              onEdit: (row) => navigate(`/project/analysis/launch?projectId=${row.projectId}`),
              onDelete: (row) => removal.ask({ kind: 'one', row }),
            }}
          />
        )}
      />
      {removal.element}
      <Alert
        isOpen={stopping !== null}
        intent="warning"
        icon="stop"
        confirmButtonText={t.confirm}
        cancelButtonText={zh.project.form.cancel}
        onConfirm={() => void (stopping && doStop(stopping))}
        onCancel={() => setStopping(null)}
      >
        {stopping ? t.confirmStop(stopping.projectName) : null}
      </Alert>
      {dialog === 'cron' ? <BatchCronDialog projectIds={[...ids]} onClose={() => setDialog(null)} /> : null}
      {dialog === 'owner' ? <BatchOwnerDialog projectIds={[...ids]} onClose={() => setDialog(null)} /> : null}
      <GenerateReportDialog target={dialog === 'report' ? { variant: 'batch', projectIds: [...ids] } : null} onClose={() => setDialog(null)} />
    </>
  );
}
