// Files on disk are private (issue 13, item 6), on SQLite and PostgreSQL, as another local user
// would find them: the platform runs under a permissive umask (000) on a data folder an earlier
// version left open (0777 folders, 0644 key), and every folder it has then (the data folder, its
// top level) is 0700 and every file it writes (the SQLite database with -wal and -shm, an upload's
// .part and the finished upload, the secret key, each report format) is 0600. The work folders of
// analyses and what archives unpack into them are checked on a real process in crash.test.ts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partPath, uploadPath } from '../../../server/uploads/store.ts';
import { adminClient, databases, startServer, type TestClient, type TestServer } from './harness.ts';
import { sampleAppZip, uploadFile, waitForRun } from './sample-app.ts';

const modeOf = (p: string) => fs.lstatSync(p).mode & 0o777;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-private-work-'));
let umask: number;
beforeAll(() => { umask = process.umask(0o000); });
afterAll(() => {
  process.umask(umask);
  fs.rmSync(work, { recursive: true, force: true });
});

describe.skipIf(process.platform === 'win32').each(databases)('private files on $name', (database) => {
  let server: TestServer;
  let admin: TestClient;
  let dataDir: string;
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-private-data-'));
  beforeAll(async () => {
    // What an earlier version left: everything open to everyone.
    dataDir = path.join(parent, 'data');
    for (const dir of ['', 'uploads', 'reports', 'work', 'kb-mirror']) fs.mkdirSync(path.join(dataDir, dir), { recursive: true, mode: 0o777 });
    fs.writeFileSync(path.join(dataDir, 'secret.key'), Buffer.alloc(32, 7), { mode: 0o644 });
    server = await startServer(database, { dataDir, scanConcurrency: 1 });
    admin = await adminClient(server);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    fs.rmSync(parent, { recursive: true, force: true });
  });

  it('tightens an upgraded data folder and its top level at start', () => {
    expect(modeOf(dataDir)).toBe(0o700);
    for (const dir of ['uploads', 'reports', 'work', 'kb-mirror']) expect(modeOf(path.join(dataDir, dir)), dir).toBe(0o700);
    expect(modeOf(path.join(dataDir, 'secret.key'))).toBe(0o600);
  });

  it.runIf(database.name === 'sqlite')('creates the SQLite database, its -wal and -shm owner-only', () => {
    const file = (server.database as { file: string }).file;
    for (const f of [file, `${file}-wal`, `${file}-shm`]) expect(modeOf(f), f).toBe(0o600);
    expect(modeOf(path.dirname(file))).toBe(0o700);
  });

  it('receives an upload into owner-only files, chunk by chunk', async () => {
    const bytes = Buffer.alloc(3000, 1);
    const created = await admin.request({ method: 'POST', url: '/api/upload', body: { fileName: 'a.zip', size: bytes.length } });
    const id = created.body.data.uploadId as string;
    const chunk = (offset: number, end: number) => admin.request({ method: 'PUT', url: `/api/upload/${id}?offset=${offset}`, body: bytes.subarray(offset, end), headers: { 'content-type': 'application/octet-stream' } });
    expect((await chunk(0, 1000)).body.code).toBe(1);
    expect(modeOf(partPath(dataDir, id))).toBe(0o600);
    expect((await chunk(1000, 3000)).body.code).toBe(1);
    expect(modeOf(uploadPath(dataDir, id))).toBe(0o600);
  });

  it('writes every report format owner-only in an owner-only folder', async () => {
    const subject = await admin.request({ method: 'POST', url: '/api/subject/create', body: { name: '私有文件' } });
    const uploadId = await uploadFile(admin, sampleAppZip(work));
    const launched = await admin.request({ method: 'POST', url: '/api/analysis', body: { subjectId: subject.body.data.id, projectName: 'app', getCodeType: 0, uploadId } });
    expect(launched.body.code, launched.body.message).toBe(1);
    const done = await waitForRun(admin, launched.body.data.projectId, 120_000);
    expect(done.status, done.message).toBe(2);
    // Word, Excel, PDF, SPDX, CycloneDX, SWID: streams, whole-file writes and exceljs alike.
    const submitted = await admin.request({ method: 'POST', url: '/api/report', body: { projectId: launched.body.data.projectId, reportTypes: [1, 2, 3, 4, 5, 6] } });
    expect(submitted.body.code, submitted.body.message).toBe(1);
    const ids = submitted.body.data.reportIds as number[];
    const { db } = server.app.cairn;
    const deadline = Date.now() + 180_000;
    let rows = await db.selectFrom('reports').select(['id', 'status', 'file', 'message']).where('id', 'in', ids).execute();
    while (!rows.every((r) => r.status === 2 || r.status === 4) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 300));
      rows = await db.selectFrom('reports').select(['id', 'status', 'file', 'message']).where('id', 'in', ids).execute();
    }
    expect(rows.map((r) => [r.status, r.message])).toEqual(ids.map(() => [2, '']));
    for (const row of rows) {
      expect(modeOf(path.join(dataDir, row.file!)), row.file!).toBe(0o600);
      expect(modeOf(path.dirname(path.join(dataDir, row.file!)))).toBe(0o700);
    }
    // The analysis's work folder went with its run.
    expect(fs.readdirSync(path.join(dataDir, 'work'))).toEqual([]);
  }, 300_000);
});
