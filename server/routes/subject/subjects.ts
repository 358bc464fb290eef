// Subject list, group view, create, details, basic setup, delete and transfer.
import type { subjectCalls } from '../../../contract/api/subject.ts';
import { ok } from '../../../contract/envelope.ts';
import type { ServerContext } from '../../context.ts';
import { seesAllSubjects, visibleSubjectIds } from '../../db/repositories/subject-access.ts';
import { reachableGroupIds } from '../../db/repositories/groups.ts';
import { allGroups, groupPath, descendantGroupIds, type GroupNode } from '../../db/repositories/subject-groups.ts';
import { listVersions } from '../../db/repositories/subject-versions.ts';
import { allSubjects, findSubject, listSubjects, writeSubjectJson, type Viewer } from '../../db/repositories/subjects.ts';
import { UserError } from '../../errors.ts';
import { bugOf, noticeOf, privateServiceOf } from '../../services/subject-settings.ts';
import {
  SUBJECT_MSG, createSubjectFor, removeSubject, removeSubjects, requireSubject, setupSubject, transferSubjectTo,
} from '../../services/subjects.ts';
import { signedIn, type AreaHandlers } from '../register.ts';
import { pagingOf, parseIds, productOf, visibleSubjectsOf } from '../shared.ts';

type Handlers = AreaHandlers<typeof subjectCalls>;

export function subjectCoreHandlers({ db }: ServerContext): Pick<Handlers,
  'list' | 'allList' | 'groupSubjectList' | 'searchGroupSubjectList' | 'create' | 'detail' | 'remove' | 'removeBatch' | 'setup' | 'transfer' | 'updateCustomFields'> {
  const viewerOf = async (userId: number): Promise<Viewer> => ({ userId, admin: await seesAllSubjects(db, userId) });
  /** The groups the group view may name to the user (groups.ts reachableGroupIds). */
  const reachableGroups = async (userId: number, groups: GroupNode[]) => reachableGroupIds(db, userId, await visibleSubjectIds(db, userId), groups);

  return {
    async list({ request, query, body }) {
      const { userId } = signedIn(request);
      const visible = await visibleSubjectIds(db, userId);
      return ok(await listSubjects(db, await viewerOf(userId), productOf(request), body, pagingOf(query), query?.sort, visible));
    },

    async allList({ request }) {
      return ok(await allSubjects(db, await visibleSubjectsOf(db, request)));
    },

    async groupSubjectList({ request, query }) {
      const { userId } = signedIn(request);
      const pid = query?.pid ? query.pid : null;
      const groups = await allGroups(db);
      if (pid !== null && !groups.some((g) => g.id === pid)) throw new UserError(SUBJECT_MSG.groupNotFound, 'not-found');
      const visible = await visibleSubjectIds(db, userId);
      const product = productOf(request);
      const viewer = await viewerOf(userId);
      const reachable = await reachableGroups(userId, groups);
      // A group the user may not know of answers as one that does not exist.
      if (pid !== null && reachable !== 'all' && !reachable.has(pid)) throw new UserError(SUBJECT_MSG.groupNotFound, 'not-found');
      const children = groups.filter((g) => g.pid === pid);
      const childRows = (await Promise.all(children.map(async (g) => {
        const scope = await descendantGroupIds(db, [g.id], groups);
        const { total } = await listSubjects(db, viewer, product, { groupIds: scope }, { page: 1, size: 1 }, undefined, visible);
        return { id: g.id, pid: g.pid, name: g.name, subjectCount: total, childCount: groups.filter((c) => c.pid === g.id).length };
      }))).filter((g) => g.subjectCount > 0 || reachable === 'all' || reachable.has(g.id));
      const page = await listSubjects(db, viewer, product, {}, pagingOf(query), 'name,asc', visible, { inGroup: pid });
      return ok({ path: groupPath(groups, pid), groups: childRows, ...page });
    },

    async searchGroupSubjectList({ request, query }) {
      const { userId } = signedIn(request);
      const groups = await allGroups(db);
      const needle = query.name.trim().toLowerCase();
      const visible = await visibleSubjectIds(db, userId);
      const viewer = await viewerOf(userId);
      const reachable = await reachableGroups(userId, groups);
      const matchedGroups = groups.filter((g) => g.name.toLowerCase().includes(needle) && (reachable === 'all' || reachable.has(g.id))).slice(0, 100);
      const subjects = await listSubjects(db, viewer, productOf(request), { name: query.name.trim() }, { page: 1, size: 100 }, 'name,asc', visible);
      return ok({
        groups: matchedGroups.map((g) => ({ id: g.id, pid: g.pid, name: g.name, subjectCount: 0, childCount: groups.filter((c) => c.pid === g.id).length, path: groupPath(groups, g.id) })),
        subjects: subjects.content.map((s) => ({ id: s.id, name: s.name, groupId: s.groupId, path: groupPath(groups, s.groupId) })),
      });
    },

    async create({ request, body }) {
      return ok(await createSubjectFor(db, signedIn(request).userId, productOf(request), body), SUBJECT_MSG.added);
    },

    async detail({ request, params }) {
      const { userId } = signedIn(request);
      await requireSubject(db, userId, params.id, 'access');
      const found = (await findSubject(db, await viewerOf(userId), params.id))!;
      return ok({
        ...found.row,
        product: found.product,
        codeSource: found.codeSource,
        customFields: found.customFields as never,
        versions: await listVersions(db, params.id),
        settings: { notice: noticeOf(found.settings), bug: bugOf(found.settings), privateService: privateServiceOf(found.settings) },
      });
    },

    async remove({ request, params }) {
      await removeSubject(db, signedIn(request).userId, params.id);
      return ok(null, SUBJECT_MSG.deleted);
    },

    async removeBatch({ request, query }) {
      return ok({ deleted: await removeSubjects(db, signedIn(request).userId, parseIds(query.ids)) }, SUBJECT_MSG.deleted);
    },

    async setup({ request, body }) {
      await setupSubject(db, signedIn(request).userId, body);
      return ok(null, SUBJECT_MSG.saved);
    },

    async transfer({ request, body }) {
      await transferSubjectTo(db, signedIn(request).userId, body.subjectId, body.userId);
      return ok(null, SUBJECT_MSG.transferred);
    },

    async updateCustomFields({ request, params, body }) {
      const head = await requireSubject(db, signedIn(request).userId, params.id, 'manage');
      // A null value removes the field; the rest merge into what is stored.
      const merged: Record<string, unknown> = { ...head.customFields };
      for (const [key, value] of Object.entries(body)) {
        if (value === null) delete merged[key];
        else merged[key] = value;
      }
      await writeSubjectJson(db, params.id, 'custom_fields', merged);
      return ok(merged as never, SUBJECT_MSG.saved);
    },
  };
}
