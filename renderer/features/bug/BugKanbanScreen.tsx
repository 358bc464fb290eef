// /bug/bugKanban 漏洞看板: the knowledge base's totals per level (the list call's `total`, one
// call per level) as tiles and a pie, and the ten most recently published vulnerabilities.
// Every figure comes from the platform; a slice or a tile opens the list filtered by its level.
import { useMemo } from 'react';
import { Button, Card } from '@blueprintjs/core';
import { useNavigate } from 'react-router';
import { LEVEL_CODES, type VulnerabilityLevel } from '../../../contract/enums.ts';
import { formatDate, formatVulnerabilityId } from '../../../contract/format.ts';
import { routeTitle } from '../../../contract/routes.ts';
import { useVulnerabilityLevelTotalsQuery, useVulnerabilityListQuery, type LevelTotals } from '../../api/vulnerabilityApi.ts';
import { useAppSelector } from '../../app/hooks.ts';
import { Page } from '../../common/PageHeader.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../common/states.tsx';
import { ChartCard } from '../../common/ChartCard.tsx';
import { DataTable } from '../../common/list/DataTable.tsx';
import { Panel, QueryBody } from '../../common/Panel.tsx';
import { pieOption } from '../../common/charts.ts';
import { LEVEL_COLORS, LevelTag, formatScore, levelLabel } from '../../common/levels.tsx';
import { writeListState, DEFAULT_LIST_STATE } from './listQuery.ts';
import { vulnerabilityDetailsPath } from '../../common/vulnerability/columns.tsx';
import { zh } from '../../i18n/zh-CN.ts';
import './styles.ts';

const t = zh.vul;
const LATEST = 10;

const listUrl = (levels: VulnerabilityLevel[] = []) => {
  const q = writeListState({ ...DEFAULT_LIST_STATE, levels }).toString();
  return q ? `/bug/bugList?${q}` : '/bug/bugList';
};

const sumTotals = (totals: LevelTotals): number => LEVEL_CODES.reduce((n, l) => n + (totals[l] ?? 0), 0);

/** The pie of the knowledge base's levels; an empty level stays in the legend but draws no slice. */
const levelPie = (totals: LevelTotals, dark: boolean) =>
  pieOption(t.levelDistribution, LEVEL_CODES.map((level) => ({ name: levelLabel(level), value: totals[level], color: LEVEL_COLORS[level] })), dark);

function LevelOverview() {
  const navigate = useNavigate();
  const totals = useVulnerabilityLevelTotalsQuery();
  const dark = useAppSelector((s) => s.ui.dark);
  const option = useMemo(() => (totals.data ? levelPie(totals.data, dark) : null), [totals.data, dark]);
  if (totals.isLoading) return <Card className="cairn-panel"><LoadingState /></Card>;
  if (totals.isError) return <Card className="cairn-panel"><ErrorState title={t.kanbanLoadFailed} message={totals.error.message} onRetry={() => void totals.refetch()} /></Card>;
  if (!totals.data || !option) return null;
  const data = totals.data;
  const all = sumTotals(data);
  return (
    <>
      <div className="cairn-stat-tiles">
        <Card className="cairn-stat-tile" interactive onClick={() => navigate(listUrl())}>
          <div className="cairn-muted">{t.totalVulnerabilities}</div>
          <div className="cairn-stat-value" data-testid="vul-total">{all.toLocaleString('zh-CN')}</div>
        </Card>
        {LEVEL_CODES.map((level) => (
          <Card key={level} className="cairn-stat-tile" interactive onClick={() => navigate(listUrl([level]))} title={t.viewLevel(levelLabel(level))} style={{ borderTopColor: LEVEL_COLORS[level] }}>
            <div className="cairn-muted">{levelLabel(level)}</div>
            <div className="cairn-stat-value" style={{ color: LEVEL_COLORS[level] }} data-testid={`vul-level-${level}`}>
              {data[level].toLocaleString('zh-CN')}
            </div>
          </Card>
        ))}
      </div>
      {all === 0 ? (
        <Panel title={t.levelDistribution}>
          <EmptyState title={t.emptyAll} description={t.emptyAllBody} icon="pie-chart" />
        </Panel>
      ) : (
        <ChartCard
          title={t.levelDistribution}
          option={option}
          height={300}
          onItemClick={(_, dataIndex) => {
            const level = LEVEL_CODES[dataIndex];
            if (level) navigate(listUrl([level]));
          }}
        />
      )}
    </>
  );
}

function Latest() {
  const navigate = useNavigate();
  const q = useVulnerabilityListQuery({ paging: { page: 1, size: LATEST }, filter: { sort: 'published', order: 'desc' } });
  const c = t.columns;
  return (
    <Panel title={t.latest} actions={<Button variant="minimal" rightIcon="arrow-right" text={t.viewAll} onClick={() => navigate(listUrl())} />}>
      <QueryBody query={q} isEmpty={(d) => d.content.length === 0} emptyText={zh.states.empty}>
        {(d) => (
          <DataTable
            className="cairn-vul-table"
            compact
            rows={d.content}
            rowKey={(row) => row.id}
            rowLabel={(row) => formatVulnerabilityId(row)}
            onOpen={(row) => navigate(vulnerabilityDetailsPath(row))}
            columns={[
              { key: 'id', title: c.id, className: 'cairn-col-id', cell: (row) => <span className="cairn-vul-id">{formatVulnerabilityId(row)}</span> },
              { key: 'name', title: c.name, className: 'cairn-col-name', cell: (row) => <div className="cairn-ellipsis-1" title={row.name}>{row.name || '--'}</div> },
              { key: 'level', title: c.level, className: 'cairn-col-level', cell: (row) => <LevelTag level={row.level} /> },
              { key: 'score', title: c.score, className: 'cairn-col-score', cell: (row) => formatScore(row.score) },
              { key: 'published', title: c.published, className: 'cairn-col-date', cell: (row) => formatDate(row.published) },
            ]}
          />
        )}
      </QueryBody>
    </Panel>
  );
}

export default function BugKanbanScreen() {
  return (
    <Page title={routeTitle('/bug/bugKanban')} subtitle={t.kanbanSubtitle}>
      <LevelOverview />
      <Latest />
    </Page>
  );
}
