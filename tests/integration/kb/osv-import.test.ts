// Importing real OSV dumps (golang/vulndb, RustSec, PyPA) into the knowledge base: row contents,
// idempotent re-import, malformed files reported and skipped (in folders and in zips).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases } from '../server/harness.ts';
import { importKnowledge, knowledgeChanged, startImport } from '../../../server/kb/import.ts';
import { loadAdvisories } from '../../../server/db/repositories/knowledge-base.ts';
import { contentHash, hasZip, makeZip, openKb, tableCounts, type KbDatabase } from './helpers.ts';

const CORPUS = '../shared/corpora/advisories';
const FOLDERS = ['go', 'crates.io', 'pypi'];

const countFiles = (dir: string, pattern: RegExp): number =>
  fs.readdirSync(dir, { withFileTypes: true, recursive: true }).filter((e) => e.isFile() && pattern.test(e.name)).length;

describe.each(databases)('OSV 导入（$name）', (database) => {
  let kb: KbDatabase;
  beforeAll(async () => { kb = await openKb(database); });
  afterAll(async () => { await kb?.close(); });

  it('imports go, crates.io and pypi, and a second import changes nothing', { timeout: 300_000 }, async () => {
    let changes = 0;
    const unsubscribe = knowledgeChanged.subscribe(() => { changes++; });
    const first = [];
    for (const folder of FOLDERS) first.push(await importKnowledge(kb.db, path.join(CORPUS, folder)));
    const expected = FOLDERS.map((f) => countFiles(path.join(CORPUS, f), /\.(json|ya?ml)$/));
    expect(first.map((s) => s.files)).toEqual(expected);
    expect(first.map((s) => s.imported)).toEqual(expected);
    expect(first.every((s) => s.failed === 0 && s.errors.length === 0 && s.kind === 'osv')).toBe(true);
    expect(changes).toBe(3);

    const counts = await tableCounts(kb.db);
    expect(counts.advisories).toBe(expected.reduce((a, b) => a + b, 0));
    const hash = await contentHash(kb.db);

    const second = [];
    for (const folder of FOLDERS) second.push(await importKnowledge(kb.db, path.join(CORPUS, folder)));
    expect(second.map((s) => [s.imported, s.updated, s.unchanged, s.failed])).toEqual(expected.map((n) => [0, 0, n, 0]));
    expect(await tableCounts(kb.db)).toEqual(counts);
    expect(await contentHash(kb.db)).toBe(hash);
    expect(changes).toBe(3);
    unsubscribe();

    const records = await kb.db.selectFrom('kb_import_records').selectAll().orderBy('id').execute();
    expect(records).toHaveLength(6);
    for (const r of records) {
      expect(r.status).toBe(2);
      expect(r.progress).toBe(100);
      expect(r.finished_at).not.toBeNull();
      expect(JSON.parse(r.errors)).toEqual([]);
    }
    expect(records[0]!.message).toBe(`新增 ${expected[0]}，更新 0，未变 0，失败 0`);
    expect(records[3]!.message).toBe(`新增 0，更新 0，未变 ${expected[0]}，失败 0`);
  });

  it('stores the advisories the matcher needs', async () => {
    const row = await kb.db.selectFrom('kb_advisories').selectAll().where('advisory_id', '=', 'RUSTSEC-2023-0090').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ source: 'osv', origin: 'crates.io', level: 1, score: 9.9, cvss_version: '3.1', exploit: 2, cve: 'CVE-2023-26489', modified: '2025-05-02T08:23:27.000Z' });
    expect(row.vector).toBe('CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:C/C:H/I:H/A:H');
    expect(JSON.parse(row.document).id).toBe('RUSTSEC-2023-0090');

    const advisories = new Map((await loadAdvisories(kb.db)).map((a) => [a.id, a]));
    const go = advisories.get('GO-2024-3228')!;
    expect(go.aliases).toEqual(['GHSA-wcx9-ccpj-hx3c']);
    // Go's zero time stands for "unknown" in this dump.
    expect(go.published).toBeNull();
    expect(go.affected.map((p) => [p.ecosystem, p.name, p.fixed])).toEqual([
      ['golang', 'github.com/coder/coder', []],
      ['golang', 'github.com/coder/coder/v2', ['2.14.4', '2.15.3', '2.16.1']],
    ]);
    expect(go.affected[1]!.ranges[0]!.events[0]).toEqual({ introduced: '2.3.1' });
    const goRow = await kb.db.selectFrom('kb_advisories').select(['fix_commits', 'reference_links']).where('advisory_id', '=', 'GO-2024-3228').executeTakeFirstOrThrow();
    expect(JSON.parse(goRow.fix_commits)).toEqual(['https://github.com/coder/coder/commit/69c1d981e3131e50d52b01f6a360abadaad699e6']);

    const stdlib = advisories.get('GO-2021-0067')!;
    expect(stdlib.aliases).toEqual(['CVE-2021-27919']);
    expect(stdlib.affected[0]).toMatchObject({ ecosystem: 'golang', name: 'stdlib', fixed: ['1.16.1'] });

    expect(advisories.get('GO-2022-0617')!.withdrawn).toBe(true);
    expect(advisories.get('GO-2024-3228')!.withdrawn).toBe(false);

    const pysec = advisories.get('PYSEC-2018-104')!;
    expect(pysec.aliases.sort()).toEqual(['CVE-2017-2592', 'GHSA-xcp8-hh74-f6mc']);
    expect(pysec.affected).toHaveLength(1);
    expect(pysec.affected[0]).toMatchObject({ ecosystem: 'pypi', distribution: null, name: 'oslo-middleware', fixed: ['3.19.1', '3.8.1', '3.23.1'] });
    expect(pysec.affected[0]!.versions).toContain('3.10.0');
    expect(pysec.summary).toMatch(/^python-oslo-middleware before versions 3\.8\.1/);

    // GIT ranges give fix commits, never a fixed version.
    const git = advisories.get('PYSEC-2024-6')!;
    expect(git.affected[0]!.fixed).toEqual([]);
    const gitRow = await kb.db.selectFrom('kb_advisories').select(['fix_commits', 'cve']).where('advisory_id', '=', 'PYSEC-2024-6').executeTakeFirstOrThrow();
    expect(gitRow.cve).toBe('CVE-2024-22194');
    const commits = JSON.parse(gitRow.fix_commits) as string[];
    expect(commits).toContain('https://github.com/casework/CASE-Utilities-Python/commit/00864cd12de7c50d882dd1a74915d32e939c25f9');
    expect(commits.some((c) => c.startsWith('https://github.com/Cyber-Domain-Ontology/CDO-Utility-Local-UUID/commit/'))).toBe(true);

    // Package names are normalised as the matcher compares them (PEP 503 for PyPI).
    const names = await kb.db.selectFrom('kb_affected').select('name').where('ecosystem', '=', 'pypi').execute();
    expect(names.every((n) => n.name === n.name.toLowerCase() && !/[_.]/.test(n.name))).toBe(true);
  });

  it('re-imports a changed advisory as an update, and skips an older one', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-kb-'));
    try {
      const doc = JSON.parse(fs.readFileSync(path.join(CORPUS, 'crates.io/RUSTSEC-2023-0090.json'), 'utf8'));
      const file = path.join(dir, 'RUSTSEC-2023-0090.json');
      fs.writeFileSync(file, JSON.stringify({ ...doc, modified: '2025-06-01T00:00:00Z', aliases: ['CVE-2023-26489'], affected: [{ ...doc.affected[0], package: { ecosystem: 'crates.io', name: 'Wasmtime' } }] }));
      const newer = await importKnowledge(kb.db, file);
      expect([newer.imported, newer.updated, newer.unchanged]).toEqual([0, 1, 0]);
      const advisory = (await loadAdvisories(kb.db)).find((a) => a.id === 'RUSTSEC-2023-0090')!;
      expect(advisory.aliases).toEqual(['CVE-2023-26489']);
      expect(advisory.affected.map((p) => p.name)).toEqual(['wasmtime']);
      expect(advisory.modified).toBe('2025-06-01T00:00:00.000Z');

      fs.writeFileSync(file, JSON.stringify({ ...doc, modified: '2020-01-01T00:00:00Z', summary: 'old' }));
      const older = await importKnowledge(kb.db, file);
      expect([older.imported, older.updated, older.unchanged]).toEqual([0, 0, 1]);
      const row = await kb.db.selectFrom('kb_advisories').select(['summary', 'modified']).where('advisory_id', '=', 'RUSTSEC-2023-0090').executeTakeFirstOrThrow();
      expect(row).toEqual({ summary: 'Guest-controlled out-of-bounds read/write on x86\\_64', modified: '2025-06-01T00:00:00.000Z' });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.each(databases)('损坏的文件（$name）', (database) => {
  let kb: KbDatabase;
  let dir: string;
  beforeAll(async () => {
    kb = await openKb(database);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-kb-'));
    const src = path.join(dir, 'osv');
    fs.mkdirSync(path.join(src, 'nested'), { recursive: true });
    for (const name of ['RUSTSEC-2023-0090.json', 'RUSTSEC-2025-0156.json']) fs.copyFileSync(path.join(CORPUS, 'crates.io', name), path.join(src, name));
    fs.copyFileSync(path.join(CORPUS, 'pypi/oslo-middleware/PYSEC-2018-104.yaml'), path.join(src, 'nested/PYSEC-2018-104.yaml'));
    fs.writeFileSync(path.join(src, 'broken.json'), '{"id": "GHSA-xxxx", "affected": [');
    fs.writeFileSync(path.join(src, 'no-id.json'), JSON.stringify({ summary: 'no id', affected: [] }));
    fs.writeFileSync(path.join(src, 'nested/bad-affected.yaml'), 'id: PYSEC-0000-1\naffected: not-a-list\n');
    fs.writeFileSync(path.join(src, 'README.md'), 'not an advisory');
  });
  afterAll(async () => {
    await kb?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reports malformed files in a folder by name and imports the rest', async () => {
    const summary = await importKnowledge(kb.db, path.join(dir, 'osv'), { name: '损坏测试' });
    expect(summary).toMatchObject({ files: 6, imported: 3, updated: 0, unchanged: 0, failed: 3 });
    expect(summary.errors.map((e) => e.file).sort()).toEqual(['broken.json', 'nested/bad-affected.yaml', 'no-id.json']);
    expect(summary.errors.find((e) => e.file === 'no-id.json')!.message).toBe('不是 OSV 漏洞文档：缺少 id');
    expect(summary.errors.find((e) => e.file === 'broken.json')!.message).toMatch(/^不是有效的 JSON 文档/);
    expect(summary.errors.find((e) => e.file === 'nested/bad-affected.yaml')!.message).toBe('漏洞 PYSEC-0000-1 的 affected 应为数组');
    const record = await kb.db.selectFrom('kb_import_records').selectAll().where('id', '=', summary.recordId).executeTakeFirstOrThrow();
    expect(record).toMatchObject({ kind: 'osv', name: '损坏测试', status: 2, progress: 100, imported: 3, failed: 3 });
    expect(JSON.parse(record.errors)).toEqual(summary.errors);
  });

  it('reports malformed entries inside a zip and imports the rest', async (ctx) => {
    if (!hasZip()) ctx.skip();
    const zip = path.join(dir, 'all.zip');
    makeZip(zip, path.join(dir, 'osv'), ['.']);
    const summary = await importKnowledge(kb.db, zip);
    expect(summary).toMatchObject({ kind: 'osv', files: 6, imported: 0, unchanged: 3, failed: 3 });
    expect(summary.errors.map((e) => e.file.replace(/^\.\//, '')).sort()).toEqual(['broken.json', 'nested/bad-affected.yaml', 'no-id.json']);
    const record = await kb.db.selectFrom('kb_import_records').select(['status', 'total']).where('id', '=', summary.recordId).executeTakeFirstOrThrow();
    expect(record.status).toBe(2);
  });

  it('saves the rest of a batch when the database refuses one advisory', async () => {
    const folder = path.join(dir, 'too-long');
    fs.mkdirSync(folder);
    const advisory = (id: string, name: string) => JSON.stringify({ id, modified: '2024-01-01T00:00:00Z', affected: [{ package: { ecosystem: 'npm', name }, ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: '1.0.0' }] }] }] });
    fs.writeFileSync(path.join(folder, 'ok.json'), advisory('TEST-OK-1', 'fine'));
    fs.writeFileSync(path.join(folder, 'long.json'), advisory('TEST-LONG-1', 'x'.repeat(500)));
    const summary = await importKnowledge(kb.db, folder);
    if (database.name === 'postgres') {
      // kb_affected.name is varchar(400): PostgreSQL refuses, SQLite does not check lengths.
      expect(summary).toMatchObject({ imported: 1, failed: 1 });
      expect(summary.errors[0]!.file).toBe('long.json');
      expect(summary.errors[0]!.message).toMatch(/^漏洞 TEST-LONG-1 无法保存：/);
    } else {
      expect(summary).toMatchObject({ imported: 2, failed: 0 });
    }
    const ok = await kb.db.selectFrom('kb_advisories').select('advisory_id').where('advisory_id', '=', 'TEST-OK-1').executeTakeFirst();
    expect(ok).toBeDefined();
  });

  it('fails the record when nothing can be imported or the input is unreadable', async (ctx) => {
    const only = path.join(dir, 'only-broken');
    fs.mkdirSync(only);
    fs.writeFileSync(path.join(only, 'broken.json'), 'nope');
    const broken = await importKnowledge(kb.db, only);
    expect(broken.failed).toBe(1);
    const r1 = await kb.db.selectFrom('kb_import_records').select(['status', 'message']).where('id', '=', broken.recordId).executeTakeFirstOrThrow();
    expect(r1.status).toBe(3);
    expect(r1.message).toMatch(/^导入失败/);

    const missing = await importKnowledge(kb.db, path.join(dir, 'does-not-exist.zip'));
    const r2 = await kb.db.selectFrom('kb_import_records').select(['status', 'message', 'kind']).where('id', '=', missing.recordId).executeTakeFirstOrThrow();
    expect(r2).toMatchObject({ status: 3, kind: 'osv' });
    expect(r2.message).toContain('找不到导入文件或目录');

    const controller = new AbortController();
    controller.abort();
    const aborted = await importKnowledge(kb.db, path.join(dir, 'osv'), { signal: controller.signal });
    const r4 = await kb.db.selectFrom('kb_import_records').select(['status', 'message']).where('id', '=', aborted.recordId).executeTakeFirstOrThrow();
    expect(r4).toEqual({ status: 3, message: '导入失败：导入已取消' });

    if (!hasZip()) ctx.skip();
    const notZip = path.join(dir, 'fake.zip');
    fs.writeFileSync(notZip, 'this is not a zip');
    const started = await startImport(kb.db, notZip);
    const running = await kb.db.selectFrom('kb_import_records').select('id').where('id', '=', started.recordId).executeTakeFirst();
    expect(running).toBeDefined();
    const done = await started.done;
    const r3 = await kb.db.selectFrom('kb_import_records').select(['status', 'message']).where('id', '=', done.recordId).executeTakeFirstOrThrow();
    expect(r3.status).toBe(3);
    expect(r3.message).toContain('无法读取压缩包');
  });
});
