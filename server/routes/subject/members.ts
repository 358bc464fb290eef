// Members and versions of a subject.
import type { subjectCalls } from '../../../contract/api/subject.ts';
import { ok } from '../../../contract/envelope.ts';
import { validateDescription, validateName } from '../../../contract/validation.ts';
import type { ServerContext } from '../../context.ts';
import { listMembers, usersNotIn } from '../../db/repositories/subject-members.ts';
import { createVersion, deleteVersion, findVersion, listVersions, updateVersion, versionNameTaken } from '../../db/repositories/subject-versions.ts';
import { UserError } from '../../errors.ts';
import { SUBJECT_MSG, addSubjectMembers, removeSubjectMembers, requireSubject } from '../../services/subjects.ts';
import { signedIn, type AreaHandlers } from '../register.ts';
import { pagingOf, parseIds } from '../shared.ts';

type Handlers = AreaHandlers<typeof subjectCalls>;

/** A version's name and remark as the forms check them. */
function checkVersion(name: string, remark: string | undefined): void {
  const nameProblem = validateName(name);
  if (nameProblem) throw new UserError(nameProblem, 'invalid', { field: 'name' });
  const remarkProblem = validateDescription(remark ?? '');
  if (remarkProblem) throw new UserError(remarkProblem, 'invalid', { field: 'remark' });
}

export function memberHandlers({ db }: ServerContext): Pick<Handlers,
  'memberListForAdd' | 'memberAdd' | 'memberList' | 'memberRemove' | 'versionList' | 'versionCreate' | 'versionUpdate' | 'versionDelete'> {
  /** The version when it exists and the caller manages its subject. */
  const managedVersion = async (userId: number, id: number) => {
    const version = await findVersion(db, id);
    if (!version) throw new UserError(SUBJECT_MSG.versionNotFound, 'not-found');
    await requireSubject(db, userId, version.subjectId, 'manage');
    return version;
  };

  return {
    async memberListForAdd({ request, query }) {
      if (query?.subjectId !== undefined) await requireSubject(db, signedIn(request).userId, query.subjectId, 'access');
      return ok(await usersNotIn(db, query?.subjectId, query?.name));
    },

    async memberAdd({ request, body }) {
      return ok({ added: await addSubjectMembers(db, signedIn(request).userId, body.subjectId, body.userIds) }, SUBJECT_MSG.added);
    },

    async memberList({ request, params, query }) {
      await requireSubject(db, signedIn(request).userId, params.subjectId, 'access');
      return ok(await listMembers(db, params.subjectId, pagingOf(query), query?.name));
    },

    async memberRemove({ request, params, query, body }) {
      const ids = body?.ids?.length ? [...new Set(body.ids)] : parseIds(query?.ids);
      return ok({ removed: await removeSubjectMembers(db, signedIn(request).userId, params.subjectId, ids) }, SUBJECT_MSG.deleted);
    },

    async versionList({ request, query }) {
      await requireSubject(db, signedIn(request).userId, query.subjectId, 'access');
      return ok(await listVersions(db, query.subjectId));
    },

    async versionCreate({ request, body }) {
      await requireSubject(db, signedIn(request).userId, body.subjectId, 'manage');
      checkVersion(body.name, body.remark);
      if (await versionNameTaken(db, body.subjectId, body.name)) throw new UserError(SUBJECT_MSG.versionNameTaken, 'conflict', { field: 'name' });
      const id = await createVersion(db, body.subjectId, body.name, body.remark ?? '');
      return ok((await findVersion(db, id))!, SUBJECT_MSG.added);
    },

    async versionUpdate({ request, body }) {
      const version = await managedVersion(signedIn(request).userId, body.id);
      checkVersion(body.name, body.remark);
      if (await versionNameTaken(db, version.subjectId, body.name, body.id)) throw new UserError(SUBJECT_MSG.versionNameTaken, 'conflict', { field: 'name' });
      await updateVersion(db, body.id, body.name, body.remark ?? '');
      return ok((await findVersion(db, body.id))!, SUBJECT_MSG.saved);
    },

    async versionDelete({ request, body }) {
      await managedVersion(signedIn(request).userId, body.id);
      return ok({ detachedProjects: await deleteVersion(db, body.id) }, SUBJECT_MSG.deleted);
    },
  };
}
