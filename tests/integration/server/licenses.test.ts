// The licence knowledge base over HTTP: the catalogue seeded from the shipped SPDX data, filters
// and paging, details with the full text and attributes, administrators' level edits (kept when
// the catalogue is re-synced), permissions, and the licence-declaration check.
import { beforeAll, describe, expect, it } from 'vitest';
import { putSetting } from '../../../server/db/repositories/settings.ts';
import { syncLicenseCatalogue } from '../../../server/licenses/catalogue.ts';
import { adminClient, databases, signIn, useServer, type TestClient } from './harness.ts';

describe.each(databases)('licence knowledge base on $name', (database) => {
  let admin: TestClient;
  let user: TestClient;

  const server = useServer(database);
  beforeAll(async () => {
    admin = await adminClient(server);
    user = (await signIn(server, 'lena', 'Lena@12345')).client;
  });

  it('lists the SPDX licences, riskiest first, with filters and paging', async () => {
    const all = await user.request({ method: 'POST', url: '/api/license/list?page=1&size=15', body: {} });
    expect(all.body.code).toBe(1);
    expect(all.body.data.total).toBeGreaterThan(500);
    expect(all.body.data.content).toHaveLength(15);
    expect(all.body.data.content[0].level).toBe(1);

    const mit = await user.request({ method: 'POST', url: '/api/license/list', body: { keyword: 'mit' } });
    expect(mit.body.data.content.map((r: { spdxId: string }) => r.spdxId)).toContain('MIT');
    const row = mit.body.data.content.find((r: { spdxId: string }) => r.spdxId === 'MIT');
    expect(row).toMatchObject({ name: 'MIT License', level: 8, copyleft: 'none', osiApproved: true, deprecated: false, isException: false, levelEdited: false });

    const network = await user.request({ method: 'POST', url: '/api/license/list?size=100', body: { copyleft: ['network'] } });
    const ids = network.body.data.content.map((r: { spdxId: string }) => r.spdxId);
    expect(ids).toEqual(expect.arrayContaining(['AGPL-3.0-only', 'AGPL-3.0-or-later']));
    expect(network.body.data.content.every((r: { copyleft: string }) => r.copyleft === 'network')).toBe(true);

    // Deprecated ids (GPL-2.0) only when asked for.
    const gpl = await user.request({ method: 'POST', url: '/api/license/list?size=100', body: { keyword: 'GPL-2.0' } });
    expect(gpl.body.data.content.map((r: { spdxId: string }) => r.spdxId)).not.toContain('GPL-2.0');
    const withDeprecated = await user.request({ method: 'POST', url: '/api/license/list?size=100', body: { keyword: 'GPL-2.0', includeDeprecated: true } });
    expect(withDeprecated.body.data.content.map((r: { spdxId: string }) => r.spdxId)).toContain('GPL-2.0');
  });

  it('shows a licence by row id or SPDX id, with its text and attributes', async () => {
    const bySpdx = await user.request({ method: 'GET', url: '/api/license/Apache-2.0' });
    expect(bySpdx.body.code).toBe(1);
    expect(bySpdx.body.data).toMatchObject({ spdxId: 'Apache-2.0', level: 8, attributes: { copyleft: 'none', patentGrant: true, osiApproved: true } });
    expect(bySpdx.body.data.text).toContain('Apache License');
    const byId = await user.request({ method: 'GET', url: `/api/license/${bySpdx.body.data.id}` });
    expect(byId.body.data.spdxId).toBe('Apache-2.0');
    expect((await user.request({ method: 'GET', url: '/api/license/apache-2.0' })).body.data.spdxId).toBe('Apache-2.0');
    const missing = await user.request({ method: 'GET', url: '/api/license/No-Such-License' });
    expect(missing.body).toMatchObject({ code: 0, message: '许可证不存在' });
    const involved = await user.request({ method: 'POST', url: '/api/license/MIT/involvedSubjectsList?page=1&size=15' });
    expect(involved.body.data).toEqual({ content: [], total: 0 });
  });

  it('lets administrators change a level, keeps the edit across a catalogue re-sync, refuses others', async () => {
    const refused = await user.request({ method: 'POST', url: '/api/license/system/edit', body: { id: 'MIT', level: 2 } });
    expect(refused.status).toBe(403);
    const listRefused = await user.request({ method: 'GET', url: '/api/license/system/list' });
    expect(listRefused.status).toBe(403);

    const edited = await admin.request({ method: 'POST', url: '/api/license/system/edit', body: { id: 'MIT', level: 4 } });
    expect(edited.body).toMatchObject({ code: 1, message: '许可证等级已修改', data: { spdxId: 'MIT', level: 4, defaultLevel: 8, levelEdited: true } });
    const list = await admin.request({ method: 'GET', url: '/api/license/system/list?edited=true' });
    expect(list.body.data.content.map((r: { spdxId: string }) => r.spdxId)).toEqual(['MIT']);

    // A new version of the shipped data re-syncs the catalogue; the administrator's level stays.
    await putSetting(server.app.cairn.db, 'license_catalogue_stamp', 'older');
    expect(await syncLicenseCatalogue(server.app.cairn.db)).toMatchObject({ inserted: 0 });
    expect((await user.request({ method: 'GET', url: '/api/license/MIT' })).body.data).toMatchObject({ level: 4, levelEdited: true });
    expect(await syncLicenseCatalogue(server.app.cairn.db)).toBeNull();

    // Back to the default clears the mark.
    const reset = await admin.request({ method: 'POST', url: '/api/license/system/edit', body: { id: 'MIT', level: 8 } });
    expect(reset.body.data).toMatchObject({ level: 8, levelEdited: false });
    const bad = await admin.request({ method: 'POST', url: '/api/license/system/edit', body: { id: 'MIT', level: 3 } });
    expect(bad.body.code).not.toBe(1);
    expect((await admin.request({ method: 'POST', url: '/api/license/system/edit', body: { id: 'Nope-1.0', level: 2 } })).body.message).toBe('许可证不存在');
  });

  it('normalises licence declarations and reports their level', async () => {
    const reply = await user.request({
      method: 'POST', url: '/api/knowledgeBase/license/check',
      body: { licenses: ['Apache 2', 'GPLv2+', 'MIT OR GPL-3.0-only', 'LicenseRef-internal', 'completely unknown words'] },
    });
    expect(reply.body.code).toBe(1);
    const [apache, gpl, dual, ref, unknown] = reply.body.data;
    expect(apache).toMatchObject({ expression: 'Apache-2.0', known: ['Apache-2.0'], unknown: [], level: 8 });
    expect(gpl).toMatchObject({ expression: 'GPL-2.0-or-later', level: 2 });
    expect(dual.expression).toBe('MIT OR GPL-3.0-only');
    // OR lets the user choose: the freer MIT (8) rates it, not GPL-3.0 (2).
    expect(dual.level).toBe(8);
    expect(ref).toMatchObject({ unknown: ['LicenseRef-internal'], level: 16 });
    expect(unknown).toMatchObject({ expression: null, known: [], level: 16 });

    // The administrators' levels rate the expression, as they rate a run's components.
    await admin.request({ method: 'POST', url: '/api/license/system/edit', body: { id: 'MIT', level: 4 } });
    try {
      const edited = await user.request({ method: 'POST', url: '/api/knowledgeBase/license/check', body: { licenses: ['MIT OR GPL-3.0-only', 'MIT AND Apache-2.0'] } });
      expect(edited.body.data.map((r: { level: number }) => r.level)).toEqual([4, 4]);
    } finally {
      await admin.request({ method: 'POST', url: '/api/license/system/edit', body: { id: 'MIT', level: 8 } });
    }
  });
});
