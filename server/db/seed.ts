// First-start data: the permission table, the two spec roles, the password policy and the
// initial administrator. Safe to run on every start: it only adds what is missing.
import type { Kysely } from 'kysely';
import { ALL_PERMISSION_CODES, DATA_PERMISSION, PERMISSIONS, ROLE, ROLE_LABEL, type PermissionCode } from '../../contract/permissions.ts';
import { hashPassword } from '../auth/password.ts';
import { randomToken } from '../auth/tokens.ts';
import { createUser, findUserByUsername } from './repositories/users.ts';
import { ensureSetting } from './repositories/settings.ts';
import type { Database } from './schema.ts';

export const SETTING = {
  passwordPolicy: 'password_policy', csrfSecret: 'csrf_secret', autoLock: 'auto_lock',
  /** A new random value in every transaction that writes the knowledge base's advisories (knowledge-base.ts). */
  kbRevision: 'kb_revision',
  /** Days after which the knowledge base counts as stale (kb/status.ts); absent: CAIRN_KB_STALE_DAYS or 30. */
  kbStaleDays: 'kb_stale_days',
} as const;

/** Spec §5: minimum length 8 by default; all four character classes required. */
const DEFAULT_PASSWORD_POLICY = { length: 8, uppercase: true, lowercase: true, digit: true, special: true };

const ADMIN_USERNAME = 'admin';

/** What an ordinary user starts with: see and work on projects and results, no administration. */
const ORDINARY_CODES = new Set<PermissionCode>([
  'project:list', 'analysis:task:list', 'report:list', 'component', 'vul', 'source', 'cominfo', 'risk:vul:list',
]);
const ORDINARY_PERMISSIONS = ALL_PERMISSION_CODES.filter(
  (code) => ORDINARY_CODES.has(code) || code.startsWith('analysis:result:') || code.startsWith('project:setup'),
);

async function seedRoles(trx: Kysely<Database>): Promise<void> {
  await trx.insertInto('permissions')
    .values(ALL_PERMISSION_CODES.map((code) => ({ code, name: PERMISSIONS[code] })))
    .onConflict((oc) => oc.column('code').doUpdateSet((eb) => ({ name: eb.ref('excluded.name') })))
    .execute();

  const grant = (roleId: number, codes: readonly string[]) =>
    trx.insertInto('role_permissions')
      .values(codes.map((permission_code) => ({ role_id: roleId, permission_code })))
      .onConflict((oc) => oc.columns(['role_id', 'permission_code']).doNothing())
      .execute();

  await trx.insertInto('roles').values({ code: ROLE.DOMAIN_ADMIN, name: ROLE_LABEL[ROLE.DOMAIN_ADMIN], data_permission: DATA_PERMISSION.ALL })
    .onConflict((oc) => oc.column('code').doNothing()).execute();
  const admin = await trx.selectFrom('roles').select('id').where('code', '=', ROLE.DOMAIN_ADMIN).executeTakeFirstOrThrow();
  // The domain administrator holds every code, including those later releases add, and sees all data.
  await grant(admin.id, ALL_PERMISSION_CODES);
  await trx.updateTable('roles').set({ data_permission: DATA_PERMISSION.ALL }).where('id', '=', admin.id).execute();

  // The ordinary role's codes are seeded once; afterwards they are the administrators' to change.
  const created = await trx.insertInto('roles').values({ code: ROLE.ORDINARY_USER, name: ROLE_LABEL[ROLE.ORDINARY_USER] })
    .onConflict((oc) => oc.column('code').doNothing()).returning('id').executeTakeFirst();
  if (created) await grant(created.id, ORDINARY_PERMISSIONS);
}

export async function seed(db: Kysely<Database>, options: { adminPassword: string }): Promise<void> {
  await db.transaction().execute(seedRoles);
  await ensureSetting(db, SETTING.passwordPolicy, DEFAULT_PASSWORD_POLICY);
  // A knowledge base written before revisions existed gets one, so its list totals can be kept.
  await ensureSetting(db, SETTING.kbRevision, randomToken(12));
  if (!(await findUserByUsername(db, ADMIN_USERNAME))) {
    await createUser(db, {
      username: ADMIN_USERNAME,
      name: '系统管理员',
      passwordHash: await hashPassword(options.adminPassword),
      roleCodes: [ROLE.DOMAIN_ADMIN],
      // The initial password is known to whoever installed the product: force a change.
      updatedPwd: false,
    });
  }
}
