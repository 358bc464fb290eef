// As an attacker would: every call the platform implements — source and binary variants alike,
// the ones issue 17 added among them (leak information and rules, influence, scan configuration)
// — is refused without a session and with a forged session cookie, with the session envelope and
// no data. Only the calls the spec exempts from login (login, captcha, token login ...) answer.
import { describe, expect, it } from 'vitest';
import { implementedCalls } from '../../../contract/api/index.ts';
import { binaryPath, type CallSpec } from '../../../contract/api/define.ts';
import { databases, useServer } from './harness.ts';

const calls = (Object.values(implementedCalls) as CallSpec[]).filter((c) => !c.loginExempt);
const urls = calls.flatMap((call) => {
  const paths = call.binaryVariant ? [call.path, binaryPath(call.path)] : [call.path];
  return paths.map((p) => ({ method: call.method, url: p.replace(/\{\w+\}/g, '1') }));
});

describe.each(databases)('calls without a session on %s', (database) => {
  const server = useServer(database);

  it('refuses every call that needs a session, with no cookie and with a forged one', async () => {
    expect(urls.some((u) => u.url.startsWith('/api/binary/leakinfo/'))).toBe(true);
    expect(urls.some((u) => u.url.startsWith('/api/system/scan/'))).toBe(true);
    for (const { method, url } of urls) {
      for (const cookie of [undefined, 'cairn_session=forged-token']) {
        const reply = await server.app.inject({
          method: method as 'GET',
          url,
          headers: { ...(cookie && { cookie }), ...(method !== 'GET' && { 'content-type': 'application/json' }) },
          ...(method !== 'GET' && method !== 'DELETE' && { payload: '{}' }),
        });
        const what = `${method} ${url} ${cookie ?? '(no cookie)'}`;
        expect([401, 403], what).toContain(reply.statusCode);
        const body = reply.json() as { code: number; data: unknown };
        expect(body.code, what).not.toBe(1);
        expect(body.data, what).toBeNull();
      }
    }
  }, 120_000);
});
