// `cairn user unlock|reset-password <name>`: the way back into a platform whose administrators are
// locked out or have forgotten their password. They act on the platform's database directly
// (platform-db.ts finds it), so no running platform and no administrator are needed; the platform
// may be running meanwhile (SQLite in WAL mode, or PostgreSQL) and sees the change at the next
// login. Each writes an audit row with no user (action user.unlocked.cli / user.password.reset.cli).
import { parseArgs } from 'node:util';
import { platformDatabase } from './platform-db.ts';

export const userUsage = `用法：
  cairn user unlock <用户名> [--data-dir <目录>]
      解除账号的锁定（管理员锁定和登录失败后的自动锁定），并清零登录失败次数。
  cairn user reset-password <用户名> [--password-stdin] [--data-dir <目录>]
      为账号设置临时密码，用户下次登录时须修改密码；账号的会话随之结束，自动锁定解除。
      默认生成一个强随机密码并输出到标准输出；--password-stdin 从标准输入读取一行作为新密码
      （须符合平台的密码策略）。

数据库与平台相同：--data-dir <目录>（其中的 cairn.db），否则环境变量 DATABASE_URL（postgres://…），
否则 CAIRN_DATA_DIR，否则桌面客户端内嵌平台的数据目录（CAIRN_HOME 或系统应用数据目录下的 Cairn/platform）。`;

export interface UserCommandIo {
  stdin: NodeJS.ReadableStream;
  /** Standard output: the generated password only, so a script can read it. */
  out: (text: string) => void;
  /** Standard error: what was done, or why not. */
  err: (text: string) => void;
  env?: NodeJS.ProcessEnv;
}

async function readAll(input: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of input) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** The exit code: 0 done, 1 refused (unknown user, no database, a password the policy refuses), 2 usage. */
export async function userCommand(args: string[], io: UserCommandIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: { 'data-dir': { type: 'string' }, 'password-stdin': { type: 'boolean' } } });
  } catch (error) {
    io.err(`${error instanceof Error ? error.message : String(error)}\n\n${userUsage}`);
    return 2;
  }
  const [sub, username, ...extra] = parsed.positionals;
  if (sub !== 'unlock' && sub !== 'reset-password') {
    io.err(`${sub ? `未知的 user 子命令：${sub}\n\n` : ''}${userUsage}`);
    return 2;
  }
  if (!username || extra.length) {
    io.err(`${username ? `多余的参数：${extra.join(' ')}` : '请指定用户名'}\n\n${userUsage}`);
    return 2;
  }
  if (sub === 'unlock' && parsed.values['password-stdin']) {
    io.err(`--password-stdin 只用于 reset-password\n\n${userUsage}`);
    return 2;
  }

  let password: string | undefined;
  if (parsed.values['password-stdin']) {
    password = (await readAll(io.stdin)).replace(/\r?\n$/, '');
    if (!password) {
      io.err('标准输入中没有密码');
      return 1;
    }
  }

  let database;
  try {
    database = platformDatabase(parsed.values['data-dir'], io.env ?? process.env);
  } catch (error) {
    io.err(error instanceof Error ? error.message : String(error));
    return 1;
  }
  // The platform's code is loaded for a command, not for its usage.
  const [{ openDatabase }, { migrateToLatest }, { resetPasswordByName, unlockByName }, { isUserError }] = await Promise.all([
    import('../../server/db/connect.ts'), import('../../server/db/migrations/index.ts'),
    import('../../server/services/user-locks.ts'), import('../../server/errors.ts'),
  ]);
  const { db, kind } = openDatabase(database.config);
  try {
    // The same migrations the platform runs at start: a database of an older release gains the
    // lock columns these commands write.
    await migrateToLatest(db, kind);
    if (sub === 'unlock') {
      const { before } = await unlockByName(db, username);
      const was = before.lockedByAdmin ? '管理员锁定' : before.lockedUntil && Date.parse(before.lockedUntil) > Date.now() ? '登录失败自动锁定' : null;
      io.err(was ? `已解锁用户 ${username}（原为${was}）。数据库：${database.label}` : `用户 ${username} 未被锁定，已清零登录失败次数。数据库：${database.label}`);
    } else {
      const reset = await resetPasswordByName(db, username, password);
      if (password === undefined) io.out(`${reset.password}\n`);
      io.err(`已为用户 ${username} 设置临时密码${password === undefined ? '（见上）' : ''}，下次登录时须修改密码。数据库：${database.label}`);
      if (reset.lockedByAdmin) io.err(`该账号仍被管理员锁定：运行 cairn user unlock ${username} 解除`);
    }
    return 0;
  } catch (error) {
    if (!isUserError(error)) throw error;
    io.err(error.message);
    return 1;
  } finally {
    await db.destroy();
  }
}
