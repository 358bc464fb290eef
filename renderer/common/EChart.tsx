// The one ECharts host of the renderer: only the pieces the screens draw (pie, bar, line; tooltip,
// legend, grid) on the canvas renderer. Resizes with its box, follows the dark theme, reports
// clicks on a data item, and hands its instance to `chartRef` for callers that export a PNG.
import { useEffect, useRef, type RefObject } from 'react';
import * as echarts from 'echarts/core';
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import type { EChartsCoreOption } from 'echarts/core';
import { useAppSelector } from '../app/hooks.ts';

echarts.use([PieChart, BarChart, LineChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

export type EChartInstance = echarts.ECharts;

export interface ChartClick {
  name: string;
  dataIndex: number;
  seriesIndex: number;
}

export function EChart(props: {
  /** Nothing is drawn while it is null. */
  option: EChartsCoreOption | null;
  height?: number;
  onItemClick?: (e: ChartClick) => void;
  ariaLabel?: string;
  /** Holds the live instance (null once disposed). */
  chartRef?: RefObject<EChartInstance | null>;
}) {
  const { option, height = 280, onItemClick, ariaLabel, chartRef } = props;
  const box = useRef<HTMLDivElement>(null);
  const ownRef = useRef<EChartInstance | null>(null);
  const chart = chartRef ?? ownRef;
  const dark = useAppSelector((s) => s.ui.dark);
  const clickRef = useRef(onItemClick);
  useEffect(() => {
    clickRef.current = onItemClick;
  }, [onItemClick]);

  useEffect(() => {
    const el = box.current;
    if (!el) return undefined;
    const instance = echarts.init(el, dark ? 'dark' : undefined, { renderer: 'canvas' });
    chart.current = instance;
    instance.on('click', (e) => {
      const p = e as unknown as ChartClick;
      clickRef.current?.({ name: String(p.name), dataIndex: p.dataIndex, seriesIndex: p.seriesIndex });
    });
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(el);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, [dark, chart]);

  useEffect(() => {
    if (option) chart.current?.setOption({ backgroundColor: 'transparent', ...option }, true);
  }, [option, dark, chart]);

  return <div ref={box} className="cairn-chart" style={{ height }} role="img" aria-label={ariaLabel} />;
}
