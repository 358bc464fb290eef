// 项目类型 area (spec doc 2 §7 "Project types"): every handler of contract/api/project-type.ts.
// Commands are in server/services/subject-types.ts; reads come straight from the repository.
import { projectTypeCalls, SUBJECT_TYPE_STATUS } from '../../../contract/api/project-type.ts';
import { ADMIN_SUCCESS_MESSAGES } from '../../../contract/errors.ts';
import { ok } from '../../../contract/envelope.ts';
import type { ServerContext } from '../../context.ts';
import { listSubjectTypes, onlineSubjectTypeNames } from '../../db/repositories/subject-types.ts';
import { addSubjectType, editSubjectType, removeSubjectType, switchSubjectType } from '../../services/subject-types.ts';
import { indexHandlers, signedIn, type AreaHandlers, type HandlerIndex } from '../register.ts';
import { pagingOf } from '../shared.ts';

function projectTypeAreaHandlers({ db }: ServerContext): AreaHandlers<typeof projectTypeCalls> {
  return {
    async list({ query, body }) {
      return ok(await listSubjectTypes(db, body, pagingOf(query)));
    },

    async names() {
      return ok(await onlineSubjectTypeNames(db));
    },

    async add({ request, body }) {
      return ok(await addSubjectType(db, signedIn(request).userId, body), ADMIN_SUCCESS_MESSAGES.added);
    },

    async update({ request, params, body }) {
      return ok(await editSubjectType(db, signedIn(request).userId, params.id, body), ADMIN_SUCCESS_MESSAGES.modified);
    },

    async setStatus({ request, body }) {
      const row = await switchSubjectType(db, signedIn(request).userId, body.id, body.status);
      return ok(row, body.status === SUBJECT_TYPE_STATUS.ONLINE ? ADMIN_SUCCESS_MESSAGES.online : ADMIN_SUCCESS_MESSAGES.offline);
    },

    async remove({ request, params }) {
      await removeSubjectType(db, signedIn(request).userId, params.id);
      return ok(null, ADMIN_SUCCESS_MESSAGES.deleted);
    },
  };
}

export const projectTypeHandlers = (ctx: ServerContext): HandlerIndex => indexHandlers(projectTypeCalls, projectTypeAreaHandlers(ctx));
