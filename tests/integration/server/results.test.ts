// Result calls over HTTP (issue 6): task header and overview, components, findings, trees,
// licences, marks with their logs and retention, batches and comparisons, history, subject-level
// components, influence and the home dashboard — on a seeded analysis, with data scope (members
// only), permission codes (a role without the audit and vulnerability codes) and bad input.
import { beforeAll, describe, expect, it } from 'vitest';
import { adminClient, databases, signIn, useServer, type TestClient } from './harness.ts';
import { seedNextRun, seedRun, type SeededRun } from './fixtures/seed-run.ts';
import { osvRecord } from '../../../server/kb/formats/osv.ts';
import { deleteAdvisories, saveAdvisories } from '../../../server/db/repositories/knowledge-base.ts';
import { buildReportModel } from '../../../server/reports/build-model.ts';

/** A role that may read components but neither findings nor audit them. */
const READER_ROLE = 90;

describe.each(databases)('result calls on $name', (database) => {
  let admin: TestClient;
  let member: TestClient;
  let outsider: TestClient;
  let reader: TestClient;
  let seeded: SeededRun;
  let other: SeededRun;

  const server = useServer(database);
  beforeAll(async () => {
    admin = await adminClient(server);
    const db = server.app.cairn.db;
    const role = await db.insertInto('roles').values({ code: READER_ROLE, name: '组件只读' }).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('role_permissions').values(['analysis:task:list', 'analysis:result:cominfo:list', 'analysis:result:summary']
      .map((permission_code) => ({ role_id: role.id, permission_code }))).execute();
    const signedMember = await signIn(server, 'wangfang', 'Wang@12345');
    outsider = (await signIn(server, 'lixin', 'Li@123456')).client;
    const signedReader = await signIn(server, 'zhaolei', 'Zhao@12345', [READER_ROLE]);
    member = signedMember.client;
    reader = signedReader.client;
    seeded = await seedRun(db, { ownerId: signedMember.id, memberIds: [signedReader.id] });
    // Another subject of the same owner, no licence set: every conflict verdict is unknown.
    other = await seedRun(db, { ownerId: signedMember.id, subjectName: '手机银行', projectName: 'bank-app', outboundLicense: null });
  });

  const get = (client: TestClient, url: string) => client.request({ method: 'GET', url });
  const post = (client: TestClient, url: string, body: unknown = {}) => client.request({ method: 'POST', url, body });

  it('answers the task header and the overview from the latest succeeded run', async () => {
    const view = await get(member, `/api/project-task-view/${seeded.projectId}`);
    expect(view.body.code).toBe(1);
    expect(view.body.data.project).toMatchObject({ projectName: 'bank-portal', subjectName: '网上银行', versionName: 'V2.3.0', projectTags: ['核心', '对外'], outboundLicense: 'Apache-2.0', status: 2 });
    expect(view.body.data.run).toMatchObject({ id: seeded.runId, seq: 1, status: 2, stage: 'done', stageLabel: '已完成', durationMs: 120000, createdByName: 'wangfang', counts: { components: 11, vulnerabilities: 5, byLevel: { 1: 2, 2: 2, 4: 1, 8: 0, 16: 0 } } });
    expect(view.body.data.latestRun.id).toBe(seeded.runId);

    const overview = await get(admin, `/api/project-task-view/info/${seeded.projectId}/0`);
    expect(overview.body.code).toBe(1);
    const o = overview.body.data;
    expect(o.components).toMatchObject({ total: 11, vulnerable: 3, direct: 6, transitive: 5, development: 1, byRisk: { 1: 1, 2: 2, 32: 7, 64: 1 }, marked: 0 });
    expect(o.components.ecosystems[0]).toEqual({ key: 'npm', count: 8 });
    expect(o.vulnerabilities).toMatchObject({ total: 5, distinct: 5, byLevel: { 1: 2, 2: 2, 4: 1 }, unreviewed: 5, excludedByVex: 0 });
    expect(o.licenses).toMatchObject({ total: 4, unlicensedComponents: 1, incompatibleComponents: 1 });
    expect(o.problems).toEqual([{ file: 'tools/broken.lock', message: '无法解析依赖锁文件' }]);

    expect((await get(outsider, `/api/project-task-view/${seeded.projectId}`)).body).toMatchObject({ code: 0, message: 'Permission denied' });
    expect((await get(member, '/api/project-task-view/999999')).body).toMatchObject({ code: 0, message: '项目不存在' });
    expect((await get(member, `/api/project-task-view/info/${seeded.projectId}/2`)).status).toBe(400);
    expect((await get(member, `/api/project-task-view/${seeded.projectId}?taskId=${other.runId}`)).body.message).toBe('任务不存在或不属于该项目');
    // The overview needs analysis:result:summary, which the reader role holds; outsiders see nothing.
    expect((await get(reader, `/api/project-task-view/info/${seeded.projectId}/1`)).body.code).toBe(1);
  });

  it('lists components worst first with filters, sorting and paging', async () => {
    const page = await post(member, `/api/component/list/${seeded.projectId}?page=1&size=5`, {});
    expect(page.body.data.total).toBe(11);
    expect(page.body.data.content).toHaveLength(5);
    expect(page.body.data.content[0]).toMatchObject({ name: 'org.apache.logging.log4j:log4j-core', version: '2.14.1', riskLevel: 1, vulCount: 2, vulLevels: { 1: 2, 2: 0, 4: 0, 8: 0, 16: 0 }, recommendVersion: '2.15.0', mark: 'N', locationCount: 1 });
    expect(page.body.data.content.slice(1, 3).map((c: { name: string }) => c.name)).toEqual(['lodash', 'qs']);

    const filtered = await post(member, `/api/component/list/${seeded.projectId}`, { keyword: 'LOG4J', direct: false });
    expect(filtered.body.data).toMatchObject({ total: 1, content: [{ name: 'org.apache.logging.log4j:log4j-api', direct: false }] });
    const dev = await post(member, `/api/component/list/${seeded.projectId}`, { scope: 'development' });
    expect(dev.body.data.content.map((c: { name: string }) => c.name)).toEqual(['jest']);
    const unknown = await post(member, `/api/component/list/${seeded.projectId}`, { riskLevels: [64], ecosystems: ['npm'] });
    // An unpinned declaration keeps version '' (未知版本) and carries the range it declares.
    expect(unknown.body.data.content).toMatchObject([{ name: 'left-pad', version: '', licenseExpression: null, licenseLevel: 16, constraint: '^1.3.0' }]);
    expect(page.body.data.content[0].constraint).toBeNull();
    const sorted = await post(member, `/api/component/list/${seeded.projectId}?sort=name,desc&size=2`, {});
    expect(sorted.body.data.content.map((c: { name: string }) => c.name)).toEqual(['qs', 'pyqt5']);

    expect((await post(member, `/api/component/list/${seeded.projectId}?sort=purl,asc`, {})).status).toBe(400);
    expect((await post(member, `/api/component/list/${seeded.projectId}`, { riskLevels: [3] })).status).toBe(400);
    expect((await post(outsider, `/api/component/list/${seeded.projectId}`, {})).body.message).toBe('Permission denied');
    expect((await post(member, '/api/component/list/999999', {})).body.message).toBe('项目不存在');
    expect((await post(reader, `/api/component/list/${seeded.projectId}`, {})).body.data.total).toBe(11);
  });

  it('pages findings one level tab at a time with badge counts', async () => {
    const all = await get(member, `/api/vulnerability/list/statistic/${seeded.projectId}`);
    expect(all.body.data.counts).toEqual({ 1: 2, 2: 2, 4: 1, 8: 0, 16: 0 });
    expect(all.body.data.total).toBe(5);
    expect(all.body.data.content[0]).toMatchObject({ identify: 'GHSA-jfh8-c2jp-5v3q', cve: 'CVE-2021-44228', level: 1, originalLevel: 1, score: 10, componentName: 'org.apache.logging.log4j:log4j-core', aliases: ['CVE-2021-44228'], fixedVersions: ['2.15.0'], mark: 0, vex: 0 });

    const high = await get(member, `/api/vulnerability/list/statistic/${seeded.projectId}?level=2`);
    expect(high.body.data.total).toBe(2);
    expect(high.body.data.content.map((f: { cve: string }) => f.cve)).toEqual(['CVE-2022-24999', 'CVE-2021-23337']);
    const keyword = await get(member, `/api/vulnerability/list/statistic/${seeded.projectId}?keyword=lodash`);
    expect(keyword.body.message).toBe('操作成功');
    expect(keyword.body.data.counts).toEqual({ 1: 0, 2: 1, 4: 1, 8: 0, 16: 0 });
    const ofComponent = await get(member, `/api/vulnerability/list/statistic/${seeded.projectId}?componentId=${seeded.components.qs}`);
    expect(ofComponent.body.data.content.map((f: { cve: string }) => f.cve)).toEqual(['CVE-2022-24999']);

    expect((await get(member, `/api/vulnerability/list/statistic/${seeded.projectId}?marks=9`)).status).toBe(400);
    expect((await get(member, `/api/vulnerability/list/statistic/${seeded.projectId}?level=3`)).status).toBe(400);
    expect((await get(reader, `/api/vulnerability/list/statistic/${seeded.projectId}`)).status).toBe(403);
    expect((await get(outsider, `/api/vulnerability/list/statistic/${seeded.projectId}`)).body.message).toBe('Permission denied');
  });

  it('shows a component with its licences, findings, locations and root paths', async () => {
    const detail = await get(member, `/api/component/${seeded.components.qs}`);
    expect(detail.body.code).toBe(1);
    const d = detail.body.data;
    expect(d).toMatchObject({ name: 'qs', projectId: seeded.projectId, dependencies: 0, dependents: 1, pathTotal: 1, locations: [{ file: 'web/package-lock.json', startLine: 310, endLine: 310 }] });
    expect(d.licenses).toEqual([{ spdxId: 'BSD-3-Clause', level: 8, source: 'declared', known: true }]);
    expect(d.vulnerabilities.map((f: { cve: string }) => f.cve)).toEqual(['CVE-2022-24999']);
    expect(d.paths).toEqual([[
      { pathId: `${seeded.components.express}`, name: 'express', version: '4.17.1' },
      { pathId: `${seeded.components.express}.${seeded.components['body-parser']}`, name: 'body-parser', version: '1.19.0' },
      { pathId: `${seeded.components.express}.${seeded.components['body-parser']}.${seeded.components.qs}`, name: 'qs', version: '6.7.0' },
    ]]);
    // debug is reached from express directly and through body-parser (and the ms cycle is not a path).
    const debug = await get(member, `/api/component/${seeded.components.debug}`);
    expect(debug.body.data).toMatchObject({ pathTotal: 2, dependencies: 1, dependents: 3 });

    const mod = await get(member, `/api/component/module/${seeded.projectId}/${seeded.components.lodash}`);
    expect(mod.body.data).toMatchObject({ name: 'lodash', vulCount: 2 });
    expect((await get(member, `/api/component/module/${other.projectId}/${seeded.components.lodash}`)).body.message).toBe('组件不存在');
    expect((await get(member, `/api/component/${seeded.components.qs}?taskId=${other.runId}`)).body.message).toBe('组件不存在');
    expect((await get(member, '/api/component/999999')).body.message).toBe('组件不存在');
    expect((await get(member, '/api/component/abc')).status).toBe(400);
    expect((await get(outsider, `/api/component/${seeded.components.qs}`)).body.message).toBe('Permission denied');

    const source = await post(member, '/api/component/source', { projectId: seeded.projectId, componentId: seeded.components['log4j-core'] });
    expect(source.body.data).toEqual({ componentId: seeded.components['log4j-core'], purl: 'pkg:maven/org.apache.logging.log4j/log4j-core@2.14.1', locations: [{ file: 'server/pom.xml', startLine: 31, endLine: 31 }] });
    expect((await post(member, '/api/component/source', { projectId: other.projectId, componentId: seeded.components.qs })).body.message).toBe('组件不存在');
    expect((await post(member, '/api/component/source', { projectId: seeded.projectId })).status).toBe(400);

    const exported = await get(member, `/api/component/export?projectId=${seeded.projectId}&format=xlsx`);
    expect(exported.body).toMatchObject({ code: 1, message: '报告生成提交成功，生成完成之后可在报告管理中下载。', data: { reportId: expect.any(Number) } });
  });

  it('expands the dependency tree level by level and flags cycles', async () => {
    const roots = await get(member, `/api/resultTree/dependence/${seeded.projectId}`);
    expect(roots.body.data.taskId).toBe(seeded.runId);
    expect(roots.body.data.total).toBe(6);
    expect(roots.body.data.content[0]).toMatchObject({ name: 'org.apache.logging.log4j:log4j-core', childCount: 1, cycle: false, pathId: `${seeded.components['log4j-core']}` });
    const express = roots.body.data.content.find((n: { name: string }) => n.name === 'express');
    expect(express.childCount).toBe(2);

    const children = await get(member, `/api/resultTree/list/dependence/${seeded.projectId}?pathId=${express.pathId}`);
    expect(children.body.data.content.map((n: { name: string }) => n.name)).toEqual(['body-parser', 'debug']);
    const debug = children.body.data.content[1];
    const ms = await get(member, `/api/resultTree/list/dependence/${seeded.projectId}?pathId=${debug.pathId}`);
    expect(ms.body.data.content).toMatchObject([{ name: 'ms', cycle: false, pathId: `${debug.pathId}.${seeded.components.ms}` }]);
    const back = await get(member, `/api/resultTree/list/dependence/${seeded.projectId}?pathId=${ms.body.data.content[0].pathId}`);
    expect(back.body.data.content).toMatchObject([{ name: 'debug', cycle: true }]);
    const paged = await get(member, `/api/resultTree/dependence/${seeded.projectId}?page=2&size=4`);
    expect(paged.body.data).toMatchObject({ total: 6 });
    expect(paged.body.data.content).toHaveLength(2);

    expect((await get(member, `/api/resultTree/list/dependence/${seeded.projectId}?pathId=1.a`)).status).toBe(400);
    expect((await get(member, `/api/resultTree/list/dependence/${seeded.projectId}?pathId=${other.components.qs}`)).body.message).toBe('依赖树节点不存在');
    expect((await get(outsider, `/api/resultTree/dependence/${seeded.projectId}`)).body.message).toBe('Permission denied');

    const search = await post(member, `/api/resultTree/search/${seeded.projectId}`, { keyword: 'debug', kind: 'dependence' });
    expect(search.body.data.total).toBe(2);
    expect(search.body.data.content[0]).toMatchObject({ name: 'debug', version: '2.6.9', isDir: false, ancestors: [{ name: 'express' }] });
    expect(search.body.data.content[1].ancestors.map((s: { name: string }) => s.name)).toEqual(['express', 'body-parser']);
    expect((await post(member, `/api/resultTree/search/${seeded.projectId}`, { keyword: '', kind: 'dependence' })).status).toBe(400);
  });

  it('walks the file tree and searches it', async () => {
    const root = await get(member, `/api/resultTree/file/${seeded.projectId}`);
    expect(root.body.data.content.map((n: { name: string; isDir: boolean }) => `${n.name}${n.isDir ? '/' : ''}`)).toEqual(['server/', 'tools/', 'web/', 'LICENSE']);
    expect(root.body.data.content[2]).toMatchObject({ pathId: 'web', componentCount: 8, hasChildren: true });
    const web = await get(member, `/api/resultTree/list/file/${seeded.projectId}?pathId=web`);
    expect(web.body.data.content).toMatchObject([{ pathId: 'web/package-lock.json', size: 96214, componentCount: 4 }, { pathId: 'web/package.json' }]);
    const binary = await get(member, `/api/binary/tree/${seeded.projectId}`);
    expect(binary.body.data.total).toBe(4);
    const search = await post(member, `/api/resultTree/search/${seeded.projectId}`, { keyword: 'app.java', kind: 'file' });
    expect(search.body.data.content).toMatchObject([{ pathId: 'server/src/main/java/com/example/bank/App.java', isDir: false }]);
    expect(search.body.data.content[0].ancestors.map((s: { name: string }) => s.name)).toEqual(['server', 'src', 'main', 'java', 'com', 'example', 'bank']);
    expect((await get(member, `/api/resultTree/list/file/${seeded.projectId}`)).status).toBe(400);
    expect((await get(outsider, `/api/resultTree/file/${seeded.projectId}`)).body.message).toBe('Permission denied');
  });

  it('lists licences, copyright holders and licence conflicts', async () => {
    const list = await get(member, `/api/license/list/${seeded.projectId}`);
    expect(list.body.data.total).toBe(4);
    const gpl = list.body.data.content[0];
    expect(gpl).toMatchObject({ spdxId: 'GPL-3.0-only', level: 2, componentCount: 1, fileCount: 2, components: [{ name: 'pyqt5' }] });
    expect(gpl.sources.sort()).toEqual(['declared', 'header']);
    expect(gpl.files.map((f: { file: string }) => f.file)).toEqual(['tools/requirements.txt', 'tools/viewer.py']);
    const mit = list.body.data.content.find((r: { spdxId: string }) => r.spdxId === 'MIT');
    expect(mit).toMatchObject({ name: 'MIT License', componentCount: 6, copyleft: 'none', fileCount: 2 });
    // Six components declare MIT in two manifests: two places, not one per component.
    expect(mit.files.map((f: { file: string }) => f.file)).toEqual(['web/package.json', 'web/package-lock.json']);
    expect(mit.licenseId).toEqual(expect.any(Number));
    expect((await get(member, `/api/license/list/${seeded.projectId}?keyword=apache`)).body.data.content.map((r: { spdxId: string }) => r.spdxId)).toEqual(['Apache-2.0']);
    expect((await get(member, `/api/license/list/${seeded.projectId}?level=5`)).status).toBe(400);

    const copyrights = await get(member, `/api/license/copyright/${seeded.projectId}`);
    expect(copyrights.body.data.total).toBe(2);
    expect(copyrights.body.data.content[0]).toMatchObject({ holder: 'Example Bank Ltd.', statementCount: 2, fileCount: 2, authors: ['Zhang Wei <zhangwei@example.com>'] });

    // One holder however it is spelt, shown as written in the first file (issue 15: names keep their accents).
    await server.app.cairn.db.insertInto('run_copyrights').values([
      { run_id: other.runId, file: 'NOTICE', statement: 'Copyright (c) 2016 Sami Koskimäki', holder: 'Sami Koskimäki', author: null, line: 1 },
      { run_id: other.runId, file: 'src/index.ts', statement: 'Copyright 2017 Sami Koskimaki', holder: 'Sami Koskimaki', author: null, line: 2 },
    ]).execute();
    const accented = (await get(member, `/api/license/copyright/${other.projectId}?keyword=koskimaki`)).body.data;
    expect(accented.content).toMatchObject([{ holder: 'Sami Koskimäki', statementCount: 2, fileCount: 2 }]);

    const conflicts = await get(member, `/api/license/conflict/${seeded.projectId}`);
    const c = conflicts.body.data;
    expect(c.outboundLicense).toBe('Apache-2.0');
    // The shipped OSADL matrix's date (resources/osadl/README.md).
    expect(c.osadlVersion).toBe('2026-02-12');
    expect(c.totals).toEqual({ compatible: 9, incompatible: 1, check: 0, unknown: 1 });
    // Apache-2.0 <- GPL-3.0-only is a pair the OSADL matrix decides (No); the verdict says so.
    expect(c.content[0]).toMatchObject({ name: 'pyqt5', verdict: 'incompatible', conflicting: ['GPL-3.0-only'], source: 'osadl' });
    expect(c.content[0].explanation).toMatch(/GPL-3\.0/);
    expect(c.content[0].explanation).toMatch(/[\u4e00-\u9fff]/);
    // Without a declared licence OSADL has nothing to decide: Cairn's rules answer.
    expect(c.content[1]).toMatchObject({ name: 'left-pad', verdict: 'unknown', explanation: '组件未声明许可证，无法判断兼容性', source: 'cairn' });
    expect(c.content.every((r: { source: string }) => r.source === 'osadl' || r.source === 'cairn')).toBe(true);
    // The reports give the same verdicts with the same source.
    const report = await buildReportModel(server.app.cairn.db, { kind: 'task', runIds: [seeded.runId], author: 'wangfang', tool: { name: 'Cairn', version: 'test' } });
    expect(report.osadlVersion).toBe('2026-02-12');
    expect(report.conflicts.find((r) => r.componentName === 'pyqt5')).toMatchObject({ verdict: 'incompatible', source: 'osadl' });
    expect(report.conflicts.find((r) => r.componentName === 'left-pad')).toMatchObject({ verdict: 'unknown', source: 'cairn' });
    const onlyCompatible = await get(member, `/api/license/conflict/${seeded.projectId}?verdict=compatible&size=3`);
    expect(onlyCompatible.body.data).toMatchObject({ total: 9 });
    expect(onlyCompatible.body.data.content).toHaveLength(3);

    const unset = await get(member, `/api/license/conflict/${other.projectId}`);
    // Without an outbound licence nothing is listed as 未知: the tab explains how to set one.
    expect(unset.body.data).toMatchObject({ outboundLicense: null, outboundSource: null, componentCount: 11, totals: { compatible: 0, incompatible: 0, unknown: 0 }, content: [], total: 0 });
    expect((await get(outsider, `/api/license/conflict/${seeded.projectId}`)).body.message).toBe('Permission denied');
    expect((await get(member, `/api/license/conflict/${seeded.projectId}?verdict=bad`)).status).toBe(400);
  });

  it('marks findings with a custom level, components and VEX, and logs every change', async () => {
    const cve = seeded.findings['CVE-2021-23337']!;
    const marked = await post(member, '/api/mark/vulnerability/source', {
      projectId: seeded.projectId, taskId: seeded.runId, ids: [cve], mark: 2, remark: '仅在内部构建脚本使用，不接受外部输入', customLevel: 8, levelRemark: '不可被外部触发',
    });
    expect(marked.body).toMatchObject({ code: 1, message: '标记成功！', data: { updated: 1 } });
    const finding = (await get(member, `/api/vulnerability/list/statistic/${seeded.projectId}?level=8`)).body.data.content[0];
    expect(finding).toMatchObject({ id: cve, level: 8, originalLevel: 2, levelRemark: '不可被外部触发', mark: 2, markRemark: '仅在内部构建脚本使用，不接受外部输入' });

    const log = await get(member, `/api/mark/vulnerability/log/${seeded.projectId}/${cve}`);
    expect(log.body.data.total).toBe(2);
    expect(log.body.data.content.map((l: { kind: string }) => l.kind).sort()).toEqual(['level', 'vulnerability']);
    const markEntry = log.body.data.content.find((l: { kind: string }) => l.kind === 'vulnerability');
    expect(markEntry).toMatchObject({ taskId: seeded.runId, seq: 1, oldValue: '0', newValue: '2', oldLabel: '待审核', newLabel: '无需修复', remark: '仅在内部构建脚本使用，不接受外部输入', userName: 'wangfang' });
    const levelEntry = log.body.data.content.find((l: { kind: string }) => l.kind === 'level');
    expect(levelEntry).toMatchObject({ oldValue: '2', newValue: '8', oldLabel: '高危', newLabel: '低危', remark: '不可被外部触发' });

    const vex = await post(member, '/api/vex/mark/vulnerability', { projectId: seeded.projectId, taskId: seeded.runId, ids: [seeded.findings['CVE-2022-24999']], vex: 1, remark: '未使用 qs 的 parse 接口' });
    expect(vex.body).toMatchObject({ code: 1, data: { updated: 1 } });
    const vexLog = await get(member, `/api/vex/mark/vulnerability/log/${seeded.projectId}/${seeded.findings['CVE-2022-24999']}`);
    expect(vexLog.body.data.content).toMatchObject([{ kind: 'vex', oldLabel: '待定', newLabel: '不受影响' }]);
    const overview = await get(member, `/api/project-task-view/info/${seeded.projectId}/1`);
    expect(overview.body.data.vulnerabilities).toMatchObject({ total: 4, excludedByVex: 1, unreviewed: 3 });

    const comp = await post(member, '/api/mark/component/source', { projectId: seeded.projectId, taskId: seeded.runId, ids: [seeded.components['left-pad']], mark: 'W', remark: '内部镜像版本，已审计' });
    expect(comp.body.data).toEqual({ updated: 1 });
    const again = await post(member, '/api/mark/component/binary', { projectId: seeded.projectId, taskId: seeded.runId, ids: [seeded.components['left-pad']], mark: 'W', remark: '内部镜像版本，已审计' });
    expect(again.body.data).toEqual({ updated: 1 });
    const compLog = await get(member, `/api/mark/component/log/${seeded.projectId}/${seeded.components['left-pad']}`);
    expect(compLog.body.data).toMatchObject({ total: 1, content: [{ kind: 'component', oldValue: 'N', newValue: 'W', newLabel: '白名单' }] });

    // Refusals: bad input, level without reason, rows of another run, no audit code, not a member.
    expect((await post(member, '/api/mark/vulnerability/source', { projectId: seeded.projectId, taskId: seeded.runId, ids: [], mark: 2, remark: '' })).status).toBe(400);
    expect((await post(member, '/api/mark/vulnerability/source', { projectId: seeded.projectId, taskId: seeded.runId, ids: [cve], mark: 9, remark: '' })).status).toBe(400);
    expect((await post(member, '/api/mark/vulnerability/binary', { projectId: seeded.projectId, taskId: seeded.runId, ids: [cve], mark: 1, remark: '', customLevel: 1 })).body.message).toBe('修改漏洞等级时请填写修改原因');
    expect((await post(member, '/api/mark/vulnerability/source', { projectId: seeded.projectId, taskId: seeded.runId, ids: [other.findings['CVE-2021-23337']], mark: 1, remark: '' })).body.message).toBe('所选漏洞不存在或不属于该任务');
    expect((await post(member, '/api/mark/component/source', { projectId: seeded.projectId, taskId: other.runId, ids: [other.components.qs], mark: 'F', remark: '' })).body.message).toBe('任务不存在或不属于该项目');
    expect((await post(reader, '/api/mark/component/source', { projectId: seeded.projectId, taskId: seeded.runId, ids: [seeded.components.qs], mark: 'F', remark: '' })).status).toBe(403);
    expect((await post(outsider, '/api/mark/component/source', { projectId: seeded.projectId, taskId: seeded.runId, ids: [seeded.components.qs], mark: 'F', remark: '' })).body.message).toBe('Permission denied');
    expect((await get(member, `/api/mark/component/log/${other.projectId}/${seeded.components.qs}`)).body.message).toBe('组件不存在');
    expect((await get(reader, `/api/mark/vulnerability/log/${seeded.projectId}/${cve}`)).status).toBe(403);
  });

  it('carries marks to the next run, compares the runs and keeps history', async () => {
    const db = server.app.cairn.db;
    const userId = (await db.selectFrom('users').select('id').where('username', '=', 'wangfang').executeTakeFirstOrThrow()).id;
    const custom = await post(member, '/api/mark/vulnerability/source', {
      projectId: seeded.projectId, taskId: seeded.runId, ids: [seeded.findings['CVE-2021-45046']], mark: 1, remark: '随 log4j 升级修复', customLevel: 2, levelRemark: '需非默认配置才可利用',
    });
    expect(custom.body.data).toEqual({ updated: 1 });
    const next = await seedNextRun(db, seeded, userId, { lodash: '4.17.21' });
    const carried = (await get(member, `/api/vulnerability/list/statistic/${seeded.projectId}?keyword=CVE-2021-45046`)).body.data.content;
    expect(carried).toMatchObject([{ id: next.findings['CVE-2021-45046'], level: 2, originalLevel: 1, levelRemark: '需非默认配置才可利用', mark: 1, markRemark: '随 log4j 升级修复' }]);

    // Retention: the VEX statement and the component mark are carried by purl (+ advisory).
    const qsFinding = (await get(member, `/api/vulnerability/list/statistic/${seeded.projectId}?vex=1`)).body.data;
    expect(qsFinding.content).toMatchObject([{ id: next.findings['CVE-2022-24999'], taskId: next.runId, vex: 1, vexRemark: '未使用 qs 的 parse 接口' }]);
    const leftPad = (await post(member, `/api/component/list/${seeded.projectId}`, { marks: ['W'] })).body.data.content;
    expect(leftPad).toMatchObject([{ id: next.components['left-pad'], mark: 'W' }]);
    // The log spans the runs: asked through the new row, it shows the mark made on run 1.
    expect((await get(member, `/api/mark/component/log/${seeded.projectId}/${next.components['left-pad']}`)).body.data.content[0]).toMatchObject({ taskId: seeded.runId, seq: 1 });
    // Marking a row of the older run still works.
    const old = await post(member, '/api/mark/vulnerability/source', { projectId: seeded.projectId, taskId: seeded.runId, ids: [seeded.findings['CVE-2021-44228']], mark: 1, remark: '升级到 2.17.1' });
    expect(old.body.data).toEqual({ updated: 1 });

    const batches = await get(member, `/api/batch/task/batchList?projectId=${seeded.projectId}`);
    expect(batches.body.data.total).toBe(2);
    expect(batches.body.data.content.map((r: { seq: number }) => r.seq)).toEqual([2, 1]);
    expect((await get(member, `/api/batch/task/batchList?projectId=${seeded.projectId}&status=3`)).body.data.total).toBe(0);
    expect((await get(member, `/api/batch/task/batch?projectId=${seeded.projectId}`)).body.data).toMatchObject({ id: next.runId, seq: 2 });
    expect((await get(outsider, `/api/batch/task/batch?projectId=${seeded.projectId}`)).body.message).toBe('Permission denied');
    expect((await get(member, '/api/batch/task/batchList')).status).toBe(400);

    const components = await post(member, '/api/batch/task/compare/component', { baseTaskId: seeded.runId, compareTaskId: next.runId });
    expect(components.body.data.totals).toEqual({ added: 0, removed: 0, changed: 1, same: 10 });
    // lodash's high finding was set to 低危 by hand, so its risk is its other (moderate) finding's.
    expect(components.body.data.content[0]).toMatchObject({ change: 'changed', name: 'lodash', base: { version: '4.17.20', riskLevel: 4, vulCount: 2 }, compare: { version: '4.17.21', riskLevel: 32, vulCount: 0 } });
    expect(components.body.data.base).toMatchObject({ id: seeded.runId, label: 'bank-portal #1' });
    const vulns = await post(member, '/api/batch/task/compare/vulnerability', { baseTaskId: seeded.runId, compareTaskId: next.runId, change: 'removed' });
    expect(vulns.body.data.totals).toMatchObject({ removed: 2, added: 0 });
    expect(vulns.body.data.content.map((r: { cve: string }) => r.cve).sort()).toEqual(['CVE-2020-28500', 'CVE-2021-23337']);
    expect((await post(member, '/api/batch/task/compare/component', { baseTaskId: seeded.runId, compareTaskId: 999999 })).body.message).toBe('任务不存在或不属于该项目');
    expect((await post(outsider, '/api/batch/task/compare/component', { baseTaskId: seeded.runId, compareTaskId: next.runId })).body.message).toBe('Permission denied');
    expect((await post(member, '/api/batch/task/compare/component', { baseTaskId: seeded.runId })).status).toBe(400);

    const removed = await post(member, `/api/component/history/list/${seeded.projectId}`, {});
    expect(removed.body.data).toMatchObject({ total: 1, content: [{ name: 'lodash', version: '4.17.20', present: false, firstSeq: 1, lastSeq: 1, runCount: 1, currentVersion: '4.17.21', riskLevel: 4 }] });
    const all = await post(member, `/api/component/history/list/${seeded.projectId}`, { state: 'all' });
    expect(all.body.data.total).toBe(12);
    const info = await get(member, `/api/component/history/info/${removed.body.data.content[0].id}`);
    expect(info.body.data.appearances).toMatchObject([{ seq: 1, version: '4.17.20', riskLevel: 4 }, { seq: 2, version: '4.17.21', riskLevel: 32 }]);
    // A refresh rates history against today's knowledge base: one critical advisory for lodash
    // below 4.17.21 now, where the seeded run had recorded two high findings.
    await saveAdvisories(server.app.cairn.db, [osvRecord({
      schema_version: '1.6.0', id: 'GHSA-test-lodash-0001', modified: '2026-11-01T00:00:00Z', summary: 'lodash prototype pollution',
      severity: [{ type: 'CVSS_V3', score: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H' }],
      affected: [{ package: { ecosystem: 'npm', name: 'lodash' }, ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: '4.17.21' }] }] }],
    })]);
    try {
      const refreshed = await get(member, `/api/component/history/refresh/${seeded.projectId}`);
      expect(refreshed.body.data).toMatchObject({ total: 12, removed: 1 });
      const rerated = await post(member, `/api/component/history/list/${seeded.projectId}`, {});
      expect(rerated.body.data.content[0]).toMatchObject({ name: 'lodash', version: '4.17.20', riskLevel: 1, vulCount: 1 });
      // Present components are rated by the same knowledge base: lodash 4.17.21 is not affected.
      const current = (await post(member, `/api/component/history/list/${seeded.projectId}`, { state: 'present', keyword: 'lodash' })).body.data.content;
      expect(current).toMatchObject([{ version: '4.17.21', riskLevel: 32, vulCount: 0 }]);
    } finally {
      await deleteAdvisories(server.app.cairn.db, ['GHSA-test-lodash-0001']);
    }
    expect((await post(member, `/api/component/history/list/${seeded.projectId}`, { state: 'gone' })).status).toBe(400);
    expect((await get(outsider, `/api/component/history/info/${removed.body.data.content[0].id}`)).body.message).toBe('Permission denied');
  });

  it('summarises components across a subject, compares subjects and shows influence', async () => {
    const stat = await post(member, '/api/subject/component/statistic', { subjectId: seeded.subjectId });
    expect(stat.body.data).toMatchObject({ projects: 1, components: 11, byRisk: { 1: 1, 2: 1, 32: 8, 64: 1 } });
    const list = await post(member, '/api/subject/component/list?size=3', { subjectId: seeded.subjectId, keyword: 'log4j' });
    expect(list.body.data.total).toBe(2);
    expect(list.body.data.content[0]).toMatchObject({ name: 'org.apache.logging.log4j:log4j-core', projectCount: 1, projects: [{ projectName: 'bank-portal' }] });
    expect((await post(outsider, '/api/subject/component/list', { subjectId: seeded.subjectId })).body.message).toBe('Permission denied');
    expect((await post(member, '/api/subject/component/statistic', { subjectId: 999999 })).body.message).toBe('项目（应用）不存在');

    const compared = await post(member, '/api/batch/subject/compare/component', { baseSubjectId: other.subjectId, compareSubjectId: seeded.subjectId });
    expect(compared.body.data.totals).toEqual({ added: 0, removed: 0, changed: 1, same: 10 });
    expect(compared.body.data.base).toMatchObject({ label: '手机银行' });
    const comparedVulns = await post(member, '/api/batch/subject/compare/vulnerability', { baseSubjectId: other.subjectId, compareSubjectId: seeded.subjectId });
    expect(comparedVulns.body.data.totals).toMatchObject({ removed: 2 });

    const influence = await get(member, `/api/project-task-view/component-influence/${seeded.subjectUuid}/0?riskLevels=1,2`);
    expect(influence.body.data.content.map((r: { name: string }) => r.name)).toEqual(['org.apache.logging.log4j:log4j-core', 'qs']);
    expect((await get(member, `/api/project-task-view/component-influence/${seeded.subjectUuid}/${seeded.versionId}`)).body.data.total).toBe(11);
    expect((await get(member, `/api/project-task-view/component-influence/${seeded.subjectUuid}/0?riskLevels=3`)).status).toBe(400);
    expect((await get(member, '/api/project-task-view/component-influence/no-such-uuid/0')).body.message).toBe('项目（应用）不存在');

    const module = await get(member, '/api/project-task-view/module-influence?purl=pkg:maven/org.apache.logging.log4j/log4j-core@2.14.1');
    expect(module.body.data.total).toBe(2);
    expect(module.body.data.content.map((r: { subjectName: string }) => r.subjectName).sort()).toEqual(['手机银行', '网上银行']);
    const byName = await get(member, '/api/project-task-view/module-influence?name=lodash&version=4.17.20');
    expect(byName.body.data.content).toMatchObject([{ subjectName: '手机银行', version: '4.17.20' }]);
    expect((await get(member, '/api/project-task-view/module-influence')).body.message).toBe('请提供组件 purl 或名称');
    expect((await get(outsider, '/api/project-task-view/module-influence?name=lodash')).body.data.total).toBe(0);
  });

  it('fills the home dashboard from the visible projects only', async () => {
    const stats = await get(member, '/api/home-page/component/statistics');
    expect(stats.body.data).toMatchObject({ subjects: 2, projects: 2, runs: 3, components: 12 });
    expect(stats.body.data.vulnerabilities).toMatchObject({ 1: 2, 2: 2, 4: 1 });
    expect(stats.body.data.licenses).toMatchObject({ 2: 1, 8: 3 });
    const empty = await get(outsider, '/api/home-page/component/statistics');
    expect(empty.body.data).toMatchObject({ subjects: 0, projects: 0, runs: 0, components: 0 });

    const top = await get(member, '/api/home-page/component/top10');
    expect(top.body.data).toHaveLength(10);
    expect(top.body.data[0]).toMatchObject({ name: 'org.apache.logging.log4j:log4j-core', projectCount: 2 });
    const latest = await get(admin, '/api/home-page/vulnerability/latest');
    expect(latest.body.data[0]).toMatchObject({ cve: 'CVE-2022-24999', published: expect.stringMatching(/^2022-11-27T00:30:50/) });
    expect((await get(outsider, '/api/home-page/vulnerability/latest')).body.data).toEqual([]);

    const intelligence = await post(member, '/api/home-page/opensource/intelligence?page=1&size=5', { days: 30 });
    expect(intelligence.body.code).toBe(1);
    expect(intelligence.body.data).toMatchObject({ content: expect.any(Array), total: expect.any(Number) });
    expect((await post(member, '/api/home-page/opensource/intelligence', { days: 0 })).status).toBe(400);
    expect((await server.client().request({ method: 'GET', url: '/api/home-page/component/statistics' })).status).toBe(401);
  });
  it('refuses every project-scoped call for non-members and unknown projects', async () => {
    const p = seeded.projectId;
    const calls = (projectId: number): Array<[string, string, unknown?]> => [
      ['GET', `/api/resultTree/file/${projectId}`], ['GET', `/api/binary/tree/${projectId}`], ['GET', `/api/resultTree/dependence/${projectId}`],
      ['GET', `/api/resultTree/list/dependence/${projectId}?pathId=${seeded.components.express}`], ['GET', `/api/resultTree/list/file/${projectId}?pathId=web`],
      ['POST', `/api/resultTree/search/${projectId}`, { keyword: 'qs', kind: 'dependence' }],
      ['POST', '/api/component/source', { projectId, componentId: seeded.components.qs }],
      ['GET', `/api/project-task-view/info/${projectId}/0`], ['GET', `/api/project-task-view/${projectId}`],
      ['POST', `/api/component/list/${projectId}`, {}], ['GET', `/api/vulnerability/list/statistic/${projectId}`],
      ['GET', `/api/license/list/${projectId}`], ['GET', `/api/license/copyright/${projectId}`], ['GET', `/api/license/conflict/${projectId}`],
      ['GET', `/api/component/module/${projectId}/${seeded.components.qs}`], ['GET', `/api/component/export?projectId=${projectId}&format=csv`],
      ['GET', `/api/batch/task/batchList?projectId=${projectId}`], ['GET', `/api/batch/task/batch?projectId=${projectId}`],
      ['POST', '/api/mark/component/binary', { projectId, taskId: seeded.runId, ids: [seeded.components.qs], mark: 'F', remark: '' }],
      ['POST', '/api/mark/vulnerability/binary', { projectId, taskId: seeded.runId, ids: [seeded.findings['CVE-2022-24999']], mark: 1, remark: '' }],
      ['POST', '/api/vex/mark/vulnerability', { projectId, taskId: seeded.runId, ids: [seeded.findings['CVE-2022-24999']], vex: 2, remark: '' }],
      ['GET', `/api/mark/component/log/${projectId}/${seeded.components.qs}`], ['GET', `/api/mark/vulnerability/log/${projectId}/${seeded.findings['CVE-2022-24999']}`],
      ['GET', `/api/vex/mark/vulnerability/log/${projectId}/${seeded.findings['CVE-2022-24999']}`],
      ['POST', `/api/component/history/list/${projectId}`, {}], ['GET', `/api/component/history/refresh/${projectId}`],
    ];
    for (const [method, url, body] of calls(p)) {
      const reply = await outsider.request({ method: method as 'GET', url, ...(body !== undefined && { body }) });
      expect(reply.body, `${method} ${url}`).toMatchObject({ code: 0, message: 'Permission denied', data: null });
    }
    for (const [method, url, body] of calls(999999)) {
      const reply = await member.request({ method: method as 'GET', url, ...(body !== undefined && { body }) });
      expect(reply.body, `${method} ${url}`).toMatchObject({ code: 0, message: '项目不存在' });
    }
    for (const [url, body] of [
      ['/api/subject/component/statistic', { subjectId: seeded.subjectId }],
      ['/api/batch/subject/compare/component', { baseSubjectId: seeded.subjectId, compareSubjectId: other.subjectId }],
      ['/api/batch/subject/compare/vulnerability', { baseSubjectId: seeded.subjectId, compareSubjectId: other.subjectId }],
    ] as const) {
      expect((await post(outsider, url, body)).body.message, url).toBe('Permission denied');
    }
    expect((await get(outsider, `/api/project-task-view/component-influence/${seeded.subjectUuid}/0`)).body.message).toBe('Permission denied');
    expect((await post(outsider, '/api/batch/task/compare/vulnerability', { baseTaskId: seeded.runId, compareTaskId: seeded.runId })).body.message).toBe('Permission denied');
    // Bad input is refused before any look-up.
    expect((await post(member, '/api/vex/mark/vulnerability', { projectId: p, taskId: seeded.runId, ids: [1], vex: 5, remark: '' })).status).toBe(400);
    expect((await post(member, '/api/mark/component/source', { projectId: p, taskId: seeded.runId, ids: [1], mark: 'X', remark: '' })).status).toBe(400);
    expect((await post(member, '/api/batch/subject/compare/component', { baseSubjectId: 0, compareSubjectId: 1 })).status).toBe(400);
    expect((await get(member, `/api/component/export?projectId=${p}&format=pdf`)).status).toBe(400);
    expect((await post(member, '/api/home-page/opensource/intelligence', { levels: [3] })).status).toBe(400);
    // The reader role lacks the vulnerability code for the finding calls.
    expect((await post(reader, '/api/vex/mark/vulnerability', { projectId: p, taskId: seeded.runId, ids: [1], vex: 2, remark: '' })).status).toBe(403);
    expect((await get(reader, `/api/vex/mark/vulnerability/log/${p}/1`)).status).toBe(403);
  });
  it('answers empty results for a project whose first analysis is still queued', async () => {
    const db = server.app.cairn.db;
    const now = new Date().toISOString();
    const project = await db.insertInto('projects').values({ subject_id: seeded.subjectId, name: 'bank-batch', get_code_type: 1, analysis_modes: '1', created_at: now, updated_at: now })
      .returning('id').executeTakeFirstOrThrow();
    const queued = await db.insertInto('runs').values({ project_id: project.id, seq: 1, status: 0, stage: 'queued', analysis_modes: '1', queued_at: now })
      .returning('id').executeTakeFirstOrThrow();
    await db.updateTable('projects').set({ last_run_id: queued.id, status: 0 }).where('id', '=', project.id).execute();

    const view = await get(member, `/api/project-task-view/info/${project.id}/0`);
    expect(view.body.data).toMatchObject({ run: null, latestRun: { id: queued.id, status: 0, stage: 'queued', stageLabel: '排队中', counts: { components: 0 } }, components: { total: 0 }, problems: [] });
    expect((await post(member, `/api/component/list/${project.id}`, {})).body.data).toEqual({ content: [], total: 0 });
    expect((await get(member, `/api/vulnerability/list/statistic/${project.id}`)).body.data).toEqual({ counts: { 1: 0, 2: 0, 4: 0, 8: 0, 16: 0 }, content: [], total: 0 });
    expect((await get(member, `/api/resultTree/dependence/${project.id}`)).body.data).toEqual({ taskId: null, content: [], total: 0 });
    expect((await get(member, `/api/license/conflict/${project.id}`)).body.data).toMatchObject({ outboundLicense: null, total: 0 });
    expect((await post(member, '/api/batch/task/compare/component', { baseTaskId: seeded.runId, compareTaskId: queued.id })).body.message).toBe('只能对比分析成功的任务');
    expect((await post(member, `/api/component/history/list/${project.id}`, { state: 'all' })).body.data).toEqual({ content: [], total: 0 });
  });
});
