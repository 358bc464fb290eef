// Setup tabs stored in subjects.settings: notice recipients, defect management (tracker password
// encrypted at rest), private service addresses. Delivery of notices and pushes to trackers are
// other areas' work; here the configuration is kept and shown.
import type { subjectCalls } from '../../../contract/api/subject.ts';
import { ok } from '../../../contract/envelope.ts';
import type { ServerContext } from '../../context.ts';
import { memberIds, membersWithEmail } from '../../db/repositories/subject-members.ts';
import { patchSettings } from '../../db/repositories/subjects.ts';
import { UserError } from '../../errors.ts';
import { bugOf, noticeOf, privateServiceOf, storedBug } from '../../services/subject-settings.ts';
import { SUBJECT_MSG, requireSubject, saveTracker } from '../../services/subjects.ts';
import { isHttpUrl } from '../../services/urls.ts';
import { refuseUrlCredentials } from '../../services/url-credentials.ts';
import { signedIn, type AreaHandlers } from '../register.ts';

type Handlers = AreaHandlers<typeof subjectCalls>;

export function setupHandlers({ db, dataDir }: ServerContext): Pick<Handlers,
  'noticeUserList' | 'noticeCandidates' | 'noticeSave' | 'noticeConfig' | 'enableBug' | 'bugConfigCreate' | 'bugConfigUpdate'
  | 'privateServiceConfig' | 'privateServiceSave'> {
  /** The subject's settings when the caller may see (`access`) or change (`manage`) them. */
  const settingsOf = async (userId: number, id: number, need: 'access' | 'manage') => (await requireSubject(db, userId, id, need)).settings;

  const saveBug: Handlers['bugConfigCreate'] = async ({ request, params, body }) =>
    ok(await saveTracker(db, dataDir, signedIn(request).userId, params.subjectId, body), SUBJECT_MSG.saved);

  return {
    async noticeUserList({ request, query }) {
      const chosen = new Set(noticeOf(await settingsOf(signedIn(request).userId, query.subjectId, 'access')).userIds);
      return ok((await membersWithEmail(db, query.subjectId)).filter((m) => chosen.has(m.userId)));
    },

    async noticeCandidates({ request, query }) {
      const chosen = new Set(noticeOf(await settingsOf(signedIn(request).userId, query.subjectId, 'access')).userIds);
      return ok((await membersWithEmail(db, query.subjectId)).filter((m) => !chosen.has(m.userId)));
    },

    async noticeSave({ request, body }) {
      await requireSubject(db, signedIn(request).userId, body.subjectId, 'manage');
      const members = new Set(await memberIds(db, body.subjectId));
      const userIds = [...new Set(body.userIds)];
      // Only members are told: a notice must not leak a subject's findings to outsiders.
      if (userIds.some((id) => !members.has(id))) throw new UserError(SUBJECT_MSG.notMember, 'invalid', { field: 'userIds' });
      const { subjectId, ...config } = body;
      const notice = { ...config, levels: [...new Set(config.levels)], userIds };
      await patchSettings(db, subjectId, (settings) => ({ ...settings, notice }));
      return ok(notice, SUBJECT_MSG.saved);
    },

    async noticeConfig({ request, params }) {
      return ok(noticeOf(await settingsOf(signedIn(request).userId, params.id, 'access')));
    },

    async enableBug({ request, params, body }) {
      const settings = await settingsOf(signedIn(request).userId, params.subjectId, 'manage');
      if (body.enabled && !storedBug(settings).type) throw new UserError(SUBJECT_MSG.bugNotConfigured);
      const next = await patchSettings(db, params.subjectId, (stored) => ({ ...stored, bug: { ...storedBug(stored), enabled: body.enabled } }));
      return ok(bugOf(next), SUBJECT_MSG.done);
    },

    bugConfigCreate: saveBug,
    bugConfigUpdate: saveBug,

    async privateServiceConfig({ request, params }) {
      return ok(privateServiceOf(await settingsOf(signedIn(request).userId, params.subjectId, 'access')));
    },

    async privateServiceSave({ request, params, body }) {
      await requireSubject(db, signedIn(request).userId, params.subjectId, 'manage');
      const repositories = body.repositories.map((r) => ({ ...r, url: r.url.trim(), ...(r.repository !== undefined && { repository: r.repository.trim() }) }));
      const bad = repositories.find((r) => !isHttpUrl(r.url));
      if (bad) throw new UserError(SUBJECT_MSG.privateUrlInvalid(bad.url));
      // No credential fields here: an address with credentials is refused, never stored.
      repositories.forEach((r, i) => refuseUrlCredentials(r.url, '私服地址', `repositories[${i}].url`));
      const privateService = { repositories };
      await patchSettings(db, params.subjectId, (settings) => ({ ...settings, privateService }));
      return ok(privateService, SUBJECT_MSG.saved);
    },
  };
}
