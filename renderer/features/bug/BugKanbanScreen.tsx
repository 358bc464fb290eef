// /bug/bugKanban 漏洞看板: the knowledge base's totals per level (the list call's `total`, one
// call per level) as tiles and a pie, and the ten most recently published vulnerabilities.
// Every figure comes from the platform; a slice or a tile opens the list filtered by its level.
import { useMemo } from 'react';
import { Button, Card, H5, HTMLTable } from '@blueprintjs/core';
import { useNavigate } from 'react-router';
import { LEVEL_CODES, type VulnerabilityLevel } from '../../../contract/enums.ts';
import { formatDate, formatVulnerabilityId } from '../../../contract/format.ts';
import { routeTitle } from '../../../contract/routes.ts';
import { useVulnerabilityLevelTotalsQuery, useVulnerabilityListQuery, type LevelTotals } from '../../api/vulnerabilityApi.ts';
import { useAppSelector } from '../../app/hooks.ts';
import { Page } from '../../common/PageHeader.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../common/states.tsx';
import { ChartCard } from '../../common/ChartCard.tsx';
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
        <Card className="cairn-panel">
          <H5>{t.levelDistribution}</H5>
          <EmptyState title={t.emptyAll} description={t.emptyAllBody} icon="pie-chart" />
        </Card>
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
  let body: React.ReactNode;
  if (q.isLoading) body = <LoadingState />;
  else if (q.isError) body = <ErrorState message={q.error.message} onRetry={() => void q.refetch()} />;
  else if (!q.data || q.data.content.length === 0) body = <EmptyState />;
  else {
    body = (
      <HTMLTable className="cairn-table cairn-vul-table" interactive striped compact>
        <thead>
          <tr>
            <th className="cairn-col-id">{t.columns.id}</th>
            <th>{t.columns.name}</th>
            <th className="cairn-col-level">{t.columns.level}</th>
            <th className="cairn-col-score">{t.columns.score}</th>
            <th className="cairn-col-date">{t.columns.published}</th>
          </tr>
        </thead>
        <tbody>
          {q.data.content.map((row) => (
            <tr key={row.id} className="cairn-clickable-row" onClick={() => navigate(vulnerabilityDetailsPath(row))}>
              <td className="cairn-col-id">
                <span className="cairn-vul-id">{formatVulnerabilityId(row)}</span>
              </td>
              <td className="cairn-col-name">
                <div className="cairn-ellipsis-1" title={row.name}>
                  {row.name || '--'}
                </div>
              </td>
              <td className="cairn-col-level">
                <LevelTag level={row.level} />
              </td>
              <td className="cairn-col-score">{formatScore(row.score)}</td>
              <td className="cairn-col-date">{formatDate(row.published)}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    );
  }
  return (
    <Card className="cairn-panel">
      <div className="cairn-panel-header">
        <H5>{t.latest}</H5>
        <Button variant="minimal" rightIcon="arrow-right" text={t.viewAll} onClick={() => navigate(listUrl())} />
      </div>
      {body}
    </Card>
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
