// User area (spec doc 2 §7 "Members, users, roles"): every handler of contract/api/user.ts. The
// commands are services/user-locks.ts's.
import { LOCK_FLAG, userCalls } from '../../../contract/api/user.ts';
import { ADMIN_SUCCESS_MESSAGES } from '../../../contract/errors.ts';
import { ok } from '../../../contract/envelope.ts';
import type { ServerContext } from '../../context.ts';
import { autoLockConfig, saveAutoLockConfig, setUsersLocked } from '../../services/user-locks.ts';
import { indexHandlers, signedIn, type AreaHandlers, type HandlerIndex } from '../register.ts';
import { parseIds } from '../shared.ts';

export function userAreaHandlers({ db }: ServerContext): AreaHandlers<typeof userCalls> {
  return {
    // The spec reads `?userIds&isLock` as shared by both paths: isLock decides, else the path does.
    async lock({ request, query }) {
      await setUsersLocked(db, signedIn(request).userId, parseIds(query.userIds), (query.isLock ?? LOCK_FLAG.LOCKED) === LOCK_FLAG.LOCKED);
      return ok(null, ADMIN_SUCCESS_MESSAGES.done);
    },

    async unlock({ request, query }) {
      await setUsersLocked(db, signedIn(request).userId, parseIds(query.userIds), (query.isLock ?? LOCK_FLAG.UNLOCKED) === LOCK_FLAG.LOCKED);
      return ok(null, ADMIN_SUCCESS_MESSAGES.done);
    },

    async autoLockConfig() {
      return ok(await autoLockConfig(db));
    },

    async saveAutoLockConfig({ request, body }) {
      return ok(await saveAutoLockConfig(db, signedIn(request).userId, body), ADMIN_SUCCESS_MESSAGES.saved);
    },
  };
}

export const userHandlers = (ctx: ServerContext): HandlerIndex => indexHandlers(userCalls, userAreaHandlers(ctx));
