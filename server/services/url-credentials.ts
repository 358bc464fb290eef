// Credentials never in URLs at rest (issue 13, item 5). A repository, FTP, registry or tracker
// address typed as `https://alice:s3cret@git.example.com/x.git` is split when it is saved: the
// user name goes to the form's user-name field and the password to its password field (stored
// encrypted, as if typed there), and the address is kept and answered without them. Rules:
// - any `scheme://user:password@host…` and `scheme://user@host…` is split (percent-encoded
//   credentials are decoded first); so is a scheme-less `user:password@host` in a host field (FTP,
//   version-control server), but not in a repository or image field, where `host:path@x` and
//   `image:tag@sha256:…` are addresses;
// - an SSH address's user name is part of the address, not a credential: `git@host:path` and
//   `ssh://git@host/path` (ssh, svn+ssh, git+ssh) stay as they are — unless a password is in it;
// - when the form's own field was also filled with a different value the save is refused (neither
//   silently wins); the same value in both places is fine;
// - where an address has no credential fields (private-service repositories) a URL with
//   credentials is refused.
// Rows saved before this rule are cleaned when the platform starts (moveStoredUrlCredentials):
// the address loses its credentials, which fill the row's empty credential fields (a password
// encrypted); a field already filled keeps its value and the address's copy is dropped.
import type { ProjectForm } from '../../contract/api/task.ts';
import { isFtpType } from '../../contract/enums.ts';
import { audit } from '../db/repositories/audit-log.ts';
import { projectsWithAt, updateProject } from '../db/repositories/projects.ts';
import { rewriteSource, sourcesWithAt } from '../db/repositories/subject-sources.ts';
import { patchSettings, subjectsWithAt } from '../db/repositories/subjects.ts';
import { inTransaction, type Db } from '../db/transaction.ts';
import { UserError } from '../errors.ts';
import { encryptSecret } from '../secrets.ts';

export const URL_CREDENTIALS_MSG = {
  userConflict: (label: string) => `${label}中的用户名与“用户名”字段不一致，请只在一处填写`,
  passwordConflict: (label: string) => `${label}中的密码与“密码”字段不一致，请只在一处填写`,
  notAllowed: (label: string) => `${label}不能包含用户名或密码，请删除地址中“用户名:密码@”的部分`,
} as const;

/** An address without its credentials, and the credentials it held (null: none). */
export interface SplitUrl {
  url: string;
  username: string | null;
  password: string | null;
}

const SSH_SCHEMES = new Set(['ssh', 'svn+ssh', 'git+ssh', 'ssh+git']);

const decode = (text: string): string => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

/**
 * Splits the credentials off an address (see the rules above); an address without any is answered
 * as given. `bare`: the field takes a host without a scheme, so `user:password@host` counts too.
 */
export function splitUrlCredentials(raw: string, bare = false): SplitUrl {
  const unchanged: SplitUrl = { url: raw, username: null, password: null };
  const text = raw.trim();
  // scheme://authority rest — the authority ends at the first / ? # or \ (WHATWG treats \ as / for http).
  const withScheme = /^([a-z][a-z0-9+.-]*):\/\/([^/?#\\]*)([\s\S]*)$/i.exec(text);
  if (withScheme) {
    const [, scheme, authority, rest] = withScheme as unknown as [string, string, string, string];
    const at = authority.lastIndexOf('@');
    if (at < 0) return unchanged;
    const userinfo = authority.slice(0, at);
    const colon = userinfo.indexOf(':');
    const username = decode(colon < 0 ? userinfo : userinfo.slice(0, colon));
    const password = colon < 0 ? '' : decode(userinfo.slice(colon + 1));
    if (!password && SSH_SCHEMES.has(scheme.toLowerCase())) return unchanged;
    return { url: `${scheme}://${authority.slice(at + 1)}${rest}`, username: username || null, password: password || null };
  }
  // A host field's scheme-less `user:password@host…`.
  const hostOnly = bare ? /^([^@/:\s]*):([^@/\s]*)@([^@\s][\s\S]*)$/.exec(text) : null;
  if (hostOnly) {
    const [, user, password, rest] = hostOnly as unknown as [string, string, string, string];
    return { url: rest, username: decode(user) || null, password: decode(password) || null };
  }
  return unchanged;
}

/** Whether an address carries credentials that splitUrlCredentials would take off. */
export const hasUrlCredentials = (url: string, bare = false): boolean => splitUrlCredentials(url, bare).url !== url;

/** The address of a form and the credentials typed beside it; `bare` as splitUrlCredentials takes it. */
export interface TypedCredentials {
  url: string;
  username?: string | null;
  password?: string;
  bare?: boolean;
}

/**
 * The address without credentials, with the typed fields filled from it. `label` names the address
 * in a refusal and `field` is the request field it is about. A typed field that disagrees with the
 * address refuses the save; the message never repeats either password.
 */
export function moveUrlCredentials(typed: TypedCredentials, label: string, field: string): { url: string; username: string | null | undefined; password: string | undefined } {
  const split = splitUrlCredentials(typed.url, typed.bare);
  if (split.url === typed.url) return { url: typed.url, username: typed.username, password: typed.password };
  const typedUser = typed.username?.trim() || null;
  if (split.username && typedUser && typedUser !== split.username) throw new UserError(URL_CREDENTIALS_MSG.userConflict(label), 'invalid', { field });
  if (split.password && typed.password && typed.password !== split.password) throw new UserError(URL_CREDENTIALS_MSG.passwordConflict(label), 'invalid', { field });
  return { url: split.url, username: split.username ?? typed.username, password: split.password ?? typed.password };
}

/** Refuses an address that carries credentials where there is nowhere else to keep them. */
export function refuseUrlCredentials(url: string, label: string, field: string): void {
  if (hasUrlCredentials(url)) throw new UserError(URL_CREDENTIALS_MSG.notAllowed(label), 'invalid', { field });
}

type FormKey = keyof ProjectForm;

interface StoredKeys { url: string; username: string; password: string; bare: boolean }

/** The project form's addresses with their credential fields, whether they take a bare host, and how a message names them. */
const PROJECT_URL_FIELDS: ReadonlyArray<StoredKeys & { url: FormKey; username: FormKey; password: FormKey; label: string }> = [
  { url: 'svnGitUri', username: 'svnGitUserName', password: 'svnGitPwd', bare: false, label: '仓库地址' },
  { url: 'ftpIp', username: 'ftpUserName', password: 'ftpPassWord', bare: true, label: 'FTP 地址' },
  { url: 'fireFlyIp', username: 'fireFlyUserName', password: 'fireFlyPassWord', bare: true, label: '服务器地址' },
  { url: 'imageNameTag', username: 'imageUsername', password: 'imagePassword', bare: false, label: '镜像地址' },
];

/** A (partial) project form whose addresses hold no credentials: they are moved to the credential fields. */
export function projectFormWithoutUrlCredentials<F extends Partial<ProjectForm>>(form: F): F {
  const out: Record<string, unknown> = { ...form };
  for (const f of PROJECT_URL_FIELDS) {
    const url = form[f.url];
    if (typeof url !== 'string') continue;
    const moved = moveUrlCredentials({ url, username: form[f.username] as string | undefined, password: form[f.password] as string | undefined, bare: f.bare }, f.label, f.url);
    out[f.url] = moved.url;
    if (moved.username !== undefined) out[f.username] = moved.username ?? undefined;
    if (moved.password !== undefined) out[f.password] = moved.password;
  }
  return out as F;
}

// ---- rows saved before the rule: cleaned at start-up

const filled = (v: unknown): boolean => (typeof v === 'string' ? v.trim() !== '' : v !== undefined && v !== null);

/**
 * One stored address with its credential fields: the address without credentials, a user name
 * for an empty user-name field and an encrypted password for an empty password field.
 */
function cleanStored(record: Record<string, unknown>, keys: StoredKeys, dataDir: string): boolean {
  const url = record[keys.url];
  if (typeof url !== 'string') return false;
  const split = splitUrlCredentials(url, keys.bare);
  if (split.url === url) return false;
  record[keys.url] = split.url;
  if (split.username && !filled(record[keys.username])) record[keys.username] = split.username;
  if (split.password && !filled(record[keys.password])) record[keys.password] = encryptSecret(dataDir, split.password);
  return true;
}

/**
 * Moves the credentials out of every stored address (projects' sources, repository sources, the
 * subjects' tracker and private-service addresses), with one audit row naming what changed. Run
 * at start-up: rows saved before the rule existed. Cheap when there is nothing to do (only rows
 * with an `@` are read).
 */
export async function moveStoredUrlCredentials(db: Db, dataDir: string): Promise<{ projects: number[]; sources: number[]; subjects: number[] }> {
  const changed = { projects: [] as number[], sources: [] as number[], subjects: [] as number[] };
  const [projects, sources, subjects] = await Promise.all([projectsWithAt(db), sourcesWithAt(db), subjectsWithAt(db)]);
  const projectUpdates = projects.flatMap((p) => {
    const source = JSON.parse(p.source) as Record<string, unknown>;
    const touched = PROJECT_URL_FIELDS.map((f) => cleanStored(source, f, dataDir)).some(Boolean);
    return touched ? [{ id: p.id, source }] : [];
  });
  const sourceUpdates = sources.flatMap((s) => {
    const record: Record<string, unknown> = { url: s.url, username: s.username, secret: s.secret };
    return cleanStored(record, { url: 'url', username: 'username', password: 'secret', bare: isFtpType(s.getCodeType) }, dataDir)
      ? [{ id: s.id, url: record.url as string, username: (record.username as string | null) ?? null, secret: (record.secret as string | null) ?? null }]
      : [];
  });
  const subjectIds = subjects.filter((s) => cleanSettings(s.settings, dataDir)).map((s) => s.id);
  if (!projectUpdates.length && !sourceUpdates.length && !subjectIds.length) return changed;
  await inTransaction(db, async (trx) => {
    for (const p of projectUpdates) await updateProject(trx, p.id, { source: JSON.stringify(p.source) });
    for (const s of sourceUpdates) await rewriteSource(trx, s.id, s);
    // Re-read inside the transaction: settings are rewritten whole.
    for (const id of subjectIds) {
      await patchSettings(trx, id, (settings) => {
        cleanSettings(settings, dataDir);
        return settings;
      });
    }
    changed.projects = projectUpdates.map((p) => p.id);
    changed.sources = sourceUpdates.map((s) => s.id);
    changed.subjects = subjectIds;
    await audit(trx, { userId: null, action: 'platform.urlCredentials.moved', detail: changed });
  });
  return changed;
}

/** The tracker address (credentials to its fields) and private-service addresses (credentials dropped) of a subject's settings, cleaned in place. */
function cleanSettings(settings: Record<string, unknown>, dataDir: string): boolean {
  let touched = false;
  const bug = settings.bug;
  if (bug && typeof bug === 'object') touched = cleanStored(bug as Record<string, unknown>, { url: 'url', username: 'username', password: 'secret', bare: false }, dataDir) || touched;
  const repositories = (settings.privateService as { repositories?: unknown } | undefined)?.repositories;
  if (Array.isArray(repositories)) {
    for (const repository of repositories) {
      if (!repository || typeof repository !== 'object') continue;
      const r = repository as Record<string, unknown>;
      if (typeof r.url === 'string' && hasUrlCredentials(r.url)) {
        r.url = splitUrlCredentials(r.url).url;
        touched = true;
      }
    }
  }
  return touched;
}
