// The tables of an SBOM, an Excel report or a SWID zip: one tab per table, a search box, sorting
// by clicking a column header (numbers numerically) and, on vulnerability tables, a severity
// filter. Rows are virtualised (only those in view are in the DOM), so 20,000 rows scroll smoothly.
import { useEffect, useMemo, useRef, useState, type UIEvent } from 'react';
import { Button, Classes, Icon, InputGroup, Tab, Tabs, Tag } from '@blueprintjs/core';
import type { ReviewTable } from '../../../contract/ipc/desktop-contract.ts';
import { LEVEL_CODES, type VulnerabilityLevel } from '../../../contract/enums.ts';
import { LEVEL_COLORS } from '../../common/levels.tsx';
import { EmptyState } from '../../common/states.tsx';
import { columnWidth, nextSort, severityColumn, severityCounts, severityLabel, severityLevel, viewRows, type Cell, type SortState } from './reviewTable.ts';
import { libraryZh } from '../../i18n/library.ts';

const t = libraryZh.review;
const ROW_HEIGHT = 32;
/** Rows drawn above and below the visible ones, so fast scrolling shows no blank band. */
const OVERSCAN = 12;
const INDEX_WIDTH = 64;

function SeverityChip({ value }: { value: Cell }) {
  const level = severityLevel(value);
  if (level === null) return null;
  return (
    <span className="cairn-rv-severity" style={{ backgroundColor: LEVEL_COLORS[level] }} title={String(value)}>
      {String(value)}
    </span>
  );
}

function SeverityFilter({ counts, selected, onChange }: { counts: Map<VulnerabilityLevel, number>; selected: ReadonlySet<VulnerabilityLevel>; onChange: (next: Set<VulnerabilityLevel>) => void }) {
  return (
    <div className="cairn-rv-severity-filter" role="group" aria-label={t.severity}>
      <span className={Classes.TEXT_MUTED}>{t.severity}</span>
      <Tag interactive minimal={selected.size !== 0} intent={selected.size === 0 ? 'primary' : 'none'} onClick={() => onChange(new Set())}>
        {t.allSeverities}
      </Tag>
      {LEVEL_CODES.filter((level) => counts.has(level)).map((level) => {
        const on = selected.has(level);
        return (
          <Tag
            key={level}
            interactive
            data-testid={`severity-${level}`}
            style={on ? { backgroundColor: LEVEL_COLORS[level], color: '#fff' } : { boxShadow: `inset 0 0 0 1px ${LEVEL_COLORS[level]}`, color: LEVEL_COLORS[level], background: 'transparent' }}
            onClick={() => {
              const next = new Set(selected);
              if (on) next.delete(level);
              else next.add(level);
              onChange(next);
            }}
          >
            {severityLabel(level)} {counts.get(level)}
          </Tag>
        );
      })}
    </div>
  );
}

function TableView({ table }: { table: ReviewTable }) {
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<SortState | null>(null);
  const [levels, setLevels] = useState<Set<VulnerabilityLevel>>(new Set());
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(600);
  const scroller = useRef<HTMLDivElement>(null);

  const severity = useMemo(() => severityColumn(table), [table]);
  const counts = useMemo(() => (severity ? severityCounts(table.rows, severity) : new Map<VulnerabilityLevel, number>()), [table, severity]);
  const rows = useMemo(() => viewRows(table, { query, severityColumn: severity, levels, sort }), [table, query, severity, levels, sort]);
  const widths = useMemo(() => table.columns.map((c) => columnWidth(c.title, table.rows, c.key)), [table]);
  const totalWidth = INDEX_WIDTH + widths.reduce((a, b) => a + b, 0);
  // The last column takes what is left of a wide window, so rows always span the grid.
  const template = `${INDEX_WIDTH}px ${widths.map((w, i) => (i === widths.length - 1 ? `minmax(${w}px, 1fr)` : `${w}px`)).join(' ')}`;

  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setViewport(el.clientHeight));
    observer.observe(el);
    setViewport(el.clientHeight);
    return () => observer.disconnect();
  }, []);

  // A new filter or order starts from the top.
  useEffect(() => {
    if (scroller.current) scroller.current.scrollTop = 0;
    setScrollTop(0);
  }, [query, levels, sort]);

  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(rows.length, Math.ceil((scrollTop + viewport) / ROW_HEIGHT) + OVERSCAN);
  const visible = rows.slice(first, last);

  // Re-render only when the drawn window must move (every few rows), not on every scroll pixel.
  const onScroll = (e: UIEvent<HTMLDivElement>) => {
    const top = e.currentTarget.scrollTop;
    setScrollTop((old) => (Math.abs(top - old) >= ROW_HEIGHT * (OVERSCAN / 2) ? top : old));
  };

  return (
    <div className="cairn-rv-table" data-testid={`review-table-${table.key}`}>
      <div className="cairn-rv-toolbar">
        <InputGroup
          className="cairn-rv-search"
          leftIcon="search"
          placeholder={t.searchPlaceholder}
          value={query}
          onValueChange={setQuery}
          rightElement={query ? <Button variant="minimal" icon="cross" aria-label={libraryZh.cancel} onClick={() => setQuery('')} /> : undefined}
        />
        {severity && counts.size > 0 ? <SeverityFilter counts={counts} selected={levels} onChange={setLevels} /> : null}
        <span className={`${Classes.TEXT_MUTED} cairn-rv-count`} data-testid="review-row-count">
          {t.rows(rows.length, table.rows.length)}
        </span>
      </div>
      {table.rows.length === 0 ? (
        <EmptyState icon="th" title={t.emptyTable} />
      ) : (
        <div className="cairn-rv-grid" ref={scroller} onScroll={onScroll} role="table" aria-rowcount={rows.length}>
          <div className="cairn-rv-head" style={{ gridTemplateColumns: template, minWidth: totalWidth }} role="row">
            <div className="cairn-rv-th cairn-rv-index" role="columnheader">#</div>
            {table.columns.map((c) => {
              const active = sort?.column === c.key ? sort.direction : null;
              return (
                <div
                  key={c.key}
                  className={`cairn-rv-th${active ? ' cairn-rv-th-sorted' : ''}`}
                  role="columnheader"
                  aria-sort={active === 'asc' ? 'ascending' : active === 'desc' ? 'descending' : 'none'}
                  tabIndex={0}
                  title={`${c.title} · ${t.sortHint}`}
                  onClick={() => setSort(nextSort(sort, c.key))}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter' || e.key === ' ') {
                      e.preventDefault();
                      setSort(nextSort(sort, c.key));
                    }
                  }}
                >
                  <span className="cairn-rv-th-text">{c.title}</span>
                  <Icon icon={active === 'asc' ? 'sort-asc' : active === 'desc' ? 'sort-desc' : 'double-caret-vertical'} size={12} className="cairn-rv-sort-icon" />
                </div>
              );
            })}
          </div>
          {rows.length === 0 ? (
            <div className="cairn-rv-none" style={{ minWidth: totalWidth }}>{t.noRows}</div>
          ) : (
            <div className="cairn-rv-rows" style={{ height: rows.length * ROW_HEIGHT, minWidth: totalWidth }}>
              {visible.map((row, i) => {
                const index = first + i;
                return (
                  <div key={index} className={`cairn-rv-row${index % 2 ? ' cairn-rv-row-odd' : ''}`} role="row" style={{ top: index * ROW_HEIGHT, height: ROW_HEIGHT, gridTemplateColumns: template }}>
                    <div className="cairn-rv-td cairn-rv-index">{index + 1}</div>
                    {table.columns.map((c) => {
                      const value = row[c.key] ?? null;
                      const text = value === null ? '' : String(value);
                      return (
                        <div key={c.key} className={`cairn-rv-td${typeof value === 'number' ? ' cairn-rv-num' : ''}`} role="cell" title={text.length > 20 ? text : undefined}>
                          {c.key === severity ? <SeverityChip value={value} /> : text}
                        </div>
                      );
                    })}
                  </div>
                );
              })}
            </div>
          )}
        </div>
      )}
    </div>
  );
}

export function ReviewTables({ tables }: { tables: ReviewTable[] }) {
  // Start on the first table with rows (a VEX document has no components, only vulnerabilities).
  const [tab, setTab] = useState((tables.find((x) => x.rows.length > 0) ?? tables[0])?.key ?? '');
  if (tables.length === 0) return <EmptyState icon="th" title={t.noTables} />;
  const current = tables.find((x) => x.key === tab) ?? tables[0]!;
  return (
    <div className="cairn-rv-tables">
      <Tabs id="review-tables" selectedTabId={current.key} onChange={(id) => setTab(String(id))} className="cairn-rv-tabs">
        {tables.map((x) => (
          <Tab key={x.key} id={x.key} title={x.title} tagContent={x.rows.length} tagProps={{ minimal: true, round: true }} />
        ))}
      </Tabs>
      <TableView key={current.key} table={current} />
    </div>
  );
}
