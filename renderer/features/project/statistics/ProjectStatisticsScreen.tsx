// /project/statistics 项目统计: pick 应用, project, version, project tag and a range of days (kept in
// the URL, so a link shares the view); summary tiles, the trends (results by day, task statuses),
// each version's results and rankings, the most used components, vulnerabilities and licences,
// the distributions with their per-project rankings, and the analyses of the range. Every chart
// saves as a PNG (ChartCard). The calls follow the product switch (binary: /api/binary/...).
import { useMemo } from 'react';
import { Card, FormGroup, HTMLSelect, Tag, type Intent } from '@blueprintjs/core';
import { useNavigate, useSearchParams } from 'react-router';
import type { StatisticFilter, StatisticTaskRow } from '../../../../contract/api/statistic.ts';
import { COMPONENT_RISK_CODES, LEVEL_CODES, TASK_STATUS, TASK_STATUS_LABEL, VULNERABILITY_MARK_LABEL, labelOf } from '../../../../contract/enums.ts';
import { formatDateTime } from '../../../../contract/format.ts';
import { routeTitle } from '../../../../contract/routes.ts';
import { useSubjectAllQuery, useVersionsQuery } from '../../../api/subjectApi.ts';
import {
  useStatisticComponentDistributionQuery, useStatisticComponentProjectsQuery, useStatisticLicenseDistributionQuery, useStatisticLicenseProjectsQuery,
  useStatisticResultsDateQuery, useStatisticResultsVersionQuery, useStatisticStatusTrendQuery, useStatisticSubjectProjectsQuery, useStatisticSummaryQuery,
  useStatisticTasksQuery, useStatisticTopComponentsQuery, useStatisticTopVulnerabilitiesQuery, useStatisticVersionComponentsQuery,
  useStatisticVersionVulnerabilitiesQuery, useStatisticVulDistributionQuery, useStatisticVulMarksQuery, useStatisticVulProjectsQuery,
} from '../../../api/statisticApi.ts';
import { selectProduct, useAppSelector, usePermissions } from '../../../app/hooks.ts';
import { detailsUrl } from '../../../app/router/links.ts';
import { ChartCard } from '../../../common/ChartCard.tsx';
import { Page } from '../../../common/PageHeader.tsx';
import { Panel, QueryBody } from '../../../common/Panel.tsx';
import { FilterBar } from '../../../common/list/FilterBar.tsx';
import { DataTable, type Column } from '../../../common/list/DataTable.tsx';
import { Pager } from '../../../common/list/Pager.tsx';
import { ErrorState, LoadingState } from '../../../common/states.tsx';
import {
  barOption, horizontalBarOption, levelName, levelSlices, lineOption, pieOption, riskColor, riskLabel, riskSlices, stackedBarOption, sumLevels, sumRisks, topWithOther,
} from '../../../common/charts.ts';
import { zh } from '../../../i18n/zh-CN.ts';
import './styles.ts';
import { DateField } from '../../../common/form/DateField.tsx';

const t = zh.statistic;
const TASK_PAGE_SIZE = 10;
const STATUS_COLORS: Readonly<Record<number, string>> = { [-1]: '#8F99A8', 0: '#5F6B7C', 1: '#2D72D2', 2: '#32A467', 3: '#CD4246', 4: '#D1980B' };
/** Review states (VULNERABILITY_MARK_LABEL): waiting amber, to fix red, settled blue or green, dismissed grey. */
const MARK_COLORS: Readonly<Record<number, string>> = { 0: '#D1980B', 1: '#CD4246', 2: '#8F99A8', 3: '#2D72D2', 4: '#EC9A3C', 5: '#32A467', 6: '#238551', 7: '#5F6B7C' };
const STATUS_INTENT: Readonly<Record<number, Intent>> = { 1: 'primary', 2: 'success', 3: 'danger', 4: 'warning' };

/** The URL's filter: ids and days as the calls take them, with the caller's time zone. */
function useFilter() {
  const [params, setParams] = useSearchParams();
  const id = (key: string) => {
    const n = Number(params.get(key));
    return Number.isInteger(n) && n > 0 ? n : undefined;
  };
  const day = (key: string) => (/^\d{4}-\d{2}-\d{2}$/.test(params.get(key) ?? '') ? params.get(key)! : undefined);
  const subjectId = id('subjectId');
  const projectId = subjectId ? id('projectId') : undefined;
  const versionId = subjectId ? id('versionId') : undefined;
  const tag = params.get('tag') || undefined;
  const startDate = day('start');
  const endDate = day('end');
  const page = Math.max(1, Number(params.get('page')) || 1);
  const filter = useMemo<StatisticFilter>(() => ({
    ...(subjectId && { subjectId }),
    ...(projectId && { projectIds: [projectId] }),
    ...(versionId && { versionIds: [versionId] }),
    ...(tag && { tags: [tag] }),
    ...(startDate && { startDate }),
    ...(endDate && { endDate }),
    utcOffset: -new Date().getTimezoneOffset(),
  }), [subjectId, projectId, versionId, tag, startDate, endDate]);
  const set = (changes: Record<string, string | number | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v === undefined || v === '') next.delete(k);
      else next.set(k, String(v));
    }
    if (!('page' in changes)) next.delete('page');
    setParams(next, { replace: true });
  };
  return { filter, subjectId, projectId, versionId, tag, startDate, endDate, page, set, filtered: [...params.keys()].some((k) => k !== 'page') };
}

type FilterState = ReturnType<typeof useFilter>;

function Filters({ state, tags }: { state: FilterState; tags: string[] }) {
  const product = useAppSelector(selectProduct);
  const subjects = useSubjectAllQuery();
  const versions = useVersionsQuery(state.subjectId ?? 0, { skip: !state.subjectId });
  const projects = useStatisticSubjectProjectsQuery(state.subjectId ?? 0, { skip: !state.subjectId });
  const ofProduct = (subjects.data ?? []).filter((s) => s.product === product);
  const f = t.filters;
  return (
    <FilterBar filtered={state.filtered} onReset={() => state.set({ subjectId: undefined, projectId: undefined, versionId: undefined, tag: undefined, start: undefined, end: undefined })}
      inline={(
        <>
          <FormGroup label={f.subject} inline>
            <HTMLSelect aria-label={f.subject} value={state.subjectId ?? ''} onChange={(e) => state.set({ subjectId: e.currentTarget.value || undefined, projectId: undefined, versionId: undefined })}
              options={[{ value: '', label: f.allSubjects }, ...ofProduct.map((s) => ({ value: s.id, label: s.name }))]} />
          </FormGroup>
          <FormGroup label={f.project} inline>
            <HTMLSelect aria-label={f.project} disabled={!state.subjectId} value={state.projectId ?? ''} onChange={(e) => state.set({ projectId: e.currentTarget.value || undefined })}
              options={[{ value: '', label: f.allProjects }, ...(projects.data ?? []).map((p) => ({ value: p.projectId, label: p.projectName }))]} />
          </FormGroup>
          <FormGroup label={f.version} inline>
            <HTMLSelect aria-label={f.version} disabled={!state.subjectId} value={state.versionId ?? ''} onChange={(e) => state.set({ versionId: e.currentTarget.value || undefined })}
              options={[{ value: '', label: f.allVersions }, ...(versions.data ?? []).map((v) => ({ value: v.id, label: v.name }))]} />
          </FormGroup>
          <FormGroup label={f.tag} inline>
            <HTMLSelect aria-label={f.tag} value={state.tag ?? ''} onChange={(e) => state.set({ tag: e.currentTarget.value || undefined })}
              options={[{ value: '', label: f.allTags }, ...[...new Set([...tags, ...(state.tag ? [state.tag] : [])])].map((tag) => ({ value: tag, label: tag }))]} />
          </FormGroup>
          <FormGroup label={f.start} inline>
            <DateField ariaLabel={f.start} value={state.startDate ?? ''} max={state.endDate} onChange={(day) => state.set({ start: day || undefined })} />
          </FormGroup>
          <FormGroup label={f.end} inline>
            <DateField ariaLabel={f.end} value={state.endDate ?? ''} min={state.startDate} onChange={(day) => state.set({ end: day || undefined })} />
          </FormGroup>
        </>
      )}
    >
      <div className="cairn-muted cairn-statistic-hint">{f.rangeHint}</div>
    </FilterBar>
  );
}

function Tile({ label, value, color }: { label: string; value: number; color?: string }) {
  return (
    <Card className="cairn-stat-tile" style={color ? { borderTopColor: color } : undefined}>
      <div className="cairn-muted">{label}</div>
      <div className="cairn-stat-value" style={color ? { color } : undefined}>{value.toLocaleString('zh-CN')}</div>
    </Card>
  );
}

function Summary({ filter }: { filter: StatisticFilter }) {
  const q = useStatisticSummaryQuery(filter);
  if (q.isLoading) return <LoadingState />;
  if (q.isError || !q.data) return <ErrorState title={t.loadFailed} message={q.error?.message} onRetry={() => void q.refetch()} />;
  const d = q.data;
  const s = t.tiles;
  return (
    <div className="cairn-stat-tiles cairn-statistic-tiles">
      <Tile label={s.subjects} value={d.subjects} />
      <Tile label={s.projects} value={d.projects} />
      <Tile label={s.analysedProjects} value={d.analysedProjects} />
      <Tile label={s.runs} value={d.runs} />
      <Tile label={s.failedRuns} value={d.failedRuns} color={riskColor(2)} />
      <Tile label={s.components} value={d.components} />
      <Tile label={s.vulnerableComponents} value={d.vulnerableComponents} color={riskColor(4)} />
      <Tile label={s.vulnerabilities} value={d.vulnerabilities} color={riskColor(1)} />
      <Tile label={s.unreviewed} value={d.unreviewed} color={riskColor(8)} />
      <Tile label={s.licenses} value={d.licenses} />
    </div>
  );
}

const levelSeries = (rows: ReadonlyArray<{ byLevel: Record<1 | 2 | 4 | 8 | 16, number> }>) =>
  LEVEL_CODES.map((l) => ({ name: levelName(l), color: riskColor(l), data: rows.map((r) => r.byLevel[l]) }));
const riskSeries = (rows: ReadonlyArray<{ byRisk: Record<1 | 2 | 4 | 8 | 16 | 32 | 64, number> }>) =>
  COMPONENT_RISK_CODES.map((l) => ({ name: riskLabel(l), color: riskColor(l), data: rows.map((r) => r.byRisk[l]) }));

function Trends({ filter }: { filter: StatisticFilter }) {
  const byDate = useStatisticResultsDateQuery(filter);
  const status = useStatisticStatusTrendQuery(filter);
  const c = t.charts;
  const dateOption = useMemo(() => {
    if (!byDate.data) return null;
    const days = byDate.data.days;
    return lineOption(days.map((d) => d.date.slice(5)), [
      { name: t.series.succeeded, data: days.map((d) => d.succeeded), color: '#32A467', bar: true },
      { name: t.series.failed, data: days.map((d) => d.failed), color: '#CD4246', bar: true },
      { name: t.series.components, data: days.map((d) => d.components), color: '#2D72D2' },
      { name: t.series.vulnerabilities, data: days.map((d) => d.vulnerabilities), color: riskColor(1) },
      { name: t.series.severe, data: days.map((d) => d.byLevel[1] + d.byLevel[2]), color: riskColor(4) },
    ]);
  }, [byDate.data]);
  const statusOption = useMemo(() => (status.data
    ? lineOption(status.data.dates.map((d) => d.slice(5)), status.data.series.map((s) => ({ name: labelOf(TASK_STATUS_LABEL, s.status), data: s.counts, color: STATUS_COLORS[s.status], bar: true })))
    : null), [status.data]);
  return (
    <div className="cairn-chart-grid">
      <ChartCard title={c.resultsDate} option={dateOption} empty={!byDate.data || byDate.data.days.every((d) => d.runs === 0)} height={300} />
      <ChartCard title={c.statusTrend} option={statusOption} empty={!status.data || status.data.series.length === 0} height={300} />
    </div>
  );
}

/** A version as a chart names it: with its 应用 unless one 应用 is picked. */
const versionLabel = (r: { versionName: string | null; subjectName: string }, oneSubject: boolean) => `${oneSubject ? '' : `${r.subjectName} / `}${r.versionName ?? t.noVersion}`;

function Versions({ filter }: { filter: StatisticFilter }) {
  const top = { ...filter, size: 10 };
  const all = useStatisticResultsVersionQuery(filter);
  const byComponents = useStatisticVersionComponentsQuery(top);
  const byVulns = useStatisticVersionVulnerabilitiesQuery(top);
  const c = t.charts;
  const oneSubject = filter.subjectId !== undefined;
  const allOption = useMemo(() => (all.data ? stackedBarOption(all.data.map((r) => versionLabel(r, oneSubject)), levelSeries(all.data)) : null), [all.data, oneSubject]);
  const componentOption = useMemo(() => (byComponents.data ? horizontalBarOption(t.series.components, byComponents.data.map((r) => ({ name: versionLabel(r, oneSubject), value: r.components }))) : null), [byComponents.data, oneSubject]);
  const vulOption = useMemo(() => (byVulns.data ? horizontalBarOption(t.series.vulnerabilities, byVulns.data.map((r) => ({ name: versionLabel(r, oneSubject), value: r.vulnerabilities, color: riskColor(1) }))) : null), [byVulns.data, oneSubject]);
  return (
    <>
      <ChartCard title={c.resultsVersion} option={allOption} empty={!all.data || all.data.every((r) => r.vulnerabilities === 0)} height={300} />
      <div className="cairn-chart-grid">
        <ChartCard title={c.versionComponents} option={componentOption} empty={!byComponents.data || byComponents.data.every((r) => r.components === 0)} height={280} />
        <ChartCard title={c.versionVulnerabilities} option={vulOption} empty={!byVulns.data || byVulns.data.every((r) => r.vulnerabilities === 0)} height={280} />
      </div>
    </>
  );
}

function Components({ filter }: { filter: StatisticFilter }) {
  const navigate = useNavigate();
  const top = { ...filter, size: 10 };
  const distribution = useStatisticComponentDistributionQuery(filter);
  const projects = useStatisticComponentProjectsQuery(top);
  const topComponents = useStatisticTopComponentsQuery(top);
  const dark = useAppSelector((s) => s.ui.dark);
  const c = t.charts;
  const options = useMemo(() => ({
    risk: distribution.data ? pieOption(c.componentDistribution, riskSlices(distribution.data.byRisk), dark) : null,
    ecosystems: distribution.data ? horizontalBarOption(c.ecosystems, topWithOther(distribution.data.ecosystems, 9)) : null,
    projects: projects.data ? stackedBarOption(projects.data.map((r) => r.projectName), riskSeries(projects.data)) : null,
    top: topComponents.data ? horizontalBarOption(t.series.projects, topComponents.data.map((r) => ({ name: `${r.name}${r.version ? `@${r.version}` : ''}`, value: r.projectCount, color: riskColor(r.riskLevel) }))) : null,
  }), [distribution.data, projects.data, topComponents.data, dark, c]);
  return (
    <div className="cairn-chart-grid">
      <ChartCard title={c.componentDistribution} option={options.risk} empty={!distribution.data || sumRisks(distribution.data.byRisk) === 0} height={300} />
      <ChartCard title={c.ecosystems} option={options.ecosystems} empty={!distribution.data || distribution.data.ecosystems.length === 0} height={300} />
      <ChartCard title={c.topComponents} option={options.top} empty={!topComponents.data || topComponents.data.length === 0} height={300} />
      <ChartCard title={c.componentProjects} option={options.projects} empty={!projects.data || projects.data.length === 0} height={300}
        onItemClick={(_, i) => { const r = projects.data?.[i]; if (r) navigate(detailsUrl(r.projectId, { taskId: r.taskId, tab: 'component' })); }} />
    </div>
  );
}

function Vulnerabilities({ filter }: { filter: StatisticFilter }) {
  const navigate = useNavigate();
  const top = { ...filter, size: 10 };
  const distribution = useStatisticVulDistributionQuery(filter);
  const projects = useStatisticVulProjectsQuery(top);
  const topVulns = useStatisticTopVulnerabilitiesQuery(top);
  const marks = useStatisticVulMarksQuery(filter);
  const dark = useAppSelector((s) => s.ui.dark);
  const c = t.charts;
  const options = useMemo(() => ({
    levels: distribution.data ? barOption(c.vulDistribution, levelSlices(distribution.data.byLevel)) : null,
    marks: marks.data ? pieOption(c.vulMarks, marks.data.map((m) => ({ name: labelOf(VULNERABILITY_MARK_LABEL, m.mark), value: m.count, color: MARK_COLORS[m.mark] ?? '#5F6B7C' })), dark) : null,
    projects: projects.data ? stackedBarOption(projects.data.map((r) => r.projectName), levelSeries(projects.data)) : null,
    top: topVulns.data ? horizontalBarOption(t.series.projects, topVulns.data.map((r) => ({ name: r.cve && r.cve !== r.vulId ? `${r.vulId}（${r.cve}）` : r.vulId, value: r.projectCount, color: riskColor(r.level) }))) : null,
  }), [distribution.data, marks.data, projects.data, topVulns.data, dark, c]);
  return (
    <div className="cairn-chart-grid">
      <ChartCard title={c.vulDistribution} option={options.levels} empty={!distribution.data || sumLevels(distribution.data.byLevel) === 0} height={300} />
      <ChartCard title={c.vulMarks} option={options.marks} empty={!marks.data || marks.data.length === 0} height={300} />
      <ChartCard title={c.topVulnerabilities} option={options.top} empty={!topVulns.data || topVulns.data.length === 0} height={300} />
      <ChartCard title={c.vulProjects} option={options.projects} empty={!projects.data || projects.data.every((r) => r.vulnerabilities === 0)} height={300}
        onItemClick={(_, i) => { const r = projects.data?.[i]; if (r) navigate(detailsUrl(r.projectId, { taskId: r.taskId, tab: 'bug' })); }} />
    </div>
  );
}

function Licences({ filter }: { filter: StatisticFilter }) {
  const top = { ...filter, size: 10 };
  const distribution = useStatisticLicenseDistributionQuery(top);
  const projects = useStatisticLicenseProjectsQuery(top);
  const dark = useAppSelector((s) => s.ui.dark);
  const c = t.charts;
  const options = useMemo(() => ({
    levels: distribution.data ? pieOption(c.licenseDistribution, levelSlices(distribution.data.byLevel), dark) : null,
    top: distribution.data ? horizontalBarOption(t.series.projects, distribution.data.top.map((l) => ({ name: l.spdxId, value: l.projectCount, color: riskColor(l.level) }))) : null,
    projects: projects.data ? stackedBarOption(projects.data.map((r) => r.projectName), levelSeries(projects.data)) : null,
  }), [distribution.data, projects.data, dark, c]);
  return (
    <>
      <div className="cairn-chart-grid">
        <ChartCard title={c.licenseDistribution} option={options.levels} empty={!distribution.data || sumLevels(distribution.data.byLevel) === 0} height={300} />
        <ChartCard title={c.topLicenses} option={options.top} empty={!distribution.data || distribution.data.top.length === 0} height={300} />
      </div>
      <ChartCard title={c.licenseProjects} option={options.projects} empty={!projects.data || projects.data.every((r) => r.licenses === 0)} height={280} />
    </>
  );
}

function Tasks({ state }: { state: FilterState }) {
  const navigate = useNavigate();
  const { filter } = state;
  const q = useStatisticTasksQuery({
    page: state.page, size: TASK_PAGE_SIZE,
    ...(filter.subjectId && { subjectId: filter.subjectId }),
    ...(filter.projectIds && { projectIds: filter.projectIds.join(',') }),
    ...(filter.versionIds && { versionIds: filter.versionIds.join(',') }),
    ...(filter.tags && { tags: filter.tags.join(',') }),
    ...(filter.startDate && { startDate: filter.startDate }),
    ...(filter.endDate && { endDate: filter.endDate }),
    ...(filter.utcOffset !== undefined && { utcOffset: filter.utcOffset }),
  });
  const c = t.tasks;
  const columns: Array<Column<StatisticTaskRow>> = [
    { key: 'project', title: c.project, cell: (r) => r.projectName },
    { key: 'subject', title: c.subject, cell: (r) => r.subjectName },
    { key: 'version', title: c.version, cell: (r) => r.versionName ?? '--' },
    { key: 'seq', title: c.seq, cell: (r) => `#${r.seq}` },
    { key: 'status', title: c.status, cell: (r) => <Tag minimal intent={STATUS_INTENT[r.status] ?? 'none'}>{labelOf(TASK_STATUS_LABEL, r.status)}</Tag> },
    { key: 'finished', title: c.finishedAt, className: 'cairn-nowrap', cell: (r) => formatDateTime(r.finishedAt ?? r.queuedAt) },
    { key: 'components', title: c.components, cell: (r) => (r.status === TASK_STATUS.SUCCEEDED ? r.components : '--') },
    { key: 'vulnerabilities', title: c.vulnerabilities, cell: (r) => (r.status === TASK_STATUS.SUCCEEDED ? r.vulnerabilities : '--') },
    { key: 'licenses', title: c.licenses, cell: (r) => (r.status === TASK_STATUS.SUCCEEDED ? r.licenses : '--') },
  ];
  return (
    <Panel title={c.title}>
      <QueryBody query={q} isEmpty={(d) => d.total === 0} emptyText={c.empty}>
        {(d) => (
          <>
            <DataTable rows={d.content} columns={columns} rowKey={(r) => r.taskId} rowLabel={(r) => `${r.projectName} #${r.seq}`} compact
              onOpen={(r) => navigate(detailsUrl(r.projectId, { taskId: r.taskId }))} />
            <Pager page={state.page} size={TASK_PAGE_SIZE} total={d.total} onPage={(page) => state.set({ page })} />
          </>
        )}
      </QueryBody>
    </Panel>
  );
}

export default function ProjectStatisticsScreen() {
  const state = useFilter();
  const has = usePermissions();
  const { filter } = state;
  // The tags come from the status trend, which lists them before its own tag filter.
  const trend = useStatisticStatusTrendQuery(filter);
  const tags = (trend.data?.tags ?? []).map((x) => x.tag);
  return (
    <Page title={routeTitle('/project/statistics') || t.title}>
      <Filters state={state} tags={tags} />
      <Summary filter={filter} />
      <Trends filter={filter} />
      <Versions filter={filter} />
      <Components filter={filter} />
      <Vulnerabilities filter={filter} />
      {has('statistic-project:license:list') ? <Licences filter={filter} /> : null}
      <Tasks state={state} />
    </Page>
  );
}
