// 目录登录 commands: the one LDAP configuration (create, change: checked, the service account's
// password encrypted before it reaches the database and never answered, audited with the
// caller's address), testLogin (an administrator's explicit check of the whole path with a
// directory account, the form's unsaved values or the saved ones), and `directoryLogin`, what
// /api/login asks when a name is not a platform user's (services/sessions.ts).
import type { LdapConfig, LdapConfigForm, LdapGroupMapping, LdapTestLogin, LdapTestResult } from '../../contract/api/ldap.ts';
import { LDAP_DN_PLACEHOLDER, LDAP_USERNAME_PLACEHOLDER } from '../../contract/api/ldap.ts';
import {
  authenticate, checkCaCertificate, checkLdapUrl, DirectoryError, fillFilter, isAttributeName, isFilter, LDAP_MSG, USER_FAILURES,
  type DirectoryAccount, type DirectoryFailure, type DirectorySettings,
} from '../auth/ldap.ts';
import { audit } from '../db/repositories/audit-log.ts';
import {
  existingGroupIds, findLdapConfig, groupMappingsOf, insertLdapConfig, ldapConfigRow, ldapLoginEnabled, ordinaryRoleId, roleNamed, updateLdapConfig,
  type LdapConfigRecord, type LdapConfigValues,
} from '../db/repositories/ldap-config.ts';
import { findUserByUsername } from '../db/repositories/users.ts';
import { inTransaction, type Db } from '../db/transaction.ts';
import { UserError } from '../errors.ts';
import { decryptSecret, encryptSecret } from '../secrets.ts';

const CONFIG_MSG = {
  exists: 'LDAP 配置已存在，请修改现有配置',
  notFound: 'LDAP 配置不存在',
  notConfigured: '尚未保存 LDAP 配置，请先填写并保存',
  roleMissing: '默认角色不存在',
  groupMissing: (ids: number[]) => `组织不存在：${ids.join('、')}`,
  groupDnInvalid: (dn: string) => `目录组 DN 格式不正确：${dn}`,
  bindPasswordMissing: '填写绑定 DN 时请填写绑定密码',
  passwordUndecryptable: '已保存的绑定密码无法解密（密钥文件已更换），请重新填写绑定密码',
  usernameTooLong: '目录中的用户名超过 100 个字符，无法登录',
} as const;

const ATTRIBUTE_LABELS = { usernameAttribute: '用户名属性', nameAttribute: '姓名属性', emailAttribute: '邮箱属性', phoneAttribute: '手机号属性' } as const;

/** A DirectoryError as the refusal an administrator reads, beside the field to fix when there is one. */
const refusal = (error: DirectoryError): UserError =>
  new UserError(error.message, USER_FAILURES.has(error.failure) ? 'invalid' : error.failure === 'config' ? 'invalid' : 'unavailable', error.field ? { field: error.field, cause: error } : { cause: error });

const asRefusal = <T>(check: () => T): T => {
  try {
    return check();
  } catch (error) {
    if (error instanceof DirectoryError) throw refusal(error);
    throw error;
  }
};

/** The same DN for comparison: case and the spaces after separators do not count. */
export const normaliseDn = (dn: string): string => dn.trim().replace(/\s*([,=+])\s*/g, '$1').toLowerCase();

/**
 * The form checked and normalised, the password still in clear (`bindPassword`: undefined keeps the
 * stored one, null removes it). `stored` is the saved configuration it changes, if any.
 */
async function checkedForm(db: Db, form: LdapConfigForm, stored: LdapConfigRecord | undefined): Promise<Omit<LdapConfigValues, 'bindPassword'> & { bindPassword: string | null | undefined }> {
  const url = asRefusal(() => checkLdapUrl(form.url));
  if (form.startTls && url.startsWith('ldaps:')) throw new UserError(LDAP_MSG.startTlsWithLdaps, 'invalid', { field: 'startTls' });
  const baseDn = form.baseDn.trim();
  if (!baseDn.includes('=')) throw new UserError(LDAP_MSG.baseDnInvalid, 'invalid', { field: 'baseDn' });
  // A DN, or what Active Directory also binds with (user@domain, DOMAIN\user).
  const bindDn = form.bindDn.trim();

  const userFilter = form.userFilter.trim();
  if (!userFilter.includes(LDAP_USERNAME_PLACEHOLDER)) throw new UserError(LDAP_MSG.filterPlaceholder, 'invalid', { field: 'userFilter' });
  if (!isFilter(fillFilter(userFilter, LDAP_USERNAME_PLACEHOLDER, 'x'))) throw new UserError(LDAP_MSG.filterInvalid, 'invalid', { field: 'userFilter' });

  const attributes = {
    usernameAttribute: form.usernameAttribute.trim(),
    nameAttribute: form.nameAttribute.trim(),
    emailAttribute: form.emailAttribute.trim(),
    phoneAttribute: form.phoneAttribute.trim(),
  };
  for (const [key, value] of Object.entries(attributes) as Array<[keyof typeof attributes, string]>) {
    const optional = key === 'emailAttribute' || key === 'phoneAttribute';
    if ((value || !optional) && !isAttributeName(value)) throw new UserError(LDAP_MSG.attributeInvalid(ATTRIBUTE_LABELS[key]), 'invalid', { field: key });
  }

  if (!(await roleNamed(db, form.defaultRoleId))) throw new UserError(CONFIG_MSG.roleMissing, 'not-found', { field: 'defaultRoleId' });

  const groupBaseDn = form.groupBaseDn.trim();
  if (groupBaseDn && !groupBaseDn.includes('=')) throw new UserError(LDAP_MSG.groupBaseDnInvalid, 'invalid', { field: 'groupBaseDn' });
  const groupFilter = form.groupFilter.trim();
  if (groupFilter) {
    if (!groupFilter.includes(LDAP_DN_PLACEHOLDER)) throw new UserError(LDAP_MSG.groupFilterPlaceholder, 'invalid', { field: 'groupFilter' });
    if (!isFilter(fillFilter(groupFilter, LDAP_DN_PLACEHOLDER, 'cn=x'))) throw new UserError(LDAP_MSG.groupFilterInvalid, 'invalid', { field: 'groupFilter' });
  }
  const groupMappings: LdapGroupMapping[] = [];
  const seen = new Set<string>();
  for (const m of form.groupMappings) {
    const groupDn = m.groupDn.trim();
    if (!groupDn.includes('=')) throw new UserError(CONFIG_MSG.groupDnInvalid(groupDn), 'invalid', { field: 'groupMappings' });
    const key = `${normaliseDn(groupDn)}\u0000${m.groupId}`;
    if (seen.has(key)) continue;
    seen.add(key);
    groupMappings.push({ groupDn, groupId: m.groupId });
  }
  if (groupMappings.length && !groupFilter) throw new UserError(LDAP_MSG.groupFilterMissing, 'invalid', { field: 'groupFilter' });
  const ids = [...new Set(groupMappings.map((m) => m.groupId))];
  const found = new Set(await existingGroupIds(db, ids));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length) throw new UserError(CONFIG_MSG.groupMissing(missing), 'not-found', { field: 'groupMappings' });

  const caCertificate = form.caCertificate.trim();
  if (caCertificate) {
    asRefusal(() => checkCaCertificate(caCertificate));
    if (!url.startsWith('ldaps:') && !form.startTls) throw new UserError(LDAP_MSG.caWithoutTls, 'invalid', { field: 'caCertificate' });
  }

  let bindPassword: string | null | undefined;
  if (form.bindPassword) bindPassword = form.bindPassword;
  else if (form.clearBindPassword || !stored) bindPassword = null;
  const keepsPassword = bindPassword === undefined ? !!stored?.bind_password : bindPassword !== null;
  if (bindDn && !keepsPassword) throw new UserError(CONFIG_MSG.bindPasswordMissing, 'invalid', { field: 'bindPassword' });

  return {
    enabled: form.enabled, url, startTls: form.startTls, bindDn, bindPassword, baseDn, userFilter, ...attributes,
    defaultRoleId: form.defaultRoleId, groupBaseDn, groupFilter, groupMappings, caCertificate: caCertificate ? `${caCertificate}\n` : '',
    connectTimeoutSeconds: form.connectTimeoutSeconds, timeoutSeconds: form.timeoutSeconds,
  };
}

/** What an audit row says of a configuration: everything but the password. */
const auditView = (v: Omit<LdapConfigValues, 'bindPassword'> | LdapConfig) => ({
  enabled: v.enabled, url: v.url, startTls: v.startTls, bindDn: v.bindDn, baseDn: v.baseDn, userFilter: v.userFilter,
  usernameAttribute: v.usernameAttribute, nameAttribute: v.nameAttribute, emailAttribute: v.emailAttribute, phoneAttribute: v.phoneAttribute,
  defaultRoleId: v.defaultRoleId, groupBaseDn: v.groupBaseDn, groupFilter: v.groupFilter, groupMappings: v.groupMappings, caCertificate: v.caCertificate ? 'set' : 'none',
  connectTimeoutSeconds: v.connectTimeoutSeconds, timeoutSeconds: v.timeoutSeconds,
});

export const ldapConfig = (db: Db): Promise<LdapConfig | null> => ldapConfigRow(db);

export const isLdapLoginEnabled = (db: Db): Promise<boolean> => ldapLoginEnabled(db);

/** `POST /api/ldapConfig`: the first configuration; a second is refused (change the first). */
export async function createLdapConfig(db: Db, dataDir: string, actorId: number, form: LdapConfigForm, ip: string): Promise<LdapConfig> {
  await inTransaction(db, async (trx) => {
    if (await findLdapConfig(trx)) throw new UserError(CONFIG_MSG.exists, 'conflict');
    const checked = await checkedForm(trx, form, undefined);
    const values: LdapConfigValues = { ...checked, bindPassword: checked.bindPassword ? encryptSecret(dataDir, checked.bindPassword) : null };
    const id = await insertLdapConfig(trx, actorId, values);
    await audit(trx, { userId: actorId, action: 'ldap.config.create', detail: { id, ip, after: auditView(checked), bindPassword: values.bindPassword ? 'set' : 'none' } });
  });
  return (await ldapConfigRow(db))!;
}

/** `PUT /api/ldapConfig/{id}`. */
export async function editLdapConfig(db: Db, dataDir: string, actorId: number, id: number, form: LdapConfigForm, ip: string): Promise<LdapConfig> {
  await inTransaction(db, async (trx) => {
    const stored = await findLdapConfig(trx);
    if (!stored || stored.id !== id) throw new UserError(CONFIG_MSG.notFound, 'not-found');
    const before = (await ldapConfigRow(trx))!;
    const checked = await checkedForm(trx, form, stored);
    const bindPassword = typeof checked.bindPassword === 'string' ? encryptSecret(dataDir, checked.bindPassword) : checked.bindPassword;
    await updateLdapConfig(trx, id, actorId, { ...checked, bindPassword });
    await audit(trx, {
      userId: actorId,
      action: 'ldap.config.update',
      detail: { id, ip, before: auditView(before), after: auditView(checked), bindPassword: bindPassword === undefined ? 'kept' : bindPassword === null ? 'removed' : 'changed' },
    });
  });
  return (await ldapConfigRow(db))!;
}

function settingsOf(v: Omit<LdapConfigValues, 'bindPassword'>, bindPassword: string | null): DirectorySettings {
  return {
    url: v.url, startTls: v.startTls, bindDn: v.bindDn, bindPassword, baseDn: v.baseDn, userFilter: v.userFilter,
    usernameAttribute: v.usernameAttribute, nameAttribute: v.nameAttribute, emailAttribute: v.emailAttribute, phoneAttribute: v.phoneAttribute,
    groupBaseDn: v.groupBaseDn, groupFilter: v.groupFilter, caCertificate: v.caCertificate, connectTimeoutSeconds: v.connectTimeoutSeconds, timeoutSeconds: v.timeoutSeconds,
  };
}

function storedPassword(dataDir: string, record: LdapConfigRecord | undefined): string | null {
  if (!record?.bind_password) return null;
  try {
    return decryptSecret(dataDir, record.bind_password);
  } catch (error) {
    throw new DirectoryError('serviceBind', CONFIG_MSG.passwordUndecryptable, 'bindPassword', { cause: error });
  }
}

const recordValues = (r: LdapConfigRecord, defaultRoleId: number): Omit<LdapConfigValues, 'bindPassword'> => ({
  enabled: Boolean(r.enabled), url: r.url, startTls: Boolean(r.start_tls), bindDn: r.bind_dn, baseDn: r.base_dn, userFilter: r.user_filter,
  usernameAttribute: r.username_attribute, nameAttribute: r.name_attribute, emailAttribute: r.email_attribute, phoneAttribute: r.phone_attribute,
  defaultRoleId, groupBaseDn: r.group_base_dn, groupFilter: r.group_filter, groupMappings: groupMappingsOf(r), caCertificate: r.ca_certificate,
  connectTimeoutSeconds: r.connect_timeout_seconds, timeoutSeconds: r.timeout_seconds,
});

/** The organisation groups the mappings give a member of `groups` (existing groups only). */
async function mappedGroups(db: Db, mappings: readonly LdapGroupMapping[], groups: readonly string[]): Promise<{ mapped: number[]; managed: number[] }> {
  const memberOf = new Set(groups.map(normaliseDn));
  const managed = await existingGroupIds(db, mappings.map((m) => m.groupId));
  const mapped = mappings.filter((m) => memberOf.has(normaliseDn(m.groupDn)) && managed.includes(m.groupId)).map((m) => m.groupId);
  return { mapped: [...new Set(mapped)].sort((a, b) => a - b), managed: managed.sort((a, b) => a - b) };
}

/**
 * `POST /api/ldapConfig/testLogin`: the whole path of a directory login with `username` and
 * `password` (connect, TLS, service bind, search, user bind, groups), against the form's values
 * when given (a blank password: the stored one) or the saved configuration. Explicit: an
 * administrator is told exactly which step failed. Changes nothing but its audit row.
 */
export async function testLdapLogin(db: Db, dataDir: string, actorId: number, body: LdapTestLogin, ip: string): Promise<LdapTestResult> {
  const stored = await findLdapConfig(db);
  let values: Omit<LdapConfigValues, 'bindPassword'>;
  let bindPassword: string | null;
  const started = Date.now();
  const record = async (outcome: Record<string, unknown>) =>
    inTransaction(db, (trx) => audit(trx, { userId: actorId, action: 'ldap.testLogin', detail: { ip, username: body.username, ...outcome } }));
  try {
    if (body.config) {
      const checked = await checkedForm(db, body.config, stored);
      values = checked;
      bindPassword = checked.bindPassword === undefined ? storedPassword(dataDir, stored) : checked.bindPassword;
    } else {
      if (!stored) throw new UserError(CONFIG_MSG.notConfigured, 'not-found');
      values = recordValues(stored, stored.default_role_id ?? (await ordinaryRoleId(db)));
      bindPassword = storedPassword(dataDir, stored);
    }
    const account = await authenticate(settingsOf(values, bindPassword), body.username, body.password);
    const { mapped } = await mappedGroups(db, values.groupMappings, account.groups);
    const existing = await findUserByUsername(db, account.username);
    await record({ ok: true, dn: account.dn });
    return {
      userDn: account.dn, username: account.username, name: account.name, email: account.email, phone: account.phone,
      groups: account.groups, mappedGroupIds: mapped,
      account: existing ? { userId: existing.id, userType: existing.userType } : null,
      elapsedMs: Date.now() - started,
    };
  } catch (error) {
    if (error instanceof DirectoryError) {
      await record({ ok: false, failure: error.failure });
      throw refusal(error);
    }
    throw error;
  }
}

/** What /api/login learns from the directory about a name that is not a platform user's. */
export type DirectoryOutcome =
  | { ok: true; account: DirectoryAccount; defaultRoleId: number; mappedGroupIds: number[]; managedGroupIds: number[] }
  | { ok: false; failure: DirectoryFailure; message: string };

/** What services/sessions.ts asks at login; null from `authenticate` when directory login is off. */
export interface DirectoryLogin {
  authenticate(username: string, password: string): Promise<DirectoryOutcome | null>;
}

/** Directory login over the saved configuration, read afresh at each login (a change applies at once). */
export function directoryLogin(db: Db, dataDir: string): DirectoryLogin {
  return {
    async authenticate(username, password) {
      const stored = await findLdapConfig(db);
      if (!stored || !stored.enabled) return null;
      const values = recordValues(stored, stored.default_role_id ?? (await ordinaryRoleId(db)));
      try {
        const account = await authenticate(settingsOf(values, storedPassword(dataDir, stored)), username, password);
        if (account.username.length > 100) return { ok: false, failure: 'noUsername', message: CONFIG_MSG.usernameTooLong };
        const { mapped, managed } = await mappedGroups(db, values.groupMappings, account.groups);
        return { ok: true, account, defaultRoleId: values.defaultRoleId, mappedGroupIds: mapped, managedGroupIds: managed };
      } catch (error) {
        if (error instanceof DirectoryError) return { ok: false, failure: error.failure, message: error.message };
        throw error;
      }
    },
  };
}
