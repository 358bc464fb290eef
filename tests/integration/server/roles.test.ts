// 角色 over HTTP (/api/role/*, spec doc 2 §6): the role list with holders and codes, and who may
// read it. SQLite and PostgreSQL.
import { beforeAll, describe, expect, it } from 'vitest';
import { ALL_PERMISSION_CODES } from '../../../contract/permissions.ts';
import { adminClient, databases, signIn, useServer, type TestClient } from './harness.ts';

const PASSWORD = 'Pass@12345';

describe.each(databases)('角色 on $name', (database) => {
  const server = useServer(database);
  let admin: TestClient;
  let user: TestClient;

  beforeAll(async () => {
    admin = await adminClient(server);
    user = (await signIn(server, 'uma', PASSWORD)).client;
  });

  it('lists the built-in roles with their holders, codes and data permission', async () => {
    const reply = await admin.request({ method: 'GET', url: '/api/role/roleList' });
    expect(reply.body.code).toBe(1);
    const [domainAdmin, ordinary, ...rest] = reply.body.data;
    expect(rest).toEqual([]);
    expect(domainAdmin).toMatchObject({ code: 2, name: '域管理员', remark: '', dataPermissionEnum: 'ALL', builtin: true, users: 1 });
    expect([...domainAdmin.permissions].sort()).toEqual([...ALL_PERMISSION_CODES].sort());
    expect(ordinary).toMatchObject({ code: 3, name: '普通用户', dataPermissionEnum: 'SELF', builtin: true, users: 1 });
    expect(ordinary.permissions).toContain('project:list');
    expect(ordinary.permissions).not.toContain('setup:user:role:list');
  });

  it('refuses without a session and without the permission', async () => {
    const anonymous = await server.client().request({ method: 'GET', url: '/api/role/roleList' });
    expect(anonymous.body.code).toBe(3);
    const refused = await user.request({ method: 'GET', url: '/api/role/roleList' });
    expect(refused.status).toBe(403);
    expect(refused.body.code).not.toBe(1);
  });
});
