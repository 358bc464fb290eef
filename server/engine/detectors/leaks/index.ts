// Sensitive information in an upload's files (敏感信息, analysis mode 9): the built-in rules
// (rules.ts) and the administrators' rules run over every string of a file (strings.ts), each
// match reported with its byte offset, type and rule, its secret part masked (the value itself is
// never kept: not in the run's results, not on screen). Bounded: strings of at most WINDOW
// characters, at most MAX_PER_FILE findings a file; an administrator's rule runs in a sandbox with
// a time limit per file, so a pattern slower than its validation foresaw costs that file's matches
// of that rule, not the analysis.
import { createContext, Script } from 'node:vm';
import { SECRET_LEAK_TYPES, type LeakType } from '../../../../contract/leak-types.ts';
import { fileStrings, type FileString } from './strings.ts';
import { BUILTIN_LEAK_RULES, type BuiltinLeakRule, type LeakRuleSpec } from './rules.ts';


export interface LeakFinding {
  /** Byte offset of the match in the file. */
  offset: number;
  type: LeakType;
  /** The rule's key (`builtin:aws-access-key`, `user:12`). */
  rule: string;
  ruleName: string;
  /** The match, its secret part masked. */
  text: string;
}

/** Findings kept per file (the first in file order). */
export const MAX_PER_FILE = 50;
/** Time an administrator's rule may take over one file. */
const USER_RULE_MS = 250;

interface Compiled {
  spec: LeakRuleSpec;
  re: RegExp;
  accept?: BuiltinLeakRule['accept'];
}

export interface LeakScanner {
  scan(bytes: Uint8Array): LeakFinding[];
}

/**
 * A scanner with the built-in rules (those whose key is in `disabled` left out) and the given
 * administrators' rules (already validated when stored).
 */
export function leakScanner(userRules: readonly LeakRuleSpec[] = [], disabled: readonly string[] = []): LeakScanner {
  const builtins: Compiled[] = BUILTIN_LEAK_RULES.filter((r) => !disabled.includes(r.key))
    .map((r) => ({ spec: r, re: new RegExp(r.pattern, r.ignoreCase ? 'gdi' : 'gd'), accept: r.accept }));
  const users = userRules.flatMap((spec) => {
    try {
      new RegExp(spec.pattern, 'gd');
      return [spec];
    } catch {
      return [];
    }
  });
  return {
    scan(bytes) {
      // A file with NUL bytes is a binary: its UTF-16 strings are read too.
      const wide = bytes.subarray(0, 8192).includes(0);
      const strings = [...fileStrings(bytes, wide)];
      const found = new Map<string, LeakFinding>();
      const add = (f: LeakFinding) => {
        if (found.size >= MAX_PER_FILE) return;
        // Overlapping windows and repeated rules see the same match again.
        const key = `${f.rule}\0${f.offset}`;
        if (!found.has(key)) found.set(key, f);
      };
      for (const s of strings) {
        if (found.size >= MAX_PER_FILE) break;
        for (const rule of builtins) matchInto(rule, s, add);
      }
      for (const spec of users) {
        if (found.size >= MAX_PER_FILE) break;
        for (const m of sandboxMatches(spec, strings.map((s) => s.text), MAX_PER_FILE - found.size)) {
          const s = strings[m.string]!;
          add(finding(spec, s, m.index, m.text, m.secrets));
        }
      }
      return [...found.values()].sort((a, b) => a.offset - b.offset || a.rule.localeCompare(b.rule));
    },
  };
}

function matchInto(rule: Compiled, s: FileString, add: (f: LeakFinding) => void): void {
  rule.re.lastIndex = 0;
  for (let m = rule.re.exec(s.text); m; m = rule.re.exec(s.text)) {
    if (!m[0]) {
      rule.re.lastIndex++;
      continue;
    }
    if (rule.accept && !rule.accept(m[0], m.groups ?? {})) continue;
    add(finding(rule.spec, s, m.index, m[0], secretSpans(m)));
  }
}

/** The spans (relative to the match) of its groups named `secret…`. */
function secretSpans(m: RegExpExecArray): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  for (const [name, span] of Object.entries(m.indices?.groups ?? {})) {
    if (name.startsWith('secret') && span) spans.push([span[0] - m.index, span[1] - m.index]);
  }
  return spans;
}

function finding(spec: LeakRuleSpec, s: FileString, index: number, text: string, secrets: Array<[number, number]>): LeakFinding {
  return { offset: s.offset + index * s.width, type: spec.type, rule: spec.key, ruleName: spec.name, text: masked(spec, text, secrets) };
}

/** Eight stars, and the last four characters of a long secret (enough to tell which key to revoke). */
const maskSecret = (secret: string): string => '********' + (secret.length >= 16 ? secret.slice(-4) : '');

/**
 * The match as stored and shown: its `secret` groups masked; a secret-kind match of a rule without
 * such a group (an administrator's rule) keeps its first four characters only. Other kinds
 * (addresses, paths, hosts) are disclosures, shown as found.
 */
export function masked(spec: LeakRuleSpec, text: string, secrets: Array<[number, number]>): string {
  const clipped = text.length > 300 ? text.slice(0, 300) + '…' : text;
  if (secrets.length) {
    let out = '';
    let at = 0;
    for (const [from, to] of [...secrets].sort((a, b) => a[0] - b[0])) {
      if (from < at) continue;
      out += text.slice(at, from) + maskSecret(text.slice(from, to));
      at = to;
    }
    const rest = text.slice(at);
    return out + (rest.length > 100 ? rest.slice(0, 100) + '…' : rest);
  }
  if (SECRET_LEAK_TYPES.includes(spec.type) && !spec.key.startsWith('builtin:')) return text.slice(0, 4) + maskSecret(text.slice(4));
  return clipped;
}

// ---- administrators' rules: in a sandbox, with a time limit --------------------------------------

const sandbox = createContext({});
const matchScript = new Script(`(() => {
  const { pattern, flags, strings, max } = input;
  const re = new RegExp(pattern, flags);
  const out = [];
  for (let i = 0; i < strings.length && out.length < max; i++) {
    re.lastIndex = 0;
    for (let m = re.exec(strings[i]); m && out.length < max; m = re.exec(strings[i])) {
      if (!m[0]) { re.lastIndex++; continue; }
      const secrets = [];
      for (const [name, span] of Object.entries((m.indices && m.indices.groups) || {})) {
        if (name.startsWith('secret') && span) secrets.push([span[0] - m.index, span[1] - m.index]);
      }
      out.push(JSON.stringify({ string: i, index: m.index, text: m[0], secrets }));
    }
  }
  return out;
})()`);

interface SandboxMatch {
  string: number;
  index: number;
  text: string;
  secrets: Array<[number, number]>;
}

function sandboxMatches(spec: LeakRuleSpec, strings: string[], max: number): SandboxMatch[] {
  sandbox.input = { pattern: spec.pattern, flags: spec.ignoreCase ? 'gdi' : 'gd', strings, max };
  try {
    const out = matchScript.runInContext(sandbox, { timeout: USER_RULE_MS }) as string[];
    return out.map((s) => JSON.parse(s) as SandboxMatch);
  } catch {
    // Over its time on this file (or failing): no matches of this rule here.
    return [];
  } finally {
    delete sandbox.input;
  }
}
