// 角色 area (spec doc 2 §6, §7 "Members, users, roles"): every handler of contract/api/role.ts.
// The commands are services/roles.ts's.
import { roleCalls } from '../../../contract/api/role.ts';
import { ok } from '../../../contract/envelope.ts';
import type { ServerContext } from '../../context.ts';
import { roleRows } from '../../services/roles.ts';
import { indexHandlers, type AreaHandlers, type HandlerIndex } from '../register.ts';

function roleAreaHandlers({ db }: ServerContext): AreaHandlers<typeof roleCalls> {
  return {
    async roleList() {
      return ok(await roleRows(db));
    },
  };
}

export const roleHandlers = (ctx: ServerContext): HandlerIndex => indexHandlers(roleCalls, roleAreaHandlers(ctx));
