// The same limits on the platform (issue 13, item 2): a 1.7 KB bzip2 file that expands to 2 GiB,
// uploaded and read through in a worker thread before its launch is answered (issue 14, item 5),
// is refused with the engine's message, in bounded memory (measured in this process, which
// hosts the server and its thread), creating nothing; an upload with archives nested deeper than the limit succeeds and lists them
// in the run's problems.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, databases, startServer, type TestClient, type TestServer } from '../server/harness.ts';
import { uploadFile, waitForRun } from '../server/sample-app.ts';
import { bzip2Bomb, nestedZips } from './bomb-makers.ts';
import { measure } from './memory-probe.ts';

describe.each(databases)('bombs on the platform, %s', (database) => {
  let server: TestServer;
  let admin: TestClient;
  let subjectId: number;
  let work: string;

  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'cairn-bombs-platform-'));
    server = await startServer(database, { scanConcurrency: 1 });
    admin = await adminClient(server);
    const created = await admin.request({ method: 'POST', url: '/api/subject/create', body: { name: '压缩炸弹测试', description: '', importance: 3 } });
    expect(created.body.code, created.body.message).toBe(1);
    subjectId = created.body.data.id as number;
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  const analyse = async (file: string, projectName: string) => {
    const uploadId = await uploadFile(admin, file);
    const launched = await admin.request({ method: 'POST', url: '/api/analysis', body: { subjectId, projectName, getCodeType: 0, uploadId } });
    expect(launched.body.message).toBe('SUCCESS');
    return waitForRun(admin, launched.body.data.projectId as number, 60_000);
  };

  it('a bzip2 bomb is refused at launch with the engine message, in bounded memory', async () => {
    const bomb = path.join(work, 'bomb.bz2');
    await writeFile(bomb, await bzip2Bomb());
    // A first analysis warms up the analysis thread's code (it is started per run).
    const warm = path.join(work, 'warm.zip');
    await writeFile(warm, nestedZips(['warm.zip', 'inner.zip']));
    expect((await analyse(warm, 'warm-up')).status).toBe(2);

    // The upload is read through (in a worker thread) before the launch is answered (issue 14 item 5).
    const run = await measure(async () => {
      const uploadId = await uploadFile(admin, bomb);
      return admin.request({ method: 'POST', url: '/api/analysis', body: { subjectId, projectName: 'bomb', getCodeType: 0, uploadId } });
    });
    expect(run.outcome.ok).toBe(true);
    const refused = (run.outcome as { value: { body: { code: number; message: string; field?: string } } }).value.body;
    expect(refused).toMatchObject({ code: 0, field: 'uploadId' });
    expect(refused.message).toBe('上传的文件 bomb.bz2 无法分析：压缩包 bomb.bz2 的压缩比超过 200:1 上限，疑似压缩炸弹，已拒绝，请检查后重新上传');
    console.log(`platform, bzip2 bomb (${database.name}): ${run.ms.toFixed(0)} ms from upload to refused launch, +${run.rssMiB.toFixed(0)} MiB RSS`);
    // Upload, a fresh verification thread, the refusal.
    expect(run.rssMiB).toBeLessThan(300);
    const { db } = server.app.cairn;
    expect(await db.selectFrom('projects').select('id').where('name', '=', 'bomb').execute()).toHaveLength(0);
  }, 60_000);

  it('archives nested deeper than the limit are in the run problems', async () => {
    const file = path.join(work, 'deep.zip');
    await writeFile(file, nestedZips(['deep.zip', 'b.zip', 'c.zip', 'd.zip', 'e.zip']));
    const done = await analyse(file, 'deep');
    expect(done.status, done.message).toBe(2);
    const { db } = server.app.cairn;
    const row = await db.selectFrom('runs').select('problems').where('id', '=', done.taskId).executeTakeFirstOrThrow();
    // Zips of empty zips hold no manifest either: that warning comes first (issue 14 item 5).
    expect(JSON.parse(row.problems as string)).toEqual([
      { file: 'deep.zip', message: expect.stringMatching(/^未识别到可分析的组件清单：/) },
      { file: 'b.zip!/c.zip!/d.zip!/e.zip', message: '嵌套压缩包超过 3 层，未解压：deep.zip!/b.zip!/c.zip!/d.zip!/e.zip' },
    ]);
  }, 60_000);
});
