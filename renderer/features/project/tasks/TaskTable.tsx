// One page of the task list: a project with its latest run per row, its live progress while
// queued or analysing, the findings of its latest result by level, and the row actions.
import { IncompleteTag } from '../../../common/kbStatus.tsx';
import { Button, Checkbox, HTMLTable, ProgressBar, Tag, type Intent } from '@blueprintjs/core';
import type { Progress, TaskRow } from '../../../../contract/api/task.ts';
import { CODE_TYPE_LABEL, TASK_STATUS_LABEL, VULNERABILITY_LEVEL_LABEL, labelOf, isLocalUploadType } from '../../../../contract/enums.ts';
import { formatDateTime, formatTimestamp } from '../../../../contract/format.ts';
import { levelColor } from '../../../common/levels.tsx';
import { isPolledStatus } from './taskListQuery.ts';
import { zh } from '../../../i18n/zh-CN.ts';

const t = zh.project.list;
const LEVELS = [1, 2, 4, 8, 16] as const;

export const statusIntent = (status: number | null | undefined): Intent =>
  status === 2 ? 'success' : status === 3 ? 'danger' : status === 4 ? 'warning' : status === null || status === undefined ? 'none' : 'primary';

function StatusCell({ row, progress }: { row: TaskRow; progress: Progress | undefined }) {
  const status = progress?.status ?? row.status;
  if (status === null || status === undefined) return <Tag minimal>{t.noRun}</Tag>;
  const running = isPolledStatus(status);
  const pct = progress?.progress ?? row.progress;
  const stage = progress?.stageLabel;
  const message = progress?.message ?? row.message;
  return (
    <div>
      <Tag intent={statusIntent(status)} minimal={running} title={status === 3 && message ? message : undefined}>
        {labelOf(TASK_STATUS_LABEL, status)}
        {running ? ` ${pct}%` : ''}
      </Tag>
      {running ? (
        <>
          <ProgressBar className="cairn-task-progress" intent="primary" value={Math.max(0.02, pct / 100)} stripes={status === 1} animate={status === 1} />
          <div className="cairn-muted cairn-task-stage">
            {progress?.queuePosition ? t.queuePosition(progress.queuePosition) : stage}
          </div>
        </>
      ) : null}
      {status === 3 && message ? <div className="cairn-text-danger cairn-task-stage cairn-ellipsis-1" title={message}>{message}</div> : null}
    </div>
  );
}

function LevelCounts({ row }: { row: TaskRow }) {
  const byLevel = row.resultSummary.byLevel;
  if (!row.resultTaskId || !byLevel) return <span className="cairn-muted">--</span>;
  const total = LEVELS.reduce((n, l) => n + (byLevel[l] ?? 0), 0);
  if (total === 0) return <span className="cairn-muted">{t.noFindings}</span>;
  return (
    <div className="cairn-level-counts">
      {LEVELS.filter((l) => (byLevel[l] ?? 0) > 0).map((l) => (
        <span key={l} className="cairn-level-count" style={{ backgroundColor: levelColor(l) }} title={`${VULNERABILITY_LEVEL_LABEL[l]} ${byLevel[l]}`}>
          {byLevel[l]}
        </span>
      ))}
    </div>
  );
}

export interface RowActions {
  onOpen: (row: TaskRow) => void;
  onRelaunch: (row: TaskRow) => void;
  onStop: (row: TaskRow) => void;
  onEdit: (row: TaskRow) => void;
  onDelete: (row: TaskRow) => void;
}

export function TaskTable({ rows, progress, selected, onSelect, onSelectPage, actions, showSubject }: {
  rows: readonly TaskRow[];
  progress: Map<number, Progress>;
  selected: ReadonlySet<number>;
  onSelect: (row: TaskRow, on: boolean) => void;
  onSelectPage: (on: boolean) => void;
  actions: RowActions;
  showSubject: boolean;
}) {
  const allOn = rows.length > 0 && rows.every((r) => selected.has(r.projectId));
  const someOn = rows.some((r) => selected.has(r.projectId));
  return (
    <div className="cairn-table-scroll">
      <HTMLTable className="cairn-table cairn-vul-table cairn-task-table" striped>
        <thead>
          <tr>
            <th className="cairn-col-check">
              <Checkbox aria-label={t.selectAll} checked={allOn} indeterminate={someOn && !allOn} onChange={(e) => onSelectPage(e.currentTarget.checked)} />
            </th>
            <th>{t.columns.project}</th>
            {showSubject ? <th className="cairn-col-subject">{t.columns.subject}</th> : null}
            <th>{t.columns.type}</th>
            <th className="cairn-col-status">{t.columns.status}</th>
            <th className="cairn-col-findings">{t.columns.findings}</th>
            <th className="cairn-col-components">{t.columns.components}</th>
            <th className="cairn-col-date">{t.columns.lastRun}</th>
            <th className="cairn-col-timing">{t.columns.timing}</th>
            <th className="cairn-col-actions">{t.columns.actions}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const p = progress.get(row.projectId);
            const status = p?.status ?? row.status;
            const running = isPolledStatus(status);
            return (
              <tr key={row.projectId}>
                <td className="cairn-col-check">
                  <Checkbox aria-label={t.selectRow(row.projectName)} checked={selected.has(row.projectId)} onChange={(e) => onSelect(row, e.currentTarget.checked)} />
                </td>
                <td className="cairn-col-name">
                  <a
                    className="cairn-project-link"
                    href={`#/project/analysis/details?projectId=${row.projectId}`}
                    onClick={(e) => {
                      e.preventDefault();
                      actions.onOpen(row);
                    }}
                  >
                    {row.projectName}
                  </a>
                  {row.projectTags ? (
                    <div className="cairn-tag-list">
                      {row.projectTags.split(',').filter(Boolean).map((tag) => (
                        <Tag key={tag} minimal round>{tag}</Tag>
                      ))}
                    </div>
                  ) : null}
                </td>
                {showSubject ? <td className="cairn-col-subject">{row.subjectName}{row.versionName ? <div className="cairn-muted">{row.versionName}</div> : null}</td> : null}
                <td className="cairn-col-type">{labelOf(CODE_TYPE_LABEL, row.getCodeType)}</td>
                <td className="cairn-col-status"><StatusCell row={row} progress={p} /></td>
                <td className="cairn-col-findings"><LevelCounts row={row} />{row.resultTaskId ? <IncompleteTag coverage={row.resultSummary.coverage} /> : null}</td>
                <td className="cairn-col-components">{row.resultTaskId && row.resultSummary.components !== undefined ? t.components(row.resultSummary.components) : '--'}</td>
                <td className="cairn-col-date">{formatDateTime(p?.finishedAt ?? row.finishedAt ?? p?.startedAt ?? row.startedAt)}</td>
                <td className="cairn-col-timing">
                  {isLocalUploadType(row.getCodeType) || !row.enableTiming ? (
                    <span className="cairn-muted">{t.timingOff}</span>
                  ) : (
                    <span>{row.nextRunAt ? t.timingNext(formatTimestamp(row.nextRunAt, 'MM-DD HH:mm')) : '--'}</span>
                  )}
                </td>
                <td className="cairn-col-actions">
                  {running ? (
                    <Button small minimal intent="warning" icon="stop" text={t.stopTask} onClick={() => actions.onStop(row)} />
                  ) : (
                    <Button small minimal intent="primary" icon={status === null ? 'play' : 'refresh'} text={status === null ? t.launch : t.relaunch} onClick={() => actions.onRelaunch(row)} />
                  )}
                  <Button small minimal icon="edit" text={t.edit} onClick={() => actions.onEdit(row)} />
                  <Button small minimal intent="danger" icon="trash" text={t.remove} disabled={running} onClick={() => actions.onDelete(row)} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </HTMLTable>
    </div>
  );
}
