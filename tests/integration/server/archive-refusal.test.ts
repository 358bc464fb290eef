// Bad archives are refused before the task starts (issue 14, item 5): a launch from a text file
// named .zip, a truncated zip, a zip with a bad CRC-32 or an empty zip answers a Chinese refusal on
// the upload field and creates nothing (no project or run), the same on a re-launch, a batch launch
// and a batch import row; a good zip with no manifest is launched and ends 分析成功 with the warning
// 未识别到可分析的组件清单 and the list of what Cairn reads. SQLite and PostgreSQL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TASK_STATUS } from '../../../contract/enums.ts';
import { writeBadArchives, type BadArchives } from '../../support/bad-archives.ts';
import { databases, signIn, useServer, type TestClient } from './harness.ts';
import { uploadFile, waitForRun } from './sample-app.ts';

/** Letters that read as an English word: a decoder's message that got through. */
const ENGLISH = /\b(?!CRC\b)[A-Za-z]{4,}\b/;

describe.each(databases)('archives refused at launch on %s', (database) => {
  const server = useServer(database, { scanConcurrency: 1 });
  const work = mkdtempSync(path.join(tmpdir(), 'cairn-bad-archives-'));
  let files: BadArchives;
  let user: TestClient;
  let subjectId: number;
  const db = () => server.app.cairn.db;
  const count = async (table: 'projects' | 'runs') => Number((await db().selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const counts = async () => ({ projects: await count('projects'), runs: await count('runs') });

  beforeAll(async () => {
    files = await writeBadArchives(work);
    ({ client: user } = await signIn(server, 'archiver', 'Archive@1234'));
    subjectId = (await user.request({ method: 'POST', url: '/api/subject/create', body: { name: 'archive-app' } })).body.data.id;
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  const launch = async (file: string, projectName: string) => {
    const uploadId = await uploadFile(user, file);
    return { uploadId, reply: await user.request({ method: 'POST', url: '/api/analysis', body: { subjectId, projectName, getCodeType: 0, uploadId } }) };
  };

  it.each([
    ['fake', 'fake.zip', /^上传的文件 fake\.zip 不是可读取的压缩包/],
    ['truncated', 'truncated.zip', /^上传的文件 truncated\.zip 无法分析：压缩包已损坏：/],
    ['badCrc', 'bad-crc.zip', /^上传的文件 bad-crc\.zip 无法分析：压缩包已损坏：条目 src\/main\.c 的数据校验（CRC-32）失败/],
    ['empty', 'empty.zip', /^上传的文件 empty\.zip 无法分析：压缩包 empty\.zip 中没有任何文件/],
  ] as const)('refuses the %s zip in Chinese and creates nothing', async (key, name, message) => {
    const before = await counts();
    const { reply } = await launch(files[key], `refused-${key}`);
    expect(reply.body).toMatchObject({ code: 0, data: null, field: 'uploadId' });
    expect(reply.body.message).toMatch(message);
    // File and entry names aside (fake.zip, src/main.c), nothing reads as English.
    expect(reply.body.message.replace(/[\w./-]+\.\w+/g, '')).not.toMatch(ENGLISH);
    expect(await counts()).toEqual(before);
    expect(name).toBe(path.basename(files[key]));
  });

  it('names an SBOM uploaded as a source archive instead of calling it no archive', async () => {
    const before = await counts();
    const { reply } = await launch(path.resolve(import.meta.dirname, '../../fixtures/public/sbom/spdx3/example11-sbom.spdx.json'), 'sbom-as-source');
    expect(reply.body).toMatchObject({ code: 0, data: null, field: 'uploadId' });
    expect(reply.body.message).toBe('上传的文件 example11-sbom.spdx.json 是SPDX 3.0 JSON-LD 格式的 SBOM，不是压缩包：请选择「SBOM 文件」来源类型分析它');
    expect(await counts()).toEqual(before);
  });

  it('refuses a re-launch onto a bad upload and a batch import row, keeping everything as it was', async () => {
    const good = await uploadFile(user, files.noManifest);
    const saved = await user.request({ method: 'POST', url: '/api/analysis', body: { subjectId, projectName: 'relaunch-me', getCodeType: 0, uploadId: good, launch: false } });
    expect(saved.body.code, saved.body.message).toBe(1);
    const projectId = saved.body.data.projectId as number;
    const before = await counts();
    const bad = await uploadFile(user, files.truncated);
    const relaunch = await user.request({ method: 'PUT', url: '/api/analysis', body: { taskId: projectId, uploadId: bad } });
    expect(relaunch.body).toMatchObject({ code: 0, field: 'uploadId' });
    expect(relaunch.body.message).toMatch(/压缩包已损坏/);
    const project = await db().selectFrom('projects').selectAll().where('id', '=', projectId).executeTakeFirstOrThrow();
    expect(project.upload_id).toBe(good);
    expect(await counts()).toEqual(before);

    const empty = await uploadFile(user, files.empty);
    const imported = await user.request({ method: 'POST', url: '/api/project/batch/checkAndCreateProject', body: { subjectId, projects: [
      { projectName: 'import-empty', getCodeType: 0, uploadId: empty },
    ] } });
    expect(imported.body.data).toMatchObject({ successNum: 0, failNum: 1 });
    expect(imported.body.data.failures[0].message).toMatch(/empty\.zip 中没有任何文件/);
    expect(await counts()).toEqual(before);

    // Saved without launching (仅保存项目), then launched in a batch: refused per project, no run.
    const fake = await uploadFile(user, files.fake);
    const kept = await user.request({ method: 'POST', url: '/api/analysis', body: { subjectId, projectName: 'saved-fake', getCodeType: 0, uploadId: fake, launch: false } });
    expect(kept.body.code, kept.body.message).toBe(1);
    const batch = await user.request({ method: 'POST', url: '/api/project/batch/check', body: { projectIds: [kept.body.data.projectId] } });
    expect(batch.body.data).toMatchObject({ successNum: 0, failNum: 1 });
    expect(batch.body.data.failures[0].message).toMatch(/^上传的文件 fake\.zip 不是可读取的压缩包/);
    expect(await count('runs')).toBe(before.runs);
  });

  it('analyses a zip with no manifest to 分析成功 with the warning and what Cairn reads', async () => {
    const { reply } = await launch(files.noManifest, 'no-manifest');
    expect(reply.body.code, reply.body.message).toBe(1);
    const done = await waitForRun(user, reply.body.data.projectId);
    expect(done.status, done.message).toBe(TASK_STATUS.SUCCEEDED);
    expect(done.message).toBe('分析完成，未识别到可分析的组件清单');
    // Shown where the task's other problems are: the overview's list.
    const overview = await user.request({ method: 'GET', url: `/api/project-task-view/info/${reply.body.data.projectId}/0` });
    expect(overview.body.code, overview.body.message).toBe(1);
    const problems = overview.body.data.problems as Array<{ file: string; message: string }>;
    expect(problems[0]!.file).toBe('no-manifest.zip');
    expect(problems[0]!.message).toMatch(/^未识别到可分析的组件清单：Cairn 读取以下清单、锁文件与 SBOM：/);
    for (const read of ['package-lock.json', 'pom.xml', 'go.mod', 'requirements.txt']) expect(problems[0]!.message).toContain(read);
  }, 90_000);
});
