// Chart options and small numeric helpers of the result screens (analysis details, the home
// dashboard). Pure (no DOM, no ECharts import), tested in Node.
import { COMPONENT_RISK_CODES, COMPONENT_RISK_LABEL, LEVEL_CODES, VULNERABILITY_LEVEL_LABEL, labelOf } from '../../contract/enums.ts';
import type { LevelCounts, RiskCounts } from '../../contract/api/result/index.ts';
import { COMPONENT_NOT_COVERED } from '../../contract/coverage.ts';

/** Level colours (same palette as the vulnerability screens) plus 无漏洞 green and 未知版本 grey-blue. */
const RISK_COLORS: Readonly<Record<number, string>> = {
  1: '#8E292C',
  2: '#CD4246',
  4: '#EC9A3C',
  8: '#D1980B',
  16: '#8F99A8',
  32: '#32A467',
  64: '#5F6B7C',
};

export const riskColor = (code: number | null | undefined): string => RISK_COLORS[code ?? 16] ?? RISK_COLORS[16]!;
export const riskLabel = (code: number | null | undefined): string => labelOf(COMPONENT_RISK_LABEL, code);
export const levelName = (code: number | null | undefined): string => labelOf(VULNERABILITY_LEVEL_LABEL, code);

export const sumLevels = (c: LevelCounts): number => LEVEL_CODES.reduce((n, l) => n + (c[l] ?? 0), 0);
export const sumRisks = (c: RiskCounts): number => COMPONENT_RISK_CODES.reduce((n, l) => n + (c[l] ?? 0), 0);

const PIE_TOOLTIP = { trigger: 'item', formatter: '{b}：{c} 个（{d}%）' };

interface Slice {
  name: string;
  value: number;
  color?: string;
}

/** A doughnut; empty slices stay in the legend but draw no label. */
export function pieOption(name: string, slices: readonly Slice[], dark: boolean) {
  return {
    tooltip: PIE_TOOLTIP,
    legend: { orient: 'horizontal', bottom: 0, left: 'center', itemGap: 10, itemWidth: 14, type: 'plain' },
    series: [
      {
        type: 'pie',
        name,
        radius: ['36%', '60%'],
        center: ['50%', '40%'],
        avoidLabelOverlap: true,
        itemStyle: { borderColor: dark ? '#2F343C' : '#FFFFFF', borderWidth: 2 },
        label: { formatter: '{b}  {c}' },
        data: slices.map((s) => ({
          name: s.name,
          value: s.value,
          ...(s.color ? { itemStyle: { color: s.color } } : {}),
          label: { show: s.value > 0 },
          labelLine: { show: s.value > 0 },
        })),
      },
    ],
  };
}

/** Grey of components the knowledge base could not check (未覆盖), and of 无漏洞 when the results are incomplete. */
export const NOT_COVERED_COLOR = '#A7B6C2';
/** 未覆盖 (components of an ecosystem the knowledge base held nothing for): its chart slice and filter choice. */
export const NOT_COVERED_TAG_COLOR = '#738694';

/**
 * Component risk slices. With `coverage` (the run's knowledge-base coverage, or the dashboard's
 * incomplete projects) no green 无漏洞 is drawn over an incomplete result: components of uncovered
 * ecosystems are a 未覆盖 slice of their own, and what is left of 无漏洞 is grey and says 结果不完整.
 */
export function riskSlices(c: RiskCounts, coverage?: { incomplete: boolean; notCovered: number }): Slice[] {
  const slices: Slice[] = COMPONENT_RISK_CODES.map((code) => ({ name: riskLabel(code), value: c[code] ?? 0, color: riskColor(code) }));
  if (!coverage?.incomplete) return slices;
  const clean = slices[COMPONENT_RISK_CODES.indexOf(32)]!;
  const notCovered = Math.min(coverage.notCovered, clean.value);
  clean.value -= notCovered;
  clean.name = `${clean.name}（结果不完整）`;
  clean.color = NOT_COVERED_COLOR;
  if (notCovered > 0) slices.push({ name: COMPONENT_NOT_COVERED, value: notCovered, color: NOT_COVERED_TAG_COLOR });
  return slices;
}
export const levelSlices = (c: LevelCounts): Slice[] => LEVEL_CODES.map((code) => ({ name: levelName(code), value: c[code] ?? 0, color: riskColor(code) }));

/** Vertical bars, one per category, each in its own colour. */
export function barOption(name: string, bars: readonly Slice[]) {
  return {
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    grid: { left: 48, right: 16, top: 24, bottom: 32 },
    xAxis: { type: 'category', data: bars.map((b) => b.name) },
    yAxis: { type: 'value', minInterval: 1 },
    series: [
      {
        type: 'bar',
        name,
        barMaxWidth: 36,
        label: { show: true, position: 'top' },
        data: bars.map((b) => ({ value: b.value, ...(b.color ? { itemStyle: { color: b.color } } : {}) })),
      },
    ],
  };
}

/** Horizontal bars (long labels: component names, ecosystems), largest on top. */
export function horizontalBarOption(name: string, bars: readonly Slice[], color = '#2D72D2') {
  const rows = [...bars].reverse();
  return {
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    // A fixed label column: ECharts measures labels before truncating them, so containLabel would clip.
    grid: { left: 220, right: 40, top: 8, bottom: 24 },
    xAxis: { type: 'value', minInterval: 1 },
    yAxis: { type: 'category', data: rows.map((b) => b.name), axisLabel: { width: 180, overflow: 'truncate' } },
    series: [
      {
        type: 'bar',
        name,
        barMaxWidth: 20,
        label: { show: true, position: 'right' },
        data: rows.map((b) => ({ value: b.value, itemStyle: { color: b.color ?? color } })),
      },
    ],
  };
}

export interface LineSeries {
  name: string;
  data: readonly number[];
  color?: string;
  /** Drawn as bars (counts beside the lines). */
  bar?: boolean;
}

/** A trend over days (or any categories): lines, optionally some bars, with a legend. */
export function lineOption(categories: readonly string[], series: readonly LineSeries[]) {
  return {
    tooltip: { trigger: 'axis' },
    legend: { top: 0, left: 'center', type: 'scroll' },
    grid: { left: 48, right: 24, top: 36, bottom: 32 },
    xAxis: { type: 'category', data: [...categories], boundaryGap: series.some((s) => s.bar) },
    yAxis: { type: 'value', minInterval: 1 },
    series: series.map((s) => ({
      type: s.bar ? 'bar' : 'line',
      name: s.name,
      data: [...s.data],
      ...(s.bar ? { barMaxWidth: 18 } : { symbolSize: 5 }),
      ...(s.color ? { itemStyle: { color: s.color }, lineStyle: { color: s.color } } : {}),
    })),
  };
}

/** Stacked vertical bars by category (levels of each version or project), one series per stack part. */
export function stackedBarOption(categories: readonly string[], series: readonly LineSeries[]) {
  return {
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    legend: { top: 0, left: 'center', type: 'scroll' },
    grid: { left: 48, right: 16, top: 36, bottom: 48 },
    xAxis: { type: 'category', data: [...categories], axisLabel: { width: 110, overflow: 'truncate', interval: 0 } },
    yAxis: { type: 'value', minInterval: 1 },
    series: series.map((s) => ({ type: 'bar', name: s.name, stack: 'total', barMaxWidth: 36, data: [...s.data], ...(s.color ? { itemStyle: { color: s.color } } : {}) })),
  };
}

/** Top N of a count list, the rest summed into 其他. */
export function topWithOther(rows: ReadonlyArray<{ key: string; count: number }>, n: number, other = '其他'): Slice[] {
  const sorted = [...rows].sort((a, b) => b.count - a.count);
  const head = sorted.slice(0, n).map((r) => ({ name: r.key, value: r.count }));
  const rest = sorted.slice(n).reduce((s, r) => s + r.count, 0);
  return rest > 0 ? [...head, { name: other, value: rest }] : head;
}

/** Percentage clamped to 0..100 as a 0..1 fraction for a progress bar. */
export const progressFraction = (percent: number | null | undefined): number =>
  typeof percent === 'number' && Number.isFinite(percent) ? Math.min(100, Math.max(0, percent)) / 100 : 0;

/**
 * The chart in words, for screen readers (and anyone reading the page without the canvas):
 * 「漏洞等级：超危 2，高危 3，…」 from the first series of a pie or a category bar chart.
 */
export function describeChart(title: string, option: unknown): string {
  const o = option as { xAxis?: { data?: unknown[] }; yAxis?: { data?: unknown[] }; series?: Array<{ data?: unknown[] }> } | null;
  const data = o?.series?.[0]?.data ?? [];
  const axis = o?.xAxis?.data ?? o?.yAxis?.data;
  const parts = data.map((d, i) => {
    const item = (typeof d === 'object' && d !== null ? d : { value: d }) as { name?: unknown; value?: unknown };
    return `${String(item.name ?? axis?.[i] ?? '')} ${String(item.value ?? '')}`.trim();
  });
  return parts.length ? `${title}：${parts.join('，')}` : title;
}
