// The boundary rules of eslint.config.js (design.md §2 and §9): the import boundaries, ipcMain only
// in main/ipc/, window.desktop only in renderer/platform/, no query builder in server/routes/, SQL
// only in server/db/ (services, jobs, kb, reports, uploads, auth and the rest call repositories and
// open transactions through inTransaction), no route area importing another and nothing but
// server/app.ts importing the routes, the renderer's feature folders (no feature imports another,
// common/ imports none), node:fs writers only in the private-files helpers of server/ and main/
// (issue 13, item 6), each shown
// refusing a file that breaks it and accepting one that keeps it. Files are linted as text under a path inside the tree, so the
// real configuration decides; nothing is written.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

async function messagesOf(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  // A line that does not parse would pass any `good` check without showing anything.
  const fatal = result?.messages.find((m) => m.fatal);
  if (fatal) throw new Error(`${filePath}: ${fatal.message}`);
  return (result?.messages ?? []).filter((m) => m.ruleId !== null && m.ruleId !== '@typescript-eslint/no-unused-vars').map((m) => m.message);
}

interface Case {
  rule: string;
  /** Where the offending file would live. */
  file: string;
  /** A line that breaks the rule there. */
  bad: string;
  /** Part of the message ESLint must give. */
  says: string;
  /** A line of the same kind that keeps the rule, where there is one. */
  good?: string;
  /** Where `good` is linted, when the rule is about the place rather than the line (default: `file`). */
  goodFile?: string;
}

const ipcMainRule = 'ipcMain 只能在 main/ipc/ 中使用';
const desktopRule = 'window.desktop 只能由 renderer/platform/ 读取';
const feature = 'renderer/features/x/Y.tsx';
const noQueries = 'server/routes/ 不写查询';
const otherArea = 'server/routes/ 的各区域互不引用';
const noRoutes = 'server/routes/ 只由 server/app.ts 注册';
const sqlOnlyInDb = 'SQL 只写在 server/db/repositories/ 中';
const kyselyTypesOnly = 'server/db/ 之外只可引用 kysely 的类型';
const repositoryCall = "import { findProject } from '../../db/repositories/projects.ts';\nexport const f = (db: any) => findProject(db, 1);";
const featureRule = 'features/<area>/ 之间不得互相引用';
const commonRule = 'common/ 不得引用 features/';
const privateFiles = '会按进程 umask 创建文件或文件夹';

const cases: Case[] = [
  { rule: 'contract is pure TypeScript', file: 'contract/x.ts', bad: "import fs from 'node:fs'; export const a = fs;", says: 'contract/ 是纯 TypeScript', good: "import { Type } from 'typebox'; export const a = Type;" },
  { rule: 'contract imports no other layer', file: 'contract/x.ts', bad: "import { a } from '../server/app.ts'; export const b = a;", says: 'contract/ 不得引用其他层' },
  { rule: 'renderer never uses Node', file: 'renderer/x.ts', bad: "import fs from 'node:fs'; export const a = fs;", says: 'renderer/ 运行在沙箱中' },
  { rule: 'renderer reaches only contract', file: 'renderer/x.ts', bad: "import { a } from '../server/app.ts'; export const b = a;", says: 'renderer/ 只能引用 contract/', good: "import { ok } from '../contract/envelope.ts'; export const b = ok;" },
  { rule: 'main never imports renderer or server code', file: 'main/x.ts', bad: "import { a } from '../server/app.ts'; export const b = a;", says: 'main/ 通过路径启动已构建的 server' },
  { rule: 'preload holds no logic', file: 'preload/x.ts', bad: "import { a } from '../main/index.ts'; export const b = a;", says: 'preload/ 只由 contract/ 构建' },
  { rule: 'server never uses Electron', file: 'server/x.ts', bad: "import { app } from 'electron'; export const a = app;", says: 'server/ 不得引用 Electron' },
  { rule: 'the engine never reaches the database or routes', file: 'server/engine/x.ts', bad: "import { sql } from 'kysely'; export const a = sql;", says: 'server/engine/ 是纯分析引擎' },
  // ipcMain: only main/ipc/ registers handlers.
  { rule: 'only main/ipc/ imports ipcMain', file: 'main/services/x.ts', bad: "import { ipcMain } from 'electron'; export const a = ipcMain;", says: ipcMainRule, good: "import { ipcMain } from 'electron'; export const a = ipcMain;", goodFile: 'main/ipc/x.ts' },
  { rule: 'only main/ipc/ imports ipcMain, renamed', file: 'main/window.ts', bad: "import { ipcMain as m, shell } from 'electron/main'; export const a = [m, shell];", says: ipcMainRule, good: "import { shell, type IpcMainInvokeEvent } from 'electron'; export const a = shell; export type E = IpcMainInvokeEvent;" },
  { rule: 'only main/ipc/ reads electron.ipcMain', file: 'main/electron/x.ts', bad: "import * as electron from 'electron'; electron.ipcMain.handle('x', () => 1);", says: ipcMainRule, good: "import * as electron from 'electron'; electron.ipcMain.handle('x', () => 1);", goodFile: 'main/ipc/electron.ts' },
  { rule: 'only main/ipc/ reads electron[\'ipcMain\']', file: 'main/index.ts', bad: "import * as electron from 'electron'; export const a = electron['ipcMain'];", says: ipcMainRule },
  { rule: 'only main/ipc/ destructures ipcMain', file: 'main/web-host/x.ts', bad: "const { ipcMain } = await import('electron'); export const a = ipcMain;", says: ipcMainRule },
  { rule: 'only main/ipc/ re-exports ipcMain', file: 'main/services/x.ts', bad: "export { ipcMain } from 'electron';", says: ipcMainRule },
  // window.desktop: only renderer/platform/ reads the bridge.
  { rule: 'only renderer/platform/ reads window.desktop', file: feature, bad: 'export const a = window.desktop?.api;', says: desktopRule, good: 'export const a = window.desktop?.api;', goodFile: 'renderer/platform/x.ts' },
  { rule: 'only renderer/platform/ reads globalThis.desktop', file: 'renderer/app/x.ts', bad: 'export const a = globalThis.desktop;', says: desktopRule, good: 'export const a = (globalThis as { window?: Window }).window?.desktop ?? null;', goodFile: 'renderer/platform/desktop.ts' },
  { rule: "only renderer/platform/ reads window['desktop']", file: 'renderer/common/x.ts', bad: "export const a = window['desktop'];", says: desktopRule },
  { rule: 'only renderer/platform/ reads the bridge through a cast', file: feature, bad: 'export const a = (window as any).desktop;', says: desktopRule },
  { rule: 'only renderer/platform/ reads globalThis.window.desktop', file: 'renderer/api/x.ts', bad: 'export const a = (globalThis as { window?: Window }).window?.desktop;', says: desktopRule },
  { rule: 'only renderer/platform/ destructures the bridge', file: feature, bad: 'const { desktop } = window; export const a = desktop;', says: desktopRule },
  { rule: 'only renderer/platform/ probes for the bridge', file: 'renderer/main.tsx', bad: "export const a = 'desktop' in window;", says: desktopRule },
  {
    rule: 'a comment about window.desktop and the platform functions are fine anywhere',
    file: feature,
    bad: 'export const a = self.desktop;',
    says: desktopRule,
    good: "// Goes through window.desktop (main's own files).\nimport { desktop } from '../../platform/desktop.ts';\nexport const a = () => desktop().api; export const b = { desktop: 1 }.desktop;",
  },
  { rule: 'no source file over 800 lines', file: 'server/x.ts', bad: Array.from({ length: 801 }, (_, i) => `export const v${i} = ${i};`).join('\n'), says: 'File has too many lines', good: 'export const v = 1;' },
  { rule: 'the platform reaches the engine through its face', file: 'server/jobs/x.ts', bad: "import { analyse } from '../engine/analyse.ts'; export const a = analyse;", says: 'server/engine/ 只能通过 server/engine/index.ts 引用', good: "import { analyseProject } from '../engine/index.ts'; export const a = analyseProject;" },
  { rule: 'the platform reaches the engine through its face', file: 'server/routes/task/x.ts', bad: "import type { Level } from '../../engine/matchers/advisory.ts'; export type A = Level;", says: 'server/engine/ 只能通过 server/engine/index.ts 引用', good: "import type { Level } from '../../engine/index.ts'; export type A = Level;" },
  { rule: 'the CLI reaches the engine through its face', file: 'cli/commands/x.ts', bad: "import { scanTree } from '../../server/engine/scan.ts'; export const a = scanTree;", says: 'server/engine/ 只能通过 server/engine/index.ts 引用', good: "import { scanTree } from '../../server/engine/index.ts'; export const a = scanTree;" },
  { rule: 'the CLI reaches the engine through its face', file: 'cli/commands/x.ts', bad: "export const load = () => import('../../server/engine/extractors/excel/index.ts');", says: 'server/engine/ 只能通过 server/engine/index.ts 引用', good: "export const load = () => import('../../server/engine/index.ts');" },
  { rule: 'benchmarks reach the engine through its face', file: 'bench/x.ts', bad: "import { unpackArchive } from '../server/engine/sources/unpack.ts'; export const a = unpackArchive;", says: 'server/engine/ 只能通过 server/engine/index.ts 引用', good: "import { unpackArchive } from '../server/engine/index.ts'; export const a = unpackArchive;" },
  { rule: 'tests other than the engine\'s own reach it through its face', file: 'tests/integration/engine/x.test.ts', bad: "import { scanTree } from '../../../server/engine/scan.ts'; export const a = scanTree;", says: 'server/engine/ 只能通过 server/engine/index.ts 引用', good: "import { zip } from '../../unit/engine/sources/archives.ts'; export const a = zip;" },
  // server/routes/: handlers call repositories and services; SQL lives in server/db/repositories/.
  { rule: 'route handlers write no queries', file: 'server/routes/task/x.ts', bad: "export const f = (db: any) => db.selectFrom('projects').selectAll().execute();", says: noQueries, good: repositoryCall },
  { rule: 'route handlers update no tables', file: 'server/routes/task/x.ts', bad: "export const f = (db: any) => db.updateTable('projects').set({ name: 'x' });", says: noQueries },
  { rule: 'route handlers insert and delete nothing themselves', file: 'server/routes/upload/x.ts', bad: "export const f = (db: any) => [db.insertInto('uploads'), db.deleteFrom('uploads')];", says: noQueries },
  { rule: 'route handlers open no transactions', file: 'server/routes/subject/x.ts', bad: 'export const f = (db: any) => db.transaction().execute(async () => 1);', says: noQueries },
  { rule: 'route handlers build no CTEs or FROM-less selects', file: 'server/routes/result/x.ts', bad: "export const f = (db: any) => db.with('t', (q: any) => q).selectNoFrom((eb: any) => eb.val(1).as('one'));", says: noQueries },
  { rule: 'route handlers run no query a repository handed back', file: 'server/routes/result/x.ts', bad: 'export const f = (query: any) => query.executeTakeFirst();', says: noQueries },
  { rule: 'route handlers write no raw SQL', file: 'server/routes/report/x.ts', bad: 'export const f = (sql: any) => sql`select 1`;', says: noQueries },
  {
    rule: 'route handlers import nothing from kysely', file: 'server/routes/task/x.ts', bad: "import { sql } from 'kysely';\nexport const a = sql;", says: noQueries,
    good: "import { sql } from 'kysely';\nexport const a = sql;", goodFile: 'server/db/repositories/x.ts',
  },
  { rule: 'route handlers import no kysely types either', file: 'server/routes/session/x.ts', bad: "import type { Kysely } from 'kysely';\nexport type A = Kysely<never>;", says: noQueries },
  { rule: 'the shared route modules write no queries', file: 'server/routes/shared.ts', bad: "export const f = (db: any) => db.selectFrom('runs').selectAll();", says: noQueries, good: 'export const f = (rows: number[]) => rows.slice(0, 1);' },
  { rule: 'route handlers still never use Electron', file: 'server/routes/task/x.ts', bad: "import { app } from 'electron';\nexport const a = app;", says: 'server/ 不得引用 Electron' },
  // Route areas: no area imports another; the top-level shared modules serve them all.
  {
    rule: 'a route area imports no other area', file: 'server/routes/result/x.ts', bad: "import { submit } from '../report/index.ts';\nexport const a = submit;", says: otherArea,
    good: "import { pagingOf } from '../shared.ts';\nimport { signedIn } from '../register.ts';\nimport type { ResultHandlers } from './common.ts';\nexport const a = [pagingOf, signedIn];\nexport type H = ResultHandlers;",
  },
  { rule: 'a shared route module imports no area', file: 'server/routes/shared.ts', bad: "import { taskHandlers } from './task/index.ts';\nexport const a = taskHandlers;", says: otherArea, good: "import { signedIn } from './register.ts';\nexport const a = signedIn;" },
  // Only server/app.ts imports the routes.
  {
    rule: 'reports import no route', file: 'server/reports/x.ts', bad: "import { conflictOf } from '../routes/result/licences.ts';\nexport const a = conflictOf;", says: noRoutes,
    good: "import { taskHandlers } from './routes/task/index.ts';\nexport const a = taskHandlers;", goodFile: 'server/app.ts',
  },
  { rule: 'plugins import no route', file: 'server/plugins/x.ts', bad: "import { isSpecCall } from '../routes/catalogue.ts';\nexport const a = isSpecCall;", says: noRoutes, good: "import { isSpecCall } from '../call-catalogue.ts';\nexport const a = isSpecCall;" },
  { rule: 'services import no route', file: 'server/services/x.ts', bad: "import { signedIn } from '../routes/register.ts';\nexport const a = signedIn;", says: noRoutes },
  { rule: 'repositories import no route', file: 'server/db/repositories/x.ts', bad: "import { pagingOf } from '../../routes/shared.ts';\nexport const a = pagingOf;", says: noRoutes },
  { rule: 'jobs, kb, auth and uploads import no route', file: 'server/jobs/x.ts', bad: "import { reportHandlers } from '../routes/report/index.ts';\nexport const a = reportHandlers;", says: noRoutes },
  { rule: 'the knowledge base imports no route', file: 'server/kb/x.ts', bad: "import { KB_MSG } from '../routes/vulnerability/messages.ts';\nexport const a = KB_MSG;", says: noRoutes },
  { rule: 'server modules import no route', file: 'server/x.ts', bad: "import { registerCalls } from './routes/register.ts';\nexport const a = registerCalls;", says: noRoutes },
  // Files are created owner-only through server/files/private.ts and main/services/private-files.ts.
  { rule: 'the platform creates folders privately', file: 'server/jobs/x.ts', bad: "import { mkdir } from 'node:fs/promises';\nexport const a = mkdir;", says: privateFiles, good: "import { makePrivateDir } from '../files/private.ts';\nexport const a = makePrivateDir;" },
  { rule: 'the platform writes files privately', file: 'server/kb/x.ts', bad: "import fsp from 'node:fs/promises';\nexport const a = () => fsp.writeFile('x', 'y');", says: privateFiles, good: "import fsp from 'node:fs/promises';\nexport const a = () => fsp.readFile('x');" },
  { rule: 'the engine writes files privately', file: 'server/engine/x.ts', bad: "import fs from 'node:fs';\nexport const a = () => fs.promises.copyFile('x', 'y');", says: privateFiles },
  { rule: 'the platform opens files to write privately', file: 'server/uploads/x.ts', bad: "import { open } from 'node:fs/promises';\nexport const a = () => open('x', 'a');", says: privateFiles, good: "import { open } from 'node:fs/promises';\nexport const a = () => [open('x'), open('x', 'r'), open('x', 'r+')];" },
  { rule: 'the helper itself may create files', file: 'server/x.ts', bad: "import fs from 'node:fs';\nexport const a = () => fs.mkdirSync('x');", says: privateFiles, good: "import fs from 'node:fs';\nexport const a = () => fs.mkdirSync('x');", goodFile: 'server/files/private.ts' },
  { rule: 'the desktop streams files privately', file: 'main/services/x.ts', bad: "import { createWriteStream } from 'node:fs';\nexport const a = createWriteStream;", says: privateFiles, good: "import { privateWriteStream } from './private-files.ts';\nexport const a = privateWriteStream;" },
  { rule: 'the desktop helper may create files, the CLI writes where the user says', file: 'main/web-host/x.ts', bad: "import fs from 'node:fs';\nexport const a = () => fs.openSync('x', 'w');", says: privateFiles, good: "import fs from 'node:fs';\nexport const a = () => fs.openSync('x', 'w');", goodFile: 'main/services/private-files.ts' },
  // SQL only in server/db/: everything else under server/ calls repositories; a command's transaction
  // is opened through server/db/transaction.ts (inTransaction), and only kysely's types are imported.
  {
    rule: 'jobs write no queries', file: 'server/jobs/x.ts', bad: "export const f = (db: any) => db.selectFrom('runs').select('id').execute();", says: sqlOnlyInDb,
    good: "import { lostRuns } from '../db/repositories/runs.ts';\nexport const f = (db: any, ids: number[]) => lostRuns(db, ids, 'w');",
  },
  { rule: 'repositories write the queries', file: 'server/jobs/x.ts', bad: "export const f = (db: any) => db.updateTable('runs').set({ progress: 1 }).execute();", says: sqlOnlyInDb, good: "export const f = (db: any) => db.updateTable('runs').set({ progress: 1 }).execute();", goodFile: 'server/db/repositories/x.ts' },
  { rule: 'the seed and the transaction helper are database code', file: 'server/services/x.ts', bad: "export const f = (db: any) => db.insertInto('users').values({}).execute();", says: sqlOnlyInDb, good: "export const f = (db: any) => [db.insertInto('users'), db.transaction()];", goodFile: 'server/db/seed.ts' },
  {
    rule: 'services open transactions through inTransaction', file: 'server/services/x.ts', bad: 'export const f = (db: any) => db.transaction().execute(async () => 1);', says: sqlOnlyInDb,
    good: "import { inTransaction, type Db } from '../db/transaction.ts';\nexport const f = (db: Db) => inTransaction(db, async (trx) => trx.isTransaction);",
  },
  { rule: 'the knowledge base inserts and deletes through repositories', file: 'server/kb/x.ts', bad: "export const f = (db: any) => [db.insertInto('kb_advisories'), db.deleteFrom('kb_aliases')];", says: sqlOnlyInDb },
  { rule: 'reports write no raw SQL', file: 'server/reports/x.ts', bad: 'export const f = (sql: any) => sql`select 1`;', says: sqlOnlyInDb, good: 'export const f = (rows: number[]) => rows.with(0, 1);', goodFile: 'server/db/repositories/x.ts' },
  { rule: 'uploads update no tables themselves', file: 'server/uploads/x.ts', bad: "export const f = (db: any) => db.updateTable('uploads').set({ status: 1 });", says: sqlOnlyInDb },
  { rule: 'auth builds no CTEs or FROM-less selects', file: 'server/auth/x.ts', bad: "export const f = (db: any) => db.with('t', (q: any) => q).selectNoFrom((eb: any) => eb.val(1).as('one'));", says: sqlOnlyInDb },
  { rule: 'plugins use no sql helpers', file: 'server/plugins/x.ts', bad: "export const f = (sql: any) => sql.raw('select 1');", says: sqlOnlyInDb },
  { rule: 'licences write no upserts or merges', file: 'server/licenses/x.ts', bad: "export const f = (db: any) => [db.replaceInto('kb_licenses'), db.mergeInto('kb_licenses')];", says: sqlOnlyInDb },
  { rule: 'top-level server modules write no queries', file: 'server/worker.ts', bad: "export const f = (db: any) => db.selectFrom('runs').selectAll();", says: sqlOnlyInDb, good: 'export const f = (loop: { execute(): void }) => loop.execute();' },
  { rule: 'server/app.ts writes no queries', file: 'server/app.ts', bad: "export const f = (db: any) => db.deleteFrom('sessions').execute();", says: sqlOnlyInDb },
  {
    rule: 'outside server/db/ kysely gives types only', file: 'server/services/x.ts', bad: "import { sql } from 'kysely';\nexport const a = sql;", says: kyselyTypesOnly,
    good: "import type { Kysely, Transaction } from 'kysely';\nimport { type Selectable } from 'kysely';\nexport type A = [Kysely<never>, Transaction<never>, Selectable<never>];",
  },
  { rule: 'outside server/db/ kysely is no namespace of values', file: 'server/jobs/x.ts', bad: "import * as k from 'kysely';\nexport const a = k;", says: kyselyTypesOnly, good: "import { sql } from 'kysely';\nexport const a = sql;", goodFile: 'server/db/repositories/x.ts' },
  { rule: 'the SQL rule keeps the engine face for dynamic imports', file: 'server/jobs/x.ts', bad: "export const load = () => import('../engine/analyse.ts');", says: 'server/engine/ 只能通过 server/engine/index.ts 引用', good: "export const load = () => import('../engine/index.ts');" },
  { rule: 'the SQL rule keeps the engine face in server/app.ts', file: 'server/app.ts', bad: "export const load = () => import('./engine/scan.ts');", says: 'server/engine/ 只能通过 server/engine/index.ts 引用' },
  { rule: 'the database code keeps the engine face', file: 'server/db/repositories/x.ts', bad: "export const load = () => import('../../engine/scan.ts');", says: 'server/engine/ 只能通过 server/engine/index.ts 引用' },
  // Feature folders: one feature never imports another (shared parts live in common/ or app/), and
  // common/ never imports a feature. Paths are resolved, so every spelling of a path counts.
  { rule: 'a feature imports no other feature', file: 'renderer/features/home/X.tsx', bad: "import { Pager } from '../bug/Pager.tsx'; export const a = Pager;", says: featureRule, good: "import { Pager } from '../../common/list/Pager.tsx'; import { x } from './y.ts'; export const a = [Pager, x];" },
  { rule: 'a feature imports no other feature, by any path', file: 'renderer/features/project/analysis/X.tsx', bad: "import { a } from '../../../features/system/knowledgeBase/x.ts'; export const b = a;", says: featureRule, good: "import { a } from '../tasks/x.ts'; import { b } from '../../../app/router/links.ts'; export const c = [a, b];" },
  { rule: 'a feature re-exports no other feature', file: 'renderer/features/bug/x.ts', bad: "export { a } from '../license/x.ts';", says: featureRule, good: "export { a } from './y.ts';" },
  { rule: 'a feature loads no other feature lazily', file: 'renderer/features/system/screens.ts', bad: "export const s = () => import('../bug/BugListScreen.tsx');", says: featureRule, good: "export const s = () => import('./knowledgeBase/SystemVulScreen.tsx');" },
  { rule: 'common/ imports no feature', file: 'renderer/common/list/X.tsx', bad: "import { a } from '../../features/bug/x.ts'; export const b = a;", says: commonRule, good: "import { a } from '../levels.tsx'; import { b } from '../../app/toaster.ts'; export const c = [a, b];" },
  { rule: 'common/ loads no feature; the router does', file: 'renderer/common/X.ts', bad: "export const s = () => import('../features/bug/X.tsx');", says: commonRule, good: "export const s = () => import('../../features/bug/X.tsx');", goodFile: 'renderer/app/router/screens.ts' },
];

describe('lint boundaries', () => {
  for (const c of cases) {
    const accepts = c.goodFile ? `, ${c.goodFile} accepts it` : '';
    it(`${c.rule}: ${c.file} refuses \`${c.bad.slice(0, 60)}\`${accepts}`, async () => {
      const bad = await messagesOf(c.file, c.bad);
      expect(bad.some((m) => m.includes(c.says)), bad.join('\n')).toBe(true);
      if (c.good !== undefined) {
        const good = await messagesOf(c.goodFile ?? c.file, c.good);
        expect(good.filter((m) => m.includes(c.says))).toEqual([]);
      }
    });
  }

  it('the engine itself and its own unit tests import its modules directly', async () => {
    for (const [file, line] of [
      ['server/engine/x.ts', "import { scanTree } from './scan.ts'; export const a = scanTree;"],
      ['tests/unit/engine/x.test.ts', "import { scanTree } from '../../../server/engine/scan.ts'; export const a = scanTree;"],
    ]) {
      const messages = await messagesOf(file!, line!);
      expect(messages.filter((m) => m.includes('server/engine/ 只能通过')), file).toEqual([]);
    }
  });
});
