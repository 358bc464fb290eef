// The boundary rules of eslint.config.js (design.md §2 and §9): the import boundaries, ipcMain only
// in main/ipc/, window.desktop only in renderer/platform/ and the renderer's feature folders (no
// feature imports another, common/ imports none), each shown refusing a file that breaks it and
// accepting one that keeps it. Files are linted as text under a path inside the tree, so the
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
const featureRule = 'features/<area>/ 之间不得互相引用';
const commonRule = 'common/ 不得引用 features/';

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
});
