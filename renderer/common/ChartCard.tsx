// Every chart of the app sits in one of these: a card with its 保存为图片 button (PNG through
// ECharts getDataURL), drawn by the shared chart host (renderer/common/EChart.tsx), which hands
// over its instance for the export. Spec doc 1 §9: image capture waits up to 10 s for images
// (IMAGE_CAPTURE_TIMEOUT_MS) — the export waits for the chart's `finished` event (animations
// done) or that long, whichever comes first.
import { useRef, useState, type ReactNode } from 'react';
import { Button, Card, H5 } from '@blueprintjs/core';
import type { EChartsCoreOption } from 'echarts/core';
import { IMAGE_CAPTURE_TIMEOUT_MS } from '../../contract/navigation.ts';
import { useAppSelector } from '../app/hooks.ts';
import { toastNotifier } from '../app/toaster.ts';
import { EChart, type EChartInstance } from './EChart.tsx';
import { zh } from '../i18n/zh-CN.ts';
import { imageFileName } from './chartImage.ts';
import { describeChart } from './charts.ts';

const t = zh.chart;

/** Resolves once the chart has finished rendering (or after IMAGE_CAPTURE_TIMEOUT_MS). */
function rendered(chart: EChartInstance): Promise<void> {
  return new Promise((resolve) => {
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      chart.off('finished', finish);
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(finish, IMAGE_CAPTURE_TIMEOUT_MS);
    chart.on('finished', finish);
    // Already idle: a zero-delay re-render fires `finished` right away.
    chart.resize();
  });
}

export function ChartCard(props: {
  title: string;
  option: EChartsCoreOption | null;
  height?: number;
  /** Shown instead of the chart when there is nothing to draw. */
  empty?: boolean;
  extra?: ReactNode;
  onItemClick?: (name: string, dataIndex: number) => void;
}) {
  const { title, option, height = 260, empty, extra, onItemClick } = props;
  const chart = useRef<EChartInstance | null>(null);
  const dark = useAppSelector((s) => s.ui.dark);
  const [saving, setSaving] = useState(false);

  const save = async () => {
    const instance = chart.current;
    if (!instance) return;
    setSaving(true);
    try {
      await rendered(instance);
      const url = instance.getDataURL({ type: 'png', pixelRatio: 2, backgroundColor: dark ? '#2F343C' : '#FFFFFF' });
      const name = imageFileName(title, new Date());
      const a = document.createElement('a');
      a.href = url;
      a.download = name;
      document.body.appendChild(a);
      a.click();
      a.remove();
      toastNotifier.success(t.savedImage(name));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card className="cairn-panel cairn-chart-card">
      <div className="cairn-chart-head">
        <H5>{title}</H5>
        <span className="cairn-pager-spacer" />
        {extra}
        <Button size="small" variant="minimal" icon="media" text={t.saveImage} disabled={empty || !option} loading={saving} onClick={() => void save()} />
      </div>
      {empty ? (
        <div className="cairn-muted cairn-chart-empty" style={{ height }}>
          {t.chartEmpty}
        </div>
      ) : (
        <EChart option={option} height={height} ariaLabel={describeChart(title, option)} chartRef={chart} onItemClick={onItemClick ? (e) => onItemClick(e.name, e.dataIndex) : undefined} />
      )}
    </Card>
  );
}
