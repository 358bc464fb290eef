// Pure helpers of the report screens (no React, no bridge): the tabs of 报告管理 and who may see
// them, how a row's reportType and status read, what the desktop library is asked to download
// for a row, the download state shown beside it, and the formats the generate dialog offers.
import {
  EXPORT_EXTENSION,
  EXPORT_FORMAT_LABEL,
  EXPORT_FORMATS,
  EXPORT_STATUS,
  EXPORT_STATUS_LABEL,
  REPORT_TYPE,
  formatOfReportType,
  labelOf,
  type ExportFormat,
} from '../../../../contract/enums.ts';
import { COMPONENT_EXPORT_REPORT_TYPE, VEX_REPORT_TYPE, type ReportRow } from '../../../../contract/api/report.ts';
import type { LibraryDownloadRequest, LibraryEntry, LibraryFormat } from '../../../../contract/ipc/desktop-contract.ts';
import type { ReportListKind } from '../../../api/reportApi.ts';
import { DEFAULT_PAGE_SIZE } from '../../../../contract/api/kit.ts';
import { readPaging, writePaging } from '../../../common/list/urlState.ts';
import { reportZh as t } from '../../../i18n/report.ts';

// ---- tabs

export interface ReportTabDef {
  key: ReportListKind;
  /** The list call's permission (contract/api/report.ts). */
  permission: string;
  /** reportType codes the format filter offers. */
  reportTypes: readonly number[];
}

const DOCUMENT_TYPES = [REPORT_TYPE.word, REPORT_TYPE.excel, REPORT_TYPE.pdf] as const;

export const REPORT_TABS: readonly ReportTabDef[] = [
  { key: 'project', permission: 'report:list', reportTypes: EXPORT_FORMATS.map((f) => REPORT_TYPE[f]) },
  { key: 'license', permission: 'statistic-project:license:list', reportTypes: DOCUMENT_TYPES },
  { key: 'statistic', permission: 'statistic-project:summary:report', reportTypes: DOCUMENT_TYPES },
  { key: 'vex', permission: 'analysis:result:vul:list', reportTypes: [VEX_REPORT_TYPE[1], VEX_REPORT_TYPE[2]] },
  { key: 'component', permission: 'analysis:result:cominfo:list', reportTypes: [COMPONENT_EXPORT_REPORT_TYPE.xlsx, COMPONENT_EXPORT_REPORT_TYPE.csv] },
];

/** The tabs the user may open, in order; `wanted` when it is one of them, else the first. */
export function visibleTabs(has: (code: string) => boolean): ReportTabDef[] {
  return REPORT_TABS.filter((tab) => has(tab.permission));
}

export function pickTab(tabs: readonly ReportTabDef[], wanted: string | null): ReportTabDef | null {
  return tabs.find((tab) => tab.key === wanted) ?? tabs[0] ?? null;
}

// ---- a row's format and status

/** Word / Excel / PDF / SPDX / CycloneDX / SWID, CycloneDX VEX / OpenVEX, or the export's file type. */
// ---- list state in the URL (?tab=project&q=…&status=2&type=3&page=2&size=30)

/** The statuses the filter offers (3, deleted, is never listed). */
export const STATUS_FILTER_CODES = [0, 1, 2, 4] as const;

export interface ReportListState {
  keyword: string;
  status: number | null;
  reportType: number | null;
  page: number;
  size: number;
}

export const DEFAULT_REPORT_STATE: ReportListState = { keyword: '', status: null, reportType: null, page: 1, size: DEFAULT_PAGE_SIZE };

/** A tab's list state from the URL query; values the tab does not offer fall back to the default. */
export function readReportState(params: URLSearchParams, tab: ReportTabDef): ReportListState {
  const code = (key: string, allowed: readonly number[]): number | null => {
    const raw = params.get(key);
    return raw !== null && raw !== '' && allowed.includes(Number(raw)) ? Number(raw) : null;
  };
  return {
    keyword: (params.get('q') ?? '').slice(0, 200),
    status: code('status', STATUS_FILTER_CODES),
    reportType: code('type', tab.reportTypes),
    ...readPaging(params),
  };
}

/** The URL query of a state: only what differs from the default, other parameters (tab) kept. */
export function writeReportState(state: ReportListState, base: URLSearchParams = new URLSearchParams()): URLSearchParams {
  const out = new URLSearchParams(base);
  for (const key of ['q', 'status', 'type']) out.delete(key);
  const keyword = state.keyword.trim();
  if (keyword) out.set('q', keyword);
  if (state.status !== null) out.set('status', String(state.status));
  if (state.reportType !== null) out.set('type', String(state.reportType));
  writePaging(out, state);
  return out;
}

export function reportTypeLabel(reportType: number): string {
  const format = formatOfReportType(reportType);
  if (format) return EXPORT_FORMAT_LABEL[format];
  return t.reportTypeLabels[reportType] ?? String(reportType);
}

/** What the desktop library files a row under (contract LibraryFormat). */
export function libraryFormatOf(reportType: number): LibraryFormat {
  const format = formatOfReportType(reportType);
  if (format) return format;
  if (reportType === VEX_REPORT_TYPE[1] || reportType === VEX_REPORT_TYPE[2]) return 'vex';
  if (reportType === COMPONENT_EXPORT_REPORT_TYPE.xlsx) return 'excel';
  return 'other';
}

const isPending = (status: number): boolean => status === EXPORT_STATUS.WAITING || status === EXPORT_STATUS.GENERATING;

/** Whether any row is still waiting or generating (the list then polls). */
export const anyPending = (rows: readonly Pick<ReportRow, 'status'>[] | undefined): boolean => (rows ?? []).some((r) => isPending(r.status));

export type StatusIntent = 'none' | 'primary' | 'success' | 'danger' | 'warning';

export interface StatusView {
  label: string;
  intent: StatusIntent;
  /** 0–100 while waiting or generating, else null (no bar). */
  progress: number | null;
  /** The failure's reason, for the tooltip. */
  reason: string | null;
}

const STATUS_INTENT: Record<number, StatusIntent> = { 0: 'none', 1: 'primary', 2: 'success', 3: 'warning', 4: 'danger' };

export function statusView(row: Pick<ReportRow, 'status' | 'progress' | 'message'>): StatusView {
  const pending = isPending(row.status);
  return {
    label: labelOf(EXPORT_STATUS_LABEL, row.status),
    intent: STATUS_INTENT[row.status] ?? 'none',
    progress: pending ? Math.max(0, Math.min(100, Math.round(row.progress))) : null,
    reason: row.status === EXPORT_STATUS.FAILED ? row.message.trim() || t.failedUnknown : null,
  };
}

// ---- downloads into the desktop library

const MAX_FILE_NAME = 255;

/**
 * The row's file name within the library's 255-character limit, keeping the extension (the part
 * after the first dot of the last 30 characters, so `.spdx.json` and `.CycloneDX.json` survive).
 */
export function libraryFileName(name: string, id: number): string {
  const clean = name.trim() || `report-${id}`;
  if (clean.length <= MAX_FILE_NAME) return clean;
  const tail = clean.slice(-30);
  const dot = tail.indexOf('.');
  const ext = dot >= 0 ? tail.slice(dot) : '';
  return clean.slice(0, MAX_FILE_NAME - ext.length) + ext;
}

/** The request to the desktop library for a succeeded row. */
export function toDownloadRequest(row: ReportRow): LibraryDownloadRequest {
  return {
    reportId: row.id,
    fileName: libraryFileName(row.name, row.id),
    format: libraryFormatOf(row.reportType),
    subjectName: row.subjectName.slice(0, 400),
    projectName: row.projectName.slice(0, 400),
    taskId: row.taskId,
    generatedAt: row.finishTime ?? row.createTime,
  };
}

export const canDownload = (row: Pick<ReportRow, 'status'>): boolean => row.status === EXPORT_STATUS.SUCCEEDED;

export type DownloadView =
  | { kind: 'progress'; percent: number; label: string }
  | { kind: 'done'; label: string }
  | { kind: 'failed'; label: string; reason: string }
  | null;

/** What a row shows of its library entry: progress, 已下载, or a failure; nothing when cancelled or absent. */
export function downloadView(entry: Pick<LibraryEntry, 'state' | 'size' | 'received' | 'error'> | undefined): DownloadView {
  if (!entry) return null;
  switch (entry.state) {
    case 'downloading':
    case 'retrying': {
      const percent = entry.size > 0 ? Math.min(100, Math.floor((entry.received / entry.size) * 100)) : 0;
      return { kind: 'progress', percent, label: entry.state === 'retrying' ? t.retrying : t.downloading(percent) };
    }
    case 'done':
      return { kind: 'done', label: t.downloaded };
    case 'failed':
      return { kind: 'failed', label: t.downloadFailed, reason: entry.error ?? t.downloadFailed };
    case 'corrupt':
      return { kind: 'failed', label: t.downloadCorrupt, reason: t.downloadCorruptHint };
    default:
      return null;
  }
}

/**
 * The library entries of one profile by platform report id: the newest entry of each report wins
 * (library.list answers newest first; a later progress event replaces it).
 */
export function entriesByReport(entries: readonly LibraryEntry[], profileId: string | null): Map<number, LibraryEntry> {
  const out = new Map<number, LibraryEntry>();
  for (const e of entries) {
    if (profileId !== null && e.profileId !== profileId) continue;
    if (!out.has(e.reportId)) out.set(e.reportId, e);
  }
  return out;
}

// ---- the generate dialog

export type GenerateVariant = 'task' | 'license' | 'batch' | 'subject' | 'statistic';

/** Document reports (licence, statistics) are not bills of materials: Word, Excel and PDF only. */
export function formatsOf(variant: GenerateVariant): ExportFormat[] {
  return variant === 'license' || variant === 'statistic' ? ['word', 'excel', 'pdf'] : [...EXPORT_FORMATS];
}

/** `Word（.docx）`. */
export const formatOptionLabel = (format: ExportFormat): string => `${EXPORT_FORMAT_LABEL[format]}（${EXPORT_EXTENSION[format]}）`;

/** The reportTypes of the chosen formats, in the contract's order. */
export function reportTypesOf(formats: readonly ExportFormat[]): number[] {
  return EXPORT_FORMATS.filter((f) => formats.includes(f)).map((f) => REPORT_TYPE[f]);
}
