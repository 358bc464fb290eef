// A small ECharts host: only the pieces the vulnerability screens draw (pie, bar; tooltip,
// legend, grid) on the canvas renderer. Resizes with its box, follows the dark theme, and
// reports clicks on a data item.
import { useEffect, useRef } from 'react';
import * as echarts from 'echarts/core';
import { BarChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import type { EChartsCoreOption } from 'echarts/core';
import { useAppSelector } from '../../app/hooks.ts';

echarts.use([PieChart, BarChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

export interface ChartClick {
  name: string;
  dataIndex: number;
  seriesIndex: number;
}

export function EChart({ option, height = 280, onItemClick, ariaLabel }: { option: EChartsCoreOption; height?: number; onItemClick?: (e: ChartClick) => void; ariaLabel?: string }) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
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
  }, [dark]);

  useEffect(() => {
    chart.current?.setOption({ backgroundColor: 'transparent', ...option }, true);
  }, [option, dark]);

  return <div ref={box} className="cairn-chart" style={{ height }} role="img" aria-label={ariaLabel} />;
}
