// The signed-in user's own account: who am I, change my password, change my details.
import { SESSION_COOKIE, type sessionCalls } from '../../../contract/api/session.ts';
import { fail, ok } from '../../../contract/envelope.ts';
import { validateName, validatePassword } from '../../../contract/validation.ts';
import { sessionCookie } from '../../auth/cookies.ts';
import { hashPassword, verifyPassword } from '../../auth/password.ts';
import { loadPasswordPolicy, loadSessionUser } from '../../auth/session-user.ts';
import { audit } from '../../db/repositories/audit-log.ts';
import { deleteUserSessions } from '../../db/repositories/sessions.ts';
import { findUserById, updatePassword, updateProfile } from '../../db/repositories/users.ts';
import type { ServerContext } from '../../context.ts';
import { MSG } from '../../messages.ts';
import { signedIn, type AreaHandlers } from '../register.ts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[\d\s()-]{3,30}$/;

/** Blank means "none"; undefined means "leave as it is". */
const blankToNull = (value: string | null | undefined) => (value === undefined ? undefined : value?.trim() || null);

type Handlers = AreaHandlers<typeof sessionCalls>;

export function accountHandlers({ db }: ServerContext): Pick<Handlers, 'self' | 'modifyPassword' | 'modifyPersonalInformation'> {
  return {
    async self({ request }) {
      return ok(await loadSessionUser(db, signedIn(request).userId));
    },

    async modifyPassword({ request, reply, body }) {
      const { userId } = signedIn(request);
      const user = await findUserById(db, userId);
      if (!user || !(await verifyPassword(body.oldPassword, user.passwordHash))) return fail(MSG.oldPasswordWrong);
      const problem = validatePassword(body.password, await loadPasswordPolicy(db));
      if (problem) return fail(problem);
      if (body.password === body.oldPassword) return fail(MSG.samePassword);

      const passwordHash = await hashPassword(body.password);
      // Every session, this one included, ends with the old password: sign in again with the new one.
      await db.transaction().execute(async (trx) => {
        await updatePassword(trx, userId, passwordHash);
        await deleteUserSessions(trx, userId);
        await audit(trx, { userId, action: 'user.password.changed' });
      });
      reply.clearCookie(SESSION_COOKIE, sessionCookie(request));
      return ok(null, MSG.passwordChanged);
    },

    async modifyPersonalInformation({ request, body }) {
      const { userId } = signedIn(request);
      const user = await findUserById(db, userId);
      if (!user) return fail(MSG.sessionInvalid);
      const nameProblem = validateName(body.name);
      if (nameProblem) return fail(nameProblem);
      const email = blankToNull(body.email);
      const phone = blankToNull(body.phone);
      if (email && !EMAIL.test(email)) return fail(MSG.emailInvalid);
      if (phone && !PHONE.test(phone)) return fail(MSG.phoneInvalid);

      const profile = { name: body.name, email: email === undefined ? user.email : email, phone: phone === undefined ? user.phone : phone };
      await db.transaction().execute(async (trx) => {
        await updateProfile(trx, userId, profile);
        await audit(trx, { userId, action: 'user.profile.changed', detail: { before: { name: user.name, email: user.email, phone: user.phone }, after: profile } });
      });
      return ok(await loadSessionUser(db, userId), MSG.modified);
    },
  };
}
