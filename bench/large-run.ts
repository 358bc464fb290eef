// One succeeded run of a large analysis, seeded on the platform's database with batched inserts
// in the shapes save-results.ts writes, and a signed-in session on the app (through app.inject,
// no network): what the result and report benchmarks measure against.
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../server/db/schema.ts';

const ECOSYSTEMS = ['npm', 'maven', 'pypi', 'golang', 'cargo'];
const LICENCES = ['MIT', 'Apache-2.0', 'BSD-3-Clause', 'ISC', 'GPL-3.0-only', 'LGPL-2.1-only', null];
const LEVELS = [1, 2, 4, 8, 16];

/** Deterministic pseudo-random numbers, so every run of a bench seeds the same data. */
function rng(seed: number): () => number {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
}

export interface LargeRunOptions {
  components: number;
  findings: number;
  /** Findings land on this many components; the rest are clean. */
  vulnerableComponents: number;
  seed: number;
  subject: { uuid: string; name: string };
  project: { name: string; codeType: number; analysisModes: string };
  /** An audited run: component marks, finding marks and VEX statements, declared licence rows. */
  audited?: boolean;
}

export async function seedLargeRun(db: Kysely<Database>, ownerId: number, o: LargeRunOptions): Promise<{ projectId: number; runId: number; componentIds: number[] }> {
  const now = new Date().toISOString();
  const subject = await db.insertInto('subjects').values({ uuid: o.subject.uuid, name: o.subject.name, owner_id: ownerId, created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow();
  const project = await db.insertInto('projects').values({ subject_id: subject.id, name: o.project.name, get_code_type: o.project.codeType, analysis_modes: o.project.analysisModes, outbound_license: 'Apache-2.0', created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow();
  const random = rng(o.seed);
  const findingsOf = new Map<number, number[]>();
  for (let i = 0; i < o.findings; i++) {
    const c = Math.floor(random() * o.vulnerableComponents);
    const list = findingsOf.get(c) ?? [];
    list.push(LEVELS[Math.floor(random() * 5)]!);
    findingsOf.set(c, list);
  }
  const byLevel: Record<string, number> = { 1: 0, 2: 0, 4: 0, 8: 0, 16: 0 };
  for (const list of findingsOf.values()) for (const l of list) byLevel[l]!++;
  const run = await db.insertInto('runs').values({
    project_id: project.id, seq: 1, status: 2, stage: 'done', progress: 100, message: '分析完成', analysis_modes: o.project.analysisModes, queued_at: now, started_at: now, finished_at: now,
    outbound_license: 'Apache-2.0', summary: JSON.stringify({ components: o.components, vulnerableComponents: findingsOf.size, vulnerabilities: o.findings, byLevel, licenses: 6 }),
  }).returning('id').executeTakeFirstOrThrow();
  const rows = Array.from({ length: o.components }, (_, i) => {
    const ecosystem = ECOSYSTEMS[i % ECOSYSTEMS.length]!;
    const levels = findingsOf.get(i) ?? [];
    const counts: Record<number, number> = {};
    for (const l of levels) counts[l] = (counts[l] ?? 0) + 1;
    const version = `${1 + (i % 7)}.${i % 13}.${i % 5}`;
    const whitelisted = o.audited && i % 50 === 0;
    return {
      run_id: run.id, purl: `pkg:${ecosystem}/package-${i}@${version}`, ecosystem, name: `package-${i}`, version, direct: i < 200 ? 1 : 0,
      scope: i % 9 === 0 ? 'development' : 'runtime', license_expression: LICENCES[i % LICENCES.length]!, license_level: 8,
      risk_level: levels.length ? Math.min(...levels) : 32, vul_count: levels.length, vul_levels: JSON.stringify(counts),
      recommend_version: levels.length ? `${2 + (i % 7)}.0.0` : null, locations: JSON.stringify([{ file: `packages/p${i % 300}/package.json`, startLine: 10, endLine: 10 }]),
      mark: whitelisted ? 'W' : 'N', mark_remark: whitelisted ? '内部评估通过' : '',
    };
  });
  const ids: number[] = [];
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += 300) ids.push(...(await trx.insertInto('run_components').values(rows.slice(i, i + 300)).returning('id').execute()).map((r) => r.id));
    // 200 roots; every other component hangs under one or two earlier ones (a DAG ~6 levels deep).
    const edges: Array<{ run_id: number; parent_id: number | null; child_id: number }> = [];
    for (let i = 0; i < o.components; i++) {
      if (i < 200) { edges.push({ run_id: run.id, parent_id: null, child_id: ids[i]! }); continue; }
      edges.push({ run_id: run.id, parent_id: ids[Math.floor(i / 5)]!, child_id: ids[i]! });
      if (i % 3 === 0) edges.push({ run_id: run.id, parent_id: ids[Math.floor(random() * i)]!, child_id: ids[i]! });
    }
    for (let i = 0; i < edges.length; i += 2000) await trx.insertInto('run_edges').values(edges.slice(i, i + 2000)).execute();
    if (o.audited) {
      const licences = rows.flatMap((r, i) => (r.license_expression ? [{ run_id: run.id, component_id: ids[i]!, file: null, spdx_id: r.license_expression, source: 'declared', score: null, start_line: null, end_line: null }] : []));
      for (let i = 0; i < licences.length; i += 500) await trx.insertInto('run_licenses').values(licences.slice(i, i + 500)).execute();
    }
    const findings: Array<Record<string, unknown>> = [];
    let n = 0;
    for (const [c, levels] of findingsOf) {
      for (const level of levels) {
        n++;
        const marked = o.audited && n % 17 === 0;
        const stated = o.audited && n % 13 === 0;
        findings.push({
          run_id: run.id, component_id: ids[c]!, vul_id: `GHSA-bench-${n}`, cve: `CVE-2024-${10000 + n}`, aliases: JSON.stringify([`GHSA-bench-${n}`]),
          summary: `package-${c} 中的输入校验缺陷 ${n}`, level, original_level: level, score: Math.round(random() * 100) / 10, exploit: 2, fixed_versions: '["9.9.9"]',
          published: new Date(Date.UTC(2024, 0, 1) + n * 60_000).toISOString(), mark: marked ? 2 : 0, mark_remark: marked ? '该接口未对外开放' : '',
          vex: stated ? 1 : 0, vex_remark: stated ? '受影响代码不可达' : '',
        });
      }
    }
    for (let i = 0; i < findings.length; i += 400) await trx.insertInto('run_vulnerabilities').values(findings.slice(i, i + 400) as never).execute();
  });
  await db.updateTable('projects').set({ last_run_id: run.id, status: 2 }).where('id', '=', project.id).execute();
  return { projectId: project.id, runId: run.id, componentIds: ids };
}

/** Signs `username` in on the app; `call` answers a call's data and throws on a failure envelope. */
export async function benchSession(app: FastifyInstance, username: string, password: string) {
  const csrf = await app.inject({ method: 'POST', url: '/api/csrf' });
  const token = (csrf.json() as { data: { token: string } }).data.token;
  const jar = new Map<string, string>();
  const keep = (setCookie: string | string[] | undefined) => {
    for (const line of ([] as string[]).concat(setCookie ?? [])) { const [pair] = line.split(';'); const [k, ...v] = pair!.split('='); jar.set(k!.trim(), v.join('=')); }
  };
  keep(csrf.headers['set-cookie']);
  const headers = () => ({ cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '), 'x-csrf-token': token });
  keep((await app.inject({ method: 'POST', url: '/api/login', headers: headers(), payload: { username, password } })).headers['set-cookie']);
  return {
    async call<T = unknown>(method: 'GET' | 'POST', url: string, payload?: object): Promise<T> {
      const body = (await app.inject({ method, url, headers: headers(), ...(payload && { payload }) })).json() as { code: number; message: string; data: T };
      if (body.code !== 1) throw new Error(`${url}: ${body.message}`);
      return body.data;
    },
  };
}
