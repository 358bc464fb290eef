// The task result screens' pure helpers (URL state, comparison pair, chart options, the lazy tree
// model, the remark rules, the component filter body) and the result endpoints over a fake bridge
// (paths, queries and bodies from contract/api/result/ and task.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { resultApi } from '../../../../renderer/api/resultApi.ts';
import { taskApi } from '../../../../renderer/api/taskApi.ts';
import { createAppStore } from '../../../../renderer/app/store.ts';
import { installDesktop } from '../../../../renderer/platform/desktop.ts';
import { compareUrl, defaultComparePair, findingChanges, readCompareState, readDetailState } from '../../../../renderer/features/project/analysis/taskUrl.ts';
import { detailsUrl, withParams } from '../../../../renderer/app/router/links.ts';
import { imageFileName } from '../../../../renderer/common/chartImage.ts';
import { barOption, describeChart, horizontalBarOption, pieOption, progressFraction, riskSlices, sumLevels, topWithOther } from '../../../../renderer/common/charts.ts';
import { ROOT, addPage, emptyModel, missingLevels, parentOf, remaining, setExpanded, visibleCount, type TreeItem } from '../../../../renderer/features/project/analysis/treeModel.ts';
import { markProblem } from '../../../../renderer/features/project/analysis/marks.ts';
import {
  EMPTY_FILTERS, filterBody, initialFilters, riskChoices, selectedRiskChoices, toggleRiskChoice,
} from '../../../../renderer/features/project/analysis/componentFilter.ts';
import type { KbCoverage } from '../../../../contract/api/kb-status.ts';
import { envelope, fakeDesktop } from '../support.ts';

afterEach(() => installDesktop(null));

const P = (s: string) => new URLSearchParams(s);

describe('task details URL state', () => {
  it('reads project, run, tab, drawers and sub-views', () => {
    const s = readDetailState(P('projectId=12&taskId=40&tab=component&component=7&tree=file&sub=conflict'));
    expect(s).toMatchObject({ projectId: 12, taskId: 40, tab: 'component', componentId: 7, tree: 'file', sub: 'conflict', findingId: undefined });
  });
  it('treats bugInfo as the bug tab with its finding open', () => {
    const s = readDetailState(P('projectId=1&tab=bugInfo&finding=99&fcomp=5&level=2'));
    expect(s.tab).toBe('bug');
    expect(s.findingId).toBe(99);
    expect(s.findingComponentId).toBe(5);
    expect(s.level).toBe(2);
  });
  it('falls back on unknown or malformed values', () => {
    const s = readDetailState(P('projectId=abc&taskId=-3&tab=nope&level=3&tree=x&sub=y&finding=5'));
    expect(s).toMatchObject({ projectId: undefined, taskId: undefined, tab: 'overview', level: undefined, tree: 'dependence', sub: 'license', findingId: undefined });
  });
  it('changes keys and keeps the others', () => {
    const out = withParams(P('projectId=1&tab=bug&finding=3'), { tab: 'overview', finding: undefined, level: 4 });
    expect(out.toString()).toBe('projectId=1&tab=overview&level=4');
  });
  it('opens and closes a finding as tab=bugInfo / tab=bug', () => {
    expect(findingChanges({ id: 8, componentId: 2 })).toEqual({ tab: 'bugInfo', finding: 8, fcomp: 2 });
    expect(findingChanges(undefined)).toEqual({ tab: 'bug', finding: undefined, fcomp: undefined });
  });
  it('builds details and compare URLs', () => {
    expect(detailsUrl(5, { taskId: 9, tab: 'bug', level: undefined })).toBe('/project/analysis/details?projectId=5&taskId=9&tab=bug');
    expect(compareUrl(5, 8, 9)).toBe('/project/analysis/compare?projectId=5&base=8&compare=9');
  });
});

describe('comparison URL state', () => {
  it('reads task and subject modes', () => {
    expect(readCompareState(P('projectId=3&base=8&compare=9'))).toEqual({ mode: 'task', projectId: 3, base: 8, compare: 9 });
    expect(readCompareState(P('subjects=4,6'))).toEqual({ mode: 'subject', base: 4, compare: 6 });
  });
  it('refuses missing and identical sides', () => {
    expect(readCompareState(P('base=8'))).toEqual({ mode: 'invalid', reason: 'missing' });
    expect(readCompareState(P('base=8&compare=8'))).toEqual({ mode: 'invalid', reason: 'same' });
    expect(readCompareState(P('subjects=4'))).toEqual({ mode: 'invalid', reason: 'missing' });
    expect(readCompareState(P('subjects=4,4'))).toEqual({ mode: 'invalid', reason: 'same' });
  });
  it('pairs the shown run with the newest other succeeded run, older first', () => {
    const runs = [
      { id: 30, seq: 3, status: 2 },
      { id: 40, seq: 4, status: 1 },
      { id: 20, seq: 2, status: 2 },
      { id: 10, seq: 1, status: 3 },
    ];
    expect(defaultComparePair(runs, 30)).toEqual([20, 30]);
    expect(defaultComparePair(runs, 20)).toEqual([20, 30]);
    expect(defaultComparePair(runs, undefined)).toEqual([20, 30]);
    expect(defaultComparePair([{ id: 1, seq: 1, status: 2 }], 1)).toBeNull();
  });
});

describe('charts', () => {
  it('sums counts and makes one slice per risk code', () => {
    expect(sumLevels({ 1: 1, 2: 2, 4: 3, 8: 4, 16: 5 })).toBe(15);
    const slices = riskSlices({ 1: 1, 2: 0, 4: 0, 8: 0, 16: 0, 32: 9, 64: 2 });
    expect(slices.map((s) => s.name)).toEqual(['超危', '高危', '中危', '低危', '未知风险', '无漏洞', '未知版本']);
    expect(slices[5]!.value).toBe(9);
  });
  it('draws no green 无漏洞 over an incomplete result: 未覆盖 apart, the rest grey and labelled', () => {
    const counts = { 1: 1, 2: 0, 4: 0, 8: 0, 16: 0, 32: 9, 64: 2 };
    const slices = riskSlices(counts, { incomplete: true, notCovered: 6 });
    expect(slices.map((s) => s.name)).toEqual(['超危', '高危', '中危', '低危', '未知风险', '无漏洞（结果不完整）', '未知版本', '未覆盖']);
    expect(slices.map((s) => s.value)).toEqual([1, 0, 0, 0, 0, 3, 2, 6]);
    expect(slices[5]!.color).not.toBe(riskSlices(counts)[5]!.color);
    // Stale only: nothing uncovered, 无漏洞 still not green.
    const stale = riskSlices(counts, { incomplete: true, notCovered: 0 });
    expect(stale[5]).toMatchObject({ value: 9, name: '无漏洞（结果不完整）' });
    expect(stale).toHaveLength(7);
    expect(riskSlices(counts, { incomplete: false, notCovered: 0 })).toEqual(riskSlices(counts));
  });
  it('hides labels of empty pie slices', () => {
    const o = pieOption('x', [{ name: 'a', value: 0 }, { name: 'b', value: 3 }], false);
    expect(o.series[0]!.data.map((d) => d.label.show)).toEqual([false, true]);
  });
  it('bars keep their order; horizontal bars put the largest on top', () => {
    expect(barOption('x', [{ name: 'a', value: 1 }, { name: 'b', value: 2 }]).xAxis.data).toEqual(['a', 'b']);
    expect(horizontalBarOption('x', [{ name: 'big', value: 9 }, { name: 'small', value: 1 }]).yAxis.data).toEqual(['small', 'big']);
  });
  it('keeps the top N and sums the rest into 其他', () => {
    const rows = [{ key: 'npm', count: 5 }, { key: 'pypi', count: 9 }, { key: 'golang', count: 1 }, { key: 'maven', count: 2 }];
    expect(topWithOther(rows, 2)).toEqual([{ name: 'pypi', value: 9 }, { name: 'npm', value: 5 }, { name: '其他', value: 3 }]);
    expect(topWithOther(rows, 10)).toHaveLength(4);
  });
  it('names exported images safely and clamps progress', () => {
    expect(imageFileName('组件风险分布 / 概览', new Date(2026, 0, 2, 3, 4, 5))).toBe('组件风险分布_概览-20260102-030405.png');
    expect(progressFraction(55)).toBe(0.55);
    expect(progressFraction(140)).toBe(1);
    expect(progressFraction(null)).toBe(0);
  });
});

describe('lazy tree model', () => {
  const item = (pathId: string, expandable = true): TreeItem => ({ pathId, expandable });
  it('adds pages, appends later ones without duplicates and counts what is left', () => {
    let m = emptyModel<TreeItem>();
    m = addPage(m, ROOT, [item('1'), item('2')], 5, 1);
    expect(remaining(m.levels[ROOT])).toBe(3);
    m = addPage(m, ROOT, [item('2'), item('3')], 5, 2);
    expect(m.levels[ROOT]!.items.map((x) => x.pathId)).toEqual(['1', '2', '3']);
    m = addPage(m, ROOT, [item('9')], 1, 1);
    expect(m.levels[ROOT]!.items.map((x) => x.pathId)).toEqual(['9']);
  });
  it('counts only expanded levels as visible', () => {
    let m = emptyModel<TreeItem>();
    m = addPage(m, ROOT, [item('1'), item('2')], 2, 1);
    m = addPage(m, '1', Array.from({ length: 200 }, (_, i) => item(`1.${i + 10}`)), 10_000, 1);
    expect(visibleCount(m)).toBe(2);
    m = setExpanded(m, '1', true);
    expect(visibleCount(m)).toBe(202);
    expect(missingLevels(m, [ROOT, '1', '1.10'])).toEqual(['1.10']);
  });
  it('finds the parent of dependency and file paths', () => {
    expect(parentOf('12.57.301', 'dependence')).toBe('12.57');
    expect(parentOf('12', 'dependence')).toBe(ROOT);
    expect(parentOf('src/app/go.mod', 'file')).toBe('src/app');
    expect(parentOf('go.mod', 'file')).toBe(ROOT);
  });
});

describe('remark rules', () => {
  it('requires a remark of at most 500 characters and a reason for a custom level', () => {
    expect(markProblem({ code: 'F', remark: '  ' }, false)).toBe('请填写备注');
    expect(markProblem({ code: 'F', remark: 'x'.repeat(501) }, false)).toBe('备注不能超过 500 字');
    expect(markProblem({ code: '2', remark: '已评估', customLevel: 8 }, true)).toBe('修改等级时请填写原因');
    expect(markProblem({ code: '2', remark: '已评估', customLevel: 8, levelRemark: '仅测试代码使用' }, true)).toBeNull();
    expect(markProblem({ code: 'F', remark: '误报' }, false)).toBeNull();
  });
});

describe('component filter body', () => {
  it('leaves empty parts out and maps direct/transitive', () => {
    expect(filterBody(EMPTY_FILTERS, 40)).toEqual({ taskId: 40 });
    expect(filterBody({ ...EMPTY_FILTERS, keyword: 'yaml', riskLevels: [1, 2], ecosystem: 'pypi', direct: 'transitive', scope: 'runtime', marks: ['N'], componentTypes: [0], licenseLevels: [2], layer: '3' }, 40)).toEqual({
      taskId: 40,
      keyword: 'yaml',
      riskLevels: [1, 2],
      ecosystems: ['pypi'],
      direct: false,
      scope: 'runtime',
      marks: ['N'],
      componentTypes: [0],
      licenseLevels: [2],
      layers: [3],
    });
  });

  it('offers 未覆盖 after 无漏洞 only when the run left an ecosystem out, as its own filter field', () => {
    const coverage: KbCoverage = {
      complete: false, empty: false, stale: false, staleDays: 30, lastUpdate: null, ageDays: null, uncovered: [{ ecosystem: 'maven', components: 2 }],
      uncoveredComponents: 2, uncoveredNoVulnerability: 1, reasons: ['知识库中没有 maven 生态的漏洞数据（2 个组件未覆盖）'], checkedAt: '2026-11-01T00:00:00.000Z',
    };
    expect(riskChoices(coverage)).toEqual([1, 2, 4, 8, 16, 32, 'notCovered', 64]);
    expect(riskChoices({ ...coverage, uncovered: [], empty: true })).toContain('notCovered');
    expect(riskChoices({ ...coverage, uncovered: [], complete: true })).toEqual([1, 2, 4, 8, 16, 32, 64]);
    expect(riskChoices(null)).toEqual([1, 2, 4, 8, 16, 32, 64]);

    let f = { ...EMPTY_FILTERS, ...toggleRiskChoice(EMPTY_FILTERS, 'notCovered') };
    expect(f).toMatchObject({ riskLevels: [], notCovered: true });
    expect(filterBody(f, 7)).toEqual({ taskId: 7, notCovered: true });
    f = { ...f, ...toggleRiskChoice(f, 32) };
    expect(selectedRiskChoices(f)).toEqual([32, 'notCovered']);
    expect(filterBody(f, 7)).toEqual({ taskId: 7, riskLevels: [32], notCovered: true });
    f = { ...f, ...toggleRiskChoice(f, 'notCovered') };
    expect(filterBody(f, 7)).toEqual({ taskId: 7, riskLevels: [32] });
    expect(initialFilters('notCovered')).toEqual({ ...EMPTY_FILTERS, notCovered: true });
    expect(initialFilters('2')).toEqual({ ...EMPTY_FILTERS, riskLevels: [2] });
    expect(initialFilters('3')).toEqual(EMPTY_FILTERS);
    expect(initialFilters(null)).toEqual(EMPTY_FILTERS);
    // The overview's layer table opens the list of one image layer.
    expect(initialFilters(null, '2')).toEqual({ ...EMPTY_FILTERS, layer: '2' });
    expect(initialFilters('1', 'x')).toEqual({ ...EMPTY_FILTERS, riskLevels: [1] });
  });
});

describe('result endpoints', () => {
  it('send the contract paths, queries and bodies', async () => {
    const { api, calls } = fakeDesktop(() => envelope(1, '', { content: [], total: 0 }));
    installDesktop(api);
    const store = createAppStore();
    const e = resultApi.endpoints;
    await store.dispatch(e.projectTaskView.initiate({ id: 12 }, { subscribe: false }));
    await store.dispatch(e.projectTaskView.initiate({ id: 12, taskId: 40 }, { subscribe: false }));
    await store.dispatch(e.resultOverview.initiate({ id: 12, vexMark: 1, taskId: 40 }, { subscribe: false }));
    await store.dispatch(e.componentList.initiate({ projectId: 12, query: { page: 1, size: 100 }, filter: { taskId: 40, riskLevels: [1] } }, { subscribe: false }));
    await store.dispatch(e.dependenceChildren.initiate({ projectId: 12, query: { pathId: '3.7', page: 1, size: 200, taskId: 40 } }, { subscribe: false }));
    await store.dispatch(taskApi.endpoints.projectProgress.initiate('12', { subscribe: false }));
    await store.dispatch(e.markComponents.initiate({ body: { projectId: 12, taskId: 40, ids: [7], mark: 'F', remark: '误报' }, binary: true }));
    await store.dispatch(e.markFindings.initiate({ body: { projectId: 12, taskId: 40, ids: [9], mark: 2, remark: '无需修复' }, binary: false }));
    await store.dispatch(e.vexMark.initiate({ projectId: 12, taskId: 40, ids: [9], vex: 1, remark: '不受影响' }));
    await store.dispatch(taskApi.endpoints.projectRelaunch.initiate({ taskId: 12 }));
    await store.dispatch(e.compareTaskComponent.initiate({ baseTaskId: 30, compareTaskId: 40, change: 'added' }, { subscribe: false }));
    await store.dispatch(e.homeTop10.initiate(undefined, { subscribe: false }));
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'GET /api/project-task-view/12',
      'GET /api/project-task-view/12',
      'GET /api/project-task-view/info/12/1',
      'POST /api/component/list/12',
      'GET /api/resultTree/list/dependence/12',
      'GET /api/project-task-view/progress',
      'POST /api/mark/component/binary',
      'POST /api/mark/vulnerability/source',
      'POST /api/vex/mark/vulnerability',
      'PUT /api/analysis',
      'POST /api/batch/task/compare/component',
      'GET /api/home-page/component/top10',
    ]);
    expect(calls[0]!.query).toBeUndefined();
    expect(calls[1]!.query).toEqual({ taskId: 40 });
    expect(calls[3]!.body).toEqual({ taskId: 40, riskLevels: [1] });
    expect(calls[3]!.query).toEqual({ page: 1, size: 100 });
    expect(calls[4]!.query).toEqual({ pathId: '3.7', page: 1, size: 200, taskId: 40 });
    expect(calls[5]!.query).toEqual({ projectIds: '12' });
    expect(calls[9]!.body).toEqual({ taskId: 12 });
  });
});

describe('describeChart', () => {
  it('puts a bar, a horizontal bar and a pie chart in words, and only the title when empty', () => {
    const bars = [{ name: '超危', value: 2 }, { name: '高危', value: 0 }];
    expect(describeChart('漏洞等级', barOption('漏洞', bars))).toBe('漏洞等级：超危 2，高危 0');
    expect(describeChart('使用最多的组件', horizontalBarOption('项目数', [{ name: 'lodash@4.17.20', value: 3 }]))).toBe('使用最多的组件：lodash@4.17.20 3');
    expect(describeChart('许可证等级', pieOption('许可证', bars, false))).toBe('许可证等级：超危 2，高危 0');
    expect(describeChart('空', null)).toBe('空');
  });
});
