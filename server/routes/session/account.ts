// The signed-in user's own account: who am I, change my password, change my details.
import { SESSION_COOKIE, type sessionCalls } from '../../../contract/api/session.ts';
import { ok } from '../../../contract/envelope.ts';
import { sessionCookie } from '../../auth/cookies.ts';
import { loadSessionUser } from '../../auth/session-user.ts';
import type { ServerContext } from '../../context.ts';
import { MSG } from '../../messages.ts';
import { changePassword, changeProfile } from '../../services/sessions.ts';
import { signedIn, type AreaHandlers } from '../register.ts';

type Handlers = AreaHandlers<typeof sessionCalls>;

export function accountHandlers({ db }: ServerContext): Pick<Handlers, 'self' | 'modifyPassword' | 'modifyPersonalInformation'> {
  return {
    async self({ request }) {
      return ok(await loadSessionUser(db, signedIn(request).userId));
    },

    async modifyPassword({ request, reply, body }) {
      await changePassword(db, signedIn(request).userId, body.oldPassword, body.password);
      // Every session, this one included, ended with the old password: sign in again with the new one.
      reply.clearCookie(SESSION_COOKIE, sessionCookie(request));
      return ok(null, MSG.passwordChanged);
    },

    async modifyPersonalInformation({ request, body }) {
      const { userId } = signedIn(request);
      await changeProfile(db, userId, body);
      return ok(await loadSessionUser(db, userId), MSG.modified);
    },
  };
}
