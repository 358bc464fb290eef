// Licence results without noise (issue 14, item 6), through real analyses on SQLite and PostgreSQL:
// a project whose tree holds test fixtures with the GPL-3.0 and AGPL-3.0 texts (the licence data
// Cairn ships) and an MIT package.json gets MIT as its outbound licence, read from the manifest, and
// no conflict from the fixtures; the fixtures' licences are listed apart (view=excluded) and counted
// nowhere; the user's setting overrides the manifest; a project declaring no licence anywhere gets
// no verdicts listed as 未知, only the count of what would be judged.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { licenseText } from '../../../server/engine/index.ts';
import { adminClient, databases, startServer, type TestClient, type TestServer } from './harness.ts';
import { CORPORA, uploadFile, waitForRun } from './sample-app.ts';

const work = mkdtempSync(path.join(tmpdir(), 'cairn-licence-noise-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** trivy's npm project (jquery, react, redux… all MIT) under a root package.json, plus `extra` files; zipped. */
function npmApp(name: string, packageJson: Record<string, unknown>, extra: Record<string, string>): string {
  const src = path.join(work, name);
  cpSync(path.join(CORPORA, 'trivy/repo/npm'), src, { recursive: true });
  writeFileSync(path.join(src, 'package.json'), JSON.stringify({ name, version: '1.0.0', dependencies: { jquery: '^3.3.9', promise: '^8.0.3', react: '^16.8.6', redux: '^4.0.1' }, ...packageJson }, null, 2));
  for (const [file, text] of Object.entries(extra)) {
    mkdirSync(path.dirname(path.join(src, file)), { recursive: true });
    writeFileSync(path.join(src, file), text);
  }
  const zip = path.join(work, `${name}.zip`);
  execFileSync('zip', ['-qr', zip, '.'], { cwd: src });
  return zip;
}

const FIXTURES = {
  'test/fixtures/licenses/gpl-3.0.txt': licenseText('GPL-3.0-only')!,
  'test/fixtures/licenses/agpl-3.0.txt': licenseText('AGPL-3.0-only')!,
  'src/index.js': '// SPDX-License-Identifier: MIT\nmodule.exports = require("jquery");\n',
};

describe.each(databases)('licence results without noise on $name', (database) => {
  let server: TestServer;
  let admin: TestClient;
  let subjectId: number;
  let projectId: number;

  beforeAll(async () => {
    server = await startServer(database, { scanConcurrency: 1 });
    admin = await adminClient(server);
    const created = await admin.request({ method: 'POST', url: '/api/subject/create', body: { name: '许可证降噪', description: '', importance: 3 } });
    expect(created.body.code, created.body.message).toBe(1);
    subjectId = created.body.data.id;
  }, 180_000);

  afterAll(async () => {
    await server?.close();
  });

  const launch = async (projectName: string, zip: string) => {
    const uploadId = await uploadFile(admin, zip);
    const launched = await admin.request({ method: 'POST', url: '/api/analysis', body: { subjectId, projectName, getCodeType: 0, uploadId, analysisModes: '1,4,7' } });
    expect(launched.body.code, launched.body.message).toBe(1);
    const id = launched.body.data.projectId as number;
    const done = await waitForRun(admin, id);
    expect(done.status, done.message).toBe(2);
    return { id, taskId: done.taskId as number };
  };

  it('reads MIT from package.json and draws no conflict from GPL/AGPL fixtures', async () => {
    const run = await launch('fixtures-app', npmApp('fixtures-app', { license: 'MIT' }, FIXTURES));
    projectId = run.id;
    const { db } = server.app.cairn;

    const saved = await db.selectFrom('runs').selectAll().where('id', '=', run.taskId).executeTakeFirstOrThrow();
    expect(saved).toMatchObject({ outbound_license: 'MIT', outbound_source: 'manifest', outbound_file: 'package.json' });
    // The fixtures' texts were recognised and kept, as test material.
    const rows = await db.selectFrom('run_licenses').select(['spdx_id', 'file', 'scope', 'source']).where('run_id', '=', run.taskId).execute();
    expect(rows).toContainEqual({ spdx_id: 'GPL-3.0-only', file: 'test/fixtures/licenses/gpl-3.0.txt', scope: 'test', source: 'text' });
    expect(rows).toContainEqual({ spdx_id: 'AGPL-3.0-only', file: 'test/fixtures/licenses/agpl-3.0.txt', scope: 'test', source: 'text' });
    expect(rows.filter((r) => /GPL/.test(r.spdx_id)).every((r) => r.scope === 'test')).toBe(true);
    expect(rows).toContainEqual(expect.objectContaining({ spdx_id: 'MIT', file: 'src/index.js', scope: 'project' }));
    // Each finding keeps the lines that decided it (issue 15, item 7): the tag line; a text's opening lines.
    const kept = await db.selectFrom('run_licenses').select(['spdx_id', 'file', 'evidence', 'nearest']).where('run_id', '=', run.taskId).where('component_id', 'is', null).execute();
    expect(kept).toContainEqual({ spdx_id: 'MIT', file: 'src/index.js', evidence: JSON.stringify(['// SPDX-License-Identifier: MIT']), nearest: null });
    const gplText = kept.find((r) => r.file === 'test/fixtures/licenses/gpl-3.0.txt')!;
    expect(JSON.parse(gplText.evidence)[0]).toMatch(/GNU GENERAL PUBLIC LICENSE/);

    const conflicts = await admin.request({ method: 'GET', url: `/api/license/conflict/${projectId}?size=100` });
    expect(conflicts.body.code, conflicts.body.message).toBe(1);
    const page = conflicts.body.data;
    expect(page).toMatchObject({ outboundLicense: 'MIT', outboundSource: 'manifest', outboundFile: 'package.json' });
    expect(page.totals.incompatible).toBe(0);
    expect(page.componentCount).toBeGreaterThanOrEqual(5);
    expect(page.totals.compatible).toBeGreaterThanOrEqual(5);
    expect(JSON.stringify(page.content)).not.toMatch(/GPL/);

    // The licence tab: the project's licences without the fixtures; the fixtures' apart, with why.
    const own = (await admin.request({ method: 'GET', url: `/api/license/list/${projectId}?size=100` })).body.data;
    const ownIds = own.content.map((r: { spdxId: string }) => r.spdxId);
    expect(ownIds).toContain('MIT');
    expect(ownIds).not.toContain('GPL-3.0-only');
    expect(ownIds).not.toContain('AGPL-3.0-only');
    const tagged = own.content.find((r: { spdxId: string }) => r.spdxId === 'MIT').files.find((f: { file: string }) => f.file === 'src/index.js');
    expect(tagged).toEqual({ file: 'src/index.js', startLine: 1, endLine: 1, source: 'tag', score: 100, evidence: ['// SPDX-License-Identifier: MIT'], nearest: null });
    expect(own.views).toEqual({ project: own.total, excluded: expect.any(Number) });
    const apart = (await admin.request({ method: 'GET', url: `/api/license/list/${projectId}?size=100&view=excluded` })).body.data;
    expect(apart.views.excluded).toBe(apart.total);
    const gpl = apart.content.find((r: { spdxId: string }) => r.spdxId === 'GPL-3.0-only');
    expect(gpl).toMatchObject({ scopes: ['test'], fileCount: 1, files: [expect.objectContaining({ file: 'test/fixtures/licenses/gpl-3.0.txt', source: 'text' })] });
    expect(apart.content.map((r: { spdxId: string }) => r.spdxId)).toContain('AGPL-3.0-only');

    // Counted nowhere: the run's summary, the overview, the licence knowledge base's 涉及项目.
    const summary = JSON.parse(saved.summary);
    expect(summary.licenses).toBe(own.total);
    const agpl = await db.selectFrom('licenses').select('id').where('spdx_id', '=', 'AGPL-3.0-only').executeTakeFirstOrThrow();
    const involved = await admin.request({ method: 'POST', url: `/api/license/${agpl.id}/involvedSubjectsList`, body: {} });
    expect(involved.body.code, involved.body.message).toBe(1);
    expect(involved.body.data.total).toBe(0);
    const mit = await db.selectFrom('licenses').select('id').where('spdx_id', '=', 'MIT').executeTakeFirstOrThrow();
    const usesMit = await admin.request({ method: 'POST', url: `/api/license/${mit.id}/involvedSubjectsList`, body: {} });
    expect(usesMit.body.data.content).toContainEqual(expect.objectContaining({ projectName: 'fixtures-app' }));
  }, 180_000);

  it('lets the user\'s outbound licence override the manifest', async () => {
    const edit = await admin.request({ method: 'PATCH', url: `/api/project/${projectId}`, body: { outboundLicense: 'Apache 2' } });
    expect(edit.body.code, edit.body.message).toBe(1);
    const again = await admin.request({ method: 'PUT', url: '/api/analysis', body: { taskId: projectId } });
    expect(again.body.message).toBe('SUCCESS');
    const done = await waitForRun(admin, projectId);
    expect(done.status, done.message).toBe(2);
    const page = (await admin.request({ method: 'GET', url: `/api/license/conflict/${projectId}` })).body.data;
    expect(page).toMatchObject({ outboundLicense: 'Apache-2.0', outboundSource: 'project', outboundFile: null });
    expect(page.totals.incompatible).toBe(0);
  }, 180_000);

  it('reads the project inside the one folder an archive wraps it in, whatever that folder is called', async () => {
    const src = path.join(work, 'wrapped');
    mkdirSync(path.join(src, 'spec', 'test', 'fixtures'), { recursive: true });
    writeFileSync(path.join(src, 'spec', 'pyproject.toml'), '[project]\nname = "spec"\nversion = "1.0"\nlicense = "Apache-2.0"\ndependencies = ["flask==2.0.0"]\n');
    writeFileSync(path.join(src, 'spec', 'LICENSE'), licenseText('Apache-2.0')!);
    writeFileSync(path.join(src, 'spec', 'test', 'fixtures', 'COPYING'), licenseText('GPL-3.0-only')!);
    const zip = path.join(work, 'wrapped.zip');
    execFileSync('zip', ['-qr', zip, 'spec'], { cwd: src });
    const run = await launch('wrapped-app', zip);
    const { db } = server.app.cairn;
    const saved = await db.selectFrom('runs').select(['outbound_license', 'outbound_source', 'outbound_file']).where('id', '=', run.taskId).executeTakeFirstOrThrow();
    expect(saved).toEqual({ outbound_license: 'Apache-2.0', outbound_source: 'manifest', outbound_file: 'spec/pyproject.toml' });
    const rows = await db.selectFrom('run_licenses').select(['spdx_id', 'file', 'scope']).where('run_id', '=', run.taskId).where('component_id', 'is', null).execute();
    expect(rows).toContainEqual({ spdx_id: 'Apache-2.0', file: 'spec/LICENSE', scope: 'project' });
    expect(rows).toContainEqual({ spdx_id: 'GPL-3.0-only', file: 'spec/test/fixtures/COPYING', scope: 'test' });
  }, 180_000);

  it('lists no verdicts without an outbound licence, only what would be judged', async () => {
    const run = await launch('no-licence-app', npmApp('no-licence-app', { private: true }, { 'test/fixtures/COPYING': licenseText('GPL-3.0-only')! }));
    const page = (await admin.request({ method: 'GET', url: `/api/license/conflict/${run.id}` })).body.data;
    expect(page).toMatchObject({ outboundLicense: null, outboundSource: null, outboundFile: null, content: [], total: 0, totals: { compatible: 0, incompatible: 0, unknown: 0 } });
    expect(page.componentCount).toBeGreaterThanOrEqual(5);
    // A fixture's COPYING never stands in for the project's licence file.
    const saved = await server.app.cairn.db.selectFrom('runs').select(['outbound_license', 'outbound_source']).where('id', '=', run.taskId).executeTakeFirstOrThrow();
    expect(saved).toEqual({ outbound_license: null, outbound_source: null });
  }, 180_000);
});
