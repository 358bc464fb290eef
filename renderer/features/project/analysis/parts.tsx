// Small display pieces the result screens share: risk, mark, VEX and status tags, the level
// count strip, the mark-log table.
import { HTMLTable, Tag, type Intent } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import type { MarkLogRow } from '../../../../contract/api/result/index.ts';
import { COMPONENT_MARK_LABEL, LEVEL_CODES, TASK_STATUS_LABEL, VEX_LABEL, VULNERABILITY_MARK_LABEL, labelOf } from '../../../../contract/enums.ts';
import { DASH, formatDateTime } from '../../../../contract/format.ts';
import type { LevelCounts } from '../../../../contract/api/result/index.ts';
import { riskColor, riskLabel, levelName } from '../../../common/charts.ts';
import { zh } from '../../../i18n/zh-CN.ts';
import type { KbCoverage } from '../../../../contract/api/kb-status.ts';
import { isComponentNotCovered } from '../../../../contract/coverage.ts';
import { NotCoveredTag } from '../../../common/kbStatus.tsx';

const t = zh.task;

/** Whether a component of the run is 未覆盖 rather than 无漏洞 (risk 32 in an ecosystem the knowledge base did not cover). */
export const notCoveredIn = (coverage: KbCoverage | null | undefined, ecosystem: string | undefined, risk: number | null | undefined): boolean =>
  isComponentNotCovered(coverage, ecosystem, risk);

/**
 * A component's risk; `notCovered` (notCoveredIn: the knowledge base held nothing for its ecosystem
 * when the run was analysed) shows 未覆盖 instead of 无漏洞.
 */
export function RiskTag({ risk, notCovered }: { risk: number | null | undefined; notCovered?: boolean }) {
  if (notCovered) return <NotCoveredTag />;
  return (
    <Tag className="cairn-level-tag" style={{ backgroundColor: riskColor(risk), color: '#fff' }}>
      {riskLabel(risk)}
    </Tag>
  );
}

const COMPONENT_MARK_INTENT: Record<string, Intent> = { N: 'none', F: 'success', L: 'warning', W: 'primary', Y: 'none' };

export function ComponentMarkTag({ mark }: { mark: string }) {
  return (
    <Tag minimal intent={COMPONENT_MARK_INTENT[mark] ?? 'none'} className="cairn-mark-tag">
      {labelOf(COMPONENT_MARK_LABEL, mark)}
    </Tag>
  );
}

const VUL_MARK_INTENT: Record<number, Intent> = { 0: 'none', 1: 'danger', 2: 'success', 3: 'primary', 4: 'warning', 5: 'success', 6: 'success', 7: 'none' };

export function VulMarkTag({ mark }: { mark: number }) {
  return (
    <Tag minimal intent={VUL_MARK_INTENT[mark] ?? 'none'} className="cairn-mark-tag">
      {labelOf(VULNERABILITY_MARK_LABEL, mark)}
    </Tag>
  );
}

const VEX_INTENT: Record<number, Intent> = { 0: 'none', 1: 'success', 2: 'danger', 3: 'primary', 4: 'warning' };

export function VexTag({ vex }: { vex: number }) {
  return (
    <Tag minimal intent={VEX_INTENT[vex] ?? 'none'} className="cairn-mark-tag">
      {labelOf(VEX_LABEL, vex)}
    </Tag>
  );
}

const STATUS_INTENT: Record<number, Intent> = { [-1]: 'warning', 0: 'none', 1: 'primary', 2: 'success', 3: 'danger', 4: 'warning' };

export function StatusTag({ status }: { status: number | null | undefined }) {
  if (status === null || status === undefined) return <span className="cairn-muted">{DASH}</span>;
  return (
    <Tag intent={STATUS_INTENT[status] ?? 'none'} minimal={status !== 1}>
      {labelOf(TASK_STATUS_LABEL, status)}
    </Tag>
  );
}

/** 超危 3 · 高危 5 …: one coloured count per level (zeros muted). */
export function LevelCountStrip({ counts, onLevel }: { counts: LevelCounts; onLevel?: (level: number) => void }) {
  return (
    <span className="cairn-level-strip">
      {LEVEL_CODES.map((level) => {
        const n = counts[level] ?? 0;
        const body = (
          <>
            <span className="cairn-level-dot" style={{ backgroundColor: riskColor(level) }} />
            {levelName(level)} <b style={n ? { color: riskColor(level) } : undefined}>{n}</b>
          </>
        );
        return onLevel ? (
          <button key={level} type="button" className="cairn-level-strip-item cairn-link-button" data-level={level} onClick={() => onLevel(level)}>
            {body}
          </button>
        ) : (
          <span key={level} className={n ? 'cairn-level-strip-item' : 'cairn-level-strip-item cairn-muted'} data-level={level}>
            {body}
          </span>
        );
      })}
    </span>
  );
}

const userOf = (row: MarkLogRow): string => row.userName ?? t.marks.deletedUser;

/** Mark, level and VEX changes, newest first. */
export function MarkLogTable({ rows, empty }: { rows: readonly MarkLogRow[]; empty: string }) {
  if (rows.length === 0) return <div className="cairn-muted cairn-panel-empty">{empty}</div>;
  const c = t.marks.logColumns;
  return (
    <HTMLTable className="cairn-table" compact striped>
      <thead>
        <tr>
          <th>{c.time}</th>
          <th>{c.user}</th>
          <th>{c.kind}</th>
          <th>{c.change}</th>
          <th>{c.remark}</th>
          <th>{c.run}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.id}>
            <td className="cairn-nowrap">{formatDateTime(r.createdAt)}</td>
            <td>{userOf(r)}</td>
            <td>{t.marks.logKinds[r.kind] ?? r.kind}</td>
            <td className="cairn-nowrap">
              {r.oldLabel || DASH} → <b>{r.newLabel || DASH}</b>
            </td>
            <td className="cairn-break">{r.remark || <span className="cairn-muted">{DASH}</span>}</td>
            <td className="cairn-nowrap">{r.seq ? t.marks.runSeq(r.seq) : DASH}</td>
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );
}

export const dash = (v: ReactNode): ReactNode => (v === null || v === undefined || v === '' ? <span className="cairn-muted">{DASH}</span> : v);
