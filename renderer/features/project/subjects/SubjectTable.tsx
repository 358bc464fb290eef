// The subjects of a page: name (to the subject's task list), importance, group, owner, counts,
// the latest analysis and row actions (设置, 生成应用报告, 转移, 删除) for those the caller manages.
import { Button, Checkbox, HTMLTable, Tag } from '@blueprintjs/core';
import { Link, useNavigate } from 'react-router';
import type { SubjectRow } from '../../../../contract/api/subject.ts';
import { DASH, PROJECT_IMPORTANCE_LABEL, labelOf } from '../../../../contract/enums.ts';
import { formatDateTime } from '../../../../contract/format.ts';
import { zh } from '../../../i18n/zh-CN.ts';

const t = zh.subject;
const IMPORTANCE_INTENT: Record<number, 'danger' | 'warning' | 'none'> = { 1: 'danger', 2: 'warning' };
const STATUS_INTENT: Record<number, 'success' | 'danger' | 'primary' | 'none'> = { 2: 'success', 3: 'danger', 1: 'primary' };

export function SubjectTable({ rows, selected, onSelect, onTransfer, onDelete, onReport }: {
  rows: SubjectRow[];
  selected: ReadonlySet<number>;
  onSelect: (ids: number[], on: boolean) => void;
  onTransfer: (row: SubjectRow) => void;
  onDelete: (row: SubjectRow) => void;
  /** 生成应用报告, for those who may generate reports. */
  onReport?: (row: SubjectRow) => void;
}) {
  const navigate = useNavigate();
  const manageable = rows.filter((r) => r.canManage).map((r) => r.id);
  const allOn = manageable.length > 0 && manageable.every((id) => selected.has(id));
  return (
    <div className="cairn-table-scroll">
      <HTMLTable className="cairn-table" interactive compact striped>
        <thead>
          <tr>
            <th style={{ width: 32 }}>
              <Checkbox aria-label={t.selected(manageable.length)} checked={allOn} disabled={!manageable.length} onChange={(e) => onSelect(manageable, e.currentTarget.checked)} />
            </th>
            <th>{t.columns.name}</th>
            <th>{t.columns.importance}</th>
            <th>{t.columns.group}</th>
            <th>{t.columns.owner}</th>
            <th>{t.columns.members}</th>
            <th>{t.columns.projects}</th>
            <th>{t.columns.lastAnalysis}</th>
            <th>{t.columns.findings}</th>
            <th>{t.columns.createdAt}</th>
            <th className="cairn-col-actions">{t.columns.actions}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              <td><Checkbox aria-label={row.name} checked={selected.has(row.id)} disabled={!row.canManage} onChange={(e) => onSelect([row.id], e.currentTarget.checked)} /></td>
              <td>
                <Link className="cairn-subject-name" to={`/project/taskList?subjectId=${row.id}`}>{row.name}</Link>
                {row.description ? <div className="cairn-subject-desc cairn-muted" title={row.description}>{row.description}</div> : null}
              </td>
              <td><Tag minimal intent={IMPORTANCE_INTENT[row.importance] ?? 'none'}>{labelOf(PROJECT_IMPORTANCE_LABEL, row.importance)}</Tag></td>
              <td>{row.groupName ?? DASH}</td>
              <td>{row.ownerName ?? DASH}</td>
              <td>{row.memberCount}</td>
              <td>{row.projectCount}</td>
              <td>
                {row.lastStatus === null
                  ? <span className="cairn-muted">{t.notAnalysed}</span>
                  : <><Tag minimal intent={STATUS_INTENT[row.lastStatus] ?? 'none'}>{t.status[String(row.lastStatus)] ?? row.lastStatus}</Tag> <span className="cairn-muted">{formatDateTime(row.lastAnalysisAt)}</span></>}
              </td>
              <td>{row.counts.components} / {row.counts.vulnerabilities}</td>
              <td>{formatDateTime(row.createdAt)}</td>
              <td className="cairn-table-actions cairn-col-actions">
                <Button small minimal icon="cog" text={t.settings} onClick={() => navigate(`/project/projectSettings/basicSetup?subjectId=${row.id}`)} />
                {onReport ? <Button small minimal icon="document" text={zh.report.generateSubject} disabled={row.projectCount === 0} onClick={() => onReport(row)} /> : null}
                <Button small minimal icon="swap-horizontal" text={t.transfer} disabled={!row.canManage} onClick={() => onTransfer(row)} />
                <Button small minimal icon="trash" intent="danger" text={t.delete} disabled={!row.canManage} onClick={() => onDelete(row)} />
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </div>
  );
}
