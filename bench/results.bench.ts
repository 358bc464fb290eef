// Result calls on a large analysis (issue 6 target: 10,000 components and 20,000 findings, the
// component list's first page under 150 ms at the API). Seeds one succeeded run on SQLite with
// batched inserts in the shapes save-results.ts writes, then times the calls through app.inject
// (routing, guard, schema validation and serialisation included, no network).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { ROLE } from '../contract/permissions.ts';
import { buildApp } from '../server/app.ts';
import { hashPassword } from '../server/auth/password.ts';
import { createUser } from '../server/db/repositories/users.ts';
import type { Database } from '../server/db/schema.ts';
import { measure } from './measure.ts';

const COMPONENTS = 10_000;
const FINDINGS = 20_000;
const ECOSYSTEMS = ['npm', 'maven', 'pypi', 'golang', 'cargo'];
const LICENCES = ['MIT', 'Apache-2.0', 'BSD-3-Clause', 'ISC', 'GPL-3.0-only', 'LGPL-2.1-only', null];
const LEVELS = [1, 2, 4, 8, 16];

/** Deterministic pseudo-random numbers, so every run of the bench seeds the same data. */
function rng(seed: number): () => number {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
}

async function seed(db: Kysely<Database>, ownerId: number): Promise<{ projectId: number; runId: number; deepPath: string; deepId: number }> {
  const now = new Date().toISOString();
  const subject = await db.insertInto('subjects').values({ uuid: 'bench-subject', name: '性能测试', owner_id: ownerId, created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow();
  const project = await db.insertInto('projects').values({ subject_id: subject.id, name: 'monorepo', get_code_type: 1, analysis_modes: '1', outbound_license: 'Apache-2.0', created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow();
  const random = rng(42);
  // Findings land on 3,000 vulnerable components; the rest are clean.
  const findingsOf = new Map<number, number[]>();
  for (let i = 0; i < FINDINGS; i++) {
    const c = Math.floor(random() * 3000);
    const list = findingsOf.get(c) ?? [];
    list.push(LEVELS[Math.floor(random() * 5)]!);
    findingsOf.set(c, list);
  }
  const byLevel: Record<string, number> = { 1: 0, 2: 0, 4: 0, 8: 0, 16: 0 };
  for (const list of findingsOf.values()) for (const l of list) byLevel[l]!++;
  const run = await db.insertInto('runs').values({
    project_id: project.id, seq: 1, status: 2, stage: 'done', progress: 100, message: '分析完成', analysis_modes: '1', queued_at: now, started_at: now, finished_at: now,
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
    };
  });
  const ids: number[] = [];
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += 300) {
      const got = await trx.insertInto('run_components').values(rows.slice(i, i + 300)).returning('id').execute();
      ids.push(...got.map((r) => r.id));
    }
    // 200 roots; every other component hangs under one or two earlier ones (a DAG ~6 levels deep).
    const edges: Array<{ run_id: number; parent_id: number | null; child_id: number }> = [];
    for (let i = 0; i < COMPONENTS; i++) {
      if (i < 200) { edges.push({ run_id: run.id, parent_id: null, child_id: ids[i]! }); continue; }
      const parent = Math.floor(i / 5);
      edges.push({ run_id: run.id, parent_id: ids[parent]!, child_id: ids[i]! });
      if (i % 3 === 0) edges.push({ run_id: run.id, parent_id: ids[Math.floor(random() * i)]!, child_id: ids[i]! });
    }
    for (let i = 0; i < edges.length; i += 2000) await trx.insertInto('run_edges').values(edges.slice(i, i + 2000)).execute();
    const findings: Array<Record<string, unknown>> = [];
    let n = 0;
    for (const [c, levels] of findingsOf) {
      for (const level of levels) {
        n++;
        findings.push({
          run_id: run.id, component_id: ids[c]!, vul_id: `GHSA-bench-${n}`, cve: `CVE-2024-${10000 + n}`, aliases: JSON.stringify([`CVE-2024-${10000 + n}`]),
          summary: `Benchmark advisory ${n}`, level, original_level: level, score: Math.round(random() * 100) / 10, exploit: 2, fixed_versions: '["9.9.9"]',
          published: new Date(Date.UTC(2024, 0, 1) + n * 60_000).toISOString(),
        });
      }
    }
    for (let i = 0; i < findings.length; i += 400) await trx.insertInto('run_vulnerabilities').values(findings.slice(i, i + 400) as never).execute();
  });
  await db.updateTable('projects').set({ last_run_id: run.id, status: 2 }).where('id', '=', project.id).execute();
  return { projectId: project.id, runId: run.id, deepPath: `${ids[0]}.${ids[1]}`, deepId: ids[9999]! };
}

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-bench-'));
  const app = await buildApp({ database: { kind: 'sqlite', file: join(dir, 'cairn.db') }, logLevel: 'silent' });
  try {
    const db = app.cairn.db;
    const userId = await createUser(db, { username: 'bench', name: 'bench', passwordHash: await hashPassword('Bench@12345'), roleCodes: [ROLE.DOMAIN_ADMIN], updatedPwd: true });
    const started = performance.now();
    const { projectId, deepPath, deepId } = await seed(db, userId);
    console.log(`写入 ${COMPONENTS} 个组件、${FINDINGS} 条漏洞：${((performance.now() - started) / 1000).toFixed(1)} s`);

    const csrf = await app.inject({ method: 'POST', url: '/api/csrf' });
    const token = (csrf.json() as { data: { token: string } }).data.token;
    const jar = new Map<string, string>();
    const keep = (setCookie: string | string[] | undefined) => {
      for (const line of ([] as string[]).concat(setCookie ?? [])) { const [pair] = line.split(';'); const [k, ...v] = pair!.split('='); jar.set(k!.trim(), v.join('=')); }
    };
    keep(csrf.headers['set-cookie']);
    const headers = () => ({ cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '), 'x-csrf-token': token });
    keep((await app.inject({ method: 'POST', url: '/api/login', headers: headers(), payload: { username: 'bench', password: 'Bench@12345' } })).headers['set-cookie']);
    const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
      const reply = await app.inject({ method, url, headers: headers(), ...(payload && { payload }) });
      const body = reply.json() as { code: number; message: string };
      if (body.code !== 1) throw new Error(`${url}: ${body.message}`);
    };

    await measure('组件列表首页（无筛选）', 200, () => call('POST', `/api/component/list/${projectId}?page=1&size=15`, {}));
    await measure('组件列表首页（关键字 package-99）', 100, () => call('POST', `/api/component/list/${projectId}?page=1&size=15`, { keyword: 'package-99' }));
    await measure('组件列表首页（风险 1,2）', 100, () => call('POST', `/api/component/list/${projectId}?page=1&size=15`, { riskLevels: [1, 2] }));
    await measure('组件列表第 300 页（按名称）', 100, () => call('POST', `/api/component/list/${projectId}?page=300&size=15&sort=name,asc`, {}));
    await measure('漏洞列表首页（全部等级，含统计）', 100, () => call('GET', `/api/vulnerability/list/statistic/${projectId}`));
    await measure('漏洞列表首页（超危页签）', 100, () => call('GET', `/api/vulnerability/list/statistic/${projectId}?level=1`));
    await measure('依赖树根层级（200 个）', 100, () => call('GET', `/api/resultTree/dependence/${projectId}`));
    await measure('依赖树展开一个节点', 200, () => call('GET', `/api/resultTree/list/dependence/${projectId}?pathId=${deepPath}`));
    await measure('组件详情（含根路径）', 50, () => call('GET', `/api/component/${deepId}`));
    await measure('依赖树搜索 package-999', 30, () => call('POST', `/api/resultTree/search/${projectId}`, { keyword: 'package-999', kind: 'dependence' }));
    await measure('检测结果概览', 50, () => call('GET', `/api/project-task-view/info/${projectId}/1`));
    await measure('许可证冲突首页', 30, () => call('GET', `/api/license/conflict/${projectId}`));
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
