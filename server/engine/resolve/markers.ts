// PEP 508 environment markers evaluated for one target environment (Requires-Dist lines such as
// `pywin32>=1.0; sys_platform == "win32"` or `pysocks; extra == "socks"`). The environment online
// resolution assumes is DEFAULT_ENVIRONMENT: CPython 3.12 on 64-bit Linux, the platform a
// server-side Python service most often runs on; extras only those the requirement asked for.
import { pypiScheme } from '../matchers/versions/pypi.ts';

export const DEFAULT_ENVIRONMENT: Readonly<Record<string, string>> = {
  python_version: '3.12',
  python_full_version: '3.12.0',
  os_name: 'posix',
  sys_platform: 'linux',
  platform_system: 'Linux',
  platform_machine: 'x86_64',
  platform_python_implementation: 'CPython',
  implementation_name: 'cpython',
  implementation_version: '3.12.0',
  platform_release: '',
  platform_version: '',
};

const VERSION_VARS = new Set(['python_version', 'python_full_version', 'implementation_version']);

type Token = { kind: 'str' | 'var' | 'op' | '(' | ')' | 'and' | 'or'; text: string };

function tokenize(text: string): Token[] {
  const out: Token[] = [];
  const re = /\s*(?:(['"])(.*?)\1|(\()|(\))|(===|==|!=|<=|>=|~=|<|>|not\s+in\b|in\b)|(and\b)|(or\b)|([A-Za-z_][A-Za-z0-9_.]*))/y;
  let at = 0;
  while (at < text.length) {
    if (/^\s*$/.test(text.slice(at))) break;
    re.lastIndex = at;
    const m = re.exec(text);
    if (!m) throw new Error(`无法解析环境标记：${text}`);
    at = re.lastIndex;
    if (m[1]) out.push({ kind: 'str', text: m[2]! });
    else if (m[3]) out.push({ kind: '(', text: '(' });
    else if (m[4]) out.push({ kind: ')', text: ')' });
    else if (m[5]) out.push({ kind: 'op', text: m[5].replace(/\s+/, ' ') });
    else if (m[6]) out.push({ kind: 'and', text: 'and' });
    else if (m[7]) out.push({ kind: 'or', text: 'or' });
    else out.push({ kind: 'var', text: m[8]! });
  }
  return out;
}

const normaliseExtra = (e: string) => e.toLowerCase().replace(/[-_.]+/g, '-');

function compare(variable: string | undefined, left: string, op: string, right: string): boolean {
  if (op === 'in') return right.includes(left);
  if (op === 'not in') return !right.includes(left);
  if (variable && VERSION_VARS.has(variable) || pypiScheme.isValid(left) && pypiScheme.isValid(right) && op !== '==' && op !== '!=') {
    try {
      const spec = op === '===' ? `===${right}` : `${op}${right}`;
      return pypiScheme.constraint(spec)(left);
    } catch { /* fall back on strings */ }
  }
  switch (op) {
    case '==': case '===': return left === right;
    case '!=': return left !== right;
    case '<': return left < right;
    case '<=': return left <= right;
    case '>': return left > right;
    case '>=': return left >= right;
    default: return false;
  }
}

/** Whether `marker` holds in `env` with the given extras requested (none: `extra == "x"` is false). */
export function evaluateMarker(marker: string, extras: readonly string[] = [], env: Readonly<Record<string, string>> = DEFAULT_ENVIRONMENT): boolean {
  const tokens = tokenize(marker);
  let i = 0;
  const wanted = new Set(extras.map(normaliseExtra));
  const value = (t: Token): { text: string; variable?: string } => {
    if (t.kind === 'str') return { text: t.text };
    if (t.kind === 'var') return { text: t.text === 'extra' ? '' : env[t.text] ?? '', variable: t.text };
    throw new Error(`无法解析环境标记：${marker}`);
  };
  const atom = (): boolean => {
    const t = tokens[i++];
    if (!t) throw new Error(`无法解析环境标记：${marker}`);
    if (t.kind === '(') {
      const v = or();
      if (tokens[i++]?.kind !== ')') throw new Error(`无法解析环境标记：${marker}`);
      return v;
    }
    const op = tokens[i++];
    const r = tokens[i++];
    if (!op || op.kind !== 'op' || !r) throw new Error(`无法解析环境标记：${marker}`);
    const left = value(t);
    const right = value(r);
    // `extra == "socks"`: true when that extra was requested.
    if (left.variable === 'extra' || right.variable === 'extra') {
      const name = normaliseExtra(left.variable === 'extra' ? right.text : left.text);
      return op.text === '!=' ? !wanted.has(name) : wanted.has(name);
    }
    return compare(left.variable ?? right.variable, left.text, op.text, right.text);
  };
  const and = (): boolean => {
    let v = atom();
    while (tokens[i]?.kind === 'and') { i++; v = atom() && v; }
    return v;
  };
  const or = (): boolean => {
    let v = and();
    while (tokens[i]?.kind === 'or') { i++; v = and() || v; }
    return v;
  };
  const result = or();
  if (i !== tokens.length) throw new Error(`无法解析环境标记：${marker}`);
  return result;
}
