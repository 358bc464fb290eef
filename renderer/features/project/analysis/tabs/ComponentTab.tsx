// 组件: the run's components, paged on the server (10,000+ rows) into a virtualised Table2, with
// filters (risk — 未覆盖 apart from 无漏洞 when the run's coverage left an ecosystem out —, ecosystem, scope, direct/transitive, mark, component type, licence level,
// keyword), row click → the component drawer, and batch marking N/F/L/W/Y with a remark.
import { useMemo, useState } from 'react';
import { Button, Card, Checkbox, FormGroup, HTMLSelect } from '@blueprintjs/core';
import { useSearchParams } from 'react-router';
import { Cell, Column, Table2, RenderMode, type CellRenderer } from '@blueprintjs/table';
import type { ComponentRow } from '../../../../../contract/api/result/index.ts';
import {
  COMPONENT_MARK_LABEL,
  COMPONENT_TYPE_LABEL,
  COMPONENT_TYPE_ORDER,
  LEVEL_CODES,
  labelOf,
  type ComponentMark,
} from '../../../../../contract/enums.ts';
import { DASH } from '../../../../../contract/format.ts';
import { useComponentListQuery, useMarkComponentsMutation, useResultOverviewQuery } from '../../../../api/resultApi.ts';
import { toastNotifier } from '../../../../app/toaster.ts';
import { CheckTagGroup, KeywordSearch, ResetButton } from '../../../../common/list/filters.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../../../common/states.tsx';
import { Pager } from '../../../../common/list/Pager.tsx';
import { LevelTag } from '../../../../common/levels.tsx';
import { NOT_COVERED_TAG_COLOR, levelName, riskColor, riskLabel } from '../../../../common/charts.ts';
import { ComponentDrawer } from '../ComponentDrawer.tsx';
import { useTaskView } from '../context.ts';
import { MarkDialog } from '../MarkDialog.tsx';
import { ComponentMarkTag, RiskTag, notCoveredIn } from '../parts.tsx';
import { ComponentExportButton } from '../../reports/ExportDialogs.tsx';
import { zh } from '../../../../i18n/zh-CN.ts';
import {
  EMPTY_FILTERS as EMPTY, NOT_COVERED_CHOICE, filterBody, initialFilters, riskChoices, selectedRiskChoices, toggleRiskChoice, type Filters, type RiskChoice,
} from '../componentFilter.ts';
import { COMPONENT_NOT_COVERED } from '../../../../../contract/coverage.ts';
import { layerLabel } from '../ImagePanel.tsx';

const t = zh.task.component;
const ti = zh.task.image;
const MARKS = Object.keys(COMPONENT_MARK_LABEL) as ComponentMark[];
const SIZES = [50, 100, 200, 500] as const;
const ROW_HEIGHT = 32;

const toggle = <T,>(list: readonly T[], v: T): T[] => (list.includes(v) ? list.filter((x) => x !== v) : [...list, v]);

export function ComponentTab() {
  const view = useTaskView();
  const { projectId, run, state, setUrl } = view;
  const [params] = useSearchParams();
  const [filters, setFilters] = useState<Filters>(() => initialFilters(params.get('risk'), params.get('layer')));
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(1);
  const [size, setSize] = useState<number>(100);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [marking, setMarking] = useState(false);
  const [mark] = useMarkComponentsMutation();
  const overview = useResultOverviewQuery({ id: projectId, vexMark: 0, taskId: run.id });
  const ecosystems = overview.data?.components.ecosystems.map((e) => e.key) ?? [];

  const body = useMemo(() => filterBody(filters, run.id), [filters, run.id]);
  const q = useComponentListQuery({ projectId, query: { page, size }, filter: body });
  const rows = q.data?.content ?? [];
  const image = run.image;

  const update = (patch: Partial<Filters>) => {
    setFilters((f) => ({ ...f, ...patch }));
    setPage(1);
    setSelected(new Set());
  };
  const filtered = JSON.stringify(filters) !== JSON.stringify(EMPTY);

  const open = (row: ComponentRow | undefined) => row && setUrl({ component: row.id });
  const cell = (render: (r: ComponentRow) => React.ReactNode, className?: string): CellRenderer =>
    (i) => {
      const r = rows[i];
      return (
        <Cell className={className} interactive>
          {r ? (
            <div className="cairn-table2-cell" onClick={() => open(r)}>
              {render(r)}
            </div>
          ) : null}
        </Cell>
      );
    };
  const allOnPage = rows.length > 0 && rows.every((r) => selected.has(r.id));
  const checkCell: CellRenderer = (i) => {
    const r = rows[i];
    return (
      <Cell interactive>
        {r ? (
          <Checkbox
            className="cairn-table2-check"
            aria-label={`${r.name} ${r.version}`}
            checked={selected.has(r.id)}
            onChange={() => setSelected((s) => { const n = new Set(s); if (n.has(r.id)) n.delete(r.id); else n.add(r.id); return n; })}
          />
        ) : null}
      </Cell>
    );
  };
  const c = t.columns;
  // The layer column only for an image run.
  const columns = [
    <Column key="check" name="" cellRenderer={checkCell} />,
    <Column key="name" name={c.name} cellRenderer={cell((r) => <a className="cairn-link-strong">{r.name}</a>)} />,
    <Column key="version" name={c.version} cellRenderer={cell((r) => r.version || (
      <span className="cairn-muted" title={r.constraint ? t.declaredRange(r.constraint) : undefined}>
        {t.unknownVersion}{r.constraint ? `（${r.constraint}）` : ''}
      </span>
    ))} />,
    <Column key="ecosystem" name={c.ecosystem} cellRenderer={cell((r) => r.ecosystem)} />,
    <Column key="risk" name={c.risk} cellRenderer={cell((r) => <RiskTag risk={r.riskLevel} notCovered={notCoveredIn(run.coverage, r.ecosystem, r.riskLevel)} />)} />,
    <Column key="vulns" name={c.vulns} cellRenderer={cell((r) => (r.vulCount ? <b style={{ color: riskColor(r.riskLevel) }}>{r.vulCount}</b> : <span className="cairn-muted">0</span>))} />,
    <Column key="license" name={c.license} cellRenderer={cell((r) => r.licenseExpression ?? <span className="cairn-muted">{t.noLicense}</span>)} />,
    <Column key="licenseLevel" name={c.licenseLevel} cellRenderer={cell((r) => <LevelTag level={r.licenseLevel} />)} />,
    <Column key="dependency" name={c.dependency} cellRenderer={cell((r) => (r.direct ? t.direct : t.transitive))} />,
    <Column key="scope" name={c.scope} cellRenderer={cell((r) => t.scopes[r.scope] ?? r.scope)} />,
    <Column key="recommend" name={c.recommend} cellRenderer={cell((r) => r.recommendVersion ?? DASH)} />,
    <Column key="mark" name={c.mark} cellRenderer={cell((r) => <ComponentMarkTag mark={r.mark} />)} />,
  ];
  if (image) columns.push(
    <Column key="layer" name={ti.layer} cellRenderer={cell((r) => (r.layer === null ? DASH : <span title={layerLabel(image, r.layer)}>{ti.layerName(r.layer)}</span>))} />,
  );

  let table;
  if (q.isLoading) table = <LoadingState />;
  else if (q.isError) table = <ErrorState title={t.loadFailed} message={q.error?.message} onRetry={() => void q.refetch()} />;
  else if (!q.data || q.data.total === 0) table = filtered ? <EmptyState title={t.emptyFiltered} description={t.emptyFilteredBody} icon="search" /> : <EmptyState title={t.empty} description={t.emptyBody} icon="cube" />;
  else {
    table = (
      <Card className={q.isFetching ? 'cairn-table-card cairn-refreshing' : 'cairn-table-card'}>
        <div className="cairn-table2-box" style={{ height: Math.min(640, 34 + rows.length * ROW_HEIGHT) }} data-testid="component-table">
          <Table2
            numRows={rows.length}
            defaultRowHeight={ROW_HEIGHT}
            enableRowHeader={false}
            enableColumnResizing
            renderMode={RenderMode.BATCH}
            cellRendererDependencies={[rows, selected]}
            columnWidths={[36, 240, 120, 90, 90, 70, 200, 90, 90, 90, 120, 90, ...(image ? [90] : [])]}
          >
            {columns}
          </Table2>
        </div>
        <Pager page={page} size={size} total={q.data.total} onPage={setPage} onSize={(n) => { setSize(n); setPage(1); }} sizes={SIZES} />
      </Card>
    );
  }

  return (
    <div className="cairn-component-tab">
      <Card className="cairn-filter-bar">
        <KeywordSearch label={t.keyword} placeholder={t.keywordPlaceholder} value={keyword} onValueChange={setKeyword} onSearch={(k) => update({ keyword: k })} />
        <CheckTagGroup<RiskChoice>
          label={t.risk}
          codes={riskChoices(run.coverage)}
          selected={selectedRiskChoices(filters)}
          labelOf={(c) => (c === NOT_COVERED_CHOICE ? COMPONENT_NOT_COVERED : riskLabel(c))}
          color={(c) => (c === NOT_COVERED_CHOICE ? NOT_COVERED_TAG_COLOR : riskColor(c))}
          onToggle={(c) => update(toggleRiskChoice(filters, c))}
        />
        <div className="cairn-filter-row">
          <FormGroup inline label={t.ecosystem} className="cairn-filter-group">
            <HTMLSelect aria-label={t.ecosystem} value={filters.ecosystem} onChange={(e) => update({ ecosystem: e.currentTarget.value })} options={[{ value: '', label: t.ecosystemAll }, ...ecosystems.map((e) => ({ value: e, label: e }))]} />
          </FormGroup>
          <FormGroup inline label={t.scope} className="cairn-filter-group">
            <HTMLSelect aria-label={t.scope} value={filters.scope} onChange={(e) => update({ scope: e.currentTarget.value as Filters['scope'] })} options={[{ value: '', label: t.scopeAll }, { value: 'runtime', label: t.scopes.runtime! }, { value: 'development', label: t.scopes.development! }]} />
          </FormGroup>
          {image ? (
            <FormGroup inline label={ti.layer} className="cairn-filter-group">
              <HTMLSelect
                aria-label={ti.layer}
                value={filters.layer}
                onChange={(e) => update({ layer: e.currentTarget.value })}
                options={[{ value: '', label: ti.layerAll }, ...image.layers.map((l) => ({ value: String(l.index), label: `${layerLabel(image, l.index)}（${ti.layerComponents(l.components)}）` }))]}
              />
            </FormGroup>
          ) : null}
          <FormGroup inline label={t.dependency} className="cairn-filter-group">
            <HTMLSelect aria-label={t.dependency} value={filters.direct} onChange={(e) => update({ direct: e.currentTarget.value as Filters['direct'] })} options={[{ value: '', label: t.scopeAll }, { value: 'direct', label: t.direct }, { value: 'transitive', label: t.transitive }]} />
          </FormGroup>
        </div>
        <CheckTagGroup label={t.mark} codes={MARKS} selected={filters.marks} labelOf={(m) => labelOf(COMPONENT_MARK_LABEL, m)} onToggle={(m) => update({ marks: toggle(filters.marks, m) })} />
        <CheckTagGroup label={t.type} codes={COMPONENT_TYPE_ORDER} selected={filters.componentTypes} labelOf={(m) => labelOf(COMPONENT_TYPE_LABEL, m)} onToggle={(m) => update({ componentTypes: toggle(filters.componentTypes, m) })} />
        <CheckTagGroup label={t.licenseLevel} codes={LEVEL_CODES} selected={filters.licenseLevels} labelOf={levelName} color={riskColor} onToggle={(m) => update({ licenseLevels: toggle(filters.licenseLevels, m) })} />
        <div className="cairn-filter-row">
          <ResetButton disabled={!filtered} onReset={() => { setKeyword(''); update(EMPTY); }} />
          <span className="cairn-pager-spacer" />
          <ComponentExportButton projectId={view.projectId} taskId={view.run.id} />
        </div>
      </Card>
      {view.canAudit && rows.length > 0 ? (
        <div className="cairn-batch-bar">
          <Checkbox
            inline
            label={t.selectPage}
            checked={allOnPage}
            indeterminate={!allOnPage && rows.some((r) => selected.has(r.id))}
            onChange={() => setSelected((s) => { const n = new Set(s); for (const r of rows) { if (allOnPage) n.delete(r.id); else n.add(r.id); } return n; })}
          />
          <span className="cairn-muted">{t.selected(selected.size)}</span>
          <Button icon="tag" text={t.batchMark} disabled={selected.size === 0} onClick={() => setMarking(true)} />
          {selected.size ? <Button variant="minimal" text={t.clearSelection} onClick={() => setSelected(new Set())} /> : null}
        </div>
      ) : null}
      {table}
      <ComponentDrawer componentId={state.componentId} onClose={() => setUrl({ component: undefined })} />
      <MarkDialog
        isOpen={marking}
        title={t.markTitle(selected.size)}
        label={zh.task.marks.mark}
        table={COMPONENT_MARK_LABEL}
        initial="F"
        onClose={() => setMarking(false)}
        onSubmit={async (v) => {
          await mark({ body: { projectId, taskId: run.id, ids: [...selected], mark: v.code as ComponentMark, remark: v.remark }, binary: view.binary }).unwrap();
          toastNotifier.success(zh.task.marks.saved);
          setSelected(new Set());
        }}
      />
    </div>
  );
}
