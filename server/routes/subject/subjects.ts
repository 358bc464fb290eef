// Subject list, group view, create, details, basic setup, delete and transfer.
import type { subjectCalls } from '../../../contract/api/subject.ts';
import { fail, ok } from '../../../contract/envelope.ts';
import { validateDescription, validateName } from '../../../contract/validation.ts';
import type { ServerContext } from '../../context.ts';
import { audit } from '../../db/repositories/audit-log.ts';
import { canManageSubject, isDomainAdmin, visibleSubjectIds } from '../../db/repositories/subject-access.ts';
import { allGroups, groupPath, descendantGroupIds } from '../../db/repositories/subject-groups.ts';
import { existingUserIds } from '../../db/repositories/subject-members.ts';
import { listVersions } from '../../db/repositories/subject-versions.ts';
import {
  allSubjects, createSubject, deleteSubjects, findSubject, listSubjects, nameTaken, subjectHead, transferSubject, updateSubject,
  writeSubjectJson, type Viewer,
} from '../../db/repositories/subjects.ts';
import { signedIn, type AreaHandlers } from '../register.ts';
import { pagingOf, parseIds, productOf } from '../shared.ts';
import { SUBJECT_MSG, checkSubject } from './common.ts';
import { bugOf, noticeOf, privateServiceOf } from './settings-shape.ts';

type Handlers = AreaHandlers<typeof subjectCalls>;

export function subjectCoreHandlers({ db }: ServerContext): Pick<Handlers,
  'list' | 'allList' | 'groupSubjectList' | 'searchGroupSubjectList' | 'create' | 'detail' | 'remove' | 'removeBatch' | 'setup' | 'transfer' | 'updateCustomFields'> {
  const viewerOf = async (userId: number): Promise<Viewer> => ({ userId, admin: await isDomainAdmin(db, userId) });

  /** Name, description and group of a create or setup body; the failure message or null. */
  async function checkFields(body: { name: string; description?: string; groupId?: number | null }, product: number, exceptId?: number) {
    const problem = validateName(body.name) ?? validateDescription(body.description ?? '');
    if (problem) return problem;
    if (await nameTaken(db, product, body.name, exceptId)) return SUBJECT_MSG.nameTaken;
    if (body.groupId != null && !(await allGroups(db)).some((g) => g.id === body.groupId)) return SUBJECT_MSG.groupNotFound;
    return null;
  }

  return {
    async list({ request, query, body }) {
      const { userId } = signedIn(request);
      const visible = await visibleSubjectIds(db, userId);
      return ok(await listSubjects(db, await viewerOf(userId), productOf(request), body, pagingOf(query), query?.sort, visible));
    },

    async allList({ request }) {
      return ok(await allSubjects(db, await visibleSubjectIds(db, signedIn(request).userId)));
    },

    async groupSubjectList({ request, query }) {
      const { userId } = signedIn(request);
      const pid = query?.pid ? query.pid : null;
      const groups = await allGroups(db);
      if (pid !== null && !groups.some((g) => g.id === pid)) return fail(SUBJECT_MSG.groupNotFound);
      const visible = await visibleSubjectIds(db, userId);
      const product = productOf(request);
      const viewer = await viewerOf(userId);
      const children = groups.filter((g) => g.pid === pid);
      const childRows = await Promise.all(children.map(async (g) => {
        const scope = await descendantGroupIds(db, [g.id], groups);
        const { total } = await listSubjects(db, viewer, product, { groupIds: scope }, { page: 1, size: 1 }, undefined, visible);
        return { id: g.id, pid: g.pid, name: g.name, subjectCount: total, childCount: groups.filter((c) => c.pid === g.id).length };
      }));
      const page = await listSubjects(db, viewer, product, {}, pagingOf(query), 'name,asc', visible, { inGroup: pid });
      return ok({ path: groupPath(groups, pid), groups: childRows, ...page });
    },

    async searchGroupSubjectList({ request, query }) {
      const { userId } = signedIn(request);
      const groups = await allGroups(db);
      const needle = query.name.trim().toLowerCase();
      const visible = await visibleSubjectIds(db, userId);
      const viewer = await viewerOf(userId);
      const matchedGroups = groups.filter((g) => g.name.toLowerCase().includes(needle)).slice(0, 100);
      const subjects = await listSubjects(db, viewer, productOf(request), { name: query.name.trim() }, { page: 1, size: 100 }, 'name,asc', visible);
      return ok({
        groups: matchedGroups.map((g) => ({ id: g.id, pid: g.pid, name: g.name, subjectCount: 0, childCount: groups.filter((c) => c.pid === g.id).length, path: groupPath(groups, g.id) })),
        subjects: subjects.content.map((s) => ({ id: s.id, name: s.name, groupId: s.groupId, path: groupPath(groups, s.groupId) })),
      });
    },

    async create({ request, body }) {
      const { userId } = signedIn(request);
      const product = productOf(request);
      const problem = await checkFields(body, product);
      if (problem) return fail(problem);
      const memberIds = body.memberIds ?? [];
      if ((await existingUserIds(db, memberIds)).length !== new Set(memberIds).size) return fail(SUBJECT_MSG.userNotFound);
      const created = await createSubject(db, {
        name: body.name, description: body.description ?? '', importance: body.importance ?? 3, groupId: body.groupId ?? null,
        subjectType: body.subjectType?.trim() || null, customFields: body.customFields ?? {}, product, ownerId: userId, memberIds,
      });
      await audit(db, { userId, action: 'subject.created', detail: { id: created.id, name: body.name, product } });
      return ok(created, SUBJECT_MSG.added);
    },

    async detail({ request, reply, params }) {
      const { userId } = signedIn(request);
      const refused = await checkSubject(db, reply, userId, params.id, 'access');
      if (refused) return refused;
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

    async remove({ request, reply, params }) {
      const { userId } = signedIn(request);
      const refused = await checkSubject(db, reply, userId, params.id, 'manage');
      if (refused) return refused;
      const head = (await subjectHead(db, params.id))!;
      await deleteSubjects(db, [params.id]);
      await audit(db, { userId, action: 'subject.deleted', detail: { id: params.id, name: head.name } });
      return ok(null, SUBJECT_MSG.deleted);
    },

    async removeBatch({ request, reply, query }) {
      const { userId } = signedIn(request);
      const ids = parseIds(query.ids);
      const heads = await Promise.all(ids.map((id) => subjectHead(db, id)));
      if (heads.some((h) => !h)) return fail(SUBJECT_MSG.batchMissing);
      const refused: string[] = [];
      for (const head of heads) if (!(await canManageSubject(db, userId, head!.id))) refused.push(head!.name);
      // All or nothing: a partial delete would leave the user guessing what is gone.
      if (refused.length) {
        reply.code(403);
        return fail(SUBJECT_MSG.batchRefused(refused));
      }
      const deleted = await db.transaction().execute((trx) => deleteSubjects(trx, ids));
      await audit(db, { userId, action: 'subject.deleted', detail: { ids, names: heads.map((h) => h!.name) } });
      return ok({ deleted }, SUBJECT_MSG.deleted);
    },

    async setup({ request, reply, body }) {
      const { userId } = signedIn(request);
      const refused = await checkSubject(db, reply, userId, body.id, 'manage');
      if (refused) return refused;
      const head = (await subjectHead(db, body.id))!;
      const problem = await checkFields(body, head.product, body.id);
      if (problem) return fail(problem);
      await updateSubject(db, body.id, {
        name: body.name, description: body.description ?? '', importance: body.importance, groupId: body.groupId ?? null,
        subjectType: body.subjectType?.trim() || null, ...(body.customFields && { customFields: { ...head.customFields, ...body.customFields } }),
      });
      await audit(db, { userId, action: 'subject.setup', detail: { id: body.id, name: body.name } });
      return ok(null, SUBJECT_MSG.saved);
    },

    async transfer({ request, reply, body }) {
      const { userId } = signedIn(request);
      const refused = await checkSubject(db, reply, userId, body.subjectId, 'manage');
      if (refused) return refused;
      const head = (await subjectHead(db, body.subjectId))!;
      if (!(await existingUserIds(db, [body.userId])).length) return fail(SUBJECT_MSG.userNotFound);
      if (head.ownerId === body.userId) return fail(SUBJECT_MSG.alreadyOwner);
      await transferSubject(db, body.subjectId, body.userId);
      await audit(db, { userId, action: 'subject.transferred', detail: { id: body.subjectId, from: head.ownerId, to: body.userId } });
      return ok(null, SUBJECT_MSG.transferred);
    },

    async updateCustomFields({ request, reply, params, body }) {
      const { userId } = signedIn(request);
      const refused = await checkSubject(db, reply, userId, params.id, 'manage');
      if (refused) return refused;
      const head = (await subjectHead(db, params.id))!;
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
