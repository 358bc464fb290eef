// One page of licence rows: SPDX id, name, level, copyleft, OSI approval. Optional extra columns
// (the settings screen's level selector) come from the caller.
import type { ReactNode } from 'react';
import { HTMLTable, Icon, Tag } from '@blueprintjs/core';
import type { LicenseRow } from '../../../contract/api/license.ts';
import { LevelTag } from '../levels.tsx';
import { zh } from '../../i18n/zh-CN.ts';
import './styles.ts';

const t = zh.license;

export function CopyleftText({ copyleft }: { copyleft: LicenseRow['copyleft'] }) {
  const cls = copyleft === 'network' || copyleft === 'strong' ? 'cairn-copyleft-strong' : copyleft === 'weak' ? 'cairn-copyleft-weak' : 'cairn-muted';
  return <span className={cls}>{t.copyleftLabels[copyleft] ?? copyleft}</span>;
}

export function YesNo({ value }: { value: boolean | null }) {
  if (value === null) return <span className="cairn-muted">{t.unknown}</span>;
  return value ? (
    <span className="cairn-yes">
      <Icon icon="tick" size={12} /> {t.yes}
    </span>
  ) : (
    <span className="cairn-muted">{t.no}</span>
  );
}

export function LicenseTable({ rows, onOpen, levelCell, extra }: {
  rows: readonly LicenseRow[];
  onOpen: (row: LicenseRow) => void;
  /** Replaces the level tag (the settings screen's selector). */
  levelCell?: (row: LicenseRow) => ReactNode;
  extra?: { header: string; cell: (row: LicenseRow) => ReactNode };
}) {
  return (
    <HTMLTable className="cairn-table cairn-vul-table cairn-license-table" interactive striped>
      <thead>
        <tr>
          <th className="cairn-col-id">{t.columns.spdxId}</th>
          <th>{t.columns.name}</th>
          <th className="cairn-col-level">{t.columns.level}</th>
          <th className="cairn-col-exploit">{t.columns.copyleft}</th>
          <th className="cairn-col-exploit">{t.columns.osi}</th>
          {extra ? <th className="cairn-col-status">{extra.header}</th> : null}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.id} onClick={() => onOpen(row)} className="cairn-clickable-row">
            <td className="cairn-col-id">
              <a
                className="cairn-vul-id"
                href={`#/license/details?id=${row.id}`}
                onClick={(e) => {
                  e.preventDefault();
                  e.stopPropagation();
                  onOpen(row);
                }}
              >
                {row.spdxId}
              </a>
              {row.deprecated ? (
                <Tag minimal intent="warning" className="cairn-inline-tag">
                  {t.deprecated}
                </Tag>
              ) : null}
              {row.isException ? (
                <Tag minimal className="cairn-inline-tag">
                  {t.exception}
                </Tag>
              ) : null}
            </td>
            <td className="cairn-col-name">
              <div className="cairn-ellipsis-2" title={row.name}>
                {row.name || '--'}
              </div>
            </td>
            <td className="cairn-col-level" onClick={levelCell ? (e) => e.stopPropagation() : undefined}>
              {levelCell ? levelCell(row) : <LevelTag level={row.level} />}
            </td>
            <td className="cairn-col-exploit">
              <CopyleftText copyleft={row.copyleft} />
            </td>
            <td className="cairn-col-exploit">
              <YesNo value={row.osiApproved} />
            </td>
            {extra ? <td className="cairn-col-status">{extra.cell(row)}</td> : null}
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );
}
