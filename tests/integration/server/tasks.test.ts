// The task area end to end on the platform, on SQLite and PostgreSQL: a real upload of a zip built
// from the trivy corpus (a Go module, a pip requirements file and a pom.xml), launched with the
// knowledge base loaded from the corpus advisories, analysed by the run queue in a worker thread,
// its results stored; marks carried to the next run; SBOM and Excel projects; validation,
// permission and not-found answers; stop, pause and resume through the task queue.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadComponentLists } from '../../../server/engine/index.ts';
import { databases, signIn, type TestClient, type TestServer } from './harness.ts';
import { CORPORA, sampleAppZip, startSampleServer, uploadFile, waitForRun } from './sample-app.ts';

const work = mkdtempSync(path.join(tmpdir(), 'cairn-tasks-'));

describe.each(databases)('tasks on %s', (database) => {
  let server: TestServer;
  let admin: TestClient;
  let subjectId: number;
  let zip: string;

  beforeAll(async () => {
    ({ server, admin, subjectId } = await startSampleServer(database, '任务测试应用'));
    zip = sampleAppZip(work);
  }, 180_000);

  afterAll(async () => {
    await server?.close();
  });

  let projectId: number;

  it('launches a source upload, analyses it and stores components, vulnerabilities, licences and copyrights', async () => {
    const uploadId = await uploadFile(admin, zip);
    const launched = await admin.request({ method: 'POST', url: '/api/analysis', body: { subjectId, projectName: 'gomod-pip-pom', getCodeType: 0, uploadId, analysisModes: '1,4,7' } });
    expect(launched.body.code, launched.body.message).toBe(1);
    expect(launched.body.message).toBe('SUCCESS');
    projectId = launched.body.data.projectId;
    const done = await waitForRun(admin, projectId);
    expect(done.status, done.message).toBe(2);
    expect(done.progress).toBe(100);

    const { db } = server.app.cairn;
    const components = await db.selectFrom('run_components').selectAll().where('run_id', '=', done.taskId).execute();
    const names = components.map((c) => `${c.name}@${c.version}`);
    expect(names).toEqual(expect.arrayContaining(['golang.org/x/text@v0.3.6', 'Werkzeug@0.11', 'com.fasterxml.jackson.core:jackson-databind@2.9.1', 'Flask@2.0.0']));
    expect(components.some((c) => c.ecosystem === 'maven')).toBe(true);
    // `MarkupSafe>2.0.0` pins nothing: kept with version '' (未知版本, risk 64) and the range it declares.
    expect(components.find((c) => c.name === 'MarkupSafe')).toMatchObject({ version: '', version_constraint: '>2.0.0', risk_level: 64 });
    expect(components.find((c) => c.name === 'Flask')!.version_constraint).toBeNull();
    const findings = await db.selectFrom('run_vulnerabilities').selectAll().where('run_id', '=', done.taskId).execute();
    expect(findings.length).toBeGreaterThan(3);
    expect(findings.map((f) => f.cve)).toContain('CVE-2021-38561');
    const text = components.find((c) => c.name === 'golang.org/x/text')!;
    expect([1, 2, 4, 8, 16]).toContain(text.risk_level);
    const licences = await db.selectFrom('run_licenses').selectAll().where('run_id', '=', done.taskId).execute();
    expect(licences.some((l) => l.spdx_id === 'MIT' && l.file === 'LICENSE' && l.source === 'text')).toBe(true);
    const copyrights = await db.selectFrom('run_copyrights').selectAll().where('run_id', '=', done.taskId).execute();
    expect(copyrights.some((c) => c.holder?.includes('Example Corp'))).toBe(true);
    const run = await db.selectFrom('runs').selectAll().where('id', '=', done.taskId).executeTakeFirstOrThrow();
    expect(run.outbound_license).toBe('MIT');
    const summary = JSON.parse(run.summary);
    expect(summary.components).toBe(components.length);
    expect(summary.vulnerabilities).toBe(findings.length);
    const edges = await db.selectFrom('run_edges').selectAll().where('run_id', '=', done.taskId).execute();
    expect(edges.some((e) => e.parent_id === null)).toBe(true);
    const files = await db.selectFrom('run_files').selectAll().where('run_id', '=', done.taskId).execute();
    expect(files.some((f) => f.path === 'gomod/go.mod' && f.component_count > 0)).toBe(true);
    expect(files.some((f) => f.path === 'gomod' && f.is_dir)).toBeTruthy();
  }, 120_000);

  it('lists the task with its latest run and counts', async () => {
    const reply = await admin.request({ method: 'POST', url: '/api/project-task-view/list?page=1&size=10', body: { subjectId } });
    expect(reply.body.code).toBe(1);
    const row = reply.body.data.content.find((r: { projectId: number }) => r.projectId === projectId);
    expect(row).toMatchObject({ projectName: 'gomod-pip-pom', status: 2, getCodeType: 0, seq: 1 });
    expect(row.summary.components).toBeGreaterThan(10);
    expect(row.resultTaskId).toBe(row.taskId);
  });

  it('finds the project from the licence and the vulnerability knowledge bases (involved subjects)', async () => {
    const licence = await admin.request({ method: 'POST', url: '/api/license/MIT/involvedSubjectsList?page=1&size=15' });
    expect(licence.body.code, licence.body.message).toBe(1);
    expect(licence.body.data.content).toContainEqual(expect.objectContaining({ projectId, projectName: 'gomod-pip-pom', subjectId }));
    const vul = await admin.request({ method: 'POST', url: '/api/vulnerability/CVE-2021-38561/involvedSubjectsList?page=1&size=15' });
    expect(vul.body.code, vul.body.message).toBe(1);
    expect(vul.body.data.content).toContainEqual(expect.objectContaining({ projectId, component: 'golang.org/x/text', version: 'v0.3.6' }));
  });

  it('carries a vulnerability mark to the next run of the project (retention audit)', async () => {
    const { db } = server.app.cairn;
    const first = await db.selectFrom('runs').select('id').where('project_id', '=', projectId).executeTakeFirstOrThrow();
    const finding = await db.selectFrom('run_vulnerabilities').selectAll().where('run_id', '=', first.id).where('cve', '=', 'CVE-2021-38561').executeTakeFirstOrThrow();
    await db.updateTable('run_vulnerabilities').set({ mark: 2, mark_remark: '仅在测试代码中使用' }).where('id', '=', finding.id).execute();
    await db.updateTable('run_components').set({ mark: 'F', mark_remark: '误报' }).where('run_id', '=', first.id).where('name', '=', 'Flask').execute();

    const again = await admin.request({ method: 'PUT', url: '/api/analysis', body: { taskId: projectId } });
    expect(again.body.message).toBe('SUCCESS');
    const done = await waitForRun(admin, projectId);
    expect(done.status).toBe(2);
    expect(done.taskId).not.toBe(first.id);
    const carried = await db.selectFrom('run_vulnerabilities').selectAll().where('run_id', '=', done.taskId).where('cve', '=', 'CVE-2021-38561').executeTakeFirstOrThrow();
    expect(carried).toMatchObject({ mark: 2, mark_remark: '仅在测试代码中使用' });
    const flask = await db.selectFrom('run_components').selectAll().where('run_id', '=', done.taskId).where('name', '=', 'Flask').executeTakeFirstOrThrow();
    expect(flask.mark).toBe('F');
  }, 120_000);

  it('imports an SBOM project and an Excel list project', async () => {
    const sbom = await uploadFile(admin, path.join(CORPORA, 'trivy/sbom/fluentd-multiple-lockfiles-cyclonedx.json'));
    const s = await admin.request({ method: 'POST', url: '/api/analysis', body: { subjectId, projectName: 'fluentd-sbom', getCodeType: 30, uploadId: sbom } });
    expect(s.body.message).toBe('SUCCESS');
    const csv = path.join(work, 'components.csv');
    const { TEMPLATE_HEADERS } = await loadComponentLists();
    // 组件名称, 版本, 语言/生态, purl, 许可证, 备注
    writeFileSync(csv, [TEMPLATE_HEADERS.join(','), 'Werkzeug,0.11,Python,,BSD-3-Clause,', 'lodash,4.17.20,JavaScript,,MIT,'].join('\n'));
    const list = await uploadFile(admin, csv);
    const e = await admin.request({ method: 'POST', url: '/api/analysis', body: { subjectId, projectName: 'excel-list', getCodeType: 34, uploadId: list } });
    expect(e.body.message).toBe('SUCCESS');
    const sbomDone = await waitForRun(admin, s.body.data.projectId);
    expect(sbomDone.status, sbomDone.message).toBe(2);
    const excelDone = await waitForRun(admin, e.body.data.projectId);
    expect(excelDone.status, excelDone.message).toBe(2);
    const { db } = server.app.cairn;
    const listed = await db.selectFrom('run_components').select(['name', 'version']).where('run_id', '=', excelDone.taskId).execute();
    expect(listed.map((c) => c.name).sort()).toEqual(expect.arrayContaining(['Werkzeug']));
    const fluentd = await db.selectFrom('run_components').select('id').where('run_id', '=', sbomDone.taskId).execute();
    // The SBOM lists three packages; its lockfile components add a fourth.
    expect(fluentd.length).toBeGreaterThanOrEqual(3);
  }, 120_000);

  it('refuses an archive bomb with a clear message and leaves no results', async () => {
    const bomb = path.join(work, 'bomb.zip');
    execFileSync('sh', ['-c', `head -c 300000000 /dev/zero > ${path.join(work, 'zeros.bin')} && cd ${work} && zip -q bomb.zip zeros.bin && rm zeros.bin`]);
    const uploadId = await uploadFile(admin, bomb);
    // Read through before the launch is answered (issue 14 item 5): refused, nothing created.
    const launched = await admin.request({ method: 'POST', url: '/api/analysis', body: { subjectId, projectName: 'bomb', getCodeType: 0, uploadId } });
    expect(launched.body).toMatchObject({ code: 0, data: null, field: 'uploadId' });
    expect(launched.body.message).toMatch(/^上传的文件 bomb\.zip 无法分析：.*压缩比/);
    const { db } = server.app.cairn;
    expect(await db.selectFrom('projects').select('id').where('name', '=', 'bomb').execute()).toHaveLength(0);
  }, 60_000);

  it('refuses bad forms and says clearly when a source type cannot be fetched yet', async () => {
    const bad = await admin.request({ method: 'POST', url: '/api/analysis', body: { subjectId, projectName: ' 前后空格 ', getCodeType: 0 } });
    expect(bad.body.code).not.toBe(1);
    expect(bad.body.message).toMatch(/1-400/);
    const noUpload = await admin.request({ method: 'POST', url: '/api/analysis', body: { subjectId, projectName: 'no-upload', getCodeType: 0 } });
    expect(noUpload.body.message).toBe('请先上传要分析的文件');
    const dup = await admin.request({ method: 'POST', url: '/api/analysis', body: { subjectId, projectName: 'gomod-pip-pom', getCodeType: 0 } });
    expect(dup.body.message).toBe('该应用下已有同名项目');
    // A refused launch creates nothing (a Git source is not fetched yet); 仅保存项目 saves it.
    const gitForm = { subjectId, projectName: 'git-repo', getCodeType: 2, svnGitUri: 'https://example.com/a.git', svnGitPwd: 's3cret' };
    const refused = await admin.request({ method: 'POST', url: '/api/analysis', body: gitForm });
    expect(refused.body).toMatchObject({ code: 0, data: null });
    expect(refused.body.message).toMatch(/暂不支持自动获取代码/);
    const { db } = server.app.cairn;
    expect(await db.selectFrom('projects').select('id').where('name', '=', 'git-repo').executeTakeFirst()).toBeUndefined();
    const git = await admin.request({ method: 'POST', url: '/api/analysis', body: { ...gitForm, launch: false } });
    expect(git.body).toMatchObject({ code: 1, message: '保存成功！', data: { taskId: null } });
    expect(git.body.data.projectId).toBeGreaterThan(0);
    const stored = await db.selectFrom('projects').select('source').where('id', '=', git.body.data.projectId).executeTakeFirstOrThrow();
    expect(stored.source).not.toContain('s3cret');
    const form = await admin.request({ method: 'GET', url: `/api/project/${git.body.data.projectId}` });
    expect(form.body.data).toMatchObject({ projectName: 'git-repo', getCodeType: 2, source: { svnGitUri: 'https://example.com/a.git', hasSvnGitPwd: true }, upload: null });
    expect(JSON.stringify(form.body.data)).not.toContain('s3cret');
    const noUri = await admin.request({ method: 'POST', url: '/api/analysis', body: { subjectId, projectName: 'git-no-uri', getCodeType: 2 } });
    expect(noUri.body.message).toMatch(/svnGitUri/);
    const timing = await admin.request({ method: 'PATCH', url: '/api/project/batch/cron', body: { projectIds: [projectId], enableTiming: true, cronType: 3, time: '03:00' } });
    expect(timing.body.data.failNum).toBe(1);
    expect(timing.body.data.failures[0].message).toBe('本地上传类型的项目不能设置定时分析');
  });

  it('answers not found and permission denied', async () => {
    const missing = await admin.request({ method: 'PATCH', url: '/api/code/notcheck/999999' });
    expect(missing.body.message).toBe('项目不存在');
    const { client: outsider } = await signIn(server, 'outsider', 'Outsider@123');
    const denied = await outsider.request({ method: 'PATCH', url: `/api/code/notcheck/${projectId}` });
    // As the guard answers: the client shows 'Permission denied' as 用户无权查看当前项目.
    expect(denied.status).toBe(403);
    expect(denied.body.message).toBe('Permission denied');
    const list = await outsider.request({ method: 'POST', url: '/api/project-task-view/list', body: {} });
    expect(list.body.data.total).toBe(0);
    const queue = await outsider.request({ method: 'GET', url: '/api/task-queue/list' });
    expect(queue.status).toBe(403);
  });

  it('batch launches, pauses, resumes and stops through the queue', async () => {
    const batch = await admin.request({ method: 'POST', url: '/api/project/batch/recheck', body: { projectIds: [projectId, 999999] } });
    expect(batch.body.message).toBe('批量任务发起完成，成功：1个， 失败：1个');
    const progress = await admin.request({ method: 'GET', url: `/api/project-task-view/progress?projectIds=${projectId}` });
    const runId = progress.body.data[0].taskId as number;
    const paused = await admin.request({ method: 'POST', url: `/api/task-queue/state?checkId=${runId}&option=1` });
    expect(paused.body.code, paused.body.message).toBe(1);
    const queue = await admin.request({ method: 'GET', url: '/api/task-queue/list' });
    expect(queue.body.data.content.find((r: { checkId: number }) => r.checkId === runId).status).toBe(4);
    const resumed = await admin.request({ method: 'POST', url: `/api/task-queue/state?checkId=${runId}&option=2` });
    expect(resumed.body.code).toBe(1);
    const stopped = await admin.request({ method: 'PATCH', url: `/api/code/notcheck/${projectId}` });
    expect(stopped.body.code, stopped.body.message).toBe(1);
    const after = await admin.request({ method: 'GET', url: `/api/project-task-view/progress?projectIds=${projectId}` });
    expect(after.body.data[0]).toMatchObject({ status: 3, message: '任务已被用户停止' });
  });

  it('edits projects, answers the small task calls, and runs the batch settings', async () => {
    const { db } = server.app.cairn;
    // updateProject: rename and tags; validation (400 from the schema, a message from the rules)
    const renamed = await admin.request({ method: 'PATCH', url: `/api/project/${projectId}`, body: { projectName: 'gomod-pip-pom-2', projectTags: 'go,python', outboundLicense: 'Apache 2' } });
    expect(renamed.body.message).toBe('保存成功！');
    const form = await admin.request({ method: 'GET', url: `/api/project/${projectId}` });
    expect(form.body.data).toMatchObject({ projectName: 'gomod-pip-pom-2', projectTags: 'go,python', outboundLicense: 'Apache-2.0', upload: { fileName: 'app.zip' } });
    expect((await admin.request({ method: 'PATCH', url: `/api/project/${projectId}`, body: { outboundLicense: 'no such licence text at all' } })).body.message).toMatch(/无法识别项目许可证/);
    const badType = await admin.request({ method: 'PATCH', url: `/api/project/${projectId}`, body: { analysisModes: 5 } });
    expect(badType.status).toBe(400);
    // modes the engine has no analyzer for (code snippets, file signatures)
    // cannot be chosen: dropped from what is stored, refused when nothing else is asked
    expect((await admin.request({ method: 'PATCH', url: `/api/project/${projectId}`, body: { analysisModes: '1,3,4,5,6,7,9' } })).body.message).toBe('保存成功！');
    expect((await admin.request({ method: 'GET', url: `/api/project/${projectId}` })).body.data.analysisModes).toBe('1,4,7,9');
    expect((await admin.request({ method: 'PATCH', url: `/api/project/${projectId}`, body: { analysisModes: '1,4,7' } })).body.message).toBe('保存成功！');
    const onlyPending = await admin.request({ method: 'PATCH', url: `/api/project/${projectId}`, body: { analysisModes: '3,5' } });
    expect(onlyPending.body.message).toBe('请至少选择一种有效的分析方式');
    expect((await admin.request({ method: 'GET', url: '/api/project/999999' })).body.message).toBe('项目不存在');

    // projectList, availableNum, ifCanCheck, the binary variant of the task list
    const projects = await admin.request({ method: 'POST', url: '/api/project/list', body: { subjectId } });
    expect(projects.body.data.map((p: { projectName: string }) => p.projectName)).toContain('gomod-pip-pom-2');
    const used = await admin.request({ method: 'GET', url: '/api/project/available-num' });
    expect(used.body.data.used).toBeGreaterThanOrEqual(4);
    expect(used.body.data.limit).toBeNull();
    const can = await admin.request({ method: 'GET', url: '/api/project/ifCanCheck' });
    expect(can.body.data).toMatchObject({ canCheck: true, concurrency: 1 });
    const binary = await admin.request({ method: 'POST', url: '/api/binary/project-task-view/list', body: {} });
    expect(binary.body.data.total).toBe(0);

    // a Git project for the branch, timing and owner batches
    const git = await db.selectFrom('projects').select('id').where('name', '=', 'git-repo').executeTakeFirstOrThrow();
    const branch = await admin.request({ method: 'POST', url: '/api/project/batch/repo-branch', body: { projectIds: [git.id, projectId], gitBranchName: 'release/2.x' } });
    expect(branch.body.data).toMatchObject({ successNum: 1, failNum: 1 });
    expect(branch.body.data.failures[0].message).toBe('只有 Git 来源的项目可以修改分支');
    const cron = await admin.request({ method: 'PATCH', url: '/api/project/batch/cron', body: { projectIds: [git.id], enableTiming: true, cronType: 3, time: '03:00' } });
    expect(cron.body.data.successNum).toBe(1);
    const timed = await db.selectFrom('projects').select(['enable_timing', 'next_run_at', 'source']).where('id', '=', git.id).executeTakeFirstOrThrow();
    expect(Boolean(timed.enable_timing)).toBe(true);
    expect(new Date(timed.next_run_at!).getHours()).toBe(3);
    expect(JSON.parse(timed.source).gitBranchName).toBe('release/2.x');
    const owner = await server.addUser('owner2', 'Owner2@123');
    const moved = await admin.request({ method: 'POST', url: '/api/project/batch/update/user', body: { projectIds: [git.id], userId: owner } });
    expect(moved.body.data.successNum).toBe(1);
    expect((await admin.request({ method: 'POST', url: '/api/project/batch/update/user', body: { projectIds: [git.id], userId: 999999 } })).body.message).toBe('用户不存在');
    const ftp = await admin.request({ method: 'POST', url: '/api/project/batch/ftp/check', body: { projectIds: [git.id] } });
    expect(ftp.body.code).not.toBe(1);
    expect(ftp.body.message).toMatch(/FTP/);
    expect((await admin.request({ method: 'POST', url: '/api/subject/ftp/list/dir', body: { ftpIp: '10.0.0.1' } })).body.message).toMatch(/FTP/);

    // batch launch with new settings, then the queue's move-to-front and remove
    const setup = await admin.request({ method: 'POST', url: '/api/project/batch/recheck/setup', body: { projectIds: [projectId, git.id], analysisModes: '1', retentionAudit: true } });
    expect(setup.body.message).toBe('批量任务发起完成，成功：1个， 失败：1个');
    expect(setup.body.data.failures[0].message).toMatch(/暂不支持自动获取代码/);
    const queued = await admin.request({ method: 'GET', url: `/api/project-task-view/progress?projectIds=${projectId}` });
    const runId = queued.body.data[0].taskId as number;
    await admin.request({ method: 'POST', url: `/api/task-queue/state?checkId=${runId}&option=1` });
    expect((await admin.request({ method: 'POST', url: `/api/task-queue/top?checkId=${runId}` })).body.message).toBe('只有排队中的任务可以移到队首');
    expect((await admin.request({ method: 'DELETE', url: `/api/task-queue?checkId=${runId}` })).body.message).toBe('删除成功！');
    expect((await admin.request({ method: 'DELETE', url: '/api/task-queue?checkId=999999' })).body.message).toBe('任务不存在');
    const check = await admin.request({ method: 'POST', url: '/api/project/batch/check', body: { projectIds: [projectId] } });
    expect(check.body.message).toBe('批量任务发起完成，成功：1个， 失败：0个');
    await waitForRun(admin, projectId);
  }, 120_000);

  it('imports projects in a batch (checkAndCreateProject)', async () => {
    const sbom = await uploadFile(admin, path.join(CORPORA, 'trivy/sbom/license-cyclonedx.json'));
    const reply = await admin.request({
      method: 'POST',
      url: '/api/project/batch/checkAndCreateProject',
      body: { subjectId, projects: [
        { projectName: 'imported-sbom', getCodeType: 30, uploadId: sbom },
        { projectName: 'imported-missing', getCodeType: 0 },
        { projectName: 'imported-git', getCodeType: 2, svnGitUri: 'https://example.com/x.git', launch: false },
      ] },
    });
    expect(reply.body.message).toBe('批量导入项目完成，成功：2个， 失败：1个');
    expect(reply.body.data.failures).toEqual([expect.objectContaining({ projectName: 'imported-missing', message: '请先上传要分析的文件' })]);
    const imported = await admin.request({ method: 'POST', url: '/api/project-task-view/list', body: { subjectId, keyword: 'imported' } });
    expect(imported.body.data.total).toBe(2);
    const { db } = server.app.cairn;
    const row = await db.selectFrom('projects').select('id').where('name', '=', 'imported-sbom').executeTakeFirstOrThrow();
    expect((await waitForRun(admin, row.id)).status).toBe(2);
    const outsider = server.client();
    await outsider.login('outsider', 'Outsider@123');
    const denied = await outsider.request({ method: 'POST', url: '/api/project/batch/checkAndCreateProject', body: { subjectId, projects: [{ projectName: 'x', getCodeType: 2, svnGitUri: 'https://e.com/x.git' }] } });
    // Outside the caller's data scope: the subject is refused as if it did not exist, before any row.
    expect(denied.body).toEqual({ code: 0, message: '应用不存在或无权访问', data: null, field: 'subjectId' });
  }, 120_000);

  it('deletes projects with their results', async () => {
    const { db } = server.app.cairn;
    const reply = await admin.request({ method: 'DELETE', url: `/api/project-task-view/projects?projectIds=${projectId}` });
    expect(reply.body.message).toBe('删除成功！');
    const left = await db.selectFrom('runs').select('id').where('project_id', '=', projectId).execute();
    expect(left).toHaveLength(0);
  });
});

afterAll(() => rmSync(work, { recursive: true, force: true }));
