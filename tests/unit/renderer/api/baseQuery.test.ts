// The envelope base query (spec doc 1 §8): code 1 -> data; code 3 -> session/expired (except
// 用户名或密码错误); other codes -> the message or 请求失败，请稍后重试; 服务未实现 (501) flagged;
// paths from the contract, /binary for (B) calls when the product is not 1.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BaseQueryApi } from '@reduxjs/toolkit/query';
import { createEnvelopeBaseQuery, type ApiError } from '../../../../renderer/api/baseQuery.ts';
import { call, toApiRequest, specCallRef } from '../../../../renderer/api/request.ts';
import { self, modifyPassword, tokenLogin } from '../../../../contract/api/session.ts';
import { platformApi, reminderCount } from '../../../../renderer/api/platformApi.ts';
import { createAppStore } from '../../../../renderer/app/store.ts';
import { sessionActions } from '../../../../renderer/app/sessionSlice.ts';
import { installDesktop } from '../../../../renderer/platform/desktop.ts';
import { STORAGE_KEYS } from '../../../../renderer/app/storage.ts';
import { envelope, fakeDesktop, fakeUser, installMemoryStorage, recordingNotifier } from '../support.ts';

function apiStub(product = 1) {
  const dispatch = vi.fn();
  const api = { dispatch, getState: () => ({ session: { product } }) } as unknown as BaseQueryApi;
  return { api, dispatch };
}

describe('createEnvelopeBaseQuery', () => {
  it('code 1 answers the envelope data', async () => {
    const bq = createEnvelopeBaseQuery(async () => envelope(1, '操作成功', { userId: 1 }));
    const { api, dispatch } = apiStub();
    const r = await bq(call(self), api, {});
    expect(r).toMatchObject({ data: { userId: 1 } });
    expect(r.error).toBeUndefined();
    expect(dispatch).not.toHaveBeenCalled();
  });

  it('code 3 dispatches session/expired and answers a session error', async () => {
    const bq = createEnvelopeBaseQuery(async () => envelope(3, '登录已过期'));
    const { api, dispatch } = apiStub();
    const r = await bq(call(self), api, {});
    expect(dispatch).toHaveBeenCalledTimes(1);
    const action = dispatch.mock.calls[0]![0];
    expect(action.type).toBe('session/expired');
    expect(action.payload).toEqual({ message: '登录已过期' });
    expect(r.error).toMatchObject({ kind: 'envelope', code: 3, message: '登录已过期', sessionExpired: true });
  });

  it('code 3 with 用户名或密码错误 is passed through as an error, the session is not ended', async () => {
    const bq = createEnvelopeBaseQuery(async () => envelope(3, '用户名或密码错误'));
    const { api, dispatch } = apiStub();
    const r = await bq(call(tokenLogin, { query: { key: 'k' } }), api, {});
    expect(dispatch).not.toHaveBeenCalled();
    expect(r.error).toMatchObject({ code: 3, message: '用户名或密码错误', sessionExpired: false });
  });

  it('other codes answer their message, or 请求失败，请稍后重试 without one', async () => {
    const { api } = apiStub();
    const withMessage = await createEnvelopeBaseQuery(async () => envelope(0, '原密码错误'))(call(modifyPassword, { body: { oldPassword: 'a', password: 'b' } }), api, {});
    expect(withMessage.error).toMatchObject({ kind: 'envelope', code: 0, message: '原密码错误', notImplemented: false, sessionExpired: false });
    const without = await createEnvelopeBaseQuery(async () => envelope(2, ''))(call(self), api, {});
    expect(without.error?.message).toBe('请求失败，请稍后重试');
  });

  it('a failure that names its field carries it, so a form shows the message there', async () => {
    const { api } = apiStub();
    const bq = createEnvelopeBaseQuery(async () => ({ ok: true, value: { code: 0, message: '名称已存在', data: null, field: 'subjectTypeName' } }));
    const r = await bq(call(self), api, {});
    expect(r.error).toMatchObject({ kind: 'envelope', message: '名称已存在', field: 'subjectTypeName' });
    const plain = await createEnvelopeBaseQuery(async () => envelope(0, '原密码错误'))(call(self), api, {});
    expect(plain.error && 'field' in plain.error).toBe(false);
  });

  it('withMessage keeps the message of a success; a refusal stays an error', async () => {
    const { api } = apiStub();
    const launched = await createEnvelopeBaseQuery(async () => envelope(1, 'SUCCESS', { projectId: 5, taskId: 9 }))(call(self), api, { withMessage: true });
    expect(launched.data).toEqual({ projectId: 5, taskId: 9, message: 'SUCCESS' });
    const refused = await createEnvelopeBaseQuery(async () => envelope(0, '项目名称已存在'))(call(self), api, { withMessage: true });
    expect(refused.error).toMatchObject({ message: '项目名称已存在' });
    const plain = await createEnvelopeBaseQuery(async () => envelope(1, 'SUCCESS', { projectId: 5 }))(call(self), api, {});
    expect(plain.data).toEqual({ projectId: 5 });
  });

  it('服务未实现 (HTTP 501 behind code 0) is flagged as not implemented', async () => {
    const { api, dispatch } = apiStub();
    const r = await createEnvelopeBaseQuery(async () => envelope(0, '服务未实现'))(call(specCallRef('remind.queryVul', 'GET', '/api/user/queryVul')), api, { quiet: true });
    expect(r.error).toMatchObject({ message: '服务未实现', notImplemented: true, sessionExpired: false });
    expect(r.meta).toEqual({ quiet: true, call: 'remind.queryVul' });
    expect(dispatch).not.toHaveBeenCalled();
  });

  it('a failed bridge call answers its Chinese message', async () => {
    const { api } = apiStub();
    const r = await createEnvelopeBaseQuery(async () => ({ ok: false, error: { code: 'platform-down', message: '无法连接平台' } }))(call(self), api, {});
    expect(r.error).toMatchObject({ kind: 'bridge', code: 'platform-down', message: '无法连接平台' });
    const thrown = await createEnvelopeBaseQuery(async () => {
      throw new Error('IPC 通道已关闭');
    })(call(self), api, {});
    expect(thrown.error).toMatchObject({ kind: 'bridge', message: 'IPC 通道已关闭' });
    const garbage = await createEnvelopeBaseQuery(async () => ({ ok: true, value: 'html' }))(call(self), api, {});
    expect(garbage.error?.message).toBe('请求失败，请稍后重试');
  });

  it('sends the contract path, method, query and body', async () => {
    const seen: unknown[] = [];
    const bq = createEnvelopeBaseQuery(async (req) => {
      seen.push(req);
      return envelope(1, 'ok', null);
    });
    const { api } = apiStub();
    await bq(call(modifyPassword, { body: { oldPassword: 'Old#1234', password: 'New#1234' } }), api, {});
    await bq(call(tokenLogin, { query: { key: 'abc' } }), api, {});
    expect(seen).toEqual([
      { method: 'PATCH', path: '/api/user/modify', body: { oldPassword: 'Old#1234', password: 'New#1234' } },
      { method: 'POST', path: '/api/token/login', query: { key: 'abc' } },
    ]);
  });
});

describe('toApiRequest', () => {
  const subject = { name: 'subject.get', method: 'GET' as const, path: '/api/subject/{id}', binaryVariant: true };
  it('fills path parameters (URI-encoded)', () => {
    expect(toApiRequest({ call: subject, params: { id: 'a b' } }, 1).path).toBe('/api/subject/a%20b');
  });
  it('uses the binary variant only for (B) calls when the product is not 1', () => {
    expect(toApiRequest({ call: subject, params: { id: 3 } }, 1).path).toBe('/api/subject/3');
    expect(toApiRequest({ call: subject, params: { id: 3 } }, 2).path).toBe('/api/binary/subject/3');
    expect(toApiRequest({ call: subject, params: { id: 3 } }, 3).path).toBe('/api/binary/subject/3');
    expect(toApiRequest(call(self), 2).path).toBe('/api/user/self');
  });
  it('drops empty query values', () => {
    expect(toApiRequest({ call: subject, params: { id: 1 }, query: { page: 1, sort: undefined as unknown as string } }, 1).query).toEqual({ page: 1 });
  });
  it('refuses a call the spec does not list', () => {
    expect(() => specCallRef('x', 'GET', '/api/not/in/spec')).toThrow(/规格中没有此接口/);
  });
});

describe('reminderCount', () => {
  it('reads a number or a count-like field, else null (no badge)', () => {
    expect(reminderCount(4)).toBe(4);
    expect(reminderCount({ total: 2 })).toBe(2);
    expect(reminderCount({ count: 0 })).toBe(0);
    expect(reminderCount(null)).toBeNull();
    expect(reminderCount({ list: [] })).toBeNull();
  });
});

describe('the store wiring', () => {
  let restoreStorage: () => void;
  let storage: Storage;
  beforeEach(() => {
    const installed = installMemoryStorage();
    restoreStorage = installed.restore;
    storage = installed.storage;
  });
  afterEach(() => {
    installDesktop(null);
    restoreStorage();
  });

  it('code 3 from any call ends the session: storage cleared except the product, the reason kept for the login screen', async () => {
    const { api } = fakeDesktop(() => envelope(3, '会话已失效，请重新登录'));
    installDesktop(api);
    storage.setItem(STORAGE_KEYS.product, '2');
    storage.setItem(STORAGE_KEYS.batchTaskSelection, '[1,2]');
    storage.setItem('other', 'x');
    const { notifier, messages } = recordingNotifier();
    const store = createAppStore({ notifier, product: 2 });
    store.dispatch(sessionActions.loggedIn(fakeUser()));

    const r = await store.dispatch(platformApi.endpoints.self.initiate(undefined, { subscribe: false }));
    expect(r.error).toMatchObject({ sessionExpired: true });
    const s = store.getState().session;
    expect(s.status).toBe('anonymous');
    expect(s.user).toBeNull();
    expect(s.product).toBe(2);
    expect(s.endedReason).toBe('会话已失效，请重新登录');
    expect(storage.getItem(STORAGE_KEYS.product)).toBe('2');
    expect(storage.getItem(STORAGE_KEYS.batchTaskSelection)).toBeNull();
    expect(storage.getItem('other')).toBeNull();
    expect(messages).toEqual([]); // no toast: the login screen shows endedReason
    // then every cached answer of the old session is dropped
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(Object.keys(store.getState().platform.queries)).toEqual([]);
  });

  it('the session ending stops the reminder poll', async () => {
    vi.useFakeTimers();
    try {
      let answer = envelope(1, 'ok', 3);
      const { api, calls } = fakeDesktop(() => answer);
      installDesktop(api);
      const store = createAppStore();
      store.dispatch(sessionActions.loggedIn(fakeUser()));
      store.dispatch(platformApi.endpoints.reminders.initiate(undefined, { subscriptionOptions: { pollingInterval: 60_000 } }));
      await vi.advanceTimersByTimeAsync(10);
      expect(calls.length).toBe(1);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(calls.length).toBe(2);
      answer = envelope(3, '会话已失效');
      await vi.advanceTimersByTimeAsync(60_000);
      expect(calls.length).toBe(3);
      expect(store.getState().session.status).toBe('anonymous');
      await vi.advanceTimersByTimeAsync(180_000);
      expect(calls.length).toBe(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it('the reminder poll answering 服务未实现 stays quiet', async () => {
    const { api, calls } = fakeDesktop(() => envelope(0, '服务未实现'));
    installDesktop(api);
    const { notifier, messages } = recordingNotifier();
    const store = createAppStore({ notifier });
    store.dispatch(sessionActions.loggedIn(fakeUser()));
    const r = await store.dispatch(platformApi.endpoints.reminders.initiate(undefined, { subscribe: false }));
    expect(calls).toEqual([{ method: 'GET', path: '/api/user/queryVul' }]);
    expect(r.error).toMatchObject({ notImplemented: true });
    expect(r.data).toBeUndefined();
    expect(messages).toEqual([]);
    expect(store.getState().session.status).toBe('authenticated');
  });

  it('a failing call that is not quiet shows its message once', async () => {
    const { api } = fakeDesktop(() => envelope(0, '名称已存在'));
    installDesktop(api);
    const { notifier, messages } = recordingNotifier();
    const store = createAppStore({ notifier });
    const extended = platformApi.injectEndpoints({
      endpoints: (build) => ({
        testLoud: build.mutation<null, void>({ query: () => call({ name: 'test.loud', method: 'POST', path: '/api/subject/create' }) }),
      }),
    });
    const r = await store.dispatch(extended.endpoints.testLoud.initiate());
    expect((r as { error?: ApiError }).error?.message).toBe('名称已存在');
    expect(messages).toEqual([{ kind: 'error', message: '名称已存在' }]);
  });

  it('the product selector is persisted', () => {
    const store = createAppStore({ product: 1 });
    store.dispatch(sessionActions.productChanged(3));
    expect(store.getState().session.product).toBe(3);
    expect(storage.getItem(STORAGE_KEYS.product)).toBe('3');
  });

  it('binary-variant calls follow the product in the store', async () => {
    const { api, calls } = fakeDesktop(() => envelope(1, 'ok', []));
    installDesktop(api);
    const store = createAppStore({ product: 2 });
    const extended = platformApi.injectEndpoints({
      endpoints: (build) => ({
        testSubjects: build.query<unknown, void>({ query: () => call({ name: 'subject.list', method: 'POST', path: '/api/subject/list', binaryVariant: true }) }),
      }),
    });
    await store.dispatch(extended.endpoints.testSubjects.initiate(undefined, { subscribe: false }));
    expect(calls[0]?.path).toBe('/api/binary/subject/list');
  });
});
