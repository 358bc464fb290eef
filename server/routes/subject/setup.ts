// Setup tabs stored in subjects.settings: notice recipients, defect management (tracker password
// encrypted at rest), private service addresses. Delivery of notices and pushes to trackers are
// other areas' work; here the configuration is kept and shown.
import type { subjectCalls } from '../../../contract/api/subject.ts';
import { fail, ok } from '../../../contract/envelope.ts';
import type { ServerContext } from '../../context.ts';
import { audit } from '../../db/repositories/audit-log.ts';
import { memberIds, membersWithEmail } from '../../db/repositories/subject-members.ts';
import { patchSettings, subjectHead } from '../../db/repositories/subjects.ts';
import { encryptSecret } from '../../secrets.ts';
import { signedIn, type AreaHandlers } from '../register.ts';
import { SUBJECT_MSG, checkSubject, isHttpUrl } from './common.ts';
import { bugOf, noticeOf, privateServiceOf, storedBug } from './settings-shape.ts';

type Handlers = AreaHandlers<typeof subjectCalls>;

export function setupHandlers({ db, dataDir }: ServerContext): Pick<Handlers,
  'noticeUserList' | 'noticeCandidates' | 'noticeSave' | 'noticeConfig' | 'enableBug' | 'bugConfigCreate' | 'bugConfigUpdate'
  | 'privateServiceConfig' | 'privateServiceSave'> {
  const settingsOf = async (id: number) => (await subjectHead(db, id))!.settings;

  async function saveBug(request: Parameters<Handlers['bugConfigCreate']>[0]) {
    const { request: req, reply, params, body } = request;
    const { userId } = signedIn(req);
    const refused = await checkSubject(db, reply, userId, params.subjectId, 'manage');
    if (refused) return refused;
    if (!isHttpUrl(body.url.trim())) return fail(SUBJECT_MSG.trackerUrlInvalid);
    const fresh = body.password ? encryptSecret(dataDir, body.password) : null;
    const next = await patchSettings(db, params.subjectId, (settings) => {
      const stored = storedBug(settings);
      const secret = body.password === undefined ? stored.secret ?? null : fresh;
      return { ...settings, bug: { enabled: stored.enabled ?? true, type: body.type, url: body.url.trim(), projectKey: body.projectKey.trim(), username: body.username.trim(), secret } };
    });
    await audit(db, { userId, action: 'subject.bug.configured', detail: { subjectId: params.subjectId, type: body.type, url: body.url.trim() } });
    return ok(bugOf(next), SUBJECT_MSG.saved);
  }

  return {
    async noticeUserList({ request, reply, query }) {
      const refused = await checkSubject(db, reply, signedIn(request).userId, query.subjectId, 'access');
      if (refused) return refused;
      const chosen = new Set(noticeOf(await settingsOf(query.subjectId)).userIds);
      return ok((await membersWithEmail(db, query.subjectId)).filter((m) => chosen.has(m.userId)));
    },

    async noticeCandidates({ request, reply, query }) {
      const refused = await checkSubject(db, reply, signedIn(request).userId, query.subjectId, 'access');
      if (refused) return refused;
      const chosen = new Set(noticeOf(await settingsOf(query.subjectId)).userIds);
      return ok((await membersWithEmail(db, query.subjectId)).filter((m) => !chosen.has(m.userId)));
    },

    async noticeSave({ request, reply, body }) {
      const { userId } = signedIn(request);
      const refused = await checkSubject(db, reply, userId, body.subjectId, 'manage');
      if (refused) return refused;
      const members = new Set(await memberIds(db, body.subjectId));
      const userIds = [...new Set(body.userIds)];
      // Only members are told: a notice must not leak a subject's findings to outsiders.
      if (userIds.some((id) => !members.has(id))) return fail(SUBJECT_MSG.notMember);
      const { subjectId, ...config } = body;
      const notice = { ...config, levels: [...new Set(config.levels)], userIds };
      await patchSettings(db, subjectId, (settings) => ({ ...settings, notice }));
      return ok(notice, SUBJECT_MSG.saved);
    },

    async noticeConfig({ request, reply, params }) {
      const refused = await checkSubject(db, reply, signedIn(request).userId, params.id, 'access');
      if (refused) return refused;
      return ok(noticeOf(await settingsOf(params.id)));
    },

    async enableBug({ request, reply, params, body }) {
      const { userId } = signedIn(request);
      const refused = await checkSubject(db, reply, userId, params.subjectId, 'manage');
      if (refused) return refused;
      if (body.enabled && !storedBug(await settingsOf(params.subjectId)).type) return fail(SUBJECT_MSG.bugNotConfigured);
      const next = await patchSettings(db, params.subjectId, (settings) => ({ ...settings, bug: { ...storedBug(settings), enabled: body.enabled } }));
      return ok(bugOf(next), SUBJECT_MSG.done);
    },

    bugConfigCreate: saveBug,
    bugConfigUpdate: saveBug,

    async privateServiceConfig({ request, reply, params }) {
      const refused = await checkSubject(db, reply, signedIn(request).userId, params.subjectId, 'access');
      if (refused) return refused;
      return ok(privateServiceOf(await settingsOf(params.subjectId)));
    },

    async privateServiceSave({ request, reply, params, body }) {
      const refused = await checkSubject(db, reply, signedIn(request).userId, params.subjectId, 'manage');
      if (refused) return refused;
      const repositories = body.repositories.map((r) => ({ ...r, url: r.url.trim(), ...(r.repository !== undefined && { repository: r.repository.trim() }) }));
      const bad = repositories.find((r) => !isHttpUrl(r.url));
      if (bad) return fail(SUBJECT_MSG.privateUrlInvalid(bad.url));
      const privateService = { repositories };
      await patchSettings(db, params.subjectId, (settings) => ({ ...settings, privateService }));
      return ok(privateService, SUBJECT_MSG.saved);
    },
  };
}
