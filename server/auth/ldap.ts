// The LDAP side of directory login, through ldapts (no protocol written here): connect (ldap://,
// ldap:// upgraded with StartTLS, or ldaps://, the server's certificate checked against the
// configured CA or the system's), bind as the service account, search the user's entry with the
// configured filter (the typed name escaped per RFC 4515), bind as that entry with the typed
// password, then, as the service account again, search the user's groups. Nothing here touches
// the database. Every failure is a DirectoryError with the step it happened at and a Chinese
// message explicit enough for an administrator (testLogin shows it); the login answer hides the
// ones that would tell whether a name exists (services/ldap.ts).
import { X509Certificate } from 'node:crypto';
import type { ConnectionOptions } from 'node:tls';
import { Client, Filter, FilterParser, InsufficientAccessError, InvalidCredentialsError, InvalidDNSyntaxError, NoSuchObjectError, ResultCodeError, type Entry } from 'ldapts';
import { LDAP_DN_PLACEHOLDER, LDAP_USERNAME_PLACEHOLDER } from '../../contract/api/ldap.ts';

/** What a search and a bind need: the stored configuration with its password decrypted. */
export interface DirectorySettings {
  url: string;
  startTls: boolean;
  bindDn: string;
  /** Null: the service account has none (or there is none: an anonymous search). */
  bindPassword: string | null;
  baseDn: string;
  userFilter: string;
  usernameAttribute: string;
  nameAttribute: string;
  emailAttribute: string;
  phoneAttribute: string;
  /** '' : the base DN. */
  groupBaseDn: string;
  groupFilter: string;
  caCertificate: string;
  connectTimeoutSeconds: number;
  timeoutSeconds: number;
}

/** The directory's account of a user who proved their password. */
export interface DirectoryAccount {
  dn: string;
  /** The entry's username attribute: the platform account's name. */
  username: string;
  name: string;
  email: string | null;
  phone: string | null;
  /** DNs of the groups the group filter finds (empty without a group filter). */
  groups: string[];
}

/**
 * Where a directory login failed. `notFound`, `ambiguous`, `badPassword` and `noUsername` are about
 * the user (a login answers them all as 用户名或密码错误); the others are about the server or the
 * configuration.
 */
export type DirectoryFailure =
  | 'unreachable' | 'timeout' | 'tls' | 'serviceBind' | 'config' | 'denied'
  | 'notFound' | 'ambiguous' | 'badPassword' | 'noUsername' | 'protocol';

export const USER_FAILURES: ReadonlySet<DirectoryFailure> = new Set(['notFound', 'ambiguous', 'badPassword', 'noUsername']);

export class DirectoryError extends Error {
  readonly failure: DirectoryFailure;
  /** The request field an administrator fixes it in, when one is to blame. */
  readonly field: string | undefined;
  constructor(failure: DirectoryFailure, message: string, field?: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'DirectoryError';
    this.failure = failure;
    this.field = field;
  }
}

export const LDAP_MSG = {
  urlInvalid: 'LDAP 地址无效，请填写 ldap://主机[:端口] 或 ldaps://主机[:端口]',
  urlScheme: 'LDAP 地址只支持 ldap:// 或 ldaps://',
  urlPath: 'LDAP 地址只填写协议、主机和端口，不要包含路径、查询参数或账号',
  startTlsWithLdaps: 'ldaps:// 已是加密连接，无需再启用 StartTLS',
  baseDnInvalid: '基础 DN 格式不正确',
  groupBaseDnInvalid: '组基础 DN 格式不正确',
  groupBaseDnMissing: (dn: string) => `组基础 DN 不存在：${dn}`,
  bindDnInvalid: '绑定 DN 格式不正确',
  filterPlaceholder: `用户过滤条件必须包含 ${LDAP_USERNAME_PLACEHOLDER}`,
  filterInvalid: '用户过滤条件不是有效的 LDAP 过滤器',
  groupFilterPlaceholder: `组过滤条件必须包含 ${LDAP_DN_PLACEHOLDER}`,
  groupFilterInvalid: '组过滤条件不是有效的 LDAP 过滤器',
  groupFilterMissing: '配置组映射时请填写组过滤条件',
  attributeInvalid: (label: string) => `${label}不是有效的 LDAP 属性名`,
  caInvalid: 'CA 证书不是有效的 PEM 证书',
  caWithoutTls: '只有 ldaps:// 或启用 StartTLS 时才会使用 CA 证书',
  unreachable: (host: string, reason: string) => `无法连接目录服务器 ${host}：${reason}`,
  timeout: (host: string, seconds: number) => `目录服务器 ${host} 在 ${seconds} 秒内没有应答`,
  tls: (host: string, reason: string) => `与目录服务器 ${host} 的 TLS 握手失败：${reason}`,
  startTlsRefused: (host: string) => `目录服务器 ${host} 不支持 StartTLS`,
  serviceBind: '服务账号绑定失败：绑定 DN 或密码错误',
  serviceBindNoPassword: '服务账号绑定失败：请填写绑定密码',
  baseDnMissing: (dn: string) => `基础 DN 不存在：${dn}`,
  searchDenied: '服务账号无权在基础 DN 下查询用户，请检查目录的访问控制',
  anonymousDenied: '目录不允许匿名查询，请填写绑定 DN 和密码',
  notFound: (username: string) => `目录中没有找到用户“${username}”`,
  ambiguous: (username: string) => `目录中有多个条目匹配用户“${username}”，请收紧用户过滤条件`,
  badPassword: (username: string) => `用户“${username}”的目录密码错误`,
  noUsername: (attribute: string) => `目录条目缺少用户名属性 ${attribute}`,
  protocol: (message: string) => `目录服务返回错误：${message}`,
} as const;

const TLS_REASONS: Record<string, string> = {
  SELF_SIGNED_CERT_IN_CHAIN: '服务器证书不受信任（请填写签发它的 CA 证书）',
  DEPTH_ZERO_SELF_SIGNED_CERT: '服务器使用自签名证书（请把该证书填写为 CA 证书）',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: '服务器证书不受信任（请填写签发它的 CA 证书）',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: '服务器证书不受信任（请填写签发它的 CA 证书）',
  UNABLE_TO_GET_ISSUER_CERT: '服务器证书不受信任（请填写签发它的 CA 证书）',
  CERT_HAS_EXPIRED: '服务器证书已过期',
  CERT_NOT_YET_VALID: '服务器证书尚未生效',
  ERR_TLS_CERT_ALTNAME_INVALID: '服务器证书与 LDAP 地址中的主机名不符',
  CERT_REVOKED: '服务器证书已被吊销',
};

const NET_REASONS: Record<string, string> = {
  ECONNREFUSED: '连接被拒绝（请检查主机和端口）',
  ENOTFOUND: '主机名无法解析',
  EAI_AGAIN: '主机名暂时无法解析',
  EHOSTUNREACH: '主机不可达',
  ENETUNREACH: '网络不可达',
  ECONNRESET: '连接被重置（端口是否与协议相符？ldaps 通常为 636，ldap 为 389）',
  ETIMEDOUT: '连接超时',
};

/** An attribute description: a name or an OID, options after `;`. */
const ATTRIBUTE = /^(?:[A-Za-z][A-Za-z0-9-]*|\d+(?:\.\d+)+)(?:;[A-Za-z0-9-]+)*$/;
export const isAttributeName = (text: string): boolean => ATTRIBUTE.test(text);

/** The URL checked: ldap or ldaps, a host, an optional port, nothing else. Answers it normalised (no trailing slash). */
export function checkLdapUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new DirectoryError('config', LDAP_MSG.urlInvalid, 'url');
  }
  if (url.protocol !== 'ldap:' && url.protocol !== 'ldaps:') throw new DirectoryError('config', LDAP_MSG.urlScheme, 'url');
  if (!url.hostname) throw new DirectoryError('config', LDAP_MSG.urlInvalid, 'url');
  if (url.username || url.password || url.search || url.hash || (url.pathname !== '' && url.pathname !== '/')) throw new DirectoryError('config', LDAP_MSG.urlPath, 'url');
  return `${url.protocol}//${url.host}`;
}

/** Whether the text parses as an LDAP filter (RFC 4515: values carry `(` and `)` escaped, so every parenthesis is structure). */
export function isFilter(text: string): boolean {
  let depth = 0;
  for (const c of text.trim()) {
    if (c === '(') depth += 1;
    else if (c === ')' && --depth < 0) return false;
  }
  if (depth !== 0 || !text.trim().startsWith('(')) return false;
  try {
    FilterParser.parseString(text);
    return true;
  } catch {
    return false;
  }
}

/** The PEM certificates in the text, each checked; throws when there is none or one does not parse. */
export function checkCaCertificate(pem: string): void {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g);
  if (!blocks) throw new DirectoryError('config', LDAP_MSG.caInvalid, 'caCertificate');
  for (const block of blocks) {
    try {
      new X509Certificate(block);
    } catch {
      throw new DirectoryError('config', LDAP_MSG.caInvalid, 'caCertificate');
    }
  }
}

/** A filter with each placeholder replaced by the value escaped per RFC 4515 (`*`, `(`, `)`, `\`, NUL). */
export const fillFilter = (filter: string, placeholder: string, value: string): string => filter.split(placeholder).join(Filter.escape(value));

const first = (value: Entry[string] | undefined): string | null => {
  const one = Array.isArray(value) ? value[0] : value;
  if (one === undefined) return null;
  const text = (Buffer.isBuffer(one) ? one.toString('utf8') : String(one)).trim();
  return text === '' ? null : text;
};

const hostOf = (url: string): string => new URL(url).host;

/** The library's or the socket's error as a DirectoryError (a DirectoryError passes as is). */
function explain(error: unknown, settings: DirectorySettings, step: 'connect' | 'serviceBind' | 'search' | 'userBind' | 'groups', username: string): DirectoryError {
  if (error instanceof DirectoryError) return error;
  const host = hostOf(settings.url);
  const e = error as NodeJS.ErrnoException & { code?: string | number };
  const code = typeof e?.code === 'string' ? e.code : undefined;
  const message = e instanceof Error ? e.message : String(error);
  if (code && (code in TLS_REASONS || code.startsWith('ERR_SSL') || code.startsWith('ERR_TLS') || code.includes('CERT'))) {
    return new DirectoryError('tls', LDAP_MSG.tls(host, TLS_REASONS[code] ?? message), 'caCertificate', { cause: error });
  }
  if (code === 'ECONNRESET' && settings.url.startsWith('ldaps:')) {
    return new DirectoryError('tls', LDAP_MSG.tls(host, '服务器没有以 TLS 应答（端口是否为 ldaps 端口？）'), 'url', { cause: error });
  }
  if (code && code in NET_REASONS) return new DirectoryError('unreachable', LDAP_MSG.unreachable(host, NET_REASONS[code]!), 'url', { cause: error });
  if (/Connection timeout/i.test(message)) return new DirectoryError('unreachable', LDAP_MSG.unreachable(host, '连接超时'), 'url', { cause: error });
  if (/timed out/i.test(message)) return new DirectoryError('timeout', LDAP_MSG.timeout(host, settings.timeoutSeconds), 'timeoutSeconds', { cause: error });
  if (/Connection closed|socket/i.test(message) && !(error instanceof ResultCodeError)) {
    return new DirectoryError('unreachable', LDAP_MSG.unreachable(host, settings.url.startsWith('ldap:') ? '服务器关闭了连接（端口是否为 ldaps 端口？请改用 ldaps://）' : '服务器关闭了连接'), 'url', { cause: error });
  }
  if (step === 'serviceBind') {
    if (error instanceof InvalidCredentialsError) return new DirectoryError('serviceBind', LDAP_MSG.serviceBind, 'bindPassword', { cause: error });
    if (error instanceof InvalidDNSyntaxError) return new DirectoryError('config', LDAP_MSG.bindDnInvalid, 'bindDn', { cause: error });
  }
  if (step === 'search' || step === 'groups') {
    if (error instanceof NoSuchObjectError && step === 'groups' && settings.groupBaseDn) {
      return new DirectoryError('config', LDAP_MSG.groupBaseDnMissing(settings.groupBaseDn), 'groupBaseDn', { cause: error });
    }
    if (error instanceof NoSuchObjectError) {
      return settings.bindDn || step === 'groups'
        ? new DirectoryError('config', LDAP_MSG.baseDnMissing(settings.baseDn), 'baseDn', { cause: error })
        : new DirectoryError('denied', LDAP_MSG.anonymousDenied, 'bindDn', { cause: error });
    }
    if (error instanceof InvalidDNSyntaxError) {
      return step === 'groups' && settings.groupBaseDn
        ? new DirectoryError('config', LDAP_MSG.groupBaseDnInvalid, 'groupBaseDn', { cause: error })
        : new DirectoryError('config', LDAP_MSG.baseDnInvalid, 'baseDn', { cause: error });
    }
    if (error instanceof InsufficientAccessError) return new DirectoryError('denied', LDAP_MSG.searchDenied, 'bindDn', { cause: error });
  }
  if (step === 'userBind' && error instanceof InvalidCredentialsError) return new DirectoryError('badPassword', LDAP_MSG.badPassword(username), undefined, { cause: error });
  return new DirectoryError('protocol', LDAP_MSG.protocol(message.trim() || String(e?.code ?? '')), undefined, { cause: error });
}

function tlsOptions(settings: DirectorySettings): ConnectionOptions {
  return { minVersion: 'TLSv1.2', ...(settings.caCertificate.trim() ? { ca: settings.caCertificate } : {}) };
}

async function serviceBind(client: Client, settings: DirectorySettings): Promise<void> {
  if (!settings.bindDn) return;
  // An empty password would be an unauthenticated bind: anonymous, whatever the DN says.
  if (!settings.bindPassword) throw new DirectoryError('serviceBind', LDAP_MSG.serviceBindNoPassword, 'bindPassword');
  await client.bind(settings.bindDn, settings.bindPassword);
}

/**
 * Checks `username` and `password` against the directory: the account on success, a DirectoryError
 * otherwise. An empty password is refused before any connection (a simple bind with one would be
 * anonymous and succeed).
 */
export async function authenticate(settings: DirectorySettings, username: string, password: string): Promise<DirectoryAccount> {
  if (!password) throw new DirectoryError('badPassword', LDAP_MSG.badPassword(username));
  const client = new Client({
    url: settings.url,
    connectTimeout: settings.connectTimeoutSeconds * 1000,
    timeout: settings.timeoutSeconds * 1000,
    // ldapts speaks TLS from the first byte whenever it is given TLS options: only for ldaps://.
    ...(settings.url.startsWith('ldaps:') ? { tlsOptions: tlsOptions(settings) } : {}),
    strictDN: false,
  });
  let step: 'connect' | 'serviceBind' | 'search' | 'userBind' | 'groups' = 'connect';
  try {
    if (settings.startTls && settings.url.startsWith('ldap:')) {
      try {
        await client.startTLS(tlsOptions(settings));
      } catch (error) {
        if (error instanceof ResultCodeError) throw new DirectoryError('tls', LDAP_MSG.startTlsRefused(hostOf(settings.url)), 'startTls', { cause: error });
        throw error;
      }
    }
    step = 'serviceBind';
    await serviceBind(client, settings);

    step = 'search';
    const attributes = [settings.usernameAttribute, settings.nameAttribute, settings.emailAttribute, settings.phoneAttribute].filter(Boolean);
    const { searchEntries } = await client.search(settings.baseDn, {
      scope: 'sub',
      filter: fillFilter(settings.userFilter, LDAP_USERNAME_PLACEHOLDER, username),
      attributes,
      sizeLimit: 2,
      timeLimit: settings.timeoutSeconds,
    });
    if (searchEntries.length === 0) throw new DirectoryError('notFound', LDAP_MSG.notFound(username));
    if (searchEntries.length > 1) throw new DirectoryError('ambiguous', LDAP_MSG.ambiguous(username), 'userFilter');
    const entry = searchEntries[0]!;
    const canonical = first(entry[settings.usernameAttribute]);
    if (!canonical) throw new DirectoryError('noUsername', LDAP_MSG.noUsername(settings.usernameAttribute), 'usernameAttribute');

    step = 'userBind';
    await client.bind(entry.dn, password);

    let groups: string[] = [];
    if (settings.groupFilter.trim()) {
      step = 'groups';
      await serviceBind(client, settings);
      const found = await client.search(settings.groupBaseDn || settings.baseDn, {
        scope: 'sub',
        filter: fillFilter(settings.groupFilter, LDAP_DN_PLACEHOLDER, entry.dn),
        attributes: ['dn'],
        timeLimit: settings.timeoutSeconds,
      });
      groups = found.searchEntries.map((g) => g.dn);
    }
    return {
      dn: entry.dn,
      username: canonical,
      name: first(entry[settings.nameAttribute]) ?? canonical,
      email: settings.emailAttribute ? first(entry[settings.emailAttribute]) : null,
      phone: settings.phoneAttribute ? first(entry[settings.phoneAttribute]) : null,
      groups,
    };
  } catch (error) {
    throw explain(error, settings, step, username);
  } finally {
    await client.unbind().catch(() => undefined);
  }
}
