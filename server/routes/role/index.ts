// 角色 area (spec doc 2 §6, §7 "Members, users, roles"): every handler of contract/api/role.ts.
// The commands are services/roles.ts's; the tree is contract/permission-tree.ts's.
import type { FastifyRequest } from 'fastify';
import { roleCalls } from '../../../contract/api/role.ts';
import { ADMIN_SUCCESS_MESSAGES } from '../../../contract/errors.ts';
import { ok } from '../../../contract/envelope.ts';
import { permissionTree } from '../../../contract/permission-tree.ts';
import type { ServerContext } from '../../context.ts';
import { addRole, editRole, removeRole, roleRows, type Actor } from '../../services/roles.ts';
import { indexHandlers, signedIn, type AreaHandlers, type HandlerIndex } from '../register.ts';

const actorOf = (request: FastifyRequest): Actor => ({ userId: signedIn(request).userId, address: request.ip });

function roleAreaHandlers({ db }: ServerContext): AreaHandlers<typeof roleCalls> {
  return {
    async roleList() {
      return ok(await roleRows(db));
    },

    async tree() {
      return ok(permissionTree());
    },

    async add({ request, body }) {
      return ok(await addRole(db, actorOf(request), body), ADMIN_SUCCESS_MESSAGES.added);
    },

    async update({ request, params, body }) {
      const { row, grantChanged } = await editRole(db, actorOf(request), params.id, body);
      return ok(row, grantChanged ? ADMIN_SUCCESS_MESSAGES.rolePermissionNeedsRelogin : ADMIN_SUCCESS_MESSAGES.modified);
    },

    async remove({ request, params }) {
      await removeRole(db, actorOf(request), params.id);
      return ok(null, ADMIN_SUCCESS_MESSAGES.deleted);
    },
  };
}

export const roleHandlers = (ctx: ServerContext): HandlerIndex => indexHandlers(roleCalls, roleAreaHandlers(ctx));
