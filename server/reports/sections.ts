// The content of the document reports (PDF, Word, Excel), written once: the section titles in
// order and each table's columns with how a cell is read from the model. The three writers lay
// the same sections out in their own way, so the three formats always carry the same content.
import {
  COMPONENT_RISK_LABEL,
  CONFLICT_VERDICT_LABEL,
  LICENSE_KIND_LABEL,
  LICENSE_KINDS,
  LICENSE_LEVEL_LABEL,
  VERDICT_SOURCE_LABEL,
  VEX_LABEL,
  VULNERABILITY_LEVEL_LABEL,
  VULNERABILITY_MARK_LABEL,
  fixedInText,
  labelOf,
} from '../../contract/enums.ts';
import { COMPONENT_NOT_COVERED, COMPONENT_NOT_COVERED_REASON, COVERAGE_INCOMPLETE_MARK } from '../../contract/coverage.ts';
import { layerStep, type ImageLayer, type RunImage } from '../../contract/api/image.ts';
import { formatFileSize } from '../../contract/format.ts';
import type { ReportComponent, ReportConflict, ReportLicenceFinding, ReportLicense, ReportMarkLog, ReportModel, ReportVulnerability } from './model.ts';

export const REPORT_TITLES = {
  task: '开源软件成分分析报告',
  subject: '应用开源软件成分分析报告',
  license: '开源许可证合规报告',
  statistic: '开源软件成分统计报告',
} as const;

/** `2026-11-22T08:00:00.000Z` → `2026-11-22 16:00:00` in the platform's local time; '--' when empty. */
export function reportTime(iso: string | null | undefined): string {
  if (!iso) return '--';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

export interface Column<T> {
  header: string;
  /** Relative width (the writers scale these to the page or sheet). */
  width: number;
  value: (row: T) => string | number;
  /** A level code (1/2/4/8/16, risk 32/64) to colour the cell by, when the column shows one. */
  level?: (row: T) => number;
}

export interface TableSection<T> {
  key: string;
  title: string;
  /** One sentence under the title. */
  intro: (model: ReportModel) => string;
  rows: (model: ReportModel) => readonly T[];
  columns: ReadonlyArray<Column<T>>;
  /** What the section says when it has no rows. */
  empty: string;
}

const dash = (v: string | null | undefined) => (v && v.length > 0 ? v : '--');

/** The component's risk in words; one of an ecosystem the knowledge base held nothing for is 未覆盖, never 无漏洞. */
export const riskText = (c: ReportComponent): string =>
  (!c.covered && c.vulnerabilityCount === 0 ? `${COMPONENT_NOT_COVERED}（${COMPONENT_NOT_COVERED_REASON}）` : labelOf(COMPONENT_RISK_LABEL, c.risk));

export const COMPONENT_TABLE: TableSection<ReportComponent> = {
  key: 'components',
  title: '组件清单',
  intro: (m) => `共识别组件 ${m.summary.components} 个，其中直接依赖 ${m.summary.directComponents} 个。`
    + (m.coverage.uncoveredComponents ? `其中 ${m.coverage.uncoveredComponents} 个组件所属生态未被知识库收录，风险等级记为“${COMPONENT_NOT_COVERED}”（不是无漏洞）。` : ''),
  rows: (m) => m.components,
  empty: '未识别到组件。',
  columns: [
    { header: '组件名称', width: 19, value: (c) => c.name },
    { header: '版本', width: 9, value: (c) => dash(c.version) },
    { header: '生态', width: 8, value: (c) => c.ecosystem },
    { header: '依赖方式', width: 11, value: (c) => (c.direct ? '直接依赖' : '间接依赖') },
    { header: '许可证', width: 15, value: (c) => dash(c.license) },
    { header: '风险等级', width: 11, value: riskText, level: (c) => (c.covered ? c.risk : 16) },
    { header: '漏洞数', width: 7, value: (c) => c.vulnerabilityCount },
    { header: '推荐版本', width: 10, value: (c) => dash(c.recommendVersion) },
    { header: 'PURL', width: 28, value: (c) => dash(c.purl) },
  ],
};

/** A layer as the task screens name it: 第 1 层 for the base (index 0). */
const layerName = (index: number): string => `第 ${index + 1} 层`;

/** What the reports say of a layer whose Dockerfile step the image history does not record. */
const NO_STEP = '（镜像历史未记录构建步骤）';

/** Characters of a build step the layers table shows. */
const STEP_LIMIT = 240;
const clip = (text: string, limit: number) => (text.length > limit ? `${text.slice(0, limit)}…` : text);

/** A component's layer in the component table: 第 2 层 · RUN apt-get install …; '--' when not known. */
export function componentLayerText(image: RunImage, index: number | null): string {
  if (index === null) return '--';
  const step = layerStep(image.layers[index]?.createdBy ?? null);
  return step ? `${layerName(index)} · ${clip(step, 32)}` : layerName(index);
}

/**
 * The component table of a model: an image run's has a 镜像层 column (the layer each component
 * first appeared in) after 依赖方式; any other run's is COMPONENT_TABLE unchanged.
 */
export function componentTableFor(model: ReportModel): TableSection<ReportComponent> {
  const image = model.image;
  if (!image) return COMPONENT_TABLE;
  const columns = [...COMPONENT_TABLE.columns];
  const at = columns.findIndex((c) => c.header === '依赖方式') + 1;
  columns.splice(at, 0, { header: '镜像层', width: 16, value: (c) => componentLayerText(image, c.layer) });
  // The image's table is wider by one column: narrower name and PURL keep the others readable.
  return { ...COMPONENT_TABLE, columns: columns.map((c) => (c.header === 'PURL' ? { ...c, width: 22 } : c.header === '组件名称' ? { ...c, width: 16 } : c)) };
}

/** An image run's 容器镜像 section: what was analysed, then its layers bottom first. */
const IMAGE_TABLE: TableSection<ImageLayer> = {
  key: 'image',
  title: '容器镜像',
  intro: (m) => {
    const image = m.image!;
    return [
      `镜像：${image.reference ?? '（未标记名称的镜像文件）'}`,
      `清单摘要：${image.manifestDigest}`,
      `平台：${image.platform}`,
      `基础系统：${image.os?.prettyName ?? '未识别（镜像中没有 os-release）'}`,
      ...(image.created ? [`构建时间：${reportTime(image.created)}`] : []),
      `共 ${image.layers.length} 层，层大小合计 ${formatFileSize(image.size)}。下表自底层起列出各层的构建步骤与该层引入的组件数。`,
    ].join('；');
  },
  rows: (m) => m.image?.layers ?? [],
  empty: '镜像中没有层。',
  columns: [
    { header: '镜像层', width: 8, value: (l) => layerName(l.index) },
    // A step can be kilobytes of shell (a long RUN): the table keeps its start, the SBOMs the whole.
    { header: '构建步骤', width: 40, value: (l) => clip(layerStep(l.createdBy), STEP_LIMIT) || NO_STEP },
    { header: '层摘要', width: 30, value: (l) => l.digest },
    { header: '大小', width: 9, value: (l) => formatFileSize(l.size) },
    { header: '引入组件数', width: 8, value: (l) => l.components },
  ],
};

export const VULNERABILITY_TABLE: TableSection<ReportVulnerability> = {
  key: 'vulnerabilities',
  title: '漏洞清单',
  intro: (m) => `共发现漏洞 ${m.summary.vulnerabilities} 个（超危 ${m.summary.vulnerabilityLevels[1]}、高危 ${m.summary.vulnerabilityLevels[2]}、中危 ${m.summary.vulnerabilityLevels[4]}、低危 ${m.summary.vulnerabilityLevels[8]}、未知 ${m.summary.vulnerabilityLevels[16]}）。`,
  rows: (m) => m.vulnerabilities,
  empty: '未发现已知漏洞。',
  columns: [
    { header: '漏洞编号', width: 16, value: (v) => v.id },
    { header: 'CNNVD', width: 16, value: (v) => dash(v.cnnvd) },
    { header: '危害等级', width: 8, value: (v) => labelOf(VULNERABILITY_LEVEL_LABEL, v.level), level: (v) => v.level },
    { header: 'CVSS', width: 6, value: (v) => (v.score == null ? '--' : v.score.toFixed(1)) },
    // Which source set the level; a finding no source rates says 未评级 rather than a bare 未知.
    { header: '评级来源', width: 12, value: (v) => v.severitySource || (v.level === 16 ? '未评级' : '--') },
    { header: '组件', width: 18, value: (v) => `${v.componentName}@${v.componentVersion}` },
    { header: '修复版本', width: 12, value: (v) => fixedInText(v.fixedVersions, v.fixState, ', ', '--') },
    { header: '推荐升级', width: 10, value: (v) => dash(v.upgrade.version) },
    { header: '漏洞名称', width: 24, value: (v) => dash(v.title) },
  ],
};

/**
 * The licence sections' filter in words (仅包含识别方式为全文、声明头，可信度 ≥ 80 的许可证); '' without
 * one. Every licence section states it, so a filtered report never reads as the whole result.
 */
export function licenceFilterText(m: ReportModel): string {
  const f = m.licenceFilter;
  if (!f) return '';
  const kinds = f.kinds ? LICENSE_KINDS.filter((k) => f.kinds!.includes(k)).map((k) => LICENSE_KIND_LABEL[k]).join('、') : '';
  const parts = [kinds ? `识别方式为${kinds}` : '', f.minScore ? `可信度 ≥ ${f.minScore}` : ''].filter(Boolean);
  return `仅包含${parts.join('、')}${f.minScore ? ' ' : ''}的许可证。`;
}

/** The lines a finding was recognised from, each on its own line of the cell. */
const evidenceText = (f: ReportLicenceFinding) => (f.evidence.length ? f.evidence.join('\n') : f.kind === 'declared' ? '（包元数据声明）' : '--');

const LICENSE_TABLE: TableSection<ReportLicense> = {
  key: 'licenses',
  title: '许可证清单',
  intro: (m) => (m.licenceFilter ? `${licenceFilterText(m)}符合条件的许可证 ${m.licenses.length} 种（全部识别结果共 ${m.summary.licenses} 种）。` : `组件共涉及许可证 ${m.summary.licenses} 种。`),
  rows: (m) => m.licenses,
  empty: '未识别到许可证。',
  columns: [
    { header: 'SPDX 标识', width: 18, value: (l) => l.spdxId },
    { header: '许可证名称', width: 30, value: (l) => l.name },
    { header: '风险等级', width: 8, value: (l) => labelOf(LICENSE_LEVEL_LABEL, l.level), level: (l) => l.level },
    { header: 'Copyleft', width: 10, value: (l) => COPYLEFT_LABEL[l.copyleft] ?? l.copyleft },
    { header: 'OSI 认可', width: 8, value: (l) => (l.osiApproved ? '是' : '否') },
    { header: '涉及组件数', width: 8, value: (l) => l.componentCount },
  ],
};

/** Each place a licence was found: how, how sure, and the lines that decided it. */
const LICENCE_FINDING_TABLE: TableSection<ReportLicenceFinding> = {
  key: 'licenceFindings',
  title: '许可证识别明细',
  intro: (m) =>
    `${licenceFilterText(m)}每处识别结果注明识别方式（全文、声明头、引用、SPDX 标签、包元数据声明）与可信度（0–100：全文与声明头按与标准文本的相似度计，引用为固定值，SPDX 标签与包元数据声明计 100），` +
    `“识别依据”为文件中据以识别的原文行；修改过的许可证文本注明最接近的标准许可证。共 ${m.licenceFindings.length} 处。`,
  rows: (m) => m.licenceFindings,
  empty: '没有符合条件的许可证识别结果。',
  columns: [
    { header: '许可证', width: 16, value: (f) => (f.nearest ? `${f.spdxId}\n（修改过的许可证文本，最接近 ${f.nearest}）` : f.spdxId) },
    { header: '文件位置', width: 18, value: (f) => (f.startLine ? `${f.file}:${f.startLine}${f.endLine && f.endLine !== f.startLine ? `-${f.endLine}` : ''}` : f.file) },
    { header: '识别方式', width: 8, value: (f) => LICENSE_KIND_LABEL[f.kind] ?? f.kind },
    { header: '可信度', width: 6, value: (f) => f.score },
    { header: '识别依据', width: 40, value: evidenceText },
  ],
};

const COPYLEFT_LABEL: Record<string, string> = { none: '宽松型', weak: '弱 Copyleft', strong: '强 Copyleft', network: '网络 Copyleft' };

const CONFLICT_TABLE: TableSection<ReportConflict> = {
  key: 'conflicts',
  title: '许可证冲突',
  intro: (m) =>
    m.project.outboundLicense
      ? `项目声明的许可证为 ${m.project.outboundLicense}，与之冲突、需核查依赖方式或无法判定的组件许可证共 ${m.conflicts.length} 项。` +
        `结论首先依据 OSADL 许可证兼容性矩阵（${m.osadlVersion} 版，© OSADL eG，CC-BY-4.0），矩阵未作判定的许可证组合按 Cairn 规则判断，每项的“依据”列注明来源。`
      : '项目未声明对外许可证，无法判定许可证冲突。',
  rows: (m) => m.conflicts,
  empty: '未发现许可证冲突。',
  columns: [
    { header: '组件', width: 20, value: (c) => `${c.componentName}@${c.componentVersion}` },
    { header: '组件许可证', width: 16, value: (c) => c.license },
    // 需核查依赖方式 (OSADL "Check dependency") between 不兼容 and 未知: a reviewer can settle it.
    { header: '结论', width: 10, value: (c) => CONFLICT_VERDICT_LABEL[c.verdict], level: (c) => (c.verdict === 'incompatible' ? 2 : c.verdict === 'check' ? 4 : 16) },
    { header: '说明', width: 40, value: (c) => c.explanation },
    { header: '依据', width: 12, value: (c) => VERDICT_SOURCE_LABEL[c.source] },
  ],
};

/** Findings an analyst has marked or given a VEX statement. */
const MARK_TABLE: TableSection<ReportVulnerability> = {
  key: 'marks',
  title: '审计标记与 VEX 声明',
  intro: () => '分析人员对漏洞给出的处置标记与可利用性（VEX）声明。',
  rows: (m) => m.vulnerabilities.filter((v) => v.mark !== 0 || v.vex !== 0 || v.level !== v.originalLevel),
  empty: '尚无审计标记或 VEX 声明。',
  columns: [
    { header: '漏洞编号', width: 16, value: (v) => v.id },
    { header: '组件', width: 18, value: (v) => `${v.componentName}@${v.componentVersion}` },
    { header: '处置标记', width: 10, value: (v) => labelOf(VULNERABILITY_MARK_LABEL, v.mark) },
    { header: '标记说明', width: 24, value: (v) => dash(v.markRemark) },
    { header: 'VEX 状态', width: 10, value: (v) => labelOf(VEX_LABEL, v.vex) },
    { header: 'VEX 说明', width: 24, value: (v) => dash(v.vexRemark) },
  ],
};

const MARK_LOG_TABLE: TableSection<ReportMarkLog> = {
  key: 'markLogs',
  title: '标记记录',
  intro: () => '标记的修改记录，按时间先后排列。',
  rows: (m) => m.markLogs,
  empty: '尚无标记记录。',
  columns: [
    { header: '时间', width: 16, value: (l) => reportTime(l.at) },
    { header: '对象', width: 26, value: (l) => l.target },
    { header: '原值', width: 10, value: (l) => l.oldValue },
    { header: '新值', width: 10, value: (l) => l.newValue },
    { header: '说明', width: 24, value: (l) => dash(l.remark) },
    { header: '操作人', width: 10, value: (l) => l.user },
  ],
};

/** The tables in document order (the summary with its charts comes first, before these). */
export const TABLE_SECTIONS = [COMPONENT_TABLE, VULNERABILITY_TABLE, LICENSE_TABLE, LICENCE_FINDING_TABLE, CONFLICT_TABLE, MARK_TABLE, MARK_LOG_TABLE] as const;
/** A licence report carries the licence tables only. */
export const LICENSE_SECTIONS = [LICENSE_TABLE, LICENCE_FINDING_TABLE, CONFLICT_TABLE] as const;

export type AnyTableSection = TableSection<any>;
/** The tables a model's report has, in order. */
export function sectionsFor(model: ReportModel): readonly AnyTableSection[] {
  if (model.scope === 'license') return LICENSE_SECTIONS;
  if (!model.image) return TABLE_SECTIONS;
  // An image run's report: the image and its layers first, and the components with their layer.
  return [IMAGE_TABLE, ...TABLE_SECTIONS.map((s) => (s === COMPONENT_TABLE ? componentTableFor(model) : s))];
}

/** The summary's key figures, label and value, in order. */
export function summaryFacts(m: ReportModel): Array<[string, string]> {
  return [
    ['应用', m.subject.name + (m.subject.version ? `（${m.subject.version}）` : '')],
    ['项目', m.project.name],
    ['检测对象', m.project.codeTypeLabel],
    ...(m.image
      ? ([
        ['容器镜像', m.image.reference ?? '（未标记名称的镜像文件）'],
        ['清单摘要', m.image.manifestDigest],
        ['平台', m.image.platform],
        ['基础系统', m.image.os?.prettyName ?? '未识别（镜像中没有 os-release）'],
      ] as Array<[string, string]>)
      : []),
    ['任务编号', `#${m.task.seq}`],
    ['检测完成时间', reportTime(m.task.finishedAt)],
    ['对外许可证', dash(m.project.outboundLicense)],
    ['组件总数', String(m.summary.components)],
    ['直接依赖', String(m.summary.directComponents)],
    ...(m.scope === 'full' ? [['漏洞结果', m.coverage.headline ?? '完整（组件所属生态均有知识库数据，知识库未过期）'] as [string, string]] : []),
    ['漏洞总数', String(m.summary.vulnerabilities) + (m.coverage.complete || m.scope !== 'full' ? '' : `（${COVERAGE_INCOMPLETE_MARK}）`)],
    ['超危 / 高危漏洞', `${m.summary.vulnerabilityLevels[1]} / ${m.summary.vulnerabilityLevels[2]}`],
    ['许可证种类', String(m.summary.licenses)],
    // A filtered licence section says so where the key figures are, in every format (Excel's 概述 too).
    ...(m.licenceFilter ? [['许可证筛选', licenceFilterText(m)] as [string, string]] : []),
    ['许可证冲突', String(m.summary.conflicts)],
    ['报告生成时间', reportTime(m.generatedAt)],
    ['生成人', m.author],
  ];
}

/** Colours per level for cells and charts (fill, text), shared by every format. */
export const LEVEL_COLOURS: Record<number, { fill: string; text: string }> = {
  1: { fill: '#8B0000', text: '#FFFFFF' },
  2: { fill: '#D9363E', text: '#FFFFFF' },
  4: { fill: '#F08C00', text: '#FFFFFF' },
  8: { fill: '#F5C518', text: '#333333' },
  16: { fill: '#A0A7B4', text: '#FFFFFF' },
  32: { fill: '#2E9D5B', text: '#FFFFFF' },
  64: { fill: '#6C7A89', text: '#FFFFFF' },
};
