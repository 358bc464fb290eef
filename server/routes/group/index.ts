// 组织 area (spec doc 2 §7 "Groups"): every handler of contract/api/group.ts. Commands are in
// server/services/groups.ts; reads come from the repository.
import type { FastifyRequest } from 'fastify';
import { GROUP_MOVED_MESSAGE, groupCalls, type GroupDetail, type GroupRef, type GroupRefNode, type GroupTreeNode } from '../../../contract/api/group.ts';
import { ADMIN_SUCCESS_MESSAGES } from '../../../contract/errors.ts';
import { ok } from '../../../contract/envelope.ts';
import { DATA_PERMISSION } from '../../../contract/permissions.ts';
import type { ServerContext } from '../../context.ts';
import { groupDetails, groupRecords, groupsOfUser, groupSubjectPage, groupUserPage, refOf, type GroupRecord } from '../../db/repositories/groups.ts';
import { descendantGroupIds } from '../../db/repositories/subject-groups.ts';
import type { Db } from '../../db/transaction.ts';
import { UserError } from '../../errors.ts';
import {
  addGroup, addSubjectsToGroup, addUsersToGroup, GROUP_MSG, groupByPath, moveGroup, removeGroup, removeSubjectsFromGroup,
  removeUsersFromGroup, renameGroup, type Actor,
} from '../../services/groups.ts';
import { indexHandlers, signedIn, type AreaHandlers, type HandlerIndex } from '../register.ts';
import { pagingOf } from '../shared.ts';

const actorOf = (request: FastifyRequest): Actor => ({ userId: signedIn(request).userId, ip: request.ip });

/** Nests rows by pid (rows whose parent is not among them become roots), siblings by name. */
function nest<R extends { id: number; pid: number | null; name: string }>(rows: R[]): Array<R & { children: unknown[] }> {
  const ids = new Set(rows.map((r) => r.id));
  const byParent = new Map<number | null, R[]>();
  for (const r of rows) {
    const parent = r.pid !== null && ids.has(r.pid) ? r.pid : null;
    byParent.set(parent, [...(byParent.get(parent) ?? []), r]);
  }
  const build = (pid: number | null): Array<R & { children: unknown[] }> =>
    (byParent.get(pid) ?? []).sort((a, b) => a.name.localeCompare(b.name, 'zh-CN') || a.id - b.id).map((r) => ({ ...r, children: build(r.id) }));
  return build(null);
}

/** The groups the caller may choose: every group for data permission ALL, else their own and those below. */
async function scopedGroups(db: Db, request: FastifyRequest, groups: GroupRecord[]): Promise<GroupRecord[]> {
  const { userId, dataPermission } = signedIn(request);
  if (dataPermission === DATA_PERMISSION.ALL) return groups;
  const own = await groupsOfUser(db, userId);
  const scope = new Set(own.length ? await descendantGroupIds(db, own, groups) : []);
  return groups.filter((g) => scope.has(g.id));
}

const byPath = (a: GroupRef, b: GroupRef) => a.groupPath.localeCompare(b.groupPath, 'zh-CN');

function groupAreaHandlers({ db }: ServerContext): AreaHandlers<typeof groupCalls> {
  const detailOrRefuse = async (id: number): Promise<GroupDetail> => {
    const found = (await groupDetails(db, await groupRecords(db))).get(id);
    if (!found) throw new UserError(GROUP_MSG.notFound, 'not-found');
    return found;
  };
  const requireGroup = async (id: number) => {
    const groups = await groupRecords(db);
    if (!groups.some((g) => g.id === id)) throw new UserError(GROUP_MSG.notFound, 'not-found');
    return groups;
  };

  return {
    async list({ query }) {
      const groups = await groupRecords(db);
      const details = await groupDetails(db, groups);
      const needle = query?.keyword?.trim().toLowerCase();
      let kept = groups;
      if (needle) {
        // The matching groups and every group above them, so each match shows where it stands.
        const keep = new Set<number>();
        for (const g of groups.filter((x) => x.name.toLowerCase().includes(needle))) {
          for (const crumb of details.get(g.id)!.path) keep.add(crumb.id);
        }
        kept = groups.filter((g) => keep.has(g.id));
      }
      return ok(nest(kept.map((g) => details.get(g.id)!)) as GroupTreeNode[]);
    },

    async filterList({ request }) {
      const groups = await groupRecords(db);
      return ok((await scopedGroups(db, request, groups)).map((g) => refOf(groups, g)).sort(byPath));
    },

    async filterAllList() {
      const groups = await groupRecords(db);
      return ok(groups.map((g) => refOf(groups, g)).sort(byPath));
    },

    async filterTree({ request }) {
      const groups = await groupRecords(db);
      return ok(nest((await scopedGroups(db, request, groups)).map((g) => refOf(groups, g))) as GroupRefNode[]);
    },

    async detail({ params }) {
      return ok(await detailOrRefuse(params.id));
    },

    async rename({ request, params, body }) {
      return ok(await renameGroup(db, actorOf(request), params.id, body.name), ADMIN_SUCCESS_MESSAGES.modified);
    },

    async remove({ request, params }) {
      await removeGroup(db, actorOf(request), params.id);
      return ok(null, ADMIN_SUCCESS_MESSAGES.deleted);
    },

    async addRoot({ request, body }) {
      return ok(await addGroup(db, actorOf(request), null, body.name), ADMIN_SUCCESS_MESSAGES.added);
    },

    async addChild({ request, body }) {
      return ok(await addGroup(db, actorOf(request), body.pid, body.name), ADMIN_SUCCESS_MESSAGES.added);
    },

    async move({ request, body }) {
      return ok(await moveGroup(db, actorOf(request), body.id, body.pid ?? null), GROUP_MOVED_MESSAGE);
    },

    async addSubjects({ request, body }) {
      return ok({ changed: await addSubjectsToGroup(db, actorOf(request), body.groupId, body.subjectIds) }, ADMIN_SUCCESS_MESSAGES.added);
    },

    async removeSubjects({ request, body }) {
      return ok({ changed: await removeSubjectsFromGroup(db, actorOf(request), body.groupId, body.subjectIds) }, ADMIN_SUCCESS_MESSAGES.removed);
    },

    async addUsers({ request, body }) {
      return ok({ changed: await addUsersToGroup(db, actorOf(request), body.groupId, body.userIds) }, ADMIN_SUCCESS_MESSAGES.added);
    },

    async removeUsers({ request, body }) {
      return ok({ changed: await removeUsersFromGroup(db, actorOf(request), body.groupId, body.userIds) }, ADMIN_SUCCESS_MESSAGES.removed);
    },

    async hasSubjects({ query }) {
      return ok(await groupSubjectPage(db, await requireGroup(query.groupId), query.groupId, true, query.keyword, pagingOf(query)));
    },

    async hasNotSubjects({ query }) {
      return ok(await groupSubjectPage(db, await requireGroup(query.groupId), query.groupId, false, query.keyword, pagingOf(query)));
    },

    async hasUsers({ query }) {
      return ok(await groupUserPage(db, await requireGroup(query.groupId), query.groupId, true, query.keyword, pagingOf(query)));
    },

    async hasNotUsers({ query }) {
      return ok(await groupUserPage(db, await requireGroup(query.groupId), query.groupId, false, query.keyword, pagingOf(query)));
    },

    async getByGroupPath({ query }) {
      return ok(await groupByPath(db, query.groupPath));
    },
  };
}

export const groupHandlers = (ctx: ServerContext): HandlerIndex => indexHandlers(groupCalls, groupAreaHandlers(ctx));
