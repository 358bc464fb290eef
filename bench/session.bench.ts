// The session area over real HTTP on loopback against a SQLite platform: what a login costs
// (scrypt dominates, by design), and what an authenticated call and the guard cost.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../server/app.ts';
import { hashPassword, verifyPassword } from '../server/auth/password.ts';
import { measure } from './measure.ts';

export async function run(): Promise<void> {
  const hash = await hashPassword('Cairn#2026safe');
  await measure('scrypt 校验密码（N=16384）', 50, () => verifyPassword('Cairn#2026safe', hash));

  const dir = mkdtempSync(join(tmpdir(), 'cairn-bench-'));
  const app = await buildApp({ database: { kind: 'sqlite', file: join(dir, 'cairn.db') }, logLevel: 'silent' });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  try {
    const csrf = await fetch(`${base}/api/csrf`, { method: 'POST' });
    const cookie = csrf.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    const { data } = (await csrf.json()) as { data: { token: string } };
    const headers = { cookie, 'x-csrf-token': data.token, 'content-type': 'application/json' };
    const login = () => fetch(`${base}/api/login`, { method: 'POST', headers, body: JSON.stringify({ username: 'admin', password: 'Cairn@123' }) });

    await measure('POST /api/login（HTTP，含 scrypt）', 50, login);
    const session = (await login()).headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    const authed = { ...headers, cookie: `${cookie}; ${session}` };
    await measure('GET /api/user/self（已登录）', 2000, () => fetch(`${base}/api/user/self`, { headers: authed }).then((r) => r.arrayBuffer()));
    await measure('GET /api/health（免登录）', 2000, () => fetch(`${base}/api/health`).then((r) => r.arrayBuffer()));
    await measure('未实现接口 → 501（目录匹配）', 2000, () => fetch(`${base}/api/ssh/list`, { headers: authed }).then((r) => r.arrayBuffer()));
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
