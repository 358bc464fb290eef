// `cairn access list|disable`: the IP access rules of 安全管控 as an operator sees and lifts them
// on the platform's database directly (platform-db.ts finds it), for administrators the rules shut
// out — no running platform and no administrator needed. A running platform sees a change within a
// few seconds. `disable` writes an audit row with no user (action accessRule.disabled.cli).
import { parseArgs } from 'node:util';
import { platformDatabase } from './platform-db.ts';

export const accessUsage = `用法：
  cairn access list [--data-dir <目录>]
      列出平台的 IP 访问规则（编号、地址或网段、允许/拒绝、适用用户、状态、备注）。
  cairn access disable <编号>… [--data-dir <目录>]
  cairn access disable --all [--data-dir <目录>]
      停用指定的规则，或全部已启用的规则：管理员被 IP 规则挡在门外时用它恢复访问。
      运行中的平台在几秒内生效；规则保留，可在 系统管理 › 安全管控 中修改后重新启用。

数据库与平台相同：--data-dir <目录>（其中的 cairn.db），否则环境变量 DATABASE_URL（postgres://…），
否则 CAIRN_DATA_DIR，否则桌面客户端内嵌平台的数据目录（CAIRN_HOME 或系统应用数据目录下的 Cairn/platform）。`;

export interface AccessCommandIo {
  /** Standard output: the rule list. */
  out: (text: string) => void;
  /** Standard error: what was done, or why not. */
  err: (text: string) => void;
  env?: NodeJS.ProcessEnv;
}

const ACTION = { ALLOW: '允许', DENY: '拒绝' } as const;

/** The exit code: 0 done, 1 refused (no database, unknown rule), 2 usage. */
export async function accessCommand(args: string[], io: AccessCommandIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: { 'data-dir': { type: 'string' }, all: { type: 'boolean' } } });
  } catch (error) {
    io.err(`${error instanceof Error ? error.message : String(error)}\n\n${accessUsage}`);
    return 2;
  }
  const [sub, ...rest] = parsed.positionals;
  if (sub !== 'list' && sub !== 'disable') {
    io.err(`${sub ? `未知的 access 子命令：${sub}\n\n` : ''}${accessUsage}`);
    return 2;
  }
  const all = parsed.values.all === true;
  const ids = rest.map(Number);
  if (sub === 'list' && (rest.length || all)) {
    io.err(`list 不接受参数\n\n${accessUsage}`);
    return 2;
  }
  if (sub === 'disable' && (all === (rest.length > 0) || ids.some((id) => !Number.isInteger(id) || id < 1))) {
    io.err(`${rest.length && all ? '请指定规则编号或 --all，不能同时使用' : rest.length ? `规则编号须为正整数：${rest.join(' ')}` : '请指定规则编号，或 --all 停用全部规则'}\n\n${accessUsage}`);
    return 2;
  }

  let database;
  try {
    database = platformDatabase(parsed.values['data-dir'], io.env ?? process.env);
  } catch (error) {
    io.err(error instanceof Error ? error.message : String(error));
    return 1;
  }
  // The platform's code is loaded for a command, not for its usage.
  const [{ openDatabase }, { migrateToLatest }, { accessRuleRecords }, { disableAccessRulesByCli }, { isUserError }] = await Promise.all([
    import('../../server/db/connect.ts'), import('../../server/db/migrations/index.ts'), import('../../server/db/repositories/access-rules.ts'),
    import('../../server/services/access-rules.ts'), import('../../server/errors.ts'),
  ]);
  const { db, kind } = openDatabase(database.config);
  try {
    await migrateToLatest(db, kind);
    if (sub === 'list') {
      const rules = await accessRuleRecords(db);
      if (!rules.length) io.err(`没有 IP 访问规则：任何地址都可以访问平台。数据库：${database.label}`);
      for (const r of rules) {
        const users = r.scope === 'ALL' ? '全部用户' : r.users.map((u) => u.username).join(',') || '（无）';
        io.out(`${[r.id, r.address, ACTION[r.action], users, r.enabled ? '已启用' : '已停用', r.remark].join('\t')}\n`);
      }
      return 0;
    }
    const disabled = await disableAccessRulesByCli(db, all ? 'all' : ids);
    io.err(disabled.length
      ? `已停用 ${disabled.length} 条规则：${disabled.map((r) => `${r.id} ${r.address}（${ACTION[r.action]}）`).join('、')}。运行中的平台几秒内生效。数据库：${database.label}`
      : `没有需要停用的规则（已全部停用）。数据库：${database.label}`);
    return 0;
  } catch (error) {
    if (!isUserError(error)) throw error;
    io.err(error.message);
    return 1;
  } finally {
    await db.destroy();
  }
}
