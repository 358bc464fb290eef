// Result calls on a large analysis (issue 6 target: 10,000 components and 20,000 findings, the
// component list's first page under 150 ms at the API). Seeds one succeeded run on SQLite with
// batched inserts in the shapes save-results.ts writes, then times the calls through app.inject
// (routing, guard, schema validation and serialisation included, no network).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROLE } from '../contract/permissions.ts';
import { buildApp } from '../server/app.ts';
import { hashPassword } from '../server/auth/password.ts';
import { createUser } from '../server/db/repositories/users.ts';
import { benchSession, seedLargeRun } from './large-run.ts';
import { measure } from './measure.ts';

const COMPONENTS = 10_000;
const FINDINGS = 20_000;
export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-bench-'));
  const app = await buildApp({ database: { kind: 'sqlite', file: join(dir, 'cairn.db') }, logLevel: 'silent' });
  try {
    const db = app.cairn.db;
    const userId = await createUser(db, { username: 'bench', name: 'bench', passwordHash: await hashPassword('Bench@12345'), roleCodes: [ROLE.DOMAIN_ADMIN], updatedPwd: true });
    const started = performance.now();
    const seeded = await seedLargeRun(db, userId, {
      components: COMPONENTS, findings: FINDINGS, vulnerableComponents: 3000, seed: 42,
      subject: { uuid: 'bench-subject', name: '性能测试' }, project: { name: 'monorepo', codeType: 1, analysisModes: '1' },
    });
    const { projectId } = seeded;
    const deepPath = `${seeded.componentIds[0]}.${seeded.componentIds[1]}`;
    const deepId = seeded.componentIds[9999]!;
    console.log(`写入 ${COMPONENTS} 个组件、${FINDINGS} 条漏洞：${((performance.now() - started) / 1000).toFixed(1)} s`);

    const { call } = await benchSession(app, 'bench', 'Bench@12345');

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
