// /project/analysis/details?projectId=…[&taskId=…]&tab=… 任务详情: the header (project, subject,
// source type, the shown run with its status, time and counts, 重新分析, 对比, the run selector),
// the progress of a running analysis, and the result tabs of contract/routes.ts (bugInfo is the
// bug tab with a finding open). Every tab reads the run shown in the header.
import { useMemo, useState, type ReactNode } from 'react';
import { Alert, Button, Card, HTMLSelect, Icon, Tab, Tabs, Tag, type TabId } from '@blueprintjs/core';
import { useNavigate, useSearchParams } from 'react-router';
import { ANALYSIS_MODE_LABEL, CODE_TYPE_LABEL, TASK_STATUS_LABEL, isTaskRunning, labelOf } from '../../../../contract/enums.ts';
import { DASH, formatDateTime } from '../../../../contract/format.ts';
import { routeInfo, routeTitle } from '../../../../contract/routes.ts';
import type { RunRow } from '../../../../contract/api/result/index.ts';
import { LAUNCH_SUCCESS } from '../../../../contract/api/task.ts';
import { apiErrorMessage } from '../../../api/baseQuery.ts';
import { useBatchListQuery, useProjectTaskViewQuery } from '../../../api/resultApi.ts';
import { useProjectRelaunchMutation } from '../../../api/taskApi.ts';
import { usePermissions } from '../../../app/hooks.ts';
import { toastNotifier } from '../../../app/toaster.ts';
import { Field } from '../../../common/Field.tsx';
import { Page } from '../../../common/PageHeader.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../../common/states.tsx';
import { TaskViewContext, type TaskView } from './context.ts';
import { ProgressPanel } from './ProgressPanel.tsx';
import { coverageSentence, isIncomplete } from '../../../../contract/coverage.ts';
import { LevelCountStrip, StatusTag } from './parts.tsx';
import { withParams } from '../../../app/router/links.ts';
import { compareUrl, defaultComparePair, readDetailState } from './taskUrl.ts';
import { OverviewTab } from './tabs/OverviewTab.tsx';
import { ComponentTab } from './tabs/ComponentTab.tsx';
import { TreeTab } from './tabs/TreeTab.tsx';
import { BugTab } from './tabs/BugTab.tsx';
import { LicenseTab } from './tabs/LicenseTab.tsx';
import { HistoryTab } from './tabs/HistoryTab.tsx';
import { EngineMissingTab } from './tabs/EngineMissingTab.tsx';
import { SensitiveTab } from './tabs/SensitiveTab.tsx';

/** Tabs whose engine this version does not have (EngineMissingTab): marked 暂未提供. */
const NOT_YET_TABS: ReadonlySet<string> = new Set(['codeSnippetComponent']);
import { TaskReportButtons } from '../reports/TaskReportButtons.tsx';
import { zh } from '../../../i18n/zh-CN.ts';
import './styles.ts';

const t = zh.task;
const PATH = '/project/analysis/details';

const runTime = (r: RunRow): string => formatDateTime(r.finishedAt ?? r.startedAt ?? r.queuedAt);

function RunSelector({ projectId, shown, onPick }: { projectId: number; shown: number | undefined; onPick: (id: number) => void }) {
  const runs = useBatchListQuery({ projectId, page: 1, size: 100 });
  const rows = runs.data?.content ?? [];
  if (rows.length === 0) return null;
  return (
    <HTMLSelect
      aria-label={t.run}
      value={shown ?? ''}
      onChange={(e) => onPick(Number(e.currentTarget.value))}
      options={rows.map((r) => ({
        value: r.id,
        label: t.runOption(r.seq, labelOf(TASK_STATUS_LABEL, r.status), runTime(r)),
        // Only succeeded runs have results to show.
        disabled: r.status !== 2,
      }))}
    />
  );
}

function Header({ view, onReanalyse, onCompare, compareDisabled }: { view: TaskView; onReanalyse: () => void; onCompare: () => void; compareDisabled: boolean }) {
  const { project, run } = view;
  return (
    <Card className="cairn-panel cairn-task-header">
      <div className="cairn-fields cairn-fields-grid">
        <Field label={t.subject}>{project.subjectName}</Field>
        <Field label={t.sourceType}>
          <Tag minimal>{labelOf(CODE_TYPE_LABEL, project.getCodeType)}</Tag>
        </Field>
        <Field label={t.version}>{project.versionName ?? DASH}</Field>
        <Field label={t.run}>
          <span data-testid="task-run">
            {t.runSeq(run.seq)} <StatusTag status={run.status} />
          </span>
        </Field>
        <Field label={t.finishedAt}>{formatDateTime(run.finishedAt)}</Field>
        <Field label={t.duration}>{run.durationMs !== null ? t.durationValue(run.durationMs) : DASH}</Field>
        <Field label={t.createdBy}>{run.createdByName ?? DASH}</Field>
        <Field label={t.analysisModes}>{run.analysisModes.length ? run.analysisModes.map((m) => labelOf(ANALYSIS_MODE_LABEL, m)).join('、') : DASH}</Field>
      </div>
      <div className="cairn-task-counts" data-testid="task-counts">
        <span>
          {t.counts.components} <b>{run.counts.components}</b>
        </span>
        <span>
          {t.counts.vulnerableComponents} <b>{run.counts.vulnerableComponents}</b>
        </span>
        <span>
          {t.counts.vulnerabilities} <b>{run.counts.vulnerabilities}</b>
        </span>
        <LevelCountStrip counts={run.counts.byLevel} onLevel={(level) => view.setUrl({ tab: 'bug', level, finding: undefined })} />
        <span>
          {t.counts.licenses} <b>{run.counts.licenses}</b>
        </span>
        <span className="cairn-pager-spacer" />
        <TaskReportButtons projectId={view.projectId} taskId={run.id} projectName={project.projectName} taskSeq={run.seq} />
        <Button icon="comparison" text={t.compare} disabled={compareDisabled} title={compareDisabled ? t.compareNeedsTwo : undefined} onClick={onCompare} />
        <Button icon="refresh" intent="primary" text={t.reanalyse} onClick={onReanalyse} />
      </div>
      {isIncomplete(run.coverage) ? (
        <div className="cairn-task-coverage" data-testid="task-coverage">
          <Icon icon="warning-sign" intent="warning" /> {coverageSentence(run.coverage)}
        </div>
      ) : null}
    </Card>
  );
}

export default function TaskDetailsScreen() {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const has = usePermissions();
  const state = readDetailState(params);
  const projectId = state.projectId;
  const view = useProjectTaskViewQuery({ id: projectId ?? 0, taskId: state.taskId }, { skip: !projectId });
  const runs = useBatchListQuery({ projectId: projectId ?? 0, page: 1, size: 100 }, { skip: !projectId });
  const [relaunch, relaunchState] = useProjectRelaunchMutation();
  const [confirm, setConfirm] = useState(false);
  const tabs = routeInfo(PATH)?.tabs.filter((x) => !x.aliasOf) ?? [];

  const setUrl = useMemo(
    () => (changes: Record<string, string | number | undefined>) => setParams((old) => withParams(old, changes), { replace: true }),
    [setParams],
  );

  const back = <Button icon="arrow-left" text={t.back} onClick={() => (window.history.length > 1 ? navigate(-1) : navigate('/project/taskList'))} />;
  if (!projectId) {
    return (
      <Page title={routeTitle(PATH)} actions={back}>
        <EmptyState title={t.missingProject} description={t.missingProjectBody} icon="search" />
      </Page>
    );
  }
  if (view.isLoading) return <Page title={routeTitle(PATH)} actions={back}><LoadingState /></Page>;
  if (view.isError || !view.data) {
    return (
      <Page title={routeTitle(PATH)} actions={back}>
        <ErrorState title={t.loadFailed} message={view.error?.message} onRetry={() => void view.refetch()} />
      </Page>
    );
  }
  const { project, run, latestRun } = view.data;
  const running = isTaskRunning(latestRun?.status);
  const pair = defaultComparePair(runs.data?.content ?? [], run?.id);

  const reanalyse = async () => {
    setConfirm(false);
    const answer = await relaunch({ taskId: projectId });
    if ('error' in answer) toastNotifier.error(apiErrorMessage(answer.error, t.reanalyseFailed));
    else if (answer.data.message === LAUNCH_SUCCESS) toastNotifier.success(t.reanalyseOk);
    // Saved but not launched: the platform says why.
    else toastNotifier.error(answer.data.message.trim() || t.reanalyseFailed);
  };

  const taskView: TaskView | null = run
    ? {
        projectId,
        project,
        run,
        binary: project.product === 2,
        state,
        setUrl,
        canAudit: has('analysis:result:cominfo:check'),
        canVul: has('analysis:result:vul:list'),
      }
    : null;

  const panels: Record<string, ReactNode> = {
    overview: <OverviewTab />,
    component: <ComponentTab />,
    source: <TreeTab />,
    bug: <BugTab />,
    license: <LicenseTab />,
    sensitiveInfo: <SensitiveTab />,
    historyComponent: <HistoryTab />,
    codeSnippetComponent: <EngineMissingTab />,
  };

  const subtitle = (
    <span className="cairn-detail-heading">
      <span className="cairn-detail-name" data-testid="task-project-name">{project.projectName}</span>
      {project.projectTags.map((tag) => (
        <Tag key={tag} minimal round>
          {tag}
        </Tag>
      ))}
      {latestRun && latestRun.id !== run?.id ? <StatusTag status={latestRun.status} /> : null}
    </span>
  );

  const actions = (
    <>
      {run ? <RunSelector projectId={projectId} shown={run.id} onPick={(id) => setUrl({ taskId: id, component: undefined, finding: undefined })} /> : null}
      {back}
    </>
  );

  let body: ReactNode;
  if (!taskView) {
    body = (
      <>
        <EmptyState
          title={t.noRunTitle}
          description={latestRun?.status === 3 ? t.failedRunBody(latestRun.message) : t.noRunBody}
          icon={latestRun?.status === 3 ? 'error' : 'search-template'}
          action={running ? undefined : <Button icon="refresh" intent="primary" text={t.reanalyse} onClick={() => setConfirm(true)} />}
        />
      </>
    );
  } else {
    body = (
      <TaskViewContext.Provider value={taskView}>
        <Header view={taskView} onReanalyse={() => setConfirm(true)} onCompare={() => pair && navigate(compareUrl(projectId, pair[0], pair[1]))} compareDisabled={!pair} />
        <Tabs
          id="task-detail-tabs"
          selectedTabId={state.tab}
          large
          renderActiveTabPanelOnly
          onChange={(next: TabId) => setUrl({ tab: String(next), finding: undefined, fcomp: undefined, component: undefined, risk: undefined })}
        >
          {tabs.map((x) => (
            <Tab
              key={x.key}
              id={x.key}
              title={x.label}
              // the engines this version lacks: the tab opens its explanation, marked like the menu
              {...(NOT_YET_TABS.has(x.key) && { tagContent: zh.app.notYet, tagProps: { intent: 'warning', round: true, className: 'cairn-not-yet' } })}
              panel={<div className="cairn-tab-panel">{panels[x.key]}</div>}
            />
          ))}
        </Tabs>
      </TaskViewContext.Provider>
    );
  }

  return (
    <Page title={routeTitle(PATH)} subtitle={subtitle} actions={actions}>
      {running && latestRun ? <ProgressPanel key={latestRun.id} projectId={projectId} latestRun={latestRun} hasOlderResults={Boolean(run)} /> : null}
      {body}
      <Alert isOpen={confirm} intent="primary" icon="refresh" confirmButtonText={t.confirm} cancelButtonText={t.cancel} loading={relaunchState.isLoading} onConfirm={() => void reanalyse()} onCancel={() => setConfirm(false)}>
        {t.reanalyseConfirm}
      </Alert>
    </Page>
  );
}
