// 目录登录 against a real OpenLDAP (tests/support/slapd.ts: Debian's slapd on loopback, ldap:// with
// StartTLS and ldaps:// under a throwaway CA), on both databases: the configuration's calls
// (permission, checks with their Chinese messages, the service password encrypted and never
// answered, audit rows with the caller's address), testLogin's explicit diagnostics, and
// /api/login of directory users (created on first login as type 2 with the default role, profile
// refreshed at each login, wrong passwords refused and counted towards the lock, names escaped in
// the filter), over LDAPS with the test CA and refused cleanly without it.
import { Client } from 'ldapts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, adminClient, databases, signIn, startServer, type TestClient, type TestServer } from './harness.ts';
import { groupDn, personDn, SLAPD_ADMIN, SLAPD_BASE_DN, SLAPD_PEOPLE_DN, SLAPD_READER, startSlapd, type TestSlapd } from '../../support/slapd.ts';

let slapd: TestSlapd;
beforeAll(async () => {
  slapd = await startSlapd();
}, 60_000);
afterAll(async () => {
  await slapd?.stop();
});

const BAD_CREDENTIALS = '用户名或密码错误';
const UNAVAILABLE = '目录服务暂时无法使用，请稍后再试或联系管理员';

describe.each(databases)('目录登录 on $name', (database) => {
  let server: TestServer;
  let admin: TestClient;
  let ordinaryRoleId: number;
  let configId: number;

  beforeAll(async () => {
    server = await startServer(database);
    admin = await adminClient(server);
    ordinaryRoleId = (await server.app.cairn.db.selectFrom('roles').select('id').where('code', '=', 3).executeTakeFirstOrThrow()).id;
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  const form = (patch: Record<string, unknown> = {}) => ({
    enabled: true,
    url: slapd.url,
    startTls: false,
    bindDn: SLAPD_READER.dn,
    bindPassword: SLAPD_READER.password,
    baseDn: SLAPD_PEOPLE_DN,
    userFilter: '(&(objectClass=inetOrgPerson)(uid={username}))',
    usernameAttribute: 'uid',
    nameAttribute: 'cn',
    emailAttribute: 'mail',
    phoneAttribute: 'telephoneNumber',
    defaultRoleId: ordinaryRoleId,
    groupBaseDn: '',
    groupFilter: '',
    groupMappings: [],
    caCertificate: '',
    connectTimeoutSeconds: 3,
    timeoutSeconds: 5,
    ...patch,
  });
  const save = (patch: Record<string, unknown> = {}) => admin.request({ method: 'PUT', url: `/api/ldapConfig/${configId}`, body: form(patch) });
  const auditRows = async (action: string) =>
    (await server.app.cairn.db.selectFrom('audit_log').select(['user_id', 'detail']).where('action', '=', action).orderBy('id').execute())
      .map((r) => ({ userId: r.user_id, detail: JSON.parse(r.detail) as Record<string, unknown> }));
  const userRow = (username: string) => server.app.cairn.db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
  const login = (username: string, password: string) => server.client().login(username, password);

  it('refuses the calls without a session and without the permission; isLdapLogin needs neither', async () => {
    const anonymous = server.client();
    const get = await anonymous.request({ method: 'GET', url: '/api/ldapConfig' });
    expect(get.status).toBe(401);
    expect(get.body.code).toBe(3);
    await anonymous.fetchCsrf();
    expect((await anonymous.request({ method: 'POST', url: '/api/ldapConfig/testLogin', body: { username: 'alice', password: 'x' } })).status).toBe(401);

    const { client: user } = await signIn(server, 'uma', 'Uma@123456');
    for (const [method, url, body] of [['GET', '/api/ldapConfig'], ['POST', '/api/ldapConfig', form()], ['PUT', '/api/ldapConfig/1', form()], ['POST', '/api/ldapConfig/testLogin', { username: 'alice', password: 'x' }]] as const) {
      const reply = await user.request({ method, url, ...(body ? { body } : {}) });
      expect(reply.status, `${method} ${url}`).toBe(403);
      expect(reply.body.message).toBe('Permission denied');
    }
    expect(await server.app.cairn.db.selectFrom('ldap_configs').selectAll().execute()).toEqual([]);

    const off = await server.client().request({ method: 'GET', url: '/api/isLdapLogin' });
    expect(off.body).toMatchObject({ code: 1, data: false });
    expect((await admin.request({ method: 'GET', url: '/api/ldapConfig' })).body).toMatchObject({ code: 1, data: null });
  });

  it('refuses a hostile or inconsistent configuration with a message beside its field, saving nothing', async () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ url: 'http://127.0.0.1:389' }, 'LDAP 地址只支持 ldap:// 或 ldaps://', 'url'],
      [{ url: 'not a url' }, 'LDAP 地址无效，请填写 ldap://主机[:端口] 或 ldaps://主机[:端口]', 'url'],
      [{ url: 'ldap://reader:secret@127.0.0.1/dc=x?uid' }, 'LDAP 地址只填写协议、主机和端口，不要包含路径、查询参数或账号', 'url'],
      [{ url: slapd.ldapsUrl, startTls: true }, 'ldaps:// 已是加密连接，无需再启用 StartTLS', 'startTls'],
      [{ baseDn: 'people' }, '基础 DN 格式不正确', 'baseDn'],
      [{ userFilter: '(uid=alice)' }, '用户过滤条件必须包含 {username}', 'userFilter'],
      [{ userFilter: '(&(uid={username})' }, '用户过滤条件不是有效的 LDAP 过滤器', 'userFilter'],
      [{ usernameAttribute: 'uid)(cn=*' }, '用户名属性不是有效的 LDAP 属性名', 'usernameAttribute'],
      [{ emailAttribute: 'mail;x y' }, '邮箱属性不是有效的 LDAP 属性名', 'emailAttribute'],
      [{ defaultRoleId: 99999 }, '默认角色不存在', 'defaultRoleId'],
      [{ groupFilter: '(member=x)' }, '组过滤条件必须包含 {dn}', 'groupFilter'],
      [{ groupBaseDn: 'groups' }, '组基础 DN 格式不正确', 'groupBaseDn'],
      [{ groupMappings: [{ groupDn: groupDn('developers'), groupId: 1 }] }, '配置组映射时请填写组过滤条件', 'groupFilter'],
      [{ groupFilter: '(member={dn})', groupMappings: [{ groupDn: groupDn('developers'), groupId: 99999 }] }, '组织不存在：99999', 'groupMappings'],
      [{ caCertificate: '-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----' }, 'CA 证书不是有效的 PEM 证书', 'caCertificate'],
      [{ caCertificate: slapd.caPem }, '只有 ldaps:// 或启用 StartTLS 时才会使用 CA 证书', 'caCertificate'],
      [{ bindPassword: '' }, '填写绑定 DN 时请填写绑定密码', 'bindPassword'],
    ];
    for (const [patch, message, field] of cases) {
      const reply = await admin.request({ method: 'POST', url: '/api/ldapConfig', body: form(patch) });
      expect(reply.body, JSON.stringify(patch)).toMatchObject({ code: 0, message, field });
    }
    // Out of the contract's bounds: refused before the service sees it.
    for (const patch of [{ connectTimeoutSeconds: 0 }, { timeoutSeconds: 1000 }, { url: 'x'.repeat(600) }, { groupMappings: [{ groupDn: 'cn=x', groupId: -1 }] }]) {
      expect((await admin.request({ method: 'POST', url: '/api/ldapConfig', body: form(patch) })).status, JSON.stringify(patch)).toBe(400);
    }
    expect(await server.app.cairn.db.selectFrom('ldap_configs').selectAll().execute()).toEqual([]);
  });

  it('creates the configuration once, the service password encrypted at rest and never answered, audited with the address', async () => {
    const created = await admin.request({ method: 'POST', url: '/api/ldapConfig', body: form() });
    expect(created.body).toMatchObject({
      code: 1, message: '保存成功',
      data: { enabled: true, url: slapd.url, bindDn: SLAPD_READER.dn, hasBindPassword: true, defaultRoleId: ordinaryRoleId, defaultRoleName: '普通用户', updatedBy: '系统管理员' },
    });
    expect(created.body.data).not.toHaveProperty('bindPassword');
    expect(JSON.stringify(created.body)).not.toContain(SLAPD_READER.password);
    configId = created.body.data.id as number;

    const [stored] = await server.app.cairn.db.selectFrom('ldap_configs').select('bind_password').execute();
    expect(stored!.bind_password).toMatch(/^v1:/);
    expect(stored!.bind_password).not.toContain(SLAPD_READER.password);

    const got = await admin.request({ method: 'GET', url: '/api/ldapConfig' });
    expect(got.body.data).toMatchObject({ id: configId, hasBindPassword: true });
    expect(JSON.stringify(got.body)).not.toContain(SLAPD_READER.password);

    const [row] = await auditRows('ldap.config.create');
    expect(row).toMatchObject({ detail: { id: configId, ip: '127.0.0.1', bindPassword: 'set', after: { url: slapd.url, bindDn: SLAPD_READER.dn } } });
    expect(JSON.stringify(row)).not.toContain(SLAPD_READER.password);

    expect((await admin.request({ method: 'POST', url: '/api/ldapConfig', body: form() })).body).toMatchObject({ code: 0, message: 'LDAP 配置已存在，请修改现有配置' });
    expect((await admin.request({ method: 'PUT', url: `/api/ldapConfig/${configId + 1}`, body: form() })).body).toMatchObject({ code: 0, message: 'LDAP 配置不存在' });

    // Saving without a password keeps the stored one.
    const kept = await save({ bindPassword: undefined });
    expect(kept.body.data).toMatchObject({ hasBindPassword: true });
    expect((await server.app.cairn.db.selectFrom('ldap_configs').select('bind_password').executeTakeFirstOrThrow()).bind_password).toBe(stored!.bind_password);
    expect((await auditRows('ldap.config.update')).at(-1)!.detail).toMatchObject({ ip: '127.0.0.1', bindPassword: 'kept', before: { url: slapd.url } });

    expect((await server.client().request({ method: 'GET', url: '/api/isLdapLogin' })).body.data).toBe(true);
  });

  it('testLogin answers what a login would make of an account, and says exactly what failed', async () => {
    const ok = await admin.request({ method: 'POST', url: '/api/ldapConfig/testLogin', body: { username: 'alice', password: 'Alice#Dir1' } });
    expect(ok.body).toMatchObject({
      code: 1, message: '测试登录成功',
      data: { userDn: personDn('alice'), username: 'alice', name: '王爱丽', email: 'alice@cairn.test', phone: '+86 10 5555 0101', groups: [], account: null },
    });

    const explicit: Array<[Record<string, unknown>, string]> = [
      [{ username: 'alice', password: 'wrong' }, '用户“alice”的目录密码错误'],
      [{ username: 'nobody', password: 'whatever' }, '目录中没有找到用户“nobody”'],
      [{ username: 'alice', password: 'x', config: form({ bindPassword: 'wrong' }) }, '服务账号绑定失败：绑定 DN 或密码错误'],
      [{ username: 'alice', password: 'x', config: form({ url: 'ldap://127.0.0.1:1' }) }, '无法连接目录服务器 127.0.0.1:1：连接被拒绝（请检查主机和端口）'],
      [{ username: 'alice', password: 'x', config: form({ baseDn: `ou=nowhere,${SLAPD_BASE_DN}` }) }, `基础 DN 不存在：ou=nowhere,${SLAPD_BASE_DN}`],
      [{ username: 'alice', password: 'x', config: form({ url: slapd.ldapsUrl }) }, `与目录服务器 ${new URL(slapd.ldapsUrl).host} 的 TLS 握手失败：服务器证书不受信任（请填写签发它的 CA 证书）`],
      [{ username: 'alice', password: 'x', config: form({ startTls: true }) }, `与目录服务器 ${new URL(slapd.url).host} 的 TLS 握手失败：服务器证书不受信任（请填写签发它的 CA 证书）`],
      [{ username: '*', password: 'Alice#Dir1' }, '目录中没有找到用户“*”'],
      [{ username: 'alice', password: 'x', config: form({ userFilter: '(|(uid={username})(objectClass=inetOrgPerson))' }) }, '目录中有多个条目匹配用户“alice”，请收紧用户过滤条件'],
    ];
    for (const [body, message] of explicit) {
      const reply = await admin.request({ method: 'POST', url: '/api/ldapConfig/testLogin', body });
      expect(reply.body, JSON.stringify(body)).toMatchObject({ code: 0, message });
    }
    // The form's values are tested, not saved; the stored password stands in for a blank one.
    const starttls = await admin.request({ method: 'POST', url: '/api/ldapConfig/testLogin', body: { username: 'bob', password: 'Bob#Dir22', config: form({ startTls: true, caCertificate: slapd.caPem, bindPassword: '' }) } });
    expect(starttls.body).toMatchObject({ code: 1, data: { username: 'bob', name: 'Bob Li' } });
    expect((await server.app.cairn.db.selectFrom('ldap_configs').select('start_tls').executeTakeFirstOrThrow()).start_tls).toBeFalsy();

    const rows = await auditRows('ldap.testLogin');
    expect(rows[0]).toMatchObject({ detail: { ip: '127.0.0.1', username: 'alice', ok: true } });
    expect(rows.some((r) => r.detail.failure === 'badPassword')).toBe(true);
    expect(JSON.stringify(rows)).not.toContain('Alice#Dir1');
  });

  it('signs a directory user in, creating the account on first login as type 2 with the default role', async () => {
    const client = server.client();
    const reply = await client.login('alice', 'Alice#Dir1');
    expect(reply.body).toMatchObject({ code: 1, data: { username: 'alice', name: '王爱丽', userType: 2, roleName: '普通用户', updatedPwd: true, email: 'alice@cairn.test' } });
    const row = await userRow('alice');
    expect(row).toMatchObject({ user_type: 2, name: '王爱丽', email: 'alice@cairn.test', phone: '+86 10 5555 0101' });
    expect(row!.password_hash).not.toMatch(/^scrypt/);
    const roles = await server.app.cairn.db.selectFrom('user_roles').select('role_id').where('user_id', '=', row!.id).execute();
    expect(roles).toEqual([{ role_id: ordinaryRoleId }]);
    expect((await auditRows('user.created.directory'))[0]).toMatchObject({ userId: row!.id, detail: { dn: personDn('alice'), roleId: ordinaryRoleId, ip: '127.0.0.1' } });
    expect((await client.request({ method: 'GET', url: '/api/user/self' })).body.data).toMatchObject({ username: 'alice', userType: 2 });

    // Its password is the directory's: it cannot be changed here, nor used as a local one.
    const change = await client.request({ method: 'PATCH', url: '/api/user/modify', body: { oldPassword: 'Alice#Dir1', password: 'Another#Pw9' } });
    expect(change.body).toMatchObject({ code: 0, message: '目录用户的密码由目录服务管理，请在目录中修改' });

    // The second login finds the same account.
    expect((await login('alice', 'Alice#Dir1')).body.code).toBe(1);
    expect(await server.app.cairn.db.selectFrom('users').select('id').where('username', '=', 'alice').execute()).toHaveLength(1);
  });

  it('refuses a wrong password, an unknown name and a wildcard alike, and escapes the name in the filter', async () => {
    for (const [username, password] of [['alice', 'wrong'], ['nobody', 'Alice#Dir1'], ['*', 'Alice#Dir1'], ['al*', 'Alice#Dir1'], ['alice)(uid=*', 'Alice#Dir1']]) {
      const reply = await login(username!, password!);
      expect(reply.body, username).toMatchObject({ code: 0, message: BAD_CREDENTIALS });
    }
    expect(await userRow('*')).toBeUndefined();
    // A name holding the filter's special characters is found because they are escaped.
    expect((await login('dev(ops)*', 'DevOps#Dir4')).body).toMatchObject({ code: 1, data: { username: 'dev(ops)*', name: 'Dev Ops' } });
  });

  it('refreshes name, e-mail and phone from the directory at each login', async () => {
    const { Attribute, Change } = await import('ldapts');
    const change = async (mail: string, phone: string[]) => {
      const directory = new Client({ url: slapd.url });
      await directory.bind(SLAPD_ADMIN.dn, SLAPD_ADMIN.password);
      await directory.modify(personDn('alice'), [
        new Change({ operation: 'replace', modification: new Attribute({ type: 'mail', values: [mail] }) }),
        new Change({ operation: 'replace', modification: new Attribute({ type: 'telephoneNumber', values: phone }) }),
      ]);
      await directory.unbind();
    };
    await change('alice.wang@cairn.test', []);
    try {
      expect((await login('alice', 'Alice#Dir1')).body).toMatchObject({ code: 1, data: { email: 'alice.wang@cairn.test', phone: null } });
      expect(await userRow('alice')).toMatchObject({ email: 'alice.wang@cairn.test', phone: null });
      expect((await auditRows('user.profile.synced.directory')).at(-1)!.detail).toMatchObject({ before: { email: 'alice@cairn.test' }, after: { email: 'alice.wang@cairn.test', phone: null } });
    } finally {
      // The directory is shared by both databases' runs.
      await change('alice@cairn.test', ['+86 10 5555 0101']);
    }
  });

  it('offers the roles and organisation groups, and joins and leaves mapped groups at each login, before the grant', async () => {
    const db = server.app.cairn.db;
    const at = new Date().toISOString();
    const group = async (name: string, pid: number | null) => (await db.insertInto('subject_groups').values({ name, pid, created_at: at }).returning('id').executeTakeFirstOrThrow()).id;
    const rd = await group('研发部', null);
    const platform = await group('平台组', rd);
    const manual = await group('手工组', null);
    const choices = await admin.request({ method: 'GET', url: '/api/ldapConfig/choices' });
    expect(choices.body.data.roles).toEqual(expect.arrayContaining([{ id: ordinaryRoleId, name: '普通用户' }]));
    expect(choices.body.data.groups).toEqual(expect.arrayContaining([{ id: platform, name: '研发部 / 平台组' }, { id: rd, name: '研发部' }]));

    const alice = (await userRow('alice'))!;
    await db.insertInto('user_groups').values({ user_id: alice.id, group_id: manual }).execute();
    const mappings = [{ groupDn: groupDn('developers'), groupId: platform }, { groupDn: groupDn('auditors').toUpperCase(), groupId: rd }];
    const groups = { groupBaseDn: `ou=groups,${SLAPD_BASE_DN}`, groupFilter: '(&(objectClass=groupOfNames)(member={dn}))' };
    expect((await save({ ...groups, groupMappings: mappings, bindPassword: undefined })).body.data.groupMappings).toEqual(mappings);

    const tested = await admin.request({ method: 'POST', url: '/api/ldapConfig/testLogin', body: { username: 'alice', password: 'Alice#Dir1' } });
    expect(tested.body.data).toMatchObject({ groups: [groupDn('developers')], mappedGroupIds: [platform], account: { userId: alice.id, userType: 2 } });

    const client = server.client();
    expect((await client.login('alice', 'Alice#Dir1')).body.code).toBe(1);
    const memberships = async () => (await db.selectFrom('user_groups').select('group_id').where('user_id', '=', alice.id).orderBy('group_id').execute()).map((r) => r.group_id);
    expect(await memberships()).toEqual([platform, manual].sort((a, b) => a - b));
    expect((await auditRows('user.groups.synced.directory')).at(-1)!.detail).toMatchObject({ before: [], after: [platform] });
    // The login's grant was taken with its roles: the guard reads it.
    const granted = await db.selectFrom('users').select(['granted_permissions', 'granted_data_permission']).where('id', '=', alice.id).executeTakeFirstOrThrow();
    expect(granted.granted_data_permission).not.toBeNull();

    // No longer mapped from a group alice is in: she leaves it; the unmapped group stays.
    await save({ ...groups, groupMappings: [{ groupDn: groupDn('auditors'), groupId: platform }], bindPassword: undefined });
    expect((await login('alice', 'Alice#Dir1')).body.code).toBe(1);
    expect(await memberships()).toEqual([manual]);
    await save({ bindPassword: undefined });
  });

  it('counts a directory user\'s wrong passwords towards the lock', async () => {
    expect((await login('bob', 'Bob#Dir22')).body.code).toBe(1);
    for (let i = 0; i < 5; i++) expect((await login('bob', `wrong-${i}`)).body.message).toBe(BAD_CREDENTIALS);
    const locked = await login('bob', 'Bob#Dir22');
    expect(locked.body.code).toBe(0);
    expect(locked.body.message).toMatch(/^账号已锁定，请 \d+ 分钟后再试$/);
    expect((await auditRows('user.locked')).at(-1)!.detail).toMatchObject({ directory: 'badPassword', failures: 5 });
  });

  it('keeps platform users on their own password, the built-in admin included', async () => {
    // carol is a platform user here; the directory's carol cannot take over the account.
    await server.addUser('carol', 'Carol@Local1');
    expect((await login('carol', 'Carol#Dir3')).body).toMatchObject({ code: 0, message: BAD_CREDENTIALS });
    expect((await login('carol', 'Carol@Local1')).body).toMatchObject({ code: 1, data: { userType: 0 } });
    expect((await login('admin', ADMIN_PASSWORD)).body).toMatchObject({ code: 0, message: BAD_CREDENTIALS });
    expect((await login('admin', 'Cairn@456x')).body.code).toBe(1);
  });

  it('signs in over LDAPS with the test CA, and refuses cleanly without it', async () => {
    expect((await save({ url: slapd.ldapsUrl, bindPassword: undefined })).body.code).toBe(1);
    const refused = await login('alice', 'Alice#Dir1');
    expect(refused.body).toMatchObject({ code: 0, message: UNAVAILABLE });
    // The same answer for a name no one has: it tells nothing about which names exist.
    expect((await login('nobody', 'x')).body).toMatchObject({ code: 0, message: UNAVAILABLE });
    expect((await auditRows('login.directory.unavailable')).at(-1)!.detail).toMatchObject({ failure: 'tls', username: 'nobody' });

    expect((await save({ url: slapd.ldapsUrl, caCertificate: slapd.caPem, bindPassword: undefined })).body.data).toMatchObject({ caCertificate: expect.stringContaining('BEGIN CERTIFICATE') });
    expect((await login('alice', 'Alice#Dir1')).body).toMatchObject({ code: 1, data: { username: 'alice' } });
    expect((await login('alice', 'wrong')).body).toMatchObject({ code: 0, message: BAD_CREDENTIALS });

    // StartTLS on the plain port with the same CA.
    expect((await save({ startTls: true, caCertificate: slapd.caPem, bindPassword: undefined })).body.code).toBe(1);
    expect((await login('alice', 'Alice#Dir1')).body.code).toBe(1);
  });

  it('answers an unreachable directory with one message for every name', async () => {
    expect((await save({ url: 'ldap://127.0.0.1:1', bindPassword: undefined })).body.code).toBe(1);
    for (const name of ['alice', 'nobody']) expect((await login(name, 'Alice#Dir1')).body).toMatchObject({ code: 0, message: UNAVAILABLE });
    expect((await auditRows('login.directory.unavailable')).at(-1)!.detail).toMatchObject({ failure: 'unreachable' });
  });

  it('turned off, signs no directory user in', async () => {
    expect((await save({ enabled: false, bindPassword: undefined })).body.data).toMatchObject({ enabled: false });
    expect((await login('alice', 'Alice#Dir1')).body).toMatchObject({ code: 0, message: BAD_CREDENTIALS });
    expect((await server.client().request({ method: 'GET', url: '/api/isLdapLogin' })).body.data).toBe(false);
  });
});
