// The batch screens: /project/analysis/batchLaunch (批量发起任务, POST /api/project/batch/check),
// /project/taskList/batchReanalysis and /project/analysis/batchReanalysis (批量重新分析, POST
// /api/project/batch/recheck, or .../recheck/setup when the analysis settings change too). They
// show the projects chosen on the list, then the spec's message 批量任务发起完成，成功：N个， 失败：M个
// with the reasons of the failures. The router clears the stored selection when the user leaves
// the batch-reanalysis screens; the launch screen clears its own when it closes.
import { useEffect, useState } from 'react';
import { Button, Card, FormGroup, HTMLTable, Switch, Tag } from '@blueprintjs/core';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import type { BatchResult } from '../../../../contract/api/task.ts';
import { CODE_TYPE_LABEL, isAnalysisModeOffered, TASK_STATUS_LABEL, labelOf, parseAnalysisModes } from '../../../../contract/enums.ts';
import { routeTitle } from '../../../../contract/routes.ts';
import { apiErrorMessage } from '../../../api/baseQuery.ts';
import { useProjectBatchCheckMutation, useProjectBatchRecheckMutation, useProjectBatchRecheckSetupMutation } from '../../../api/taskApi.ts';
import { toastNotifier as notify } from '../../../app/toaster.ts';
import { GuardedButton } from '../../../common/GuardedButton.tsx';
import { Page } from '../../../common/PageHeader.tsx';
import { EmptyState, ErrorCallout } from '../../../common/states.tsx';
import { BatchOutcome } from './BatchDialogs.tsx';
import { batchLaunchMessage, clearSelection, readSelection, type SelectedProject, type SelectionSource } from './batchSelection.ts';
import { DEFAULT_ANALYSIS_MODES, joinModes } from './projectForm.ts';
import { AnalysisModeChecks } from './AnalysisModeChecks.tsx';
import { statusIntent } from './TaskTable.tsx';
import { zh } from '../../../i18n/zh-CN.ts';
import './styles.ts';

const t = zh.project.batch;

/** The analysis modes the selection shares (a starting point for the setup options). */
function commonModes(rows: readonly SelectedProject[]): number[] {
  const first = rows[0];
  if (!first) return [...DEFAULT_ANALYSIS_MODES];
  const modes = (parseAnalysisModes(first.analysisModes) as number[]).filter(isAnalysisModeOffered);
  return modes.filter((m) => rows.every((r) => parseAnalysisModes(r.analysisModes).includes(m as never)));
}

function BatchScreen({ mode, source, path }: { mode: 'launch' | 'reanalysis'; source: SelectionSource; path: string }) {
  const navigate = useNavigate();
  const [rows] = useState(() => readSelection(source));
  const [setup, setSetup] = useState(false);
  const [modes, setModes] = useState<number[]>(() => commonModes(rows));
  const [retention, setRetention] = useState(() => rows.every((r) => r.retentionAudit));
  const [result, setResult] = useState<BatchResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [check, checking] = useProjectBatchCheckMutation();
  const [recheck, rechecking] = useProjectBatchRecheckMutation();
  const [recheckSetup, settingUp] = useProjectBatchRecheckSetupMutation();

  // The launch screen is not one of the spec's batch-reanalysis screens: it clears its own selection.
  useEffect(() => (mode === 'launch' ? () => clearSelection(source) : undefined), [mode, source]);

  const location = useLocation();
  const stored = (location.state as { back?: unknown } | null)?.back;
  const back = typeof stored === 'string' && stored.startsWith('/project/') ? stored : source === 'taskList' ? '/project/taskList' : '/project/analysis';
  const title = routeTitle(path);
  if (rows.length === 0) {
    return (
      <Page title={title}>
        <EmptyState title={t.empty} description={t.emptyBody} icon="multi-select" action={<Button text={t.backToList} onClick={() => navigate(back)} />} />
      </Page>
    );
  }

  const run = async () => {
    setError(null);
    const projectIds = rows.map((r) => r.projectId);
    const answer =
      mode === 'launch'
        ? await check({ projectIds })
        : setup
          ? await recheckSetup({ projectIds, analysisModes: joinModes(modes), retentionAudit: retention })
          : await recheck({ projectIds });
    if ('error' in answer) {
      setError(apiErrorMessage(answer.error));
      return;
    }
    setResult(answer.data);
    const message = batchLaunchMessage(answer.data.successNum, answer.data.failNum);
    if (answer.data.failNum > 0) notify.warning(message);
    else notify.success(message);
  };
  const busy = checking.isLoading || rechecking.isLoading || settingUp.isLoading;

  return (
    <Page title={title} subtitle={`${mode === 'launch' ? t.launchSubtitle : t.reanalysisSubtitle} · ${t.selectedCount(rows.length)}`}>
      <Card className="cairn-table-card">
        <HTMLTable className="cairn-table cairn-vul-table" striped>
          <thead>
            <tr>
              <th>{zh.project.list.columns.project}</th>
              <th>{zh.project.list.columns.subject}</th>
              <th>{zh.project.list.columns.type}</th>
              <th>{zh.project.list.columns.status}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.projectId}>
                <td>{r.projectName}</td>
                <td>{r.subjectName}</td>
                <td>{labelOf(CODE_TYPE_LABEL, r.getCodeType)}</td>
                <td>{r.status === null ? <Tag minimal>{zh.project.list.noRun}</Tag> : <Tag minimal intent={statusIntent(r.status)}>{labelOf(TASK_STATUS_LABEL, r.status)}</Tag>}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </Card>
      {mode === 'reanalysis' && !result ? (
        <Card className="cairn-batch-options">
          <Switch label={t.changeSetup} checked={setup} onChange={(e) => setSetup(e.currentTarget.checked)} />
          <div className="cairn-muted cairn-form-note">{t.changeSetupHelp}</div>
          {setup ? (
            <>
              <FormGroup label={zh.project.form.analysisModes}>
                <div role="group" aria-label={zh.project.form.analysisModes} className="cairn-mode-checks">
                  <AnalysisModeChecks selected={modes} onToggle={(m) => setModes(modes.includes(m) ? modes.filter((x) => x !== m) : [...modes, m])} />
                </div>
              </FormGroup>
              <Switch label={zh.project.form.retentionAudit} checked={retention} onChange={(e) => setRetention(e.currentTarget.checked)} />
            </>
          ) : null}
        </Card>
      ) : null}
      <ErrorCallout message={error} className="cairn-result-callout" />
      {result ? <BatchOutcome result={result} message={batchLaunchMessage(result.successNum, result.failNum)} /> : null}
      <div className="cairn-form-actions">
        {result ? (
          <Button intent="primary" text={source === 'taskList' ? t.backToList : t.backToAnalysis} onClick={() => navigate(back)} />
        ) : (
          <>
            <Button text={zh.project.form.cancel} onClick={() => navigate(back)} />
            <GuardedButton
              intent="primary"
              icon={mode === 'launch' ? 'play' : 'refresh'}
              text={mode === 'launch' ? t.confirmLaunch : t.confirmReanalysis}
              disabled={setup && modes.length === 0}
              loading={busy}
              onClick={() => void run()}
            />
          </>
        )}
      </div>
    </Page>
  );
}

export function BatchLaunchScreen() {
  const [params] = useSearchParams();
  const source: SelectionSource = params.get('from') === 'analysis' ? 'analysis' : 'taskList';
  return <BatchScreen mode="launch" source={source} path="/project/analysis/batchLaunch" />;
}

export function TaskListBatchReanalysisScreen() {
  return <BatchScreen mode="reanalysis" source="taskList" path="/project/taskList/batchReanalysis" />;
}

export function AnalysisBatchReanalysisScreen() {
  return <BatchScreen mode="reanalysis" source="analysis" path="/project/analysis/batchReanalysis" />;
}
