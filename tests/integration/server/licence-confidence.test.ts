// Confidence the user can read (issue 15, item 7), on SQLite and PostgreSQL: each place a licence
// was found carries its kind, its score (0–100) and the lines that decided it; a modified licence
// text names the standard licence it is nearest to; the licence list filters by kind and minimum
// score (package metadata and SPDX tags count as 100), its view counts follow the filters, and bad
// filters are refused; the licence report takes the same filters and lists each finding. OSADL's
// "Check dependency" is its own verdict, 需核查依赖方式 ('check'), in the conflict list and the reports.
import { beforeAll, describe, expect, it } from 'vitest';
import { databases, signIn, useServer, type TestClient } from './harness.ts';
import { seedRun, type SeededRun } from './fixtures/seed-run.ts';
import { buildReportModel } from '../../../server/reports/build-model.ts';

interface Place { file: string; startLine: number | null; endLine: number | null; source: string; score: number; evidence: string[]; nearest: string | null }
interface Row { spdxId: string; sources: string[]; files: Place[]; fileCount: number; componentCount: number; maxScore: number; nearest: string | null }

const MODIFIED = 'LicenseRef-Cairn-modified-MIT';

describe.each(databases)('licence confidence on $name', (database) => {
  let member: TestClient;
  let seeded: SeededRun;
  const server = useServer(database);

  beforeAll(async () => {
    const signed = await signIn(server, 'wangfang', 'Wang@12345');
    member = signed.client;
    seeded = await seedRun(server.app.cairn.db, { ownerId: signed.id });
    // The seed's rows (declared MIT, Apache-2.0, BSD-3-Clause, GPL-3.0-only; Apache-2.0 text 0.98,
    // GPL-3.0-only header 0.91) plus what an analysis now keeps: evidence lines, a tag, a weak
    // reference, a modified MIT text, and a test fixture's text (the other view).
    const found = { run_id: seeded.runId, component_id: null, scope: 'project', nearest: null };
    await server.app.cairn.db.insertInto('run_licenses').values([
      { ...found, file: 'src/main.js', spdx_id: 'MIT', source: 'tag', score: 1, start_line: 1, end_line: 1, evidence: JSON.stringify(['// SPDX-License-Identifier: MIT']) },
      { ...found, file: 'README.md', spdx_id: 'BSD-3-Clause', source: 'reference', score: 0.5, start_line: 40, end_line: 40, evidence: JSON.stringify(['Released under a BSD license.']) },
      {
        ...found, file: 'vendor/acme/LICENSE', spdx_id: MODIFIED, source: 'text', score: 0.86, start_line: 1, end_line: 21, nearest: 'MIT',
        evidence: JSON.stringify(['Permission is hereby granted, free of charge, to any person obtaining a copy', 'The Software shall be used for Good, not Evil.']),
      },
      { ...found, file: 'test/fixtures/gpl.txt', spdx_id: 'GPL-2.0-only', source: 'text', score: 0.99, start_line: 1, end_line: 339, scope: 'test', evidence: JSON.stringify(['GNU GENERAL PUBLIC LICENSE', 'Version 2, June 1991']) },
    ]).execute();
  });

  const list = async (query = '') => {
    const r = await member.request({ method: 'GET', url: `/api/license/list/${seeded.projectId}?size=50${query}` });
    expect(r.body.code, r.body.message).toBe(1);
    return r.body.data as { content: Row[]; total: number; views: { project: number; excluded: number } };
  };
  const ids = (page: { content: Row[] }) => page.content.map((r) => r.spdxId).sort();

  it('gives each place its kind, score, evidence lines and nearest id', async () => {
    const page = await list();
    expect(ids(page)).toEqual(['Apache-2.0', 'BSD-3-Clause', 'GPL-3.0-only', MODIFIED, 'MIT']);
    const apache = page.content.find((r) => r.spdxId === 'Apache-2.0')!;
    // Declared by components: 100 (the manifest states the id); the LICENSE text: its similarity.
    expect(apache.files).toContainEqual({ file: 'LICENSE', startLine: 1, endLine: 201, source: 'text', score: 98, evidence: [], nearest: null });
    expect(apache.files).toContainEqual(expect.objectContaining({ file: 'server/pom.xml', source: 'declared', score: 100, evidence: [] }));
    expect(apache.maxScore).toBe(100);
    const mit = page.content.find((r) => r.spdxId === 'MIT')!;
    expect(mit.files).toContainEqual({ file: 'src/main.js', startLine: 1, endLine: 1, source: 'tag', score: 100, evidence: ['// SPDX-License-Identifier: MIT'], nearest: null });
    const bsd = page.content.find((r) => r.spdxId === 'BSD-3-Clause')!;
    expect(bsd.files).toContainEqual(expect.objectContaining({ file: 'README.md', source: 'reference', score: 50, evidence: ['Released under a BSD license.'] }));
    const modified = page.content.find((r) => r.spdxId === MODIFIED)!;
    expect(modified).toMatchObject({ nearest: 'MIT', maxScore: 86, sources: ['text'] });
    expect(modified.files).toEqual([{
      file: 'vendor/acme/LICENSE', startLine: 1, endLine: 21, source: 'text', score: 86, nearest: 'MIT',
      evidence: ['Permission is hereby granted, free of charge, to any person obtaining a copy', 'The Software shall be used for Good, not Evil.'],
    }]);
    expect(page.content.find((r) => r.spdxId === 'GPL-3.0-only')).toMatchObject({ nearest: null, maxScore: 100 });
  });

  it('filters by kind, one or several', async () => {
    const texts = await list('&kinds=text');
    expect(ids(texts)).toEqual(['Apache-2.0', MODIFIED]);
    // Only the places found that way, and no component (components declare).
    const apache = texts.content.find((r) => r.spdxId === 'Apache-2.0')!;
    expect(apache).toMatchObject({ sources: ['text'], fileCount: 1, componentCount: 0, maxScore: 98 });
    expect(apache.files.map((f) => f.file)).toEqual(['LICENSE']);
    expect(texts.views).toEqual({ project: 2, excluded: 1 });

    const some = await list('&kinds=header,tag');
    expect(ids(some)).toEqual(['GPL-3.0-only', 'MIT']);
    expect(some.content.find((r) => r.spdxId === 'MIT')!.files.map((f) => f.source)).toEqual(['tag']);
    expect(ids(await list('&kinds=reference'))).toEqual(['BSD-3-Clause']);
    expect(ids(await list('&kinds=declared'))).toEqual(['Apache-2.0', 'BSD-3-Clause', 'GPL-3.0-only', 'MIT']);
    // All five is no filter at all.
    expect(ids(await list('&kinds=declared,text,header,tag,reference'))).toEqual(ids(await list()));
    // The excluded view filters the same way.
    expect(ids(await list('&view=excluded&kinds=text'))).toEqual(['GPL-2.0-only']);
    expect((await list('&view=excluded&kinds=header')).total).toBe(0);
  });

  it('filters by minimum score, declared and tags counting as 100', async () => {
    const sure = await list('&minScore=90');
    expect(ids(sure)).toEqual(['Apache-2.0', 'BSD-3-Clause', 'GPL-3.0-only', 'MIT']);
    // BSD-3-Clause stays by its declaration; its weak README reference is left out.
    expect(sure.content.find((r) => r.spdxId === 'BSD-3-Clause')!.files.map((f) => f.source)).toEqual(['declared']);
    // The boundary: a score shown as N passes minScore=N (0.98 → 98; PostgreSQL keeps `real`).
    expect(ids(await list('&kinds=text&minScore=98'))).toEqual(['Apache-2.0']);
    expect((await list('&kinds=text&minScore=99')).total).toBe(0);
    expect(ids(await list('&kinds=header&minScore=91'))).toEqual(['GPL-3.0-only']);
    expect((await list('&kinds=header&minScore=92')).total).toBe(0);
    expect(ids(await list('&kinds=reference,text&minScore=50'))).toEqual(['Apache-2.0', 'BSD-3-Clause', MODIFIED]);
    expect(ids(await list('&kinds=reference,text&minScore=51'))).toEqual(['Apache-2.0', MODIFIED]);
    const all = await list('&minScore=100');
    expect(ids(all)).toEqual(['Apache-2.0', 'BSD-3-Clause', 'GPL-3.0-only', 'MIT']);
    expect(all.content.flatMap((r) => r.files.map((f) => f.source)).every((s) => s === 'declared' || s === 'tag')).toBe(true);
    // minScore=0 filters nothing.
    expect((await list('&minScore=0')).total).toBe(5);
  });

  it('takes the same filters into the licence report, listing each finding with kind, score and evidence', async () => {
    const { db } = server.app.cairn;
    const asked = await member.request({ method: 'POST', url: '/api/report', body: { projectId: seeded.projectId, reportTypes: [2], scope: 'license', licenceKinds: ['text', 'reference'], minScore: 60 } });
    expect(asked.body.code, asked.body.message).toBe(1);
    const row = await db.selectFrom('reports').select(['params', 'kind']).where('id', '=', asked.body.data.reportIds[0]).executeTakeFirstOrThrow();
    expect(row.kind).toBe('license');
    expect(JSON.parse(row.params)).toEqual({ runIds: [seeded.runId], licenceFilter: { kinds: ['text', 'reference'], minScore: 60 } });
    // No filter asked, none kept (all five kinds and 0 are no filter).
    const plain = await member.request({ method: 'POST', url: '/api/report', body: { projectId: seeded.projectId, reportTypes: [2], scope: 'license', licenceKinds: ['declared', 'text', 'header', 'tag', 'reference'], minScore: 0 } });
    expect(JSON.parse((await db.selectFrom('reports').select('params').where('id', '=', plain.body.data.reportIds[0]).executeTakeFirstOrThrow()).params)).toEqual({ runIds: [seeded.runId] });
    for (const bad of [{ licenceKinds: [] }, { licenceKinds: ['full'] }, { licenceKinds: ['text', 'text'] }, { minScore: 101 }, { minScore: -5 }]) {
      const r = await member.request({ method: 'POST', url: '/api/report', body: { projectId: seeded.projectId, reportTypes: [2], scope: 'license', ...bad } });
      expect(r.status, JSON.stringify(bad)).toBe(400);
    }

    const request = { kind: 'license' as const, runIds: [seeded.runId], author: 'wangfang', tool: { name: 'Cairn', version: 'test' } };
    const filtered = await buildReportModel(db, { ...request, licenceFilter: { kinds: ['text', 'reference'], minScore: 60 } });
    expect(filtered.licenceFilter).toEqual({ kinds: ['text', 'reference'], minScore: 60 });
    expect(filtered.licenses.map((l) => l.spdxId).sort()).toEqual(['Apache-2.0', MODIFIED]);
    expect(filtered.licenceFindings).toEqual([
      { spdxId: 'Apache-2.0', file: 'LICENSE', startLine: 1, endLine: 201, kind: 'text', score: 98, evidence: [], nearest: null },
      {
        spdxId: MODIFIED, file: 'vendor/acme/LICENSE', startLine: 1, endLine: 21, kind: 'text', score: 86, nearest: 'MIT',
        evidence: ['Permission is hereby granted, free of charge, to any person obtaining a copy', 'The Software shall be used for Good, not Evil.'],
      },
    ]);
    // Unfiltered: every place of the project's own licences (not the test fixture's), each once.
    const whole = await buildReportModel(db, request);
    expect(whole.licenceFilter).toBeNull();
    expect(whole.licenceFindings.map((f) => f.file)).not.toContain('test/fixtures/gpl.txt');
    expect(whole.licenceFindings.filter((f) => f.spdxId === 'MIT').map((f) => [f.file, f.kind, f.score])).toEqual([
      ['web/package.json', 'declared', 100], ['web/package-lock.json', 'declared', 100], ['src/main.js', 'tag', 100],
    ]);
    expect(whole.licenceFindings.find((f) => f.file === 'README.md')).toMatchObject({ kind: 'reference', score: 50, evidence: ['Released under a BSD license.'] });
  });

  it('refuses bad filters', async () => {
    for (const query of ['kinds=full', 'kinds=text,', 'kinds=', 'minScore=101', 'minScore=-1', 'minScore=abc']) {
      const r = await member.request({ method: 'GET', url: `/api/license/list/${seeded.projectId}?${query}` });
      expect(r.status, query).toBe(400);
    }
  });

  it('gives OSADL\'s "Check dependency" its own verdict, counted, filtered and reported', async () => {
    const { db } = server.app.cairn;
    // An AGPL-3.0-only project with an LGPL-2.1-or-later component: OSADL says "Check dependency".
    await db.updateTable('runs').set({ outbound_license: 'AGPL-3.0-only' }).where('id', '=', seeded.runId).execute();
    await db.updateTable('run_components').set({ license_expression: 'LGPL-2.1-or-later' }).where('run_id', '=', seeded.runId).where('name', '=', 'left-pad').execute();
    const page = (await member.request({ method: 'GET', url: `/api/license/conflict/${seeded.projectId}?size=50` })).body.data;
    expect(page.totals.check).toBeGreaterThanOrEqual(1);
    expect(page.totals.compatible + page.totals.incompatible + page.totals.check + page.totals.unknown).toBe(page.componentCount);
    const checked = page.content.find((r: { name: string }) => r.name === 'left-pad');
    expect(checked).toMatchObject({ verdict: 'check', source: 'osadl' });
    expect(checked.explanation).toMatch(/[\u4e00-\u9fff]/);
    // Listed after the incompatible ones, before the compatible.
    const order = page.content.map((r: { verdict: string }) => r.verdict);
    expect(order.indexOf('check')).toBeGreaterThan(order.lastIndexOf('incompatible'));
    expect(order.indexOf('check')).toBeLessThan(order.indexOf('compatible'));
    const only = (await member.request({ method: 'GET', url: `/api/license/conflict/${seeded.projectId}?verdict=check` })).body.data;
    expect(only.total).toBe(page.totals.check);
    expect(only.content.every((r: { verdict: string }) => r.verdict === 'check')).toBe(true);
    expect(only.content.map((r: { name: string }) => r.name)).toContain('left-pad');

    const model = await buildReportModel(db, { kind: 'license', runIds: [seeded.runId], author: 'wangfang', tool: { name: 'Cairn', version: 'test' } });
    expect(model.conflicts.find((c) => c.componentName === 'left-pad')).toMatchObject({ verdict: 'check', source: 'osadl' });
  });
});
