// 概览: counts by level, component and licence figures, four charts (component risk, vulnerability
// levels, licence levels, ecosystems) each with 保存为图片, and the files the engine could not read.
// 不计 VEX“不受影响” switches the overview's vexMark.
import { useMemo, useState } from 'react';
import { Card, H5, HTMLTable, Switch } from '@blueprintjs/core';
import { COMPONENT_RISK_CODES } from '../../../../../contract/enums.ts';
import { useResultOverviewQuery } from '../../../../api/resultApi.ts';
import { useAppSelector } from '../../../../app/hooks.ts';
import { ErrorState, LoadingState } from '../../../../common/states.tsx';
import { ChartCard } from '../../../../common/ChartCard.tsx';
import { barOption, horizontalBarOption, levelSlices, pieOption, riskSlices, sumLevels, sumRisks, topWithOther } from '../../../../common/charts.ts';
import { useTaskView } from '../context.ts';
import { isIncomplete } from '../../../../../contract/coverage.ts';
import { CoverageCallout } from '../../../../common/kbStatus.tsx';
import { LevelCountStrip } from '../parts.tsx';
import { ImagePanel } from '../ImagePanel.tsx';
import { zh } from '../../../../i18n/zh-CN.ts';

const t = zh.task.overview;

function Stat({ label, value, onClick, testId }: { label: string; value: number; onClick?: () => void; testId?: string }) {
  return (
    <Card className="cairn-stat-tile" interactive={Boolean(onClick)} onClick={onClick}>
      <div className="cairn-muted">{label}</div>
      <div className="cairn-stat-value" data-testid={testId}>
        {value.toLocaleString('zh-CN')}
      </div>
    </Card>
  );
}

export function OverviewTab() {
  const { projectId, run, setUrl } = useTaskView();
  const [vexMark, setVexMark] = useState<0 | 1>(0);
  const q = useResultOverviewQuery({ id: projectId, vexMark, taskId: run.id });
  const dark = useAppSelector((s) => s.ui.dark);
  const options = useMemo(() => {
    const d = q.data;
    if (!d) return null;
    return {
      risk: pieOption(zh.task.overview.riskChart, riskSlices(d.components.byRisk, { incomplete: isIncomplete(run.coverage), notCovered: d.components.notCovered }), dark),
      level: barOption(t.levelChart, levelSlices(d.vulnerabilities.byLevel)),
      license: pieOption(t.licenseChart, levelSlices(d.licenses.byLevel), dark),
      ecosystems: horizontalBarOption(t.ecosystemChart, topWithOther(d.components.ecosystems, 9)),
    };
  }, [q.data, dark, run.coverage]);

  if (q.isLoading) return <LoadingState />;
  if (q.isError || !q.data || !options) return <ErrorState message={q.error?.message} onRetry={() => void q.refetch()} />;
  const d = q.data;
  const c = d.components;
  const v = d.vulnerabilities;
  return (
    <div className="cairn-overview">
      <CoverageCallout coverage={run.coverage} />
      {run.image ? <ImagePanel image={run.image} onLayer={(layer) => setUrl({ tab: 'component', layer })} /> : null}
      <div className="cairn-stat-tiles">
        <Stat label={t.components} value={c.total} onClick={() => setUrl({ tab: 'component' })} testId="overview-components" />
        <Stat label={t.vulnerable} value={c.vulnerable} onClick={() => setUrl({ tab: 'component' })} />
        <Stat label={t.direct} value={c.direct} />
        <Stat label={t.transitive} value={c.transitive} />
        <Stat label={t.vulnerabilities} value={v.total} onClick={() => setUrl({ tab: 'bug' })} testId="overview-vulnerabilities" />
        <Stat label={t.unreviewed} value={v.unreviewed} onClick={() => setUrl({ tab: 'bug' })} />
        <Stat label={t.licenses} value={d.licenses.total} onClick={() => setUrl({ tab: 'license' })} />
        <Stat label={t.incompatible} value={d.licenses.incompatibleComponents} onClick={() => setUrl({ tab: 'license', sub: 'conflict' })} />
        {d.leaks !== null ? <Stat label={t.leaks} value={d.leaks} onClick={() => setUrl({ tab: 'sensitiveInfo' })} testId="overview-leaks" /> : null}
      </div>
      <Card className="cairn-panel cairn-overview-levels">
        <LevelCountStrip counts={v.byLevel} onLevel={(level) => setUrl({ tab: 'bug', level })} />
        <span className="cairn-muted">
          {t.distinct} {v.distinct} · {t.runtime} {c.runtime} · {t.development} {c.development} · {t.marked} {c.marked} · {t.unlicensed} {d.licenses.unlicensedComponents}
          {c.falsePositive > 0 ? <span title={t.countRule}> · {t.falsePositive(c.falsePositive)}</span> : null}
        </span>
        <span className="cairn-pager-spacer" />
        <Switch className="cairn-inline-switch" checked={vexMark === 1} label={t.vexToggle} onChange={(e) => setVexMark(e.currentTarget.checked ? 1 : 0)} />
        {vexMark === 1 && v.excludedByVex > 0 ? <span className="cairn-muted">{t.excludedByVex(v.excludedByVex)}</span> : null}
      </Card>
      <div className="cairn-chart-grid">
        <ChartCard
          title={t.riskChart}
          option={options.risk}
          empty={sumRisks(c.byRisk) === 0}
          onItemClick={(_, i) => {
            const risk = COMPONENT_RISK_CODES[i];
            if (risk) setUrl({ tab: 'component', risk });
          }}
        />
        <ChartCard title={t.levelChart} option={options.level} empty={sumLevels(v.byLevel) === 0} onItemClick={(_, i) => setUrl({ tab: 'bug', level: [1, 2, 4, 8, 16][i] })} />
        <ChartCard title={t.licenseChart} option={options.license} empty={sumLevels(d.licenses.byLevel) === 0} />
        <ChartCard title={t.ecosystemChart} option={options.ecosystems} empty={c.ecosystems.length === 0} />
      </div>
      <Card className="cairn-panel">
        <H5>
          {t.problems} <span className="cairn-muted cairn-h-sub">{d.problems.length}</span>
        </H5>
        {d.problems.length === 0 ? (
          <div className="cairn-muted cairn-panel-empty">{t.problemsNone}</div>
        ) : (
          <HTMLTable className="cairn-table" compact striped>
            <thead>
              <tr>
                <th>{t.file}</th>
                <th>{t.message}</th>
              </tr>
            </thead>
            <tbody>
              {d.problems.map((p, i) => (
                <tr key={`${p.file}:${i}`}>
                  <td className="cairn-mono cairn-break">{p.file}</td>
                  <td>{p.message}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
      </Card>
    </div>
  );
}
