// The analysed project the task and report suites start from: a platform with the corpus's Go and
// PyPI advisories and one subject; a zip of trivy's gomod, pip and pom test repositories with an
// MIT LICENSE, uploaded in one chunk; and the wait for its run.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { licenseText } from '../../../server/engine/index.ts';
import { importKnowledge } from '../../../server/kb/import.ts';
import { adminClient, startServer, type TestClient, type TestDatabase, type TestServer } from './harness.ts';

export const CORPORA = path.resolve('../shared/corpora');

/** A platform analysing one run at a time, the Go and PyPI advisories loaded, the administrator signed in, one subject. */
export async function startSampleServer(database: TestDatabase, subjectName: string): Promise<{ server: TestServer; admin: TestClient; subjectId: number }> {
  const server = await startServer(database, { scanConcurrency: 1 });
  const { db } = server.app.cairn;
  await importKnowledge(db, path.join(CORPORA, 'advisories/go'));
  await importKnowledge(db, path.join(CORPORA, 'advisories/pypi'));
  const admin = await adminClient(server);
  const created = await admin.request({ method: 'POST', url: '/api/subject/create', body: { name: subjectName, description: '', importance: 3 } });
  expect(created.body.code, created.body.message).toBe(1);
  return { server, admin, subjectId: created.body.data.id as number };
}

/** `<work>/app.zip`: gomod/ (go.mod, go.sum), pip/requirements.txt and pom/pom.xml, plus an MIT LICENSE. */
export function sampleAppZip(work: string): string {
  const zip = path.join(work, 'app.zip');
  if (existsSync(zip)) return zip;
  const src = path.join(work, 'src');
  execFileSync('mkdir', ['-p', src]);
  for (const name of ['gomod', 'pip', 'pom']) execFileSync('cp', ['-r', path.join(CORPORA, 'trivy/repo', name), src]);
  writeFileSync(path.join(src, 'LICENSE'), `Copyright (c) 2024 Example Corp\n\n${licenseText('MIT')!.replace(/^.*Copyright.*$/m, '')}`);
  execFileSync('zip', ['-qr', zip, '.'], { cwd: src });
  return zip;
}

/** Uploads a local file in one chunk; its upload id. */
export async function uploadFile(client: TestClient, file: string, fileName = path.basename(file)): Promise<string> {
  const bytes = readFileSync(file);
  const created = await client.request({ method: 'POST', url: '/api/upload', body: { fileName, size: bytes.length } });
  expect(created.body.code, created.body.message).toBe(1);
  const id = created.body.data.uploadId as string;
  const put = await client.request({ method: 'PUT', url: `/api/upload/${id}?offset=0`, body: bytes, headers: { 'content-type': 'application/octet-stream' } });
  expect(put.body.code, put.body.message).toBe(1);
  return id;
}

/** Polls the project's progress until its latest run succeeded or failed; that progress row. */
export async function waitForRun(client: TestClient, projectId: number, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const reply = await client.request({ method: 'GET', url: `/api/project-task-view/progress?projectIds=${projectId}` });
    const row = reply.body.data[0];
    if (row.status === 2 || row.status === 3) return row;
    if (Date.now() > deadline) throw new Error(`分析未在时限内完成：${JSON.stringify(row)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
