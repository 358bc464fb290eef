// /home/result 首页: component statistics over the visible projects' latest succeeded runs (tiles,
// risk and level charts), the 10 most used components (bar chart), the latest vulnerabilities in
// those results (each opens its task details on the finding) and the open-source intelligence
// list (advisories the knowledge base published in the last 30 days). Every chart has 保存为图片.
import { useMemo, useState } from 'react';
import { Card, HTMLTable } from '@blueprintjs/core';
import { useNavigate } from 'react-router';
import { formatDate, formatVulnerabilityId } from '../../../contract/format.ts';
import { routeTitle } from '../../../contract/routes.ts';
import { useHomeIntelligenceQuery, useHomeLatestVulnerabilitiesQuery, useHomeStatisticsQuery, useHomeTop10Query } from '../../api/resultApi.ts';
import { useAppSelector } from '../../app/hooks.ts';
import { Page } from '../../common/PageHeader.tsx';
import { Panel, QueryBody } from '../../common/Panel.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../common/states.tsx';
import { Pager } from '../../common/list/Pager.tsx';
import { LevelTag } from '../../common/levels.tsx';
import { Packages, vulnerabilityDetailsPath } from '../../common/vulnerability/columns.tsx';
import { ChartCard } from '../../common/ChartCard.tsx';
import { KbHomeCard } from '../../common/kbStatus.tsx';
import { barOption, horizontalBarOption, levelSlices, pieOption, riskColor, riskSlices, sumLevels, sumRisks } from '../../common/charts.ts';
import { detailsUrl } from '../../app/router/links.ts';
import { FindingIdSummary, NameAtVersion } from '../../common/cells.tsx';
import { zh } from '../../i18n/zh-CN.ts';
import './styles.ts';

const t = zh.task.home;
const c = t.columns;

function Tile({ label, value, color }: { label: string; value: number; color?: string }) {
  return (
    <Card className="cairn-stat-tile" style={color ? { borderTopColor: color } : undefined}>
      <div className="cairn-muted">{label}</div>
      <div className="cairn-stat-value" style={color ? { color } : undefined}>
        {value.toLocaleString('zh-CN')}
      </div>
    </Card>
  );
}

function Statistics() {
  const q = useHomeStatisticsQuery();
  const top = useHomeTop10Query();
  const dark = useAppSelector((s) => s.ui.dark);
  const options = useMemo(() => {
    if (!q.data) return null;
    return {
      risk: pieOption(t.riskChart, riskSlices(q.data.byRisk, { incomplete: q.data.incomplete.projects > 0, notCovered: q.data.notCovered }), dark),
      vul: barOption(t.vulChart, levelSlices(q.data.vulnerabilities)),
      license: pieOption(t.licenseChart, levelSlices(q.data.licenses), dark),
    };
  }, [q.data, dark]);
  const topOption = useMemo(
    () => (top.data ? horizontalBarOption(t.top10Axis, top.data.map((r) => ({ name: `${r.name}${r.version ? `@${r.version}` : ''}`, value: r.projectCount, color: riskColor(r.riskLevel) }))) : null),
    [top.data],
  );
  if (q.isLoading) return <LoadingState />;
  if (q.isError || !q.data || !options) return <ErrorState title={t.loadFailed} message={q.error?.message} onRetry={() => void q.refetch()} />;
  const d = q.data;
  return (
    <>
      <div className="cairn-stat-tiles">
        <Tile label={t.subjects} value={d.subjects} />
        <Tile label={t.projects} value={d.projects} />
        <Tile label={t.runs} value={d.runs} />
        <Tile label={t.components} value={d.components} />
        <Tile label={t.vulnerableComponents} value={d.vulnerableComponents} color={riskColor(2)} />
        <Tile label={t.vulnerabilities} value={sumLevels(d.vulnerabilities)} color={riskColor(1)} />
      </div>
      {d.runs === 0 ? <EmptyState title={t.emptyTitle} description={t.emptyBody} icon="dashboard" /> : null}
      <div className="cairn-chart-grid">
        <ChartCard title={t.riskChart} option={options.risk} empty={sumRisks(d.byRisk) === 0} />
        <ChartCard title={t.vulChart} option={options.vul} empty={sumLevels(d.vulnerabilities) === 0} />
        <ChartCard title={t.top10} option={topOption} empty={!top.data || top.data.length === 0} height={300} />
        <ChartCard title={t.licenseChart} option={options.license} empty={sumLevels(d.licenses) === 0} height={300} />
      </div>
    </>
  );
}

function Latest() {
  const navigate = useNavigate();
  const q = useHomeLatestVulnerabilitiesQuery();
  return (
    <Panel title={t.latest}>
      <QueryBody query={q} isEmpty={(d) => d.length === 0} emptyText={t.latestNone}>
        {(rows) => (
          <HTMLTable className="cairn-table" striped compact interactive>
            <thead>
              <tr>
                <th>{c.id}</th>
                <th>{c.level}</th>
                <th>{c.component}</th>
                <th>{c.project}</th>
                <th>{c.subject}</th>
                <th>{c.published}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr
                  key={r.findingId}
                  className="cairn-clickable-row"
                  onClick={() => navigate(detailsUrl(r.projectId, { taskId: r.taskId, tab: 'bugInfo', finding: r.findingId, fcomp: r.componentId }))}
                >
                  <td>
                    <FindingIdSummary row={r} />
                  </td>
                  <td>
                    <LevelTag level={r.level} />
                  </td>
                  <td className="cairn-nowrap">
                    <NameAtVersion name={r.componentName} version={r.componentVersion} />
                  </td>
                  <td>{r.projectName}</td>
                  <td>{r.subjectName}</td>
                  <td className="cairn-nowrap">{formatDate(r.published)}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
      </QueryBody>
    </Panel>
  );
}

function Intelligence() {
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const q = useHomeIntelligenceQuery({ query: { page, size: 10 }, filter: { days: 30 } });
  const title = (
    <>
      {t.intelligence} <span className="cairn-muted cairn-h-sub">{t.intelligenceBody}</span>
    </>
  );
  return (
    <Panel title={title}>
      <QueryBody query={q} isEmpty={(d) => d.total === 0} emptyText={t.intelligenceNone}>
        {(d) => (
          <>
            <HTMLTable className="cairn-table" striped compact interactive>
              <thead>
                <tr>
                  <th>{c.id}</th>
                  <th>{c.summary}</th>
                  <th>{c.level}</th>
                  <th>{c.packages}</th>
                  <th>{c.published}</th>
                </tr>
              </thead>
              <tbody>
                {d.content.map((r) => (
                  <tr key={r.id} className="cairn-clickable-row" onClick={() => navigate(vulnerabilityDetailsPath(r))}>
                    <td className="cairn-nowrap">
                      <a className="cairn-vul-id">{formatVulnerabilityId(r)}</a>
                    </td>
                    <td>
                      <div className="cairn-ellipsis-2" title={r.name}>
                        {r.name || '--'}
                      </div>
                    </td>
                    <td>
                      <LevelTag level={r.level} />
                    </td>
                    <td>
                      <Packages row={r} />
                    </td>
                    <td className="cairn-nowrap">{formatDate(r.published)}</td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
            <Pager page={page} size={10} total={d.total} onPage={setPage} />
          </>
        )}
      </QueryBody>
    </Panel>
  );
}

/** The knowledge base's status, with the projects whose results are incomplete (from the statistics). */
function KnowledgeBase() {
  const q = useHomeStatisticsQuery();
  return <KbHomeCard incomplete={q.data?.incomplete} />;
}

export default function HomeResultScreen() {
  return (
    <Page title={routeTitle('/home/result') || t.title}>
      <KnowledgeBase />
      <Statistics />
      <Latest />
      <Intelligence />
    </Page>
  );
}
