// One page of rows as a table: declared columns (sortable ones have a header button), optional
// selection checkboxes (this page's rows, kept across pages by useSelection) and a trailing
// actions column. A row may open on click; clicks in the checkbox and action cells do not.
import type { ReactNode } from 'react';
import { Checkbox, HTMLTable, Icon } from '@blueprintjs/core';
import { zh } from '../../i18n/zh-CN.ts';
import './styles.ts';

const t = zh.list;

export interface ColumnSort {
  active: boolean;
  /** Shown as the user reads it: "descending" is the most important rows first. */
  descending: boolean;
  onSort: () => void;
}

export interface Column<Row> {
  /** Unique within the table. */
  key: string;
  title: string;
  /** On the header and every cell. */
  className?: string;
  cell: (row: Row) => ReactNode;
  sort?: ColumnSort;
}

export interface TableSelection<K> {
  selected: ReadonlySet<K>;
  onToggle: (key: K) => void;
  /** Selects (true) or unselects every row of this page. */
  onTogglePage: (all: boolean) => void;
}

function SortHeader({ column, sort }: { column: Column<never>; sort: ColumnSort }) {
  const state = sort.active ? (sort.descending ? 'descending' : 'ascending') : 'none';
  return (
    <th className={column.className} aria-sort={state}>
      <button type="button" className={sort.active ? 'cairn-sort-button cairn-sort-active' : 'cairn-sort-button'} title={t.sortBy(column.title)} onClick={sort.onSort}>
        {column.title}
        <Icon icon={sort.active ? (sort.descending ? 'sort-desc' : 'sort-asc') : 'double-caret-vertical'} size={12} />
      </button>
    </th>
  );
}

export function DataTable<Row, K extends string | number>({ rows, columns, rowKey, rowLabel, onOpen, selection, actions, className, compact = false }: {
  rows: readonly Row[];
  columns: ReadonlyArray<Column<Row>>;
  rowKey: (row: Row) => K;
  /** How a row is named to assistive technology (the selection checkbox, the action buttons). */
  rowLabel: (row: Row) => string;
  onOpen?: (row: Row) => void;
  selection?: TableSelection<K> | undefined;
  actions?: ((row: Row) => ReactNode) | undefined;
  /** Added to `cairn-table`. */
  className?: string;
  /** Tighter rows (a table inside a panel or a drawer). */
  compact?: boolean;
}) {
  const allChecked = selection ? rows.length > 0 && rows.every((r) => selection.selected.has(rowKey(r))) : false;
  const someChecked = selection ? rows.some((r) => selection.selected.has(rowKey(r))) : false;
  const stop = (e: React.MouseEvent) => e.stopPropagation();
  return (
    // The table scrolls sideways inside its own box when narrower than its columns; the actions
    // column stays in view (sticky at the right, common/list/list.css).
    <div className="cairn-table-scroll">
      <HTMLTable className={className ? `cairn-table ${className}` : 'cairn-table'} interactive={Boolean(onOpen)} striped compact={compact}>
        <thead>
          <tr>
            {selection ? (
              <th className="cairn-col-check">
                <Checkbox aria-label={t.selectAll} checked={allChecked} indeterminate={!allChecked && someChecked} onChange={() => selection.onTogglePage(!allChecked)} />
              </th>
            ) : null}
            {columns.map((c) => (c.sort ? <SortHeader key={c.key} column={c as Column<never>} sort={c.sort} /> : <th key={c.key} className={c.className}>{c.title}</th>))}
            {actions ? <th className="cairn-col-actions">{t.actions}</th> : null}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const key = rowKey(row);
            return (
              <tr key={key} {...(onOpen ? { onClick: () => onOpen(row), className: 'cairn-clickable-row' } : {})}>
                {selection ? (
                  <td className="cairn-col-check" onClick={stop}>
                    <Checkbox aria-label={`${t.selectRow} ${rowLabel(row)}`} checked={selection.selected.has(key)} onChange={() => selection.onToggle(key)} />
                  </td>
                ) : null}
                {columns.map((c) => (
                  <td key={c.key} className={c.className}>
                    {c.cell(row)}
                  </td>
                ))}
                {actions ? (
                  <td className="cairn-col-actions" onClick={stop}>
                    {actions(row)}
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </HTMLTable>
    </div>
  );
}
