// Repository sources (per user) and the repository facts of a subject's projects. The address
// check is syntax only: no network call from here (an SSRF foothold otherwise); connectivity and
// credentials are tried when a task is launched.
import type { FastifyRequest } from 'fastify';
import type { subjectCalls } from '../../../contract/api/subject.ts';
import { ok } from '../../../contract/envelope.ts';
import { isFtpType, isGitType, isMercurialType, isRemoteVcsType, isSvnType } from '../../../contract/enums.ts';
import { validateName } from '../../../contract/validation.ts';
import type { ServerContext } from '../../context.ts';
import { countBy, projectSources, text } from '../../db/repositories/subject-projects.ts';
import { deleteOwnSources, findOwnSource, listSources, ownSourceIds, saveSource, sourceNameTaken } from '../../db/repositories/subject-sources.ts';
import { UserError } from '../../errors.ts';
import { encryptSecret } from '../../secrets.ts';
import { SUBJECT_MSG, requireSubject } from '../../services/subjects.ts';
import { signedIn, type AreaHandlers } from '../register.ts';
import { parseIds } from '../shared.ts';

type Handlers = AreaHandlers<typeof subjectCalls>;

const SCP_LIKE = /^[\w.-]+@[\w.-]+:[\w./~-]+$/;

/**
 * The address of a repository source in a canonical form. A type that is no repository source, or
 * an address that does not fit the type, is a UserError.
 */
function repositoryUrl(getCodeType: number, raw: string): string {
  const url = raw.trim();
  const parsed = (() => { try { return new URL(url); } catch { return null; } })();
  const hostOk = !!parsed && parsed.hostname !== '' && !/\s/.test(url);
  const fits = (schemes: string[]) => hostOk && schemes.includes(parsed!.protocol);
  const refuse = (type: string, example: string) => new UserError(SUBJECT_MSG.sourceUrlInvalid(type, example), 'invalid', { field: 'url' });
  if (isGitType(getCodeType)) {
    if (fits(['http:', 'https:', 'ssh:', 'git:']) || SCP_LIKE.test(url)) return url;
    throw refuse('Git', 'https://git.example.com/team/app.git 或 git@git.example.com:team/app.git');
  }
  if (isSvnType(getCodeType)) {
    if (fits(['http:', 'https:', 'svn:', 'svn+ssh:'])) return url;
    throw refuse('SVN', 'svn://svn.example.com/repo/trunk');
  }
  if (isMercurialType(getCodeType)) {
    if (fits(['http:', 'https:', 'ssh:'])) return url;
    throw refuse('Mercurial', 'https://hg.example.com/repo');
  }
  if (isFtpType(getCodeType)) {
    if (fits(['ftp:', 'ftps:'])) return url;
    // A bare host or IP (with an optional port), as the FTP form's ftpIp field takes it.
    if (/^[\w.-]+(:\d{1,5})?$/.test(url)) return `ftp://${url}`;
    throw refuse('FTP', 'ftp://ftp.example.com/pub 或 192.168.1.10');
  }
  throw new UserError(SUBJECT_MSG.sourceTypeInvalid, 'invalid', { field: 'getCodeType' });
}

export function sourceHandlers({ db, dataDir }: ServerContext): Pick<Handlers,
  'repositorySourceList' | 'repositorySourceCheck' | 'repositorySourceSave' | 'repositorySourceDelete' | 'gitInfoList' | 'ftpInfoList' | 'groupList' | 'branchList'> {
  /** The repository facts of the subject's projects, when the caller may see the subject. */
  async function sourcesOf({ request, params }: { request: FastifyRequest; params: { id: number } }) {
    await requireSubject(db, signedIn(request).userId, params.id, 'access');
    return projectSources(db, params.id);
  }

  return {
    async repositorySourceList({ request, query }) {
      return ok(await listSources(db, signedIn(request).userId, query?.getCodeType));
    },

    async repositorySourceCheck({ body }) {
      return ok({ valid: true, normalizedUrl: repositoryUrl(body.getCodeType, body.url) }, SUBJECT_MSG.sourceChecked);
    },

    async repositorySourceSave({ request, body }) {
      const { userId } = signedIn(request);
      if (body.id !== undefined && !(await findOwnSource(db, userId, body.id))) throw new UserError(SUBJECT_MSG.sourceNotFound, 'not-found');
      const nameProblem = validateName(body.name);
      if (nameProblem) throw new UserError(nameProblem, 'invalid', { field: 'name' });
      const url = repositoryUrl(body.getCodeType, body.url);
      if (await sourceNameTaken(db, userId, body.name, body.id)) throw new UserError(SUBJECT_MSG.sourceNameTaken, 'conflict', { field: 'name' });
      const secret = body.password === undefined ? undefined : body.password === '' ? null : encryptSecret(dataDir, body.password);
      const id = await saveSource(db, userId, body.id, {
        name: body.name, getCodeType: body.getCodeType, url, username: body.username?.trim() || null, secret,
      });
      return ok((await findOwnSource(db, userId, id))!, body.id === undefined ? SUBJECT_MSG.added : SUBJECT_MSG.saved);
    },

    async repositorySourceDelete({ request, query }) {
      const { userId } = signedIn(request);
      const ids = parseIds(query.ids);
      // Someone else's source is "not found" to this user: the ids of others are not revealed.
      if ((await ownSourceIds(db, userId, ids)).length !== ids.length) throw new UserError(SUBJECT_MSG.sourceNotFound, 'not-found');
      return ok({ deleted: await deleteOwnSources(db, userId, ids) }, SUBJECT_MSG.deleted);
    },

    async gitInfoList(call) {
      const rows = (await sourcesOf(call)).filter((s) => isRemoteVcsType(s.getCodeType) && text(s.source.svnGitUri)).map((s) => ({
        getCodeType: s.getCodeType, svnGitUri: text(s.source.svnGitUri)!, gitBranchName: text(s.source.gitBranchName), svnGitUserName: text(s.source.svnGitUserName),
      }));
      return ok(countBy(rows, (r) => `${r.svnGitUri}\n${r.gitBranchName ?? ''}\n${r.svnGitUserName ?? ''}`));
    },

    async ftpInfoList(call) {
      const rows = (await sourcesOf(call)).filter((s) => isFtpType(s.getCodeType) && text(s.source.ftpIp)).map((s) => ({
        getCodeType: s.getCodeType, ftpIp: text(s.source.ftpIp)!, ftpFilePath: text(s.source.ftpFilePath), ftpUserName: text(s.source.ftpUserName),
      }));
      return ok(countBy(rows, (r) => `${r.ftpIp}\n${r.ftpFilePath ?? ''}\n${r.ftpUserName ?? ''}`));
    },

    async groupList(call) {
      const rows = (await sourcesOf(call)).filter((s) => isRemoteVcsType(s.getCodeType)).flatMap((s) => {
        const where = repositoryGroup(text(s.source.svnGitUri));
        return where ? [where] : [];
      });
      return ok(countBy(rows, (r) => `${r.host}\n${r.namespace}`));
    },

    async branchList(call) {
      const rows = (await sourcesOf(call)).filter((s) => isGitType(s.getCodeType) && text(s.source.svnGitUri)).map((s) => ({
        svnGitUri: text(s.source.svnGitUri)!, gitBranchName: text(s.source.gitBranchName) ?? 'master',
      }));
      return ok(countBy(rows, (r) => `${r.svnGitUri}\n${r.gitBranchName}`));
    },
  };
}

/** Host and namespace (the path without the repository itself) of a repository address. */
function repositoryGroup(url: string | null): { host: string; namespace: string } | null {
  if (!url) return null;
  const scp = /^[\w.-]+@([\w.-]+):(.+)$/.exec(url);
  let host: string;
  let path: string;
  if (scp) {
    host = scp[1]!;
    path = scp[2]!;
  } else {
    try {
      const u = new URL(url);
      host = u.host;
      path = u.pathname;
    } catch {
      return null;
    }
  }
  const parts = path.split('/').filter(Boolean);
  return { host, namespace: parts.slice(0, -1).join('/') };
}
