// 目录登录: the one LDAP configuration (table ldap_configs), and what directory login writes on the
// users it signs in (their type-2 account, their profile, their mapped organisation groups).
import type { Kysely, Selectable } from 'kysely';
import { DIRECTORY_USER_TYPE, type LdapConfig, type LdapGroupMapping } from '../../../contract/api/ldap.ts';
import { ROLE } from '../../../contract/permissions.ts';
import type { Database, LdapConfigsTable } from '../schema.ts';
import { nowIso } from '../time.ts';

type Db = Kysely<Database>;
export type LdapConfigRecord = Selectable<LdapConfigsTable>;

/** The columns a save writes; `bindPassword` encrypted, undefined keeps the stored one, null removes it. */
export interface LdapConfigValues {
  enabled: boolean;
  url: string;
  startTls: boolean;
  bindDn: string;
  bindPassword: string | null | undefined;
  baseDn: string;
  userFilter: string;
  usernameAttribute: string;
  nameAttribute: string;
  emailAttribute: string;
  phoneAttribute: string;
  defaultRoleId: number;
  groupBaseDn: string;
  groupFilter: string;
  groupMappings: LdapGroupMapping[];
  caCertificate: string;
  connectTimeoutSeconds: number;
  timeoutSeconds: number;
}

const columns = (v: LdapConfigValues) => ({
  enabled: v.enabled ? 1 : 0,
  url: v.url,
  start_tls: v.startTls ? 1 : 0,
  bind_dn: v.bindDn,
  base_dn: v.baseDn,
  user_filter: v.userFilter,
  username_attribute: v.usernameAttribute,
  name_attribute: v.nameAttribute,
  email_attribute: v.emailAttribute,
  phone_attribute: v.phoneAttribute,
  default_role_id: v.defaultRoleId,
  group_base_dn: v.groupBaseDn,
  group_filter: v.groupFilter,
  group_mappings: JSON.stringify(v.groupMappings),
  ca_certificate: v.caCertificate,
  connect_timeout_seconds: v.connectTimeoutSeconds,
  timeout_seconds: v.timeoutSeconds,
});

/** The configuration as stored (the first row: there is only ever one). */
export const findLdapConfig = (db: Db): Promise<LdapConfigRecord | undefined> =>
  db.selectFrom('ldap_configs').selectAll().orderBy('id').limit(1).executeTakeFirst();

export const groupMappingsOf = (record: LdapConfigRecord): LdapGroupMapping[] => {
  try {
    const parsed = JSON.parse(record.group_mappings) as unknown;
    return Array.isArray(parsed) ? (parsed as LdapGroupMapping[]) : [];
  } catch {
    return [];
  }
};

/** The ordinary user's role id: a directory user's role when the configured one is gone. */
export async function ordinaryRoleId(db: Db): Promise<number> {
  return (await db.selectFrom('roles').select('id').where('code', '=', ROLE.ORDINARY_USER).executeTakeFirstOrThrow()).id;
}

export async function roleNamed(db: Db, id: number): Promise<string | undefined> {
  return (await db.selectFrom('roles').select('name').where('id', '=', id).executeTakeFirst())?.name;
}

/** The configuration as answered: never the password. */
export async function ldapConfigRow(db: Db): Promise<LdapConfig | null> {
  const r = await db.selectFrom('ldap_configs as c').leftJoin('users as u', 'u.id', 'c.updated_by')
    .selectAll('c').select('u.name as updater').orderBy('c.id').limit(1).executeTakeFirst();
  if (!r) return null;
  const defaultRoleId = r.default_role_id ?? (await ordinaryRoleId(db));
  return {
    id: r.id,
    enabled: Boolean(r.enabled),
    url: r.url,
    startTls: Boolean(r.start_tls),
    bindDn: r.bind_dn,
    hasBindPassword: r.bind_password !== null && r.bind_password !== '',
    baseDn: r.base_dn,
    userFilter: r.user_filter,
    usernameAttribute: r.username_attribute,
    nameAttribute: r.name_attribute,
    emailAttribute: r.email_attribute,
    phoneAttribute: r.phone_attribute,
    defaultRoleId,
    defaultRoleName: (await roleNamed(db, defaultRoleId)) ?? null,
    groupBaseDn: r.group_base_dn,
    groupFilter: r.group_filter,
    groupMappings: groupMappingsOf(r),
    caCertificate: r.ca_certificate,
    connectTimeoutSeconds: r.connect_timeout_seconds,
    timeoutSeconds: r.timeout_seconds,
    updatedBy: r.updater ?? null,
    updatedAt: r.updated_at,
  };
}

export async function insertLdapConfig(db: Db, userId: number, v: LdapConfigValues): Promise<number> {
  const at = nowIso();
  const row = await db.insertInto('ldap_configs')
    .values({ ...columns(v), bind_password: v.bindPassword ?? null, updated_by: userId, created_at: at, updated_at: at })
    .returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateLdapConfig(db: Db, id: number, userId: number, v: LdapConfigValues): Promise<void> {
  await db.updateTable('ldap_configs')
    .set({ ...columns(v), ...(v.bindPassword !== undefined ? { bind_password: v.bindPassword } : {}), updated_by: userId, updated_at: nowIso() })
    .where('id', '=', id).execute();
}

/** Whether directory login is switched on (a configuration exists and is enabled). */
export async function ldapLoginEnabled(db: Db): Promise<boolean> {
  const row = await db.selectFrom('ldap_configs').select('enabled').orderBy('id').limit(1).executeTakeFirst();
  return Boolean(row?.enabled);
}

/** The ids among `ids` that name existing organisation groups. */
export async function existingGroupIds(db: Db, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('subject_groups').select('id').where('id', 'in', [...new Set(ids)]).execute();
  return rows.map((r) => r.id);
}

/** A directory user's password lives in the directory: this never verifies (verifyPassword needs `scrypt$…`). */
export const DIRECTORY_PASSWORD_HASH = '!directory';

export interface DirectoryProfile {
  username: string;
  name: string;
  email: string | null;
  phone: string | null;
}

/** The account a directory user's first login creates: type 2, the role given, no password of its own. */
export async function insertDirectoryUser(db: Db, profile: DirectoryProfile, roleId: number): Promise<number> {
  const now = nowIso();
  const { id } = await db.insertInto('users').values({
    username: profile.username,
    name: profile.name,
    password_hash: DIRECTORY_PASSWORD_HASH,
    user_type: DIRECTORY_USER_TYPE,
    email: profile.email,
    phone: profile.phone,
    // Nothing to change in Cairn: the password is the directory's.
    updated_pwd: 1,
    is_lock: 'N',
    created_at: now,
    updated_at: now,
    password_changed_at: now,
  }).returning('id').executeTakeFirstOrThrow();
  await db.insertInto('user_roles').values({ user_id: id, role_id: roleId }).execute();
  return id;
}

/** Name, e-mail and phone as the directory has them now (and never a pending password change). */
export async function refreshDirectoryProfile(db: Db, userId: number, profile: Omit<DirectoryProfile, 'username'>): Promise<void> {
  await db.updateTable('users').set({ ...profile, updated_pwd: 1, updated_at: nowIso() }).where('id', '=', userId).execute();
}

/** The roles and organisation groups the configuration screen offers; a group named by its path. */
export async function ldapChoices(db: Db): Promise<{ roles: Array<{ id: number; name: string }>; groups: Array<{ id: number; name: string }> }> {
  const roles = await db.selectFrom('roles').select(['id', 'name']).orderBy('code').execute();
  const rows = await db.selectFrom('subject_groups').select(['id', 'pid', 'name']).execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  const path = (id: number): string => {
    const names: string[] = [];
    const seen = new Set<number>();
    for (let at = byId.get(id); at && !seen.has(at.id); at = at.pid === null ? undefined : byId.get(at.pid)) {
      seen.add(at.id);
      names.unshift(at.name);
    }
    return names.join(' / ');
  };
  const groups = rows.map((r) => ({ id: r.id, name: path(r.id) })).sort((a, b) => a.name.localeCompare(b.name, 'zh-CN'));
  return { roles, groups };
}

/**
 * The user's memberships of the groups the mappings manage (`managed`) made to be exactly `mapped`:
 * joins the mapped ones, leaves the others; groups no mapping names are left alone. The memberships
 * before and after, among the managed groups.
 */
export async function syncDirectoryGroups(db: Db, userId: number, mapped: readonly number[], managed: readonly number[]): Promise<{ before: number[]; after: number[] }> {
  if (managed.length === 0) return { before: [], after: [] };
  const before = (await db.selectFrom('user_groups').select('group_id').where('user_id', '=', userId).where('group_id', 'in', [...managed]).execute())
    .map((r) => r.group_id).sort((a, b) => a - b);
  const leave = before.filter((id) => !mapped.includes(id));
  const join = mapped.filter((id) => !before.includes(id));
  if (leave.length) await db.deleteFrom('user_groups').where('user_id', '=', userId).where('group_id', 'in', leave).execute();
  if (join.length) await db.insertInto('user_groups').values(join.map((group_id) => ({ user_id: userId, group_id }))).execute();
  return { before, after: [...mapped].sort((a, b) => a - b) };
}
