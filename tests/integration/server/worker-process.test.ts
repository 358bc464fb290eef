// `npm run worker` on a team server: a platform that analyses nothing itself (concurrency 0) and a
// separate worker process on the same PostgreSQL and data folder, which claims the queued run,
// analyses it and stops cleanly on SIGTERM. PostgreSQL only: SQLite platforms analyse in-process.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { adminClient, databases, startServer } from './harness.ts';

const postgres = databases.filter((d) => d.name === 'postgres');
const work = mkdtempSync(path.join(tmpdir(), 'cairn-worker-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe.skipIf(postgres.length === 0).each(postgres)('analysis worker process on %s', (database) => {
  it('claims a queued run, analyses it and stops on SIGTERM', async () => {
    const server = await startServer(database, { scanConcurrency: 0 });
    try {
      const admin = await adminClient(server);
      const subject = await admin.request({ method: 'POST', url: '/api/subject/create', body: { name: '工作进程' } });
      const zip = path.join(work, 'npm.zip');
      execFileSync('zip', ['-qr', zip, '.'], { cwd: path.resolve('../shared/corpora/trivy/repo/npm') });
      const bytes = readFileSync(zip);
      const created = await admin.request({ method: 'POST', url: '/api/upload', body: { fileName: 'npm.zip', size: bytes.length } });
      const uploadId = created.body.data.uploadId as string;
      await admin.request({ method: 'PUT', url: `/api/upload/${uploadId}?offset=0`, body: bytes, headers: { 'content-type': 'application/octet-stream' } });
      const launched = await admin.request({ method: 'POST', url: '/api/analysis', body: { subjectId: subject.body.data.id, projectName: 'npm', getCodeType: 0, uploadId } });
      expect(launched.body.message).toBe('SUCCESS');
      const progress = async () => (await admin.request({ method: 'GET', url: `/api/project-task-view/progress?projectIds=${launched.body.data.projectId}` })).body.data[0];
      await new Promise((r) => setTimeout(r, 1500));
      expect((await progress()).status).toBe(0); // the platform itself claims nothing

      const url = (server.database as { url: string }).url;
      const worker = spawn(process.execPath, ['server/worker.ts'], {
        env: { ...process.env, DATABASE_URL: url, CAIRN_DATA_DIR: server.app.cairn.dataDir, LOG_LEVEL: 'warn', CAIRN_SCAN_CONCURRENCY: '1' },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      const exited = new Promise<number | null>((resolve) => worker.once('exit', resolve));
      try {
        const deadline = Date.now() + 60_000;
        let row = await progress();
        while (row.status !== 2 && row.status !== 3 && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 300));
          row = await progress();
        }
        expect(row.status, row.message).toBe(2);
        const run = await server.app.cairn.db.selectFrom('runs').select('worker').where('id', '=', row.taskId).executeTakeFirstOrThrow();
        expect(run.worker).toContain(`#${worker.pid}#`);
      } finally {
        worker.kill('SIGTERM');
      }
      expect(await exited).toBe(0);
    } finally {
      await server.close();
    }
  }, 120_000);
});
