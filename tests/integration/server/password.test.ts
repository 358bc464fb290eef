// First login forces a password change; the policy is enforced; a change ends every session.
import { describe, expect, it } from 'vitest';
import { putSetting } from '../../../server/db/repositories/settings.ts';
import { ADMIN_PASSWORD, databases, useServer } from './harness.ts';

describe.each(databases)('initial password and password change on $name', (database) => {
  const server = useServer(database);

  it('lets the seeded admin in with updatedPwd false and refuses other calls until it changes', async () => {
    const client = server.client();
    const login = await client.login('admin', ADMIN_PASSWORD);
    expect(login.body).toMatchObject({ code: 1, data: { username: 'admin', name: '系统管理员', roleCodes: [2], dataPermissionEnum: 'ALL', updatedPwd: false } });

    expect((await client.request({ method: 'GET', url: '/api/user/self' })).body.code).toBe(1);
    for (const call of [
      { method: 'GET' as const, url: '/api/system/access/allUser/list' },
      { method: 'PATCH' as const, url: '/api/user/modifyPersonalInformation', body: { name: '改名' } },
    ]) {
      const refused = await client.request(call);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ code: 0, message: '请先修改初始密码', data: null });
    }
  });

  it('checks the old password, the policy and that the new one differs', async () => {
    const client = server.client();
    await client.login('admin', ADMIN_PASSWORD);
    const change = (oldPassword: string, password: string) =>
      client.request({ method: 'PATCH', url: '/api/user/modify', body: { oldPassword, password } });

    expect((await change('wrong', 'Better@2024')).body).toEqual({ code: 0, message: '原密码错误', data: null });
    expect((await change(ADMIN_PASSWORD, 'short')).body).toEqual({ code: 0, message: '密码由8位及以上大写字母、小写字母、数字、特殊字符组成', data: null });
    expect((await change(ADMIN_PASSWORD, 'alllowercase1!')).body.message).toBe('密码由8位及以上大写字母、小写字母、数字、特殊字符组成');
    expect((await change(ADMIN_PASSWORD, ADMIN_PASSWORD)).body).toEqual({ code: 0, message: '新密码不能与原密码相同', data: null });
    // Still signed in: refused changes end nothing.
    expect((await client.request({ method: 'GET', url: '/api/user/self' })).body.data.updatedPwd).toBe(false);
  });

  it('follows the stored policy: a blank length falls back to 6, no flags means all four', async () => {
    const db = server.app.cairn.db;
    await putSetting(db, 'password_policy', { length: '', uppercase: false, lowercase: true, digit: false, special: false });
    const client = server.client();
    await client.login('admin', ADMIN_PASSWORD);
    const self = await client.request({ method: 'GET', url: '/api/user/self' });
    expect(self.body.data.passwordPolicy).toEqual({ length: 6, uppercase: false, lowercase: true, digit: false, special: false });
    const reply = await client.request({ method: 'PATCH', url: '/api/user/modify', body: { oldPassword: ADMIN_PASSWORD, password: 'ABCDEF' } });
    expect(reply.body.message).toBe('密码由6位及以上小写字母组成');
    await putSetting(db, 'password_policy', { length: 8, uppercase: true, lowercase: true, digit: true, special: true });
  });

  it('on success ends every session of the user and requires the new password', async () => {
    const first = server.client();
    const second = server.client();
    await first.login('admin', ADMIN_PASSWORD);
    await second.login('admin', ADMIN_PASSWORD);

    const changed = await first.request({ method: 'PATCH', url: '/api/user/modify', body: { oldPassword: ADMIN_PASSWORD, password: 'Better@2024' } });
    expect(changed.body).toEqual({ code: 1, message: '修改成功，请用新密码登录', data: null });

    for (const client of [first, second]) {
      const stale = await client.request({ method: 'GET', url: '/api/user/self' });
      expect(stale.status).toBe(401);
      expect(stale.body.code).toBe(3);
    }
    expect((await first.login('admin', ADMIN_PASSWORD)).body.message).toBe('用户名或密码错误');
    const again = await first.login('admin', 'Better@2024');
    expect(again.body).toMatchObject({ code: 1, data: { updatedPwd: true } });
    expect((await first.request({ method: 'GET', url: '/api/system/access/allUser/list' })).body.code).toBe(1);

    const row = await server.app.cairn.db.selectFrom('users').select('password_changed_at').where('username', '=', 'admin').executeTakeFirstOrThrow();
    expect(row.password_changed_at).toMatch(/^\d{4}-\d\d-\d\dT/);
  });
});
