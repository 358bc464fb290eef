// Report generation on a large task (issue 7 target: 5,000 components and 10,000 findings, each
// format under 20 s). Seeds one succeeded run on SQLite with batched inserts in the shapes
// save-results.ts writes, times building the model from the database, then each format end to
// end through the API: the generate call, the report queue's claim, the model, the writer thread,
// the hash, until the row shows 生成成功.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { ROLE } from '../contract/permissions.ts';
import { buildApp } from '../server/app.ts';
import { hashPassword } from '../server/auth/password.ts';
import { createUser } from '../server/db/repositories/users.ts';
import type { Database } from '../server/db/schema.ts';
import { buildReportModel } from '../server/reports/build-model.ts';

const COMPONENTS = 5_000;
const FINDINGS = 10_000;
const ECOSYSTEMS = ['npm', 'maven', 'pypi', 'golang', 'cargo'];
const LICENCES = ['MIT', 'Apache-2.0', 'BSD-3-Clause', 'ISC', 'GPL-3.0-only', 'LGPL-2.1-only', null];
const LEVELS = [1, 2, 4, 8, 16];

/** Deterministic pseudo-random numbers, so every run of the bench seeds the same data. */
function rng(seed: number): () => number {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
}

async function seed(db: Kysely<Database>, ownerId: number): Promise<{ projectId: number; runId: number }> {
  const now = new Date().toISOString();
  const subject = await db.insertInto('subjects').values({ uuid: 'bench-report', name: '报告性能测试', owner_id: ownerId, created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow();
  const project = await db.insertInto('projects').values({ subject_id: subject.id, name: '大型单体仓库', get_code_type: 0, analysis_modes: '1,4,7', outbound_license: 'Apache-2.0', created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow();
  const random = rng(7);
  const findingsOf = new Map<number, number[]>();
  for (let i = 0; i < FINDINGS; i++) {
    const c = Math.floor(random() * 1500);
    const list = findingsOf.get(c) ?? [];
    list.push(LEVELS[Math.floor(random() * 5)]!);
    findingsOf.set(c, list);
  }
  const byLevel: Record<string, number> = { 1: 0, 2: 0, 4: 0, 8: 0, 16: 0 };
  for (const list of findingsOf.values()) for (const l of list) byLevel[l]!++;
  const run = await db.insertInto('runs').values({
    project_id: project.id, seq: 1, status: 2, stage: 'done', progress: 100, message: '分析完成', analysis_modes: '1,4,7', queued_at: now, started_at: now, finished_at: now,
    outbound_license: 'Apache-2.0', summary: JSON.stringify({ components: COMPONENTS, vulnerableComponents: findingsOf.size, vulnerabilities: FINDINGS, byLevel, licenses: 6 }),
  }).returning('id').executeTakeFirstOrThrow();
  const rows = Array.from({ length: COMPONENTS }, (_, i) => {
    const ecosystem = ECOSYSTEMS[i % ECOSYSTEMS.length]!;
    const levels = findingsOf.get(i) ?? [];
    const counts: Record<number, number> = {};
    for (const l of levels) counts[l] = (counts[l] ?? 0) + 1;
    const version = `${1 + (i % 7)}.${i % 13}.${i % 5}`;
    return {
      run_id: run.id, purl: `pkg:${ecosystem}/package-${i}@${version}`, ecosystem, name: `package-${i}`, version, direct: i < 200 ? 1 : 0,
      scope: i % 9 === 0 ? 'development' : 'runtime', license_expression: LICENCES[i % LICENCES.length]!, license_level: 8,
      risk_level: levels.length ? Math.min(...levels) : 32, vul_count: levels.length, vul_levels: JSON.stringify(counts),
      recommend_version: levels.length ? `${2 + (i % 7)}.0.0` : null, locations: JSON.stringify([{ file: `packages/p${i % 300}/package.json`, startLine: 10, endLine: 10 }]),
      mark: i % 50 === 0 ? 'W' : 'N', mark_remark: i % 50 === 0 ? '内部评估通过' : '',
    };
  });
  await db.transaction().execute(async (trx) => {
    const ids: number[] = [];
    for (let i = 0; i < rows.length; i += 300) ids.push(...(await trx.insertInto('run_components').values(rows.slice(i, i + 300)).returning('id').execute()).map((r) => r.id));
    const edges: Array<{ run_id: number; parent_id: number | null; child_id: number }> = [];
    for (let i = 0; i < COMPONENTS; i++) {
      if (i < 200) { edges.push({ run_id: run.id, parent_id: null, child_id: ids[i]! }); continue; }
      edges.push({ run_id: run.id, parent_id: ids[Math.floor(i / 5)]!, child_id: ids[i]! });
      if (i % 3 === 0) edges.push({ run_id: run.id, parent_id: ids[Math.floor(random() * i)]!, child_id: ids[i]! });
    }
    for (let i = 0; i < edges.length; i += 2000) await trx.insertInto('run_edges').values(edges.slice(i, i + 2000)).execute();
    const licences = rows.flatMap((r, i) => (r.license_expression ? [{ run_id: run.id, component_id: ids[i]!, file: null, spdx_id: r.license_expression, source: 'declared', score: null, start_line: null, end_line: null }] : []));
    for (let i = 0; i < licences.length; i += 500) await trx.insertInto('run_licenses').values(licences.slice(i, i + 500)).execute();
    const findings: Array<Record<string, unknown>> = [];
    let n = 0;
    for (const [c, levels] of findingsOf) {
      for (const level of levels) {
        n++;
        findings.push({
          run_id: run.id, component_id: ids[c]!, vul_id: `GHSA-bench-${n}`, cve: `CVE-2024-${10000 + n}`, aliases: JSON.stringify([`GHSA-bench-${n}`]),
          summary: `package-${c} 中的输入校验缺陷 ${n}`, level, original_level: level, score: Math.round(random() * 100) / 10, exploit: 2, fixed_versions: '["9.9.9"]',
          published: new Date(Date.UTC(2024, 0, 1) + n * 60_000).toISOString(), mark: n % 17 === 0 ? 2 : 0, mark_remark: n % 17 === 0 ? '该接口未对外开放' : '',
          vex: n % 13 === 0 ? 1 : 0, vex_remark: n % 13 === 0 ? '受影响代码不可达' : '',
        });
      }
    }
    for (let i = 0; i < findings.length; i += 400) await trx.insertInto('run_vulnerabilities').values(findings.slice(i, i + 400) as never).execute();
  });
  await db.updateTable('projects').set({ last_run_id: run.id, status: 2 }).where('id', '=', project.id).execute();
  return { projectId: project.id, runId: run.id };
}

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-bench-report-'));
  const app = await buildApp({ database: { kind: 'sqlite', file: join(dir, 'cairn.db') }, dataDir: dir, logLevel: 'silent' });
  try {
    const db = app.cairn.db;
    const userId = await createUser(db, { username: 'bench', name: 'bench', passwordHash: await hashPassword('Bench@12345'), roleCodes: [ROLE.DOMAIN_ADMIN], updatedPwd: true });
    let started = performance.now();
    const { projectId, runId } = await seed(db, userId);
    console.log(`写入 ${COMPONENTS} 个组件、${FINDINGS} 条漏洞：${((performance.now() - started) / 1000).toFixed(1)} s`);

    started = performance.now();
    const model = await buildReportModel(db, { kind: 'task', runIds: [runId], author: 'bench', tool: { name: 'Cairn', version: app.cairn.version } });
    console.log(`构建报告模型（${model.components.length} 个组件、${model.vulnerabilities.length} 条漏洞、${model.edges.length} 条依赖）：${((performance.now() - started) / 1000).toFixed(2)} s`);

    const csrf = await app.inject({ method: 'POST', url: '/api/csrf' });
    const token = (csrf.json() as { data: { token: string } }).data.token;
    const jar = new Map<string, string>();
    const keep = (setCookie: string | string[] | undefined) => {
      for (const line of ([] as string[]).concat(setCookie ?? [])) { const [pair] = line.split(';'); const [k, ...v] = pair!.split('='); jar.set(k!.trim(), v.join('=')); }
    };
    keep(csrf.headers['set-cookie']);
    const headers = () => ({ cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '), 'x-csrf-token': token });
    keep((await app.inject({ method: 'POST', url: '/api/login', headers: headers(), payload: { username: 'bench', password: 'Bench@12345' } })).headers['set-cookie']);
    const call = async (method: 'GET' | 'POST', url: string, payload?: object): Promise<number> => {
      const body = (await app.inject({ method, url, headers: headers(), ...(payload && { payload }) })).json() as { code: number; message: string; data: { reportIds?: number[]; reportId?: number } };
      if (body.code !== 1) throw new Error(`${url}: ${body.message}`);
      return body.data.reportIds?.[0] ?? body.data.reportId!;
    };

    const formats: Array<[string, () => Promise<number>]> = [
      ['Word (.docx)', () => call('POST', '/api/report', { projectId, reportTypes: [1] })],
      ['Excel (.xlsx)', () => call('POST', '/api/report', { projectId, reportTypes: [2] })],
      ['PDF', () => call('POST', '/api/report', { projectId, reportTypes: [3] })],
      ['SPDX 2.3 JSON', () => call('POST', '/api/report', { projectId, reportTypes: [4] })],
      ['CycloneDX 1.6 JSON', () => call('POST', '/api/report', { projectId, reportTypes: [5] })],
      ['SWID (.zip)', () => call('POST', '/api/report', { projectId, reportTypes: [6] })],
      ['CycloneDX VEX', () => call('POST', '/api/vex/export', { projectId, vexTypes: [1] })],
      ['OpenVEX', () => call('POST', '/api/vex/export', { projectId, vexTypes: [2] })],
      ['组件清单 xlsx', () => call('GET', `/api/component/export?projectId=${projectId}&format=xlsx`)],
      ['组件清单 csv', () => call('GET', `/api/component/export?projectId=${projectId}&format=csv`)],
    ];
    for (const [name, submit] of formats) {
      started = performance.now();
      const id = await submit();
      for (;;) {
        const row = await db.selectFrom('reports').select(['status', 'message', 'size']).where('id', '=', id).executeTakeFirstOrThrow();
        if (row.status === 2) {
          console.log(`${name.padEnd(24)} ${((performance.now() - started) / 1000).toFixed(2).padStart(7)} s  ${(Number(row.size) / 1024 / 1024).toFixed(2)} MiB`);
          break;
        }
        if (row.status === 4) { console.log(`${name.padEnd(24)} 失败：${row.message}`); break; }
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
