// Report generation on a large task (issue 7 target: 5,000 components and 10,000 findings, each
// format under 20 s). Seeds one succeeded run on SQLite with batched inserts in the shapes
// save-results.ts writes, times building the model from the database, then each format end to
// end through the API: the generate call, the report queue's claim, the model, the writer thread,
// the hash, until the row shows 生成成功.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROLE } from '../contract/permissions.ts';
import { buildApp } from '../server/app.ts';
import { hashPassword } from '../server/auth/password.ts';
import { createUser } from '../server/db/repositories/users.ts';
import { buildReportModel } from '../server/reports/build-model.ts';
import { benchSession, seedLargeRun } from './large-run.ts';

const COMPONENTS = 5_000;
const FINDINGS = 10_000;
export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-bench-report-'));
  const app = await buildApp({ database: { kind: 'sqlite', file: join(dir, 'cairn.db') }, dataDir: dir, logLevel: 'silent' });
  try {
    const db = app.cairn.db;
    const userId = await createUser(db, { username: 'bench', name: 'bench', passwordHash: await hashPassword('Bench@12345'), roleCodes: [ROLE.DOMAIN_ADMIN], updatedPwd: true });
    let started = performance.now();
    const { projectId, runId } = await seedLargeRun(db, userId, {
      components: COMPONENTS, findings: FINDINGS, vulnerableComponents: 1500, seed: 7, audited: true,
      subject: { uuid: 'bench-report', name: '报告性能测试' }, project: { name: '大型单体仓库', codeType: 0, analysisModes: '1,4,7' },
    });
    console.log(`写入 ${COMPONENTS} 个组件、${FINDINGS} 条漏洞：${((performance.now() - started) / 1000).toFixed(1)} s`);

    started = performance.now();
    const model = await buildReportModel(db, { kind: 'task', runIds: [runId], author: 'bench', tool: { name: 'Cairn', version: app.cairn.version } });
    console.log(`构建报告模型（${model.components.length} 个组件、${model.vulnerabilities.length} 条漏洞、${model.edges.length} 条依赖）：${((performance.now() - started) / 1000).toFixed(2)} s`);

    const session = await benchSession(app, 'bench', 'Bench@12345');
    const call = async (method: 'GET' | 'POST', url: string, payload?: object): Promise<number> => {
      const data = await session.call<{ reportIds?: number[]; reportId?: number }>(method, url, payload);
      return data.reportIds?.[0] ?? data.reportId!;
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
