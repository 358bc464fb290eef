// The running analysis of a project: stage and percentage, polled every 1.5 s while the newest run
// is queued or analysing. When it leaves those states every result read is refetched.
import { useEffect, useRef } from 'react';
import { Callout, ProgressBar } from '@blueprintjs/core';
import { isTaskRunning } from '../../../../contract/enums.ts';
import type { RunRow } from '../../../../contract/api/result/index.ts';
import { RUN_STAGES, RUN_STAGE_LABEL, type Progress } from '../../../../contract/api/task.ts';
import { resultApi } from '../../../api/resultApi.ts';
import { useProjectProgressQuery } from '../../../api/taskApi.ts';
import { useAppDispatch } from '../../../app/hooks.ts';
import { toastNotifier } from '../../../app/toaster.ts';
import { progressFraction } from '../../../common/charts.ts';
import { zh } from '../../../i18n/zh-CN.ts';

const t = zh.task;
const PROGRESS_POLL_MS = 1500;

/** What the panel shows: the progress answer, else the header's newest run (progress call failing). */
function fromRun(run: RunRow, projectId: number): Progress {
  const stage = (RUN_STAGES as readonly string[]).includes(run.stage) ? (run.stage as Progress['stage']) : null;
  return {
    projectId,
    taskId: run.id,
    status: run.status,
    stage,
    stageLabel: stage ? RUN_STAGE_LABEL[stage as keyof typeof RUN_STAGE_LABEL] : '',
    progress: run.progress,
    message: run.message,
    queuePosition: null,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
  };
}

export function ProgressPanel({ projectId, latestRun, hasOlderResults }: { projectId: number; latestRun: RunRow; hasOlderResults: boolean }) {
  const dispatch = useAppDispatch();
  const q = useProjectProgressQuery(String(projectId), { pollingInterval: PROGRESS_POLL_MS, skipPollingIfUnfocused: false });
  // The panel is only shown while the header says the newest run is queued or analysing. A cached
  // answer from an earlier run may already say done, so only an answer fetched after mounting
  // counts; until then (and when the progress call fails) the header's run row is shown.
  const mountedAt = useRef(Date.now());
  const ended = useRef(false);
  const fresh = (q.fulfilledTimeStamp ?? 0) >= mountedAt.current;
  const answer = fresh ? q.data?.find((x) => x.projectId === projectId) : undefined;
  const p = answer ?? fromRun(latestRun, projectId);
  const running = isTaskRunning(p.status);

  useEffect(() => {
    if (!answer || isTaskRunning(answer.status) || ended.current) return;
    if (answer.taskId !== null && answer.taskId < latestRun.id) return;
    ended.current = true;
    dispatch(resultApi.util.invalidateTags(['Run', 'Result', 'Mark']));
    if (answer.status === 2) toastNotifier.success(t.finished);
  }, [answer, latestRun.id, dispatch]);

  if (!running) return null;
  const queued = p.status === 0;
  return (
    <Callout intent="primary" icon={queued ? 'time' : 'refresh'} title={queued ? t.queuedTitle : t.progressTitle} className="cairn-progress-panel" data-testid="task-progress">
      <div className="cairn-progress-row">
        <span className="cairn-muted">{t.stage}：</span>
        <b>{p.stageLabel || zh.task.queuedTitle}</b>
        {queued && p.queuePosition ? <span className="cairn-muted"> · {t.queuePosition(p.queuePosition)}</span> : null}
        <span className="cairn-pager-spacer" />
        <b className="cairn-progress-percent">{`${Math.round(p.progress)}%`}</b>
      </div>
      <ProgressBar intent="primary" value={progressFraction(p.progress)} animate stripes={!queued} aria-label={t.progressAria} />
      {p.message ? <div className="cairn-muted cairn-progress-message">{p.message}</div> : null}
      {hasOlderResults ? <div className="cairn-muted cairn-progress-message">{t.olderResults}</div> : null}
    </Callout>
  );
}
