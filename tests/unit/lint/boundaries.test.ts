// The import-boundary rules of eslint.config.js (design.md §2 and §9), each shown refusing a file
// that breaks it and accepting one that keeps it. Files are linted as text under a path inside the
// tree, so the real configuration decides; nothing is written.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

async function messagesOf(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
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
}

const cases: Case[] = [
  { rule: 'contract is pure TypeScript', file: 'contract/x.ts', bad: "import fs from 'node:fs'; export const a = fs;", says: 'contract/ 是纯 TypeScript', good: "import { Type } from 'typebox'; export const a = Type;" },
  { rule: 'contract imports no other layer', file: 'contract/x.ts', bad: "import { a } from '../server/app.ts'; export const b = a;", says: 'contract/ 不得引用其他层' },
  { rule: 'renderer never uses Node', file: 'renderer/x.ts', bad: "import fs from 'node:fs'; export const a = fs;", says: 'renderer/ 运行在沙箱中' },
  { rule: 'renderer reaches only contract', file: 'renderer/x.ts', bad: "import { a } from '../server/app.ts'; export const b = a;", says: 'renderer/ 只能引用 contract/', good: "import { ok } from '../contract/envelope.ts'; export const b = ok;" },
  { rule: 'main never imports renderer or server code', file: 'main/x.ts', bad: "import { a } from '../server/app.ts'; export const b = a;", says: 'main/ 通过路径启动已构建的 server' },
  { rule: 'preload holds no logic', file: 'preload/x.ts', bad: "import { a } from '../main/index.ts'; export const b = a;", says: 'preload/ 只由 contract/ 构建' },
  { rule: 'server never uses Electron', file: 'server/x.ts', bad: "import { app } from 'electron'; export const a = app;", says: 'server/ 不得引用 Electron' },
  { rule: 'the engine never reaches the database or routes', file: 'server/engine/x.ts', bad: "import { sql } from 'kysely'; export const a = sql;", says: 'server/engine/ 是纯分析引擎' },
  { rule: 'the platform reaches the engine through its face', file: 'server/jobs/x.ts', bad: "import { analyse } from '../engine/analyse.ts'; export const a = analyse;", says: 'server/engine/ 只能通过 server/engine/index.ts 引用', good: "import { analyseProject } from '../engine/index.ts'; export const a = analyseProject;" },
  { rule: 'the platform reaches the engine through its face', file: 'server/routes/task/x.ts', bad: "import type { Level } from '../../engine/matchers/advisory.ts'; export type A = Level;", says: 'server/engine/ 只能通过 server/engine/index.ts 引用', good: "import type { Level } from '../../engine/index.ts'; export type A = Level;" },
  { rule: 'the CLI reaches the engine through its face', file: 'cli/commands/x.ts', bad: "import { scanTree } from '../../server/engine/scan.ts'; export const a = scanTree;", says: 'server/engine/ 只能通过 server/engine/index.ts 引用', good: "import { scanTree } from '../../server/engine/index.ts'; export const a = scanTree;" },
  { rule: 'the CLI reaches the engine through its face', file: 'cli/commands/x.ts', bad: "export const load = () => import('../../server/engine/extractors/excel/index.ts');", says: 'server/engine/ 只能通过 server/engine/index.ts 引用', good: "export const load = () => import('../../server/engine/index.ts');" },
  { rule: 'benchmarks reach the engine through its face', file: 'bench/x.ts', bad: "import { unpackArchive } from '../server/engine/sources/unpack.ts'; export const a = unpackArchive;", says: 'server/engine/ 只能通过 server/engine/index.ts 引用', good: "import { unpackArchive } from '../server/engine/index.ts'; export const a = unpackArchive;" },
  { rule: 'tests other than the engine\'s own reach it through its face', file: 'tests/integration/engine/x.test.ts', bad: "import { scanTree } from '../../../server/engine/scan.ts'; export const a = scanTree;", says: 'server/engine/ 只能通过 server/engine/index.ts 引用', good: "import { zip } from '../../unit/engine/sources/archives.ts'; export const a = zip;" },
];

describe('lint boundaries', () => {
  for (const c of cases) {
    it(`${c.rule}: ${c.file} refuses \`${c.bad.slice(0, 60)}\``, async () => {
      const bad = await messagesOf(c.file, c.bad);
      expect(bad.some((m) => m.includes(c.says)), bad.join('\n')).toBe(true);
      if (c.good !== undefined) {
        const good = await messagesOf(c.file, c.good);
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
