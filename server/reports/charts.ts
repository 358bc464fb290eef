// The summary charts of the document reports (PDF, Word, Excel): ECharts rendered to SVG on the
// server (no DOM, no canvas) and rasterised by resvg with only the shipped Noto Sans SC files, so
// the Chinese labels look the same on every machine, CJK fonts installed or not.
import { COMPONENT_NOT_COVERED } from '../../contract/coverage.ts';
import { Resvg } from '@resvg/resvg-js';
import * as echarts from 'echarts';
import { COMPONENT_RISK_CODES, COMPONENT_RISK_LABEL, LEVEL_CODES, LICENSE_LEVEL_LABEL, VULNERABILITY_LEVEL_LABEL } from '../../contract/enums.ts';
import { REPORT_FONT_FAMILY, reportFonts } from './fonts.ts';
import type { LevelCounts, ReportModel } from './model.ts';
import { LEVEL_COLOURS } from './sections.ts';

export interface ReportChart {
  key: string;
  title: string;
  /** PNG at 2x the logical size (so it stays crisp when placed at `width` × `height`). */
  png: Buffer;
  /** Logical size in CSS pixels / points: place the image at this size (or scaled evenly). */
  width: number;
  height: number;
}

/** Logical chart size: two fit side by side on an A4 page, text stays readable when placed there. */
const WIDTH = 360;
const HEIGHT = 225;
const SCALE = 2;
const PIE_X = 118;
const PIE_Y = Math.round(HEIGHT * 0.52);
const ACCENT = '#1F5AA6';
const TEXT = '#333333';
const MUTED = '#8A93A3';

type Option = echarts.EChartsOption;
interface Slice {
  name: string;
  value: number;
  colour: string;
}

const levelSlices = (counts: LevelCounts, labels: Record<number, string>): Slice[] =>
  LEVEL_CODES.map((code) => ({ name: labels[code] ?? String(code), value: counts[code] ?? 0, colour: LEVEL_COLOURS[code]!.fill }));

const total = (slices: Slice[]) => slices.reduce((sum, s) => sum + s.value, 0);

/** Shown instead of an empty pie or bar chart (ECharts draws nothing at all for all-zero data). */
const noData = (): Option => ({
  graphic: [{ type: 'text', left: 'center', top: 'middle', style: { text: '暂无数据', fill: MUTED, fontSize: 15, fontFamily: REPORT_FONT_FAMILY } }],
});

function donut(slices: Slice[], unit: string): Option {
  const sum = total(slices);
  if (sum === 0) return noData();
  return {
    legend: {
      orient: 'vertical',
      right: 12,
      top: 'middle',
      itemWidth: 12,
      itemHeight: 12,
      itemGap: 12,
      icon: 'roundRect',
      textStyle: { fontSize: 15, color: TEXT },
      formatter: (name: string) => `${name}  ${slices.find((s) => s.name === name)?.value ?? 0}`,
    },
    graphic: [
      // Centred on the hole of the donut (x/y with centre alignment; left/top would place the box edge).
      { type: 'text', style: { x: PIE_X, y: PIE_Y - 11, text: String(sum), fill: TEXT, fontSize: 26, fontWeight: 'bold', align: 'center', verticalAlign: 'middle', fontFamily: REPORT_FONT_FAMILY } },
      { type: 'text', style: { x: PIE_X, y: PIE_Y + 17, text: unit, fill: MUTED, fontSize: 14, align: 'center', verticalAlign: 'middle', fontFamily: REPORT_FONT_FAMILY } },
    ],
    series: [
      {
        type: 'pie',
        radius: ['48%', '78%'],
        center: [PIE_X, PIE_Y],
        avoidLabelOverlap: true,
        label: { show: false },
        itemStyle: { borderColor: '#FFFFFF', borderWidth: 2 },
        // Zero levels stay in the data (an invisible sector) so the legend lists every level.
        data: slices.map((s) => ({ name: s.name, value: s.value, itemStyle: { color: s.colour } })),
      },
    ],
  };
}

function bars(slices: Slice[], horizontal: boolean): Option {
  if (total(slices) === 0) return noData();
  const categoryAxis = {
    type: 'category' as const,
    data: slices.map((s) => s.name),
    axisTick: { show: false },
    axisLine: { lineStyle: { color: '#C9CED6' } },
    axisLabel: {
      color: TEXT,
      fontSize: 14,
      interval: 0,
      // Seven risk names side by side: break 未知风险 / 未知版本 over two lines so none overlap.
      formatter: (name: string) => (!horizontal && name.length > 3 ? `${name.slice(0, 2)}\n${name.slice(2)}` : name),
    },
    inverse: horizontal,
  };
  const valueAxis = {
    type: 'value' as const,
    minInterval: 1,
    splitLine: { lineStyle: { color: '#EDF0F4' } },
    axisLabel: { color: MUTED, fontSize: 13 },
  };
  return {
    grid: horizontal ? { left: 12, right: 48, top: 16, bottom: 12, containLabel: true } : { left: 12, right: 16, top: 28, bottom: 8, containLabel: true },
    xAxis: horizontal ? valueAxis : categoryAxis,
    yAxis: horizontal ? categoryAxis : valueAxis,
    series: [
      {
        type: 'bar',
        barMaxWidth: horizontal ? 16 : 28,
        label: { show: true, position: horizontal ? 'right' : 'top', color: TEXT, fontSize: 14 },
        data: slices.map((s) => ({ value: s.value, itemStyle: { color: s.colour, borderRadius: horizontal ? [0, 3, 3, 0] : [3, 3, 0, 0] } })),
      },
    ],
  };
}

function renderSvg(option: Option): string {
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: WIDTH, height: HEIGHT });
  try {
    chart.setOption({ animation: false, backgroundColor: '#FFFFFF', textStyle: { fontFamily: REPORT_FONT_FAMILY }, ...option });
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}

function rasterise(svg: string): Buffer {
  const fonts = reportFonts();
  const resvg = new Resvg(svg, {
    fitTo: { mode: 'zoom', value: SCALE },
    background: '#FFFFFF',
    font: { fontFiles: [fonts.regular, fonts.bold], loadSystemFonts: false, defaultFontFamily: REPORT_FONT_FAMILY },
  });
  return resvg.render().asPng();
}

/** The chart definitions of a model, in document order (a licence report has the licence chart only). */
function chartOptions(model: ReportModel): Array<{ key: string; title: string; option: Option }> {
  const s = model.summary;
  const licence = { key: 'licenseLevels', title: '许可证风险分布', option: donut(levelSlices(s.licenseLevels, LICENSE_LEVEL_LABEL), '种许可证') };
  if (model.scope === 'license') return [licence];
  // Components the knowledge base could not check are 未覆盖, taken out of 无漏洞.
  const notCovered = model.components.filter((c) => !c.covered && c.vulnerabilityCount === 0 && c.risk === 32).length;
  const risks: Slice[] = COMPONENT_RISK_CODES.map((code) => ({
    name: COMPONENT_RISK_LABEL[code], value: (s.componentRisks[String(code)] ?? 0) - (code === 32 ? notCovered : 0), colour: LEVEL_COLOURS[code]!.fill,
  }));
  if (notCovered) risks.splice(COMPONENT_RISK_CODES.indexOf(32) + 1, 0, { name: COMPONENT_NOT_COVERED, value: notCovered, colour: '#9AA5B1' });
  const ecosystems: Slice[] = s.ecosystems.slice(0, 10).map((e) => ({ name: e.name || '未知', value: e.count, colour: ACCENT }));
  return [
    { key: 'vulnerabilityLevels', title: '漏洞等级分布', option: donut(levelSlices(s.vulnerabilityLevels, VULNERABILITY_LEVEL_LABEL), '个漏洞') },
    { key: 'componentRisks', title: '组件风险分布', option: bars(risks, false) },
    licence,
    { key: 'ecosystems', title: '组件生态分布', option: bars(ecosystems, true) },
  ];
}

/** The summary charts as PNG images with their titles (the writers print the title themselves). */
export async function summaryCharts(model: ReportModel): Promise<ReportChart[]> {
  const charts: ReportChart[] = [];
  for (const { key, title, option } of chartOptions(model)) {
    charts.push({ key, title, png: rasterise(renderSvg(option)), width: WIDTH, height: HEIGHT });
    // Rasterising is synchronous native work: let the event loop breathe between charts.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return charts;
}
