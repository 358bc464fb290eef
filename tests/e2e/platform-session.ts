// A platform session of the test's own, beside the browser's: the embedded platform's URL comes
// from the bridge, then a CSRF token and an admin login. Specs seed data and check answers with it.
import { expect, request as playwrightRequest, type APIRequestContext, type Page } from '@playwright/test';
import { PASSWORD } from './admin-login.ts';

export interface Envelope<T = unknown> { code: number; message: string; data: T }

export async function platformSession(page: Page): Promise<APIRequestContext> {
  const status = await page.evaluate(() => window.desktop!.platform.status({}));
  if (!status.ok || !status.value.url) throw new Error(`本机平台地址不可用：${JSON.stringify(status)}`);
  const ctx = await playwrightRequest.newContext({ baseURL: status.value.url });
  const csrf = (await (await ctx.post('/api/csrf')).json()) as Envelope<{ token: string; header: string }>;
  const headers = { [csrf.data.header]: csrf.data.token };
  const login = (await (await ctx.post('/api/login', { headers, data: { username: 'admin', password: PASSWORD } })).json()) as Envelope;
  expect(login.code, login.message).toBe(1);
  const out = await playwrightRequest.newContext({ baseURL: status.value.url, extraHTTPHeaders: headers, storageState: await ctx.storageState() });
  await ctx.dispose();
  return out;
}

/** One call; fails the test unless the envelope says success. Its data. */
export async function call<T>(ctx: APIRequestContext, method: 'GET' | 'POST' | 'PUT', path: string, data?: unknown): Promise<T> {
  const res = method === 'GET' ? await ctx.get(path) : method === 'PUT' ? await ctx.put(path, { data }) : await ctx.post(path, { data });
  const env = (await res.json()) as Envelope<T>;
  expect(env.code, `${method} ${path}: ${env.message}`).toBe(1);
  return env.data;
}
