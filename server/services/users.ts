// User administration commands (/system/user/user): create, edit, reset a password, delete, the
// notification address, and the caller's password-change information. Each command checks its
// input, changes the database and writes its audit row (never a password) in one transaction;
// refusals are UserErrors with the message beside the field.
import {
  hasNoLocalPassword, USER_TYPE, validateEmail, validatePhone, validateUsername,
  type UserCreate, type UserRow, type UserUpdate,
} from '../../contract/api/user.ts';
import { ROLE } from '../../contract/permissions.ts';
import { passwordHint, validateName, validatePassword } from '../../contract/validation.ts';
import { hashPassword } from '../auth/password.ts';
import { loadPasswordPolicy } from '../auth/session-user.ts';
import { audit } from '../db/repositories/audit-log.ts';
import { deleteUserSessions } from '../db/repositories/sessions.ts';
import {
  deleteUserRows, domainAdminIds, passwordChangedAt, findUsernameClash, getNoticeEmail, groupsByIds, insertUser, ownedSubjectCount,
  rolesByIds, setNoticeEmail, setUserGroups, setUserRoles, updateUserDetails, userRows,
} from '../db/repositories/user-admin.ts';
import { findUserById, findUsersByIds, setTemporaryPassword } from '../db/repositories/users.ts';
import { inTransaction, type Db } from '../db/transaction.ts';
import { UserError } from '../errors.ts';

const USER_MSG = {
  usernameTaken: (username: string) => `用户名已存在：${username}`,
  unknownRoles: (ids: number[]) => `角色不存在：${ids.join('、')}`,
  unknownGroups: (ids: number[]) => `分组不存在：${ids.join('、')}`,
  noRoles: '请至少选择一个角色',
  notFound: '用户不存在',
  unknownIds: (ids: number[]) => `用户不存在：${ids.join('、')}`,
  noUsers: '请选择用户',
  deleteSelf: '不能删除当前登录的账号',
  lastAdmin: '不能删除最后一个域管理员',
  lastAdminRole: '不能取消最后一个域管理员的域管理员角色',
  noLocalPassword: 'LDAP 用户和外部同步用户的密码由其来源系统管理，不能在平台重置',
  mailDenied: '只能查看或设置本人的通知邮箱',
} as const;

/** Who acts and from where, for the audit row. */
export interface Actor {
  userId: number;
  address: string;
}

const field = (problem: string | null, name: string): void => {
  if (problem) throw new UserError(problem, 'invalid', { field: name });
};
const blankToNull = (value: string | null | undefined): string | null => (value?.trim() ? value.trim() : null);

/** The roles and groups named, all existing, or the refusal naming those that do not. */
async function checkRolesAndGroups(db: Db, roleIds: readonly number[], groupIds: readonly number[]) {
  if (roleIds.length === 0) throw new UserError(USER_MSG.noRoles, 'invalid', { field: 'roleIds' });
  const roles = await rolesByIds(db, roleIds);
  const missingRoles = [...new Set(roleIds)].filter((id) => !roles.some((r) => r.id === id));
  if (missingRoles.length) throw new UserError(USER_MSG.unknownRoles(missingRoles), 'invalid', { field: 'roleIds' });
  const groups = await groupsByIds(db, groupIds);
  const missingGroups = [...new Set(groupIds)].filter((id) => !groups.some((g) => g.id === id));
  if (missingGroups.length) throw new UserError(USER_MSG.unknownGroups(missingGroups), 'invalid', { field: 'groupIds' });
  return { roles, groups };
}

/** A user as the audit row keeps it: no password, no hash. */
const auditView = (row: UserRow | undefined) => row && ({
  id: row.userId, username: row.username, name: row.name, userType: row.userType, email: row.email, phone: row.phone,
  roles: row.roles.map((r) => r.name), groups: row.groups.map((g) => g.name),
});

/** POST /api/user: a platform user who must change the password at the first login. */
export async function createPlatformUser(db: Db, actor: Actor, input: UserCreate): Promise<UserRow> {
  const username = input.username.trim();
  field(validateUsername(username), 'username');
  field(validateName(input.name), 'name');
  field(validatePassword(input.password, await loadPasswordPolicy(db)), 'password');
  const email = blankToNull(input.email);
  const phone = blankToNull(input.phone);
  field(validateEmail(email), 'email');
  field(validatePhone(phone), 'phone');
  const passwordHash = await hashPassword(input.password);
  return inTransaction(db, async (trx) => {
    const clash = await findUsernameClash(trx, username);
    if (clash) throw new UserError(USER_MSG.usernameTaken(clash.username), 'conflict', { field: 'username' });
    await checkRolesAndGroups(trx, input.roleIds, input.groupIds ?? []);
    const id = await insertUser(trx, {
      username, name: input.name, passwordHash, userType: USER_TYPE.PLATFORM, email, phone,
      updatedPwd: false, roleIds: input.roleIds, groupIds: input.groupIds ?? [],
    });
    const [row] = await userRows(trx, [id]);
    await audit(trx, { userId: actor.userId, action: 'user.created', detail: { address: actor.address, after: auditView(row) } });
    return row!;
  });
}

/**
 * PATCH /api/user/{userId}: details, roles and groups. `rolesChanged` tells the caller to say the
 * roles apply at the user's next login (the grant is taken at login). The last domain
 * administrator keeps that role.
 */
export async function updateUser(db: Db, actor: Actor, userId: number, input: UserUpdate): Promise<{ row: UserRow; rolesChanged: boolean }> {
  field(validateName(input.name), 'name');
  const email = blankToNull(input.email);
  const phone = blankToNull(input.phone);
  field(validateEmail(email), 'email');
  field(validatePhone(phone), 'phone');
  return inTransaction(db, async (trx) => {
    const [before] = await userRows(trx, [userId]);
    if (!before) throw new UserError(USER_MSG.notFound, 'not-found');
    const { roles } = await checkRolesAndGroups(trx, input.roleIds, input.groupIds ?? []);
    const wasAdmin = before.roles.some((r) => r.code === ROLE.DOMAIN_ADMIN);
    if (wasAdmin && !roles.some((r) => r.code === ROLE.DOMAIN_ADMIN)) {
      const admins = await domainAdminIds(trx);
      if (admins.every((id) => id === userId)) throw new UserError(USER_MSG.lastAdminRole, 'invalid', { field: 'roleIds' });
    }
    await updateUserDetails(trx, userId, { name: input.name, email, phone });
    const beforeRoles = before.roles.map((r) => r.id).sort((a, b) => a - b);
    const afterRoles = [...new Set(input.roleIds)].sort((a, b) => a - b);
    const rolesChanged = beforeRoles.join(',') !== afterRoles.join(',');
    if (rolesChanged) await setUserRoles(trx, userId, afterRoles);
    await setUserGroups(trx, userId, input.groupIds ?? []);
    const [row] = await userRows(trx, [userId]);
    await audit(trx, { userId: actor.userId, action: 'user.updated', detail: { address: actor.address, before: auditView(before), after: auditView(row), rolesChanged } });
    return { row: row!, rolesChanged };
  });
}

/**
 * PATCH /api/user/reset/{userId}: the administrator's password for the user, checked against the
 * policy; temporary (the user must change it at the next login), the user's sessions end and the
 * automatic lock goes. LDAP and synchronised users have no local password to reset.
 */
export async function resetUserPassword(db: Db, actor: Actor, userId: number, password: string): Promise<void> {
  const user = await findUserById(db, userId);
  if (!user) throw new UserError(USER_MSG.notFound, 'not-found');
  if (hasNoLocalPassword(user.userType)) throw new UserError(USER_MSG.noLocalPassword, 'invalid');
  field(validatePassword(password, await loadPasswordPolicy(db)), 'password');
  const passwordHash = await hashPassword(password);
  await inTransaction(db, async (trx) => {
    await setTemporaryPassword(trx, userId, passwordHash);
    const sessionsEnded = await deleteUserSessions(trx, userId);
    await audit(trx, { userId: actor.userId, action: 'user.password.reset', detail: { address: actor.address, user: { id: user.id, username: user.username }, sessionsEnded } });
  });
}

/**
 * DELETE /api/user/deleteUsers: all or nothing. Never the caller, never the last domain
 * administrator. Owned 应用 stay, without an owner (contract deleteUsers).
 */
export async function deleteUsers(db: Db, actor: Actor, userIds: number[]): Promise<void> {
  if (userIds.length === 0) throw new UserError(USER_MSG.noUsers, 'invalid', { field: 'userIds' });
  if (userIds.includes(actor.userId)) throw new UserError(USER_MSG.deleteSelf, 'invalid', { field: 'userIds' });
  await inTransaction(db, async (trx) => {
    const users = await findUsersByIds(trx, userIds);
    const missing = userIds.filter((id) => !users.some((u) => u.id === id));
    if (missing.length) throw new UserError(USER_MSG.unknownIds(missing), 'not-found', { field: 'userIds' });
    const admins = await domainAdminIds(trx);
    if (admins.length > 0 && admins.every((id) => userIds.includes(id))) throw new UserError(USER_MSG.lastAdmin, 'invalid', { field: 'userIds' });
    const rows = await userRows(trx, userIds);
    const subjectsLeftWithoutOwner = await ownedSubjectCount(trx, userIds);
    await deleteUserRows(trx, userIds);
    await audit(trx, { userId: actor.userId, action: 'user.deleted', detail: { address: actor.address, users: rows.map(auditView), subjectsLeftWithoutOwner } });
  });
}

/** GET /api/user/modify/info for the caller. */
export async function modifyInfo(db: Db, userId: number) {
  const user = await findUserById(db, userId);
  if (!user) throw new UserError(USER_MSG.notFound, 'not-found');
  const policy = await loadPasswordPolicy(db);
  return {
    username: user.username,
    userType: user.userType,
    localPassword: !hasNoLocalPassword(user.userType),
    mustChange: !user.updatedPwd,
    passwordChangedAt: await passwordChangedAt(db, userId),
    passwordPolicy: policy,
    hint: passwordHint(policy),
  };
}

/** Only the user themself or a holder of setup:user:user:list reads or sets the address. */
function mayTouchMail(caller: { userId: number; permissions: readonly string[] }, userId: number): void {
  if (caller.userId !== userId && !caller.permissions.includes('setup:user:user:list')) throw new UserError(USER_MSG.mailDenied, 'denied');
}

export async function noticeMail(db: Db, caller: { userId: number; permissions: readonly string[] }, userId: number) {
  mayTouchMail(caller, userId);
  const found = await getNoticeEmail(db, userId);
  if (!found) throw new UserError(USER_MSG.notFound, 'not-found');
  return { userId, mail: found.mail, effective: found.mail ?? found.email };
}

export async function saveNoticeMail(db: Db, caller: { userId: number; permissions: readonly string[]; address: string }, userId: number, mail: string | null) {
  mayTouchMail(caller, userId);
  const value = blankToNull(mail);
  field(validateEmail(value), 'mail');
  return inTransaction(db, async (trx) => {
    const found = await getNoticeEmail(trx, userId);
    if (!found) throw new UserError(USER_MSG.notFound, 'not-found');
    await setNoticeEmail(trx, userId, value);
    await audit(trx, { userId: caller.userId, action: 'user.noticeMail.changed', detail: { address: caller.address, user: userId, before: found.mail, after: value } });
    return { userId, mail: value, effective: value ?? found.email };
  });
}
