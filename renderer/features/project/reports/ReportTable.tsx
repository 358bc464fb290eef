// One page of reports: name, format, subject, project, task, status (a bar with its percentage
// while waiting or generating, the reason in a tooltip when it failed), size, who and when, and
// the actions (下载 into the desktop library with its progress or 已下载, 删除). Times wrap to
// date / time and the row actions are compact so the eleven columns fit beside the side menu.
import { Button, Checkbox, HTMLTable, ProgressBar, Tag, Tooltip } from '@blueprintjs/core';
import { Link } from 'react-router';
import type { ReportRow } from '../../../../contract/api/report.ts';
import type { LibraryEntry } from '../../../../contract/ipc/desktop-contract.ts';
import { DASH, formatDateTime, formatFileSize } from '../../../../contract/format.ts';
import { canDownload, downloadView, reportTypeLabel, statusView } from './reportModel.ts';
import { zh } from '../../../i18n/zh-CN.ts';

const t = zh.report;
const c = t.columns;

/** `2026-11-22 15:04:40` as date over time, so the two time columns stay narrow. */
function DateTime({ value }: { value: string | null }) {
  const text = formatDateTime(value);
  const [date, time] = text.split(' ');
  return time ? (
    <>
      <span className="cairn-report-date">{date}</span>
      <span className="cairn-report-clock">{time}</span>
    </>
  ) : (
    <>{text}</>
  );
}

function StatusCell({ row }: { row: ReportRow }) {
  const view = statusView(row);
  if (view.progress !== null) {
    return (
      <div className="cairn-report-progress" aria-label={`${view.label} ${view.progress}%`}>
        <Tag minimal intent={view.intent}>{view.label}</Tag>
        <ProgressBar value={view.progress / 100} intent="primary" animate stripes className="cairn-report-bar" />
        <span className="cairn-report-pct">{view.progress}%</span>
      </div>
    );
  }
  const tag = (
    <Tag minimal intent={view.intent} icon={view.reason ? 'error' : undefined}>
      {view.label}
    </Tag>
  );
  return view.reason ? (
    <Tooltip content={<span className="cairn-report-reason">{`${t.failedReason}：${view.reason}`}</span>} placement="top">
      {tag}
    </Tooltip>
  ) : (
    tag
  );
}

function DownloadCell({ row, entry, onDownload }: { row: ReportRow; entry: LibraryEntry | undefined; onDownload: (row: ReportRow) => void }) {
  if (!canDownload(row)) return null;
  const view = downloadView(entry);
  if (view?.kind === 'progress') {
    return (
      <div className="cairn-report-progress cairn-report-download" aria-label={view.label}>
        <ProgressBar value={view.percent / 100} intent="success" animate stripes className="cairn-report-bar" />
        <span className="cairn-report-pct">{view.label}</span>
      </div>
    );
  }
  return (
    <>
      {view?.kind === 'done' ? (
        <Tag minimal intent="success" icon="tick">
          {view.label}
        </Tag>
      ) : null}
      {view?.kind === 'failed' ? (
        <Tooltip content={view.reason} placement="top">
          <Tag minimal intent="danger" icon="error">
            {view.label}
          </Tag>
        </Tooltip>
      ) : null}
      {view ? (
        <Button size="small" variant="minimal" intent="primary" icon="download" aria-label={t.redownload} title={t.redownload} onClick={() => onDownload(row)} />
      ) : (
        <Button size="small" variant="minimal" intent="primary" icon="download" text={t.download} onClick={() => onDownload(row)} />
      )}
    </>
  );
}

export function ReportTable(props: {
  rows: readonly ReportRow[];
  /** Subject, project and task columns (not for statistics reports, which cover every project). */
  scoped: boolean;
  /** Row selection for batch delete; absent when the tab has none. */
  selection?: { selected: ReadonlySet<number>; onSelect: (ids: number[], on: boolean) => void };
  downloads: ReadonlyMap<number, LibraryEntry>;
  onDownload: (row: ReportRow) => void;
  onDelete: (row: ReportRow) => void;
}) {
  const { rows, scoped, selection, downloads, onDownload, onDelete } = props;
  const ids = rows.map((r) => r.id);
  const allOn = selection ? ids.length > 0 && ids.every((id) => selection.selected.has(id)) : false;
  const someOn = selection ? ids.some((id) => selection.selected.has(id)) : false;
  return (
    <div className="cairn-report-scroll">
    <HTMLTable className="cairn-table cairn-report-table" compact striped>
      <thead>
        <tr>
          {selection ? (
            <th className="cairn-report-check">
              <Checkbox aria-label={t.selectAll} checked={allOn} indeterminate={!allOn && someOn} onChange={(e) => selection.onSelect(ids, e.currentTarget.checked)} />
            </th>
          ) : null}
          <th>{c.name}</th>
          <th>{c.format}</th>
          {scoped ? (
            <>
              <th>{c.subject}</th>
              <th>{c.project}</th>
              <th>{c.task}</th>
            </>
          ) : null}
          <th>{c.status}</th>
          <th className="cairn-report-num">{c.size}</th>
          <th>{c.createdBy}</th>
          <th>{c.createTime}</th>
          <th>{c.finishTime}</th>
          <th className="cairn-col-actions">{c.actions}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.id} data-report-id={row.id}>
            {selection ? (
              <td className="cairn-report-check">
                <Checkbox aria-label={t.selectRow(row.name)} checked={selection.selected.has(row.id)} onChange={(e) => selection.onSelect([row.id], e.currentTarget.checked)} />
              </td>
            ) : null}
            <td className="cairn-report-name">
              <div className="cairn-report-name-text" title={row.name}>
                {row.name}
              </div>
            </td>
            <td>
              <Tag minimal round>
                {reportTypeLabel(row.reportType)}
              </Tag>
            </td>
            {scoped ? (
              <>
                <td className="cairn-report-scope-cell">{row.subjectName || DASH}</td>
                <td className="cairn-report-scope-cell">{row.projectName || (row.kind === 'subject' ? t.allProjects : DASH)}</td>
                <td className="cairn-nowrap">
                  {row.projectId && row.taskId && row.taskSeq ? (
                    <Link to={`/project/analysis/details?projectId=${row.projectId}&taskId=${row.taskId}`}>{t.taskSeq(row.taskSeq)}</Link>
                  ) : (
                    DASH
                  )}
                </td>
              </>
            ) : null}
            <td className="cairn-report-status">
              <StatusCell row={row} />
            </td>
            <td className="cairn-report-num cairn-nowrap">{formatFileSize(row.size)}</td>
            <td className="cairn-nowrap">{row.createdBy || DASH}</td>
            <td className="cairn-report-time">
              <DateTime value={row.createTime} />
            </td>
            <td className="cairn-report-time">
              <DateTime value={row.finishTime} />
            </td>
            <td className="cairn-table-actions cairn-report-actions cairn-col-actions">
              <DownloadCell row={row} entry={downloads.get(row.id)} onDownload={onDownload} />
              <Button size="small" variant="minimal" intent="danger" icon="trash" aria-label={t.delete} title={t.delete} disabled={row.status === 3} onClick={() => onDelete(row)} />
            </td>
          </tr>
        ))}
      </tbody>
    </HTMLTable>
    </div>
  );
}
