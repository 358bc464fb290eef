// Logs are structured JSON and never carry credentials: passwords, tokens, cookies, CSRF tokens.
import { beforeAll, describe, expect, it } from 'vitest';
import { createPersonalToken } from '../../../server/db/repositories/personal-tokens.ts';
import { databases, useServer } from './harness.ts';

describe.each(databases)('logging on $name', (database) => {
  const lines: string[] = [];
  const server = useServer(database, { logLevel: 'info', logStream: { write: (line) => { lines.push(line); } } });
  beforeAll(async () => {
    server.app.get('/api/test/boom', async () => { throw new Error('boom'); });
    await server.addUser('frank', 'Frank@12345');
  });

  it('writes JSON lines without secrets', async () => {
    const client = server.client();
    await client.login('frank', 'Wrong$ecret-123');
    await client.login('frank', 'Frank@12345');
    const frank = await server.app.cairn.db.selectFrom('users').select('id').where('username', '=', 'frank').executeTakeFirstOrThrow();
    const key = await createPersonalToken(server.app.cairn.db, { userId: frank.id, name: 'ci', expiresAt: null });
    await server.client().request({ method: 'POST', url: `/api/token/login?key=${key}` });
    await client.request({ method: 'GET', url: '/api/test/boom' });

    expect(lines.length).toBeGreaterThan(0);
    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records.some((r) => r.level === 50)).toBe(true);
    const all = lines.join('\n');
    for (const secret of ['Wrong$ecret-123', 'Frank@12345', key, client.cookies.get('cairn_session')!, client.cookies.get('cairn_csrf')!, client.csrfToken!]) {
      expect(all).not.toContain(secret);
    }
    expect(all).toContain('/api/token/login?key=[已隐藏]');
  });
});
