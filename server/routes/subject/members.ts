// Members and versions of a subject.
import type { subjectCalls } from '../../../contract/api/subject.ts';
import { fail, ok } from '../../../contract/envelope.ts';
import { validateDescription, validateName } from '../../../contract/validation.ts';
import type { ServerContext } from '../../context.ts';
import { audit } from '../../db/repositories/audit-log.ts';
import { addMembers, existingUserIds, listMembers, memberIds, removeMembers, usersNotIn } from '../../db/repositories/subject-members.ts';
import { createVersion, deleteVersion, findVersion, listVersions, updateVersion, versionNameTaken } from '../../db/repositories/subject-versions.ts';
import { subjectHead } from '../../db/repositories/subjects.ts';
import { signedIn, type AreaHandlers } from '../register.ts';
import { pagingOf, parseIds } from '../shared.ts';
import { SUBJECT_MSG, checkSubject } from './common.ts';

type Handlers = AreaHandlers<typeof subjectCalls>;

export function memberHandlers({ db }: ServerContext): Pick<Handlers,
  'memberListForAdd' | 'memberAdd' | 'memberList' | 'memberRemove' | 'versionList' | 'versionCreate' | 'versionUpdate' | 'versionDelete'> {
  const versionProblem = (name: string, remark: string | undefined) => validateName(name) ?? validateDescription(remark ?? '');

  return {
    async memberListForAdd({ request, reply, query }) {
      const { userId } = signedIn(request);
      if (query?.subjectId !== undefined) {
        const refused = await checkSubject(db, reply, userId, query.subjectId, 'access');
        if (refused) return refused;
      }
      return ok(await usersNotIn(db, query?.subjectId, query?.name));
    },

    async memberAdd({ request, reply, body }) {
      const { userId } = signedIn(request);
      const refused = await checkSubject(db, reply, userId, body.subjectId, 'manage');
      if (refused) return refused;
      const wanted = [...new Set(body.userIds)];
      if ((await existingUserIds(db, wanted)).length !== wanted.length) return fail(SUBJECT_MSG.userNotFound);
      const added = await addMembers(db, body.subjectId, wanted);
      await audit(db, { userId, action: 'subject.member.added', detail: { subjectId: body.subjectId, userIds: wanted } });
      return ok({ added }, SUBJECT_MSG.added);
    },

    async memberList({ request, reply, params, query }) {
      const refused = await checkSubject(db, reply, signedIn(request).userId, params.subjectId, 'access');
      if (refused) return refused;
      return ok(await listMembers(db, params.subjectId, pagingOf(query), query?.name));
    },

    async memberRemove({ request, reply, params, query, body }) {
      const { userId } = signedIn(request);
      const refused = await checkSubject(db, reply, userId, params.subjectId, 'manage');
      if (refused) return refused;
      const ids = body?.ids?.length ? [...new Set(body.ids)] : parseIds(query?.ids);
      if (!ids.length) return fail(SUBJECT_MSG.noMembersGiven);
      const head = (await subjectHead(db, params.subjectId))!;
      if (head.ownerId !== null && ids.includes(head.ownerId)) return fail(SUBJECT_MSG.ownerNotRemovable);
      const members = new Set(await memberIds(db, params.subjectId));
      if (ids.some((id) => !members.has(id))) return fail(SUBJECT_MSG.notMember);
      const removed = await removeMembers(db, params.subjectId, ids);
      await audit(db, { userId, action: 'subject.member.removed', detail: { subjectId: params.subjectId, userIds: ids } });
      return ok({ removed }, SUBJECT_MSG.deleted);
    },

    async versionList({ request, reply, query }) {
      const refused = await checkSubject(db, reply, signedIn(request).userId, query.subjectId, 'access');
      if (refused) return refused;
      return ok(await listVersions(db, query.subjectId));
    },

    async versionCreate({ request, reply, body }) {
      const refused = await checkSubject(db, reply, signedIn(request).userId, body.subjectId, 'manage');
      if (refused) return refused;
      const problem = versionProblem(body.name, body.remark);
      if (problem) return fail(problem);
      if (await versionNameTaken(db, body.subjectId, body.name)) return fail(SUBJECT_MSG.versionNameTaken);
      const id = await createVersion(db, body.subjectId, body.name, body.remark ?? '');
      return ok((await findVersion(db, id))!, SUBJECT_MSG.added);
    },

    async versionUpdate({ request, reply, body }) {
      const version = await findVersion(db, body.id);
      if (!version) return fail(SUBJECT_MSG.versionNotFound);
      const refused = await checkSubject(db, reply, signedIn(request).userId, version.subjectId, 'manage');
      if (refused) return refused;
      const problem = versionProblem(body.name, body.remark);
      if (problem) return fail(problem);
      if (await versionNameTaken(db, version.subjectId, body.name, body.id)) return fail(SUBJECT_MSG.versionNameTaken);
      await updateVersion(db, body.id, body.name, body.remark ?? '');
      return ok((await findVersion(db, body.id))!, SUBJECT_MSG.saved);
    },

    async versionDelete({ request, reply, body }) {
      const version = await findVersion(db, body.id);
      if (!version) return fail(SUBJECT_MSG.versionNotFound);
      const refused = await checkSubject(db, reply, signedIn(request).userId, version.subjectId, 'manage');
      if (refused) return refused;
      return ok({ detachedProjects: await deleteVersion(db, body.id) }, SUBJECT_MSG.deleted);
    },
  };
}
