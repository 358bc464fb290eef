// 报告管理's pure helpers (tabs by permission, format and status display, the row -> library
// download request, the download state) and the report endpoints over a fake bridge (paths,
// queries and bodies from the contract; the per-kind deletes).
import { afterEach, describe, expect, it } from 'vitest';
import type { ReportRow } from '../../../../contract/api/report.ts';
import type { LibraryEntry } from '../../../../contract/ipc/desktop-contract.ts';
import { reportApi } from '../../../../renderer/api/reportApi.ts';
import { createAppStore } from '../../../../renderer/app/store.ts';
import { installDesktop } from '../../../../renderer/platform/desktop.ts';
import {
  anyPending,
  canDownload,
  downloadView,
  entriesByReport,
  formatOptionLabel,
  formatsOf,
  libraryFileName,
  libraryFormatOf,
  pickTab,
  readReportState,
  REPORT_TABS,
  writeReportState,
  reportTypeLabel,
  reportTypesOf,
  statusView,
  toDownloadRequest,
  visibleTabs,
} from '../../../../renderer/features/project/reports/reportModel.ts';
import { envelope, fakeDesktop } from '../support.ts';

afterEach(() => installDesktop(null));

const row = (over: Partial<ReportRow> = {}): ReportRow => ({
  id: 42,
  kind: 'task',
  name: 'demo-第3次检测报告.pdf',
  reportType: 3,
  status: 2,
  progress: 100,
  size: 123456,
  sha256: 'ab'.repeat(32),
  message: '',
  subjectId: 1,
  subjectName: '支付平台',
  projectId: 5,
  projectName: 'demo',
  taskId: 9,
  taskSeq: 3,
  createdBy: '张三',
  createTime: '2026-11-22T10:00:00.000Z',
  finishTime: '2026-11-22T10:00:05.000Z',
  ...over,
});

const entry = (over: Partial<LibraryEntry> = {}): LibraryEntry => ({
  id: 'e1',
  profileId: 'p1',
  profileName: '本机',
  reportId: 42,
  fileName: 'x.pdf',
  format: 'pdf',
  subjectName: '',
  projectName: '',
  taskId: null,
  generatedAt: null,
  downloadedAt: null,
  size: 200,
  received: 50,
  sha256: null,
  state: 'downloading',
  error: null,
  ...over,
});

describe('tabs', () => {
  it('shows only the lists the user may read, in order, and picks the wanted one or the first', () => {
    const has = (code: string) => code === 'report:list' || code === 'analysis:result:vul:list';
    const tabs = visibleTabs(has);
    expect(tabs.map((t) => t.key)).toEqual(['project', 'vex']);
    expect(pickTab(tabs, 'vex')?.key).toBe('vex');
    expect(pickTab(tabs, 'statistic')?.key).toBe('project');
    expect(pickTab(tabs, null)?.key).toBe('project');
    expect(pickTab([], 'project')).toBeNull();
    expect(visibleTabs(() => true).map((t) => t.key)).toEqual(['project', 'license', 'statistic', 'vex', 'component']);
  });
});

describe('format display and library format', () => {
  it('labels every reportType the lists carry', () => {
    expect([1, 2, 3, 4, 5, 6].map(reportTypeLabel)).toEqual(['Word', 'Excel', 'PDF', 'SPDX', 'CycloneDX', 'SWID']);
    expect(reportTypeLabel(11)).toBe('CycloneDX VEX');
    expect(reportTypeLabel(12)).toBe('OpenVEX');
    expect(reportTypeLabel(21)).toBe('Excel');
    expect(reportTypeLabel(22)).toBe('CSV');
    expect(reportTypeLabel(99)).toBe('99');
  });

  it('files documents under their format, VEX under vex, xlsx exports as excel and csv as other', () => {
    expect([1, 2, 3, 4, 5, 6].map(libraryFormatOf)).toEqual(['word', 'excel', 'pdf', 'spdx', 'cyclonedx', 'swid']);
    expect(libraryFormatOf(11)).toBe('vex');
    expect(libraryFormatOf(12)).toBe('vex');
    expect(libraryFormatOf(21)).toBe('excel');
    expect(libraryFormatOf(22)).toBe('other');
  });
});

describe('status', () => {
  it('shows a bar with the percentage while waiting or generating, clamped', () => {
    expect(statusView(row({ status: 1, progress: 37 }))).toEqual({ label: '生成中', intent: 'primary', progress: 37, reason: null });
    expect(statusView(row({ status: 0, progress: 0 })).progress).toBe(0);
    expect(statusView(row({ status: 1, progress: 140 })).progress).toBe(100);
    expect(statusView(row({ status: 2 }))).toEqual({ label: '生成成功', intent: 'success', progress: null, reason: null });
  });

  it('gives a failed row its reason, or says the platform gave none', () => {
    expect(statusView(row({ status: 4, message: '任务没有成功的检测' })).reason).toBe('任务没有成功的检测');
    expect(statusView(row({ status: 4, message: '  ' })).reason).toBe('生成失败，平台未给出原因');
    expect(statusView(row({ status: 4 })).label).toBe('生成失败');
  });

  it('polls only while a row is unfinished; downloads only succeeded rows', () => {
    expect(anyPending([{ status: 2 }, { status: 4 }])).toBe(false);
    expect(anyPending([{ status: 2 }, { status: 0 }])).toBe(true);
    expect(anyPending([{ status: 1 }])).toBe(true);
    expect(anyPending(undefined)).toBe(false);
    expect(canDownload({ status: 2 })).toBe(true);
    expect([0, 1, 3, 4].some((status) => canDownload({ status }))).toBe(false);
  });
});

describe('download request', () => {
  it('maps a row to the library request', () => {
    expect(toDownloadRequest(row())).toEqual({
      reportId: 42,
      fileName: 'demo-第3次检测报告.pdf',
      format: 'pdf',
      subjectName: '支付平台',
      projectName: 'demo',
      taskId: 9,
      generatedAt: '2026-11-22T10:00:05.000Z',
    });
  });

  it('uses vex / other formats, the creation time without a finish time, and a null task', () => {
    const vex = toDownloadRequest(row({ reportType: 12, name: 'demo.openvex.json', finishTime: null, taskId: null }));
    expect(vex.format).toBe('vex');
    expect(vex.generatedAt).toBe('2026-11-22T10:00:00.000Z');
    expect(vex.taskId).toBeNull();
    expect(toDownloadRequest(row({ reportType: 22, name: 'c.csv' })).format).toBe('other');
  });

  it('keeps file names within 255 characters with their extension', () => {
    const long = `${'很长的项目名'.repeat(60)}.CycloneDX.json`;
    const name = libraryFileName(long, 1);
    expect(name.length).toBe(255);
    expect(name.endsWith('.CycloneDX.json')).toBe(true);
    expect(libraryFileName('  ', 7)).toBe('report-7');
    expect(libraryFileName('a.pdf', 7)).toBe('a.pdf');
  });
});

describe('download state', () => {
  it('shows progress, 已下载, failures, and nothing for cancelled or absent entries', () => {
    expect(downloadView(entry())).toEqual({ kind: 'progress', percent: 25, label: '下载中 25%' });
    expect(downloadView(entry({ state: 'retrying' }))).toMatchObject({ kind: 'progress', label: '重新连接中…' });
    expect(downloadView(entry({ size: 0, received: 0 }))).toMatchObject({ percent: 0 });
    expect(downloadView(entry({ state: 'done', received: 200 }))).toEqual({ kind: 'done', label: '已下载' });
    expect(downloadView(entry({ state: 'failed', error: '连接中断' }))).toEqual({ kind: 'failed', label: '下载失败', reason: '连接中断' });
    expect(downloadView(entry({ state: 'corrupt' }))).toMatchObject({ kind: 'failed', label: '校验失败' });
    expect(downloadView(entry({ state: 'cancelled' }))).toBeNull();
    expect(downloadView(undefined)).toBeNull();
  });

  it('indexes one profile by report id, the newest entry winning', () => {
    const map = entriesByReport(
      [entry({ id: 'new', state: 'done' }), entry({ id: 'old', state: 'failed' }), entry({ id: 'other', reportId: 43, profileId: 'p2' })],
      'p1',
    );
    expect([...map.keys()]).toEqual([42]);
    expect(map.get(42)?.id).toBe('new');
  });
});

describe('generate dialog formats', () => {
  it('offers six formats for task, batch and subject reports and documents only for licence and statistics', () => {
    expect(formatsOf('task')).toEqual(['word', 'excel', 'pdf', 'spdx', 'cyclonedx', 'swid']);
    expect(formatsOf('batch')).toHaveLength(6);
    expect(formatsOf('subject')).toHaveLength(6);
    expect(formatsOf('license')).toEqual(['word', 'excel', 'pdf']);
    expect(formatsOf('statistic')).toEqual(['word', 'excel', 'pdf']);
    expect(formatOptionLabel('word')).toBe('Word（.docx）');
    expect(formatOptionLabel('cyclonedx')).toBe('CycloneDX（.CycloneDX.json）');
    expect(reportTypesOf(['swid', 'pdf', 'word'])).toEqual([1, 3, 6]);
  });
});

describe('report endpoints', () => {
  it('lists each kind from its own path and deletes with the kind’s call', async () => {
    const { api, calls } = fakeDesktop((req) => envelope(1, '', req.method === 'DELETE' ? { deleted: 1 } : { content: [], total: 0 }));
    installDesktop(api);
    const store = createAppStore();
    const query = { page: 2, size: 15, keyword: 'demo', status: 4 };
    for (const kind of ['project', 'license', 'statistic', 'vex', 'component'] as const) {
      await store.dispatch(reportApi.endpoints.reportList.initiate({ kind, query }, { subscribe: false }));
    }
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'GET /api/report/list',
      'GET /api/license/report/list',
      'GET /api/report/statistic/list',
      'GET /api/vex/report/list',
      'GET /api/component/export/list',
    ]);
    expect(calls[0]!.query).toEqual(query);

    calls.length = 0;
    await store.dispatch(reportApi.endpoints.reportRemove.initiate({ kind: 'project', ids: [3, 4] }));
    await store.dispatch(reportApi.endpoints.reportRemove.initiate({ kind: 'component', ids: [5] }));
    const many = await store.dispatch(reportApi.endpoints.reportRemove.initiate({ kind: 'vex', ids: [6, 7] }));
    await store.dispatch(reportApi.endpoints.reportRemove.initiate({ kind: 'license', ids: [8] }));
    await store.dispatch(reportApi.endpoints.reportRemove.initiate({ kind: 'statistic', ids: [9] }));
    expect(many.data).toEqual({ deleted: 2 });
    expect(calls.map((c) => [c.method, c.path, c.query])).toEqual([
      ['DELETE', '/api/report', { reportIds: '3,4' }],
      ['DELETE', '/api/component/export', { ids: '5' }],
      ['DELETE', '/api/vex/report/delete/6', undefined],
      ['DELETE', '/api/vex/report/delete/7', undefined],
      ['DELETE', '/api/license/report/delete/8', undefined],
      ['DELETE', '/api/report/statistic/9', undefined],
    ]);
  });

  it('stops a multi-id delete at the first failure and reports its message', async () => {
    const { api, calls } = fakeDesktop(() => envelope(0, '报告不存在'));
    installDesktop(api);
    const store = createAppStore();
    const answer = await store.dispatch(reportApi.endpoints.reportRemove.initiate({ kind: 'vex', ids: [6, 7] }));
    expect(calls).toHaveLength(1);
    expect(answer.error).toMatchObject({ message: '报告不存在' });
  });

  it('sends the generate, batch, subject, statistics, VEX and component export calls', async () => {
    const { api, calls } = fakeDesktop(() => envelope(1, '报告生成提交成功，生成完成之后可在报告管理中下载。', { reportIds: [1], reportId: 1 }));
    installDesktop(api);
    const store = createAppStore();
    await store.dispatch(reportApi.endpoints.reportGenerate.initiate({ projectId: 5, taskId: 9, reportTypes: [3], scope: 'license' }));
    await store.dispatch(reportApi.endpoints.reportBatch.initiate({ projectIds: [5, 6], reportTypes: [1, 4] }));
    await store.dispatch(reportApi.endpoints.reportSubjectGenerate.initiate({ subjectId: 2, reportTypes: [5] }));
    await store.dispatch(reportApi.endpoints.reportStatisticGenerate.initiate({ reportTypes: [2] }));
    await store.dispatch(reportApi.endpoints.reportVexExport.initiate({ projectId: 5, taskId: 9, vexTypes: [1, 2] }));
    await store.dispatch(reportApi.endpoints.reportComponentExport.initiate({ projectId: 5, taskId: 9, format: 'csv' }));
    expect(calls).toEqual([
      { method: 'POST', path: '/api/report', body: { projectId: 5, taskId: 9, reportTypes: [3], scope: 'license' } },
      { method: 'POST', path: '/api/report/batch', body: { projectIds: [5, 6], reportTypes: [1, 4] } },
      { method: 'POST', path: '/api/report/subject/generate', body: { subjectId: 2, reportTypes: [5] } },
      { method: 'POST', path: '/api/report/statistic/generate', body: { reportTypes: [2] } },
      { method: 'POST', path: '/api/vex/export', body: { projectId: 5, taskId: 9, vexTypes: [1, 2] } },
      { method: 'GET', path: '/api/component/export', query: { projectId: 5, taskId: 9, format: 'csv' } },
    ]);
  });
});

describe('报告管理的筛选与分页保存在地址中', () => {
  const project = REPORT_TABS.find((t) => t.key === 'project')!;
  const license = REPORT_TABS.find((t) => t.key === 'license')!;

  it('reads what the tab offers and drops the rest', () => {
    const params = new URLSearchParams('tab=project&q=%E6%A0%B8%E5%BF%83&status=2&type=5&page=3&size=30');
    expect(readReportState(params, project)).toEqual({ keyword: '核心', status: 2, reportType: 5, page: 3, size: 30 });
    // 5 (CycloneDX) is not a licence report format; status 3 (deleted) is never listed; odd pages and sizes.
    expect(readReportState(new URLSearchParams('type=5&status=3&page=-1&size=7'), license)).toEqual({ keyword: '', status: null, reportType: null, page: 1, size: 15 });
  });

  it('writes only what differs from the default and keeps the tab', () => {
    const base = new URLSearchParams('tab=license');
    expect(writeReportState({ keyword: ' x ', status: 0, reportType: 3, page: 2, size: 50 }, base).toString()).toBe('tab=license&q=x&status=0&type=3&page=2&size=50');
    expect(writeReportState({ keyword: '', status: null, reportType: null, page: 1, size: 15 }, new URLSearchParams('tab=vex&q=a&page=4')).toString()).toBe('tab=vex');
    const round = { keyword: '网关', status: 4, reportType: 1, page: 2, size: 100 };
    expect(readReportState(writeReportState(round), project)).toEqual(round);
  });
});
