// User area (spec doc 2 §7 "Members, users, roles"): every handler of contract/api/user.ts. The
// commands are services/user-locks.ts's (locks), services/users.ts's (users), services/user-import.ts's
// (Excel import) and services/user-sync.ts's (synchronised external users).
import { LOCK_FLAG, USER_DELETE_SUCCESS, USER_IMPORT_TEMPLATE_NAME, userCalls } from '../../../contract/api/user.ts';
import { ADMIN_SUCCESS_MESSAGES } from '../../../contract/errors.ts';
import { ok } from '../../../contract/envelope.ts';
import type { ServerContext } from '../../context.ts';
import { findImportRecord, pageImportRecords, pageImportRows, pageUsers } from '../../db/repositories/user-admin.ts';
import { UserError } from '../../errors.ts';
import { buildUserTemplate, USER_IMPORT_MSG } from '../../services/user-import.ts';
import { importUsers } from '../../services/user-import.ts';
import { autoLockConfig, saveAutoLockConfig, setUsersLocked } from '../../services/user-locks.ts';
import { loadSyncSource, saveSyncSource, syncExternalUsers } from '../../services/user-sync.ts';
import {
  createPlatformUser, deleteUsers, modifyInfo, noticeMail, resetUserPassword, saveNoticeMail, updateUser, type Actor,
} from '../../services/users.ts';
import { indexHandlers, signedIn, type AreaHandlers, type HandlerIndex } from '../register.ts';
import { pagingOf, parseIds } from '../shared.ts';
import { readUpload, takeUpload } from './upload.ts';
import type { FastifyRequest } from 'fastify';

const actorOf = (request: FastifyRequest): Actor => ({ userId: signedIn(request).userId, address: request.ip });

/** `attachment` with an ASCII fallback and the RFC 5987 UTF-8 name. */
const attachment = (name: string): string =>
  `attachment; filename="${name.replace(/[^\x20-\x7e]/g, '_').replace(/"/g, '')}"; filename*=UTF-8''${encodeURIComponent(name)}`;

export function userAreaHandlers({ db, dataDir }: ServerContext): AreaHandlers<typeof userCalls> {
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

    async pageUser({ query }) {
      return ok(await pageUsers(db, query, pagingOf(query)));
    },

    async create({ request, body }) {
      return ok(await createPlatformUser(db, actorOf(request), body), ADMIN_SUCCESS_MESSAGES.added);
    },

    async update({ request, params, body }) {
      const { row, rolesChanged } = await updateUser(db, actorOf(request), params.userId, body);
      return ok(row, rolesChanged ? ADMIN_SUCCESS_MESSAGES.roleAssignmentNeedsRelogin : ADMIN_SUCCESS_MESSAGES.modified);
    },

    async resetPassword({ request, params, body }) {
      await resetUserPassword(db, actorOf(request), params.userId, body.password);
      return ok(null, ADMIN_SUCCESS_MESSAGES.done);
    },

    // The spec: the text SUCCESS on success; a refusal is an ordinary failure whose message the
    // screen shows as a warning.
    async deleteUsers({ request, query }) {
      await deleteUsers(db, actorOf(request), parseIds(query.userIds));
      return ok(USER_DELETE_SUCCESS, USER_DELETE_SUCCESS);
    },

    async modifyInfo({ request }) {
      return ok(await modifyInfo(db, signedIn(request).userId));
    },

    async mail({ request, params }) {
      const { userId, permissions } = signedIn(request);
      return ok(await noticeMail(db, { userId, permissions: [...permissions] }, params.userId));
    },

    async saveMail({ request, params, body }) {
      const { userId, permissions } = signedIn(request);
      return ok(await saveNoticeMail(db, { userId, permissions: [...permissions], address: request.ip }, params.userId, body.mail), ADMIN_SUCCESS_MESSAGES.saved);
    },

    async importTemplate({ reply }) {
      const bytes = await buildUserTemplate(db);
      return reply
        .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', attachment(USER_IMPORT_TEMPLATE_NAME))
        .send(bytes);
    },

    async importTemplateData() {
      return ok({ fileName: USER_IMPORT_TEMPLATE_NAME, base64: (await buildUserTemplate(db)).toString('base64') });
    },

    async importUpload({ request, body }) {
      const file = await takeUpload(db, dataDir, signedIn(request).userId, body.uploadId);
      return ok(await importUsers(db, actorOf(request), file), ADMIN_SUCCESS_MESSAGES.templateImported);
    },

    async importUsers({ request, reply }) {
      const file = await readUpload(request, reply);
      if ('envelope' in file) return file.envelope;
      return ok(await importUsers(db, actorOf(request), file), ADMIN_SUCCESS_MESSAGES.templateImported);
    },

    async importRecords({ query }) {
      return ok(await pageImportRecords(db, pagingOf(query)));
    },

    async importHistorys({ query }) {
      if (!(await findImportRecord(db, query.recordId))) throw new UserError(USER_IMPORT_MSG.recordNotFound, 'not-found');
      return ok(await pageImportRows(db, query.recordId, query.outcome, pagingOf(query)));
    },

    async syncSource() {
      return ok(await loadSyncSource(db));
    },

    async saveSyncSource({ request, body }) {
      return ok(await saveSyncSource(db, actorOf(request), body), ADMIN_SUCCESS_MESSAGES.saved);
    },

    async syncExternal({ request }) {
      return ok(await syncExternalUsers(db, actorOf(request)), ADMIN_SUCCESS_MESSAGES.synced);
    },
  };
}

export const userHandlers = (ctx: ServerContext): HandlerIndex => indexHandlers(userCalls, userAreaHandlers(ctx));
