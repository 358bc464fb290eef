// The built-in rules of the sensitive-information analysis (analysis mode 9), and the checks a
// user's rule must pass before it is stored (a pattern that cannot be compiled, matches nothing but
// the empty string, or could backtrack catastrophically is refused, in Chinese).
//
// Decisions: loopback (127/8) and link-local (169.254/16, the cloud metadata address every SDK
// carries) are not reported as internal addresses; RFC 1918 ranges are. E-mail addresses at the
// documentation domains (example.com, RFC 2606) and names that are image files (icon@2x.png) are
// not addresses. A value that is a placeholder (`password=%s`, `${PASSWORD}`, `<token>`) is no secret.
import { createContext, Script } from 'node:vm';
import type { LeakType } from '../../../../contract/leak-types.ts';

/** A rule as the analysis receives it: built-in, or one of the administrators' (`user:<id>`). */
export interface LeakRuleSpec {
  /** `builtin:<name>` or `user:<id>`. */
  key: string;
  name: string;
  type: LeakType;
  /** JavaScript regular expression source; a named group `secret` is the part masked. */
  pattern: string;
  /** Case-insensitive matching. */
  ignoreCase: boolean;
}

export interface BuiltinLeakRule extends LeakRuleSpec {
  /** Whether a match is a leak (octets in range, not a placeholder). */
  accept?: (match: string, groups: Record<string, string | undefined>) => boolean;
}

const octets = (ip: string) => ip.split('.').every((o) => Number(o) <= 255 && !(o.length > 1 && o.startsWith('0')));
const PLACEHOLDER = /^(?:[%$<{(\\[]|\*+$|x+$|(?:null|none|true|false|password|passwd|secret|token|changeme|string|value|undefined|your[_-]?\w*)$)/i;
const INTERNAL_SUFFIX = /\.(?:local|lan|internal|intranet|intra|corp|localdomain|home\.arpa)$/i;
const PRIVATE_IP = /^(?:10(?:\.\d{1,3}){3}|172\.(?:1[6-9]|2\d|3[01])(?:\.\d{1,3}){2}|192\.168(?:\.\d{1,3}){2})$/;
const FILE_TLD = /\.(?:png|jpe?g|gif|svg|webp|ico|js|css|html?|json|xml|txt|so|dll|o)$/i;
const DOC_DOMAIN = /(?:^|\.)example\.(?:com|org|net)$|(?:^|\.)(?:test|invalid|localhost)$/i;

const builtin = (name: string, label: string, type: LeakType, pattern: string, ignoreCase = false, accept?: BuiltinLeakRule['accept']): BuiltinLeakRule =>
  ({ key: `builtin:${name}`, name: label, type, pattern, ignoreCase, ...(accept ? { accept } : {}) });

export const BUILTIN_LEAK_RULES: readonly BuiltinLeakRule[] = [
  builtin('private-ip', 'RFC 1918 内网 IP 地址', 'ip', String.raw`(?<![\d.])(?:10(?:\.\d{1,3}){3}|172\.(?:1[6-9]|2\d|3[01])(?:\.\d{1,3}){2}|192\.168(?:\.\d{1,3}){2})(?![\d.]*\d)`, false,
    (m) => octets(m)),
  builtin('internal-url', '指向内网的网址', 'host', String.raw`\b(?:https?|ftp|ssh|git|svn|ldaps?|smb|jdbc:[a-z]+)://(?:[^\s/@:"']{1,64}(?::[^\s/@"']{0,64})?@)?(?<host>[A-Za-z0-9.-]{1,253})(?::\d{1,5})?(?:/[^\s"'<>]{0,200})?`, true,
    (_m, g) => {
      const host = (g.host ?? '').replace(/\.$/, '');
      if (PRIVATE_IP.test(host)) return octets(host);
      if (INTERNAL_SUFFIX.test(host)) return true;
      // A single-label name (http://jenkins/, http://nexus:8081/) names a machine of the local network.
      return /^[a-z][a-z0-9-]*$/i.test(host) && !/^(?:localhost|[a-z]+host|example|server|host|hostname|domain|your[a-z-]*)$/i.test(host);
    }),
  builtin('internal-host', '内部主机名', 'host', String.raw`(?<![\w.:/-])(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.){1,8}(?:local|lan|internal|intranet|intra|corp|localdomain|home\.arpa)(?![\w.-])`, true),
  builtin('unix-home', '构建机用户目录（/home、/Users）', 'path', String.raw`(?<![\w.-])/(?:home|Users)/(?!Shared/)(?<user>[A-Za-z0-9_][A-Za-z0-9_.-]{0,31})/[^\s"'<>:;,*?|]{1,300}`),
  builtin('windows-home', '构建机用户目录（C:\\Users）', 'path', String.raw`[A-Z]:\\(?:Users|Documents and Settings)\\(?<user>[^\\\s"'<>|:*?]{1,64})\\[^\s"'<>|*?]{1,300}`, true),
  builtin('ci-workspace', '持续集成工作区路径', 'path', String.raw`(?:/var/lib/jenkins|/var/jenkins_home|/home/jenkins|/builds|/home/gitlab-runner/builds|/home/runner/work)/[^\s"'<>:;,*?|]{1,300}|[A-Z]:\\(?:jenkins|workspace|builds?|agent\\_work)\\[^\s"'<>|*?]{1,300}`, true),
  builtin('password-assignment', '口令赋值（password=…）', 'credential', String.raw`\b(?:password|passwd|pwd|pass|secret|secret_?key|client_?secret|api_?key|access_?key|auth_?token|access_?token)\s{0,3}[=:]\s{0,3}["']?(?<secret>[^\s"'&;,]{4,128})`, true,
    (_m, g) => !PLACEHOLDER.test(g.secret ?? '')),
  builtin('connection-string', '含口令的连接串（user:pass@host）', 'credential', String.raw`\b[a-z][a-z0-9+.-]{1,20}://[^\s:/@"']{1,64}:(?<secret>[^\s@/"']{1,128})@[A-Za-z0-9.-]{1,253}`, true,
    (_m, g) => !PLACEHOLDER.test(g.secret ?? '')),
  builtin('private-key', '私钥（PEM）', 'private-key', String.raw`-----BEGIN (?:RSA |EC |DSA |OPENSSH |ENCRYPTED |PGP )?PRIVATE KEY(?: BLOCK)?-----`),
  builtin('aws-access-key', 'AWS 访问密钥 ID', 'token', String.raw`\b(?:AKIA|ASIA)(?<secret>[0-9A-Z]{16})\b`),
  builtin('github-token', 'GitHub 令牌', 'token', String.raw`\b(?:gh[pousr]_(?<secret>[A-Za-z0-9]{36})|github_pat_(?<secret2>[A-Za-z0-9_]{60,90}))\b`),
  builtin('slack-token', 'Slack 令牌', 'token', String.raw`\bxox[abprs]-(?<secret>[A-Za-z0-9-]{10,72})`),
  builtin('google-api-key', 'Google API 密钥', 'token', String.raw`\bAIza(?<secret>[0-9A-Za-z_-]{35})`),
  builtin('jwt', 'JSON Web Token', 'token', String.raw`\beyJ[A-Za-z0-9_-]{8,200}\.(?<secret>eyJ[A-Za-z0-9_-]{8,2000}\.[A-Za-z0-9_-]{8,600})`),
  builtin('email', '电子邮箱地址', 'email', String.raw`(?<![\w.%+-])[A-Za-z0-9._%+-]{1,64}@(?<domain>(?:[A-Za-z0-9-]{1,63}\.){1,8}[A-Za-z]{2,24})\b`, false,
    (_m, g) => !DOC_DOMAIN.test(g.domain ?? '') && !FILE_TLD.test(g.domain ?? '')),
];

// ---- validation of an administrator's pattern -------------------------------------------------------

const MAX_PATTERN_LENGTH = 300;
/**
 * How long a pattern may take over each probe input (pathological for backtracking). A safe pattern
 * takes microseconds; a catastrophic one grows exponentially with these inputs (minutes at least).
 * A run over the first budget is tried once more with the second, so a busy machine (a pause, a
 * descheduled thread) does not refuse a safe pattern.
 */
const PROBE_MS = 50;
const CONFIRM_MS = 1000;
const PROBES = ['a'.repeat(32) + '!', '0'.repeat(32) + 'x', 'a1'.repeat(24) + '-', ' '.repeat(4000) + '!', 'x@'.repeat(300) + '@', '/a'.repeat(1000) + '\u0000'];

/** Why a pattern is refused, in Chinese; null when it may be stored. */
export function leakPatternProblem(pattern: string, ignoreCase: boolean): string | null {
  if (!pattern.trim()) return '请填写正则表达式';
  if (pattern.length > MAX_PATTERN_LENGTH) return `正则表达式不能超过 ${MAX_PATTERN_LENGTH} 个字符`;
  let re: RegExp;
  try {
    re = new RegExp(pattern, ignoreCase ? 'gdi' : 'gd');
  } catch (error) {
    return `正则表达式无法解析：${(error as Error).message.replace(/^Invalid regular expression: /, '')}`;
  }
  if (re.test('')) return '正则表达式会匹配空字符串，请至少要求一个字符';
  if (/\\[1-9]|\\k</.test(pattern)) return '正则表达式不能使用反向引用（\\1、\\k<name>）：它们可能导致灾难性回溯';
  if (nestedQuantifier(pattern)) return '正则表达式含有嵌套的量词（如 (a+)+、(\\w*)*），可能导致灾难性回溯，请改写';
  // And runs of each letter the pattern names ((x|x)*y backtracks on xxxx…, not on aaaa…).
  const letters = [...new Set(pattern.replace(/\\./g, '').match(/[A-Za-z0-9_-]/g) ?? [])].slice(0, 24);
  for (const probe of [...PROBES, ...letters.map((c) => c.repeat(32) + '\u0000')]) {
    if (timedOut(pattern, ignoreCase, probe)) return '正则表达式在测试输入上执行超时，可能导致灾难性回溯，请改写';
  }
  return null;
}

/**
 * A quantified group holding a quantifier itself (star height above one): the shape of every
 * classic catastrophic pattern ((a+)+, (\w+\s?)*, (.*a){20}).
 */
function nestedQuantifier(pattern: string): boolean {
  const stack: boolean[] = [false];
  let lastGroupQuantified: boolean | null = null;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    const quantifier = c === '*' || c === '+' || (c === '{' && /^\{\d+(?:,\d*)?\}/.test(pattern.slice(i)));
    if (quantifier) {
      // Only repetition can multiply the ways to match: {n} of a fixed-length group cannot.
      // A small upper bound ({1,8}) is checked by the probes rather than refused outright.
      const bounds = /^\{\d+,(\d*)\}/.exec(pattern.slice(i));
      const unbounded = c !== '{' || (bounds !== null && (bounds[1] === '' || Number(bounds[1]) > 10));
      if (lastGroupQuantified && unbounded) return true;
      stack[stack.length - 1] = true;
      lastGroupQuantified = null;
      if (c === '{') i = pattern.indexOf('}', i);
      continue;
    }
    if (c === '?' && lastGroupQuantified !== null) continue;
    lastGroupQuantified = null;
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '[') {
      // A class is one atom: skip to its unescaped closing bracket.
      for (i++; i < pattern.length && pattern[i] !== ']'; i++) if (pattern[i] === '\\') i++;
      continue;
    }
    if (c === '(') stack.push(false);
    else if (c === ')' && stack.length > 1) {
      const inner = stack.pop()!;
      lastGroupQuantified = inner;
      if (inner) stack[stack.length - 1] = true;
    }
  }
  return false;
}

const sandbox = createContext({});
const probeScript = new Script('(() => { const re = new RegExp(input.pattern, input.flags); let n = 0; while (re.exec(input.text) && n < 10000) n++; return n; })()');

function timedOut(pattern: string, ignoreCase: boolean, text: string): boolean {
  return runsOver(pattern, ignoreCase, text, PROBE_MS) && runsOver(pattern, ignoreCase, text, CONFIRM_MS);
}

function runsOver(pattern: string, ignoreCase: boolean, text: string, ms: number): boolean {
  sandbox.input = { pattern, flags: ignoreCase ? 'gi' : 'g', text };
  try {
    probeScript.runInContext(sandbox, { timeout: ms });
    return false;
  } catch {
    return true;
  } finally {
    delete sandbox.input;
  }
}

