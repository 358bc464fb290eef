// 扫描配置 area (spec doc 2 "System settings": /api/system/scan/maven|npm|pypi and
// /api/subject/scan/maven): every handler of contract/api/scan-config.ts. Commands are in
// server/services/scan-config.ts; an 应用's repositories follow its data scope (members see them,
// managers change them).
import { scanConfigCalls, type ScanEcosystem } from '../../../contract/api/scan-config.ts';
import { ADMIN_SUCCESS_MESSAGES } from '../../../contract/errors.ts';
import { ok } from '../../../contract/envelope.ts';
import type { ServerContext } from '../../context.ts';
import { listScanRepositories } from '../../db/repositories/scan-repositories.ts';
import { addScanRepository, editScanRepository, removeScanRepository, saveScanSettings, scanSettings } from '../../services/scan-config.ts';
import { requireSubject } from '../../services/subjects.ts';
import { indexHandlers, signedIn, type AreaHandlers, type HandlerIndex } from '../register.ts';

type Handlers = AreaHandlers<typeof scanConfigCalls>;

function scanConfigAreaHandlers({ db, dataDir }: ServerContext): Handlers {
  const system = (ecosystem: ScanEcosystem) => ({
    list: (async () => ok(await listScanRepositories(db, ecosystem, null))) as Handlers['mavenList'],
    add: (async ({ request, body }) => ok(await addScanRepository(db, dataDir, signedIn(request).userId, ecosystem, null, body), ADMIN_SUCCESS_MESSAGES.added)) as Handlers['mavenAdd'],
    update: (async ({ request, body }) => {
      const { id, ...form } = body;
      return ok(await editScanRepository(db, dataDir, signedIn(request).userId, ecosystem, null, id, form), ADMIN_SUCCESS_MESSAGES.modified);
    }) as Handlers['mavenUpdate'],
    remove: (async ({ request, params }) => {
      await removeScanRepository(db, signedIn(request).userId, ecosystem, null, params.id);
      return ok(null, ADMIN_SUCCESS_MESSAGES.deleted);
    }) as Handlers['mavenRemove'],
  });
  const maven = system('maven');
  const npm = system('npm');
  const pypi = system('pypi');
  return {
    mavenList: maven.list, mavenAdd: maven.add, mavenUpdate: maven.update, mavenRemove: maven.remove,
    npmList: npm.list, npmAdd: npm.add, npmUpdate: npm.update, npmRemove: npm.remove,
    pypiList: pypi.list, pypiAdd: pypi.add, pypiUpdate: pypi.update, pypiRemove: pypi.remove,

    async subjectMavenList({ request, query }) {
      await requireSubject(db, signedIn(request).userId, query.subjectId, 'access');
      return ok(await listScanRepositories(db, 'maven', query.subjectId));
    },

    async subjectMavenAdd({ request, body }) {
      const userId = signedIn(request).userId;
      const { subjectId, ...form } = body;
      await requireSubject(db, userId, subjectId, 'manage');
      return ok(await addScanRepository(db, dataDir, userId, 'maven', subjectId, form), ADMIN_SUCCESS_MESSAGES.added);
    },

    async subjectMavenUpdate({ request, body }) {
      const userId = signedIn(request).userId;
      const { id, subjectId, ...form } = body;
      await requireSubject(db, userId, subjectId, 'manage');
      return ok(await editScanRepository(db, dataDir, userId, 'maven', subjectId, id, form), ADMIN_SUCCESS_MESSAGES.modified);
    },

    async subjectMavenRemove({ request, query }) {
      const userId = signedIn(request).userId;
      await requireSubject(db, userId, query.subjectId, 'manage');
      await removeScanRepository(db, userId, 'maven', query.subjectId, query.id);
      return ok(null, ADMIN_SUCCESS_MESSAGES.deleted);
    },

    async settings() {
      return ok(await scanSettings(db));
    },

    async saveSettings({ request, body }) {
      return ok(await saveScanSettings(db, signedIn(request).userId, body), ADMIN_SUCCESS_MESSAGES.saved);
    },
  };
}

export const scanConfigHandlers = (ctx: ServerContext): HandlerIndex => indexHandlers(scanConfigCalls, scanConfigAreaHandlers(ctx));
