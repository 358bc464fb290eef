// MODULE.bazel (Bzlmod, Starlark): the calls that name modules — `module(name, version)`,
// `bazel_dep(name, version, dev_dependency)` and the overrides that change what a dependency
// resolves to (`single_version_override(module_name, version)`, `git_override`,
// `archive_override`, `local_path_override`). Read as calls with keyword arguments of literal
// values; anything else in the file (extensions, use_repo, register_toolchains) is passed over.

export interface BazelDep { name: string; version: string; dev: boolean; line: number }
export interface BazelOverride { kind: string; version?: string; remote?: string; commit?: string; registry?: string; line: number }
export interface ModuleFile {
  module?: { name: string; version: string };
  deps: BazelDep[];
  overrides: Map<string, BazelOverride>;
}

type Value = string | boolean | number | null | Value[];
interface Call { name: string; args: Map<string, Value>; line: number }

/** Top-level calls `f(k = v, ...)` with literal arguments, in file order. */
function calls(source: string): Call[] {
  const found: Call[] = [];
  let i = 0;
  let line = 1;
  const n = source.length;
  const skipSpace = () => {
    for (;;) {
      while (i < n && /\s/.test(source[i]!)) { if (source[i] === '\n') line++; i++; }
      if (source[i] === '#') { while (i < n && source[i] !== '\n') i++; continue; }
      return;
    }
  };
  const readString = (): string => {
    const triple = source.startsWith('"""', i) || source.startsWith("'''", i);
    const quote = triple ? source.slice(i, i + 3) : source[i]!;
    i += quote.length;
    let value = '';
    while (i < n && !source.startsWith(quote, i)) {
      if (source[i] === '\\' && i + 1 < n) { value += source[i + 1]; i += 2; continue; }
      if (source[i] === '\n') line++;
      value += source[i];
      i++;
    }
    i += quote.length;
    return value;
  };
  const readValue = (): Value | undefined => {
    skipSpace();
    const c = source[i];
    if (c === '"' || c === "'") {
      let value = readString();
      // Implicit and explicit concatenation of string literals.
      for (;;) {
        skipSpace();
        if (source[i] === '+') { i++; skipSpace(); }
        if (source[i] === '"' || source[i] === "'") value += readString();
        else break;
      }
      return value;
    }
    if (c === '[' || c === '(') {
      const close = c === '[' ? ']' : ')';
      i++;
      const items: Value[] = [];
      for (;;) {
        skipSpace();
        if (source[i] === close) { i++; return items; }
        const v = readValue();
        if (v !== undefined) items.push(v);
        skipSpace();
        if (source[i] === ',') i++;
        else if (source[i] !== close) { skipExpression(); }
        if (i >= n) return items;
      }
    }
    const word = /^[A-Za-z_][A-Za-z0-9_]*|^-?\d+/.exec(source.slice(i, i + 200));
    if (word) {
      i += word[0].length;
      if (word[0] === 'True') return true;
      if (word[0] === 'False') return false;
      if (word[0] === 'None') return null;
      if (/^-?\d+$/.test(word[0])) return Number(word[0]);
      skipExpression();
      return undefined;
    }
    skipExpression();
    return undefined;
  };
  // Passes over the rest of an expression this reader does not evaluate (a variable, a call).
  const skipExpression = () => {
    let depth = 0;
    while (i < n) {
      const c = source[i]!;
      if (c === '"' || c === "'") { readString(); continue; }
      if (c === '#') { while (i < n && source[i] !== '\n') i++; continue; }
      if (c === '\n') line++;
      if (c === '(' || c === '[' || c === '{') depth++;
      else if (c === ')' || c === ']' || c === '}') { if (depth === 0) return; depth--; }
      else if (c === ',' && depth === 0) return;
      i++;
    }
  };
  while (i < n) {
    skipSpace();
    if (i >= n) break;
    if (source[i] === '"' || source[i] === "'") { readString(); continue; }
    const name = /^[A-Za-z_][A-Za-z0-9_.]*/.exec(source.slice(i, i + 200));
    if (!name) { if (source[i] === '\n') line++; i++; continue; }
    const start = line;
    i += name[0].length;
    skipSpace();
    if (source[i] !== '(') continue;
    i++;
    const args = new Map<string, Value>();
    for (;;) {
      skipSpace();
      if (i >= n) break;
      if (source[i] === ')') { i++; break; }
      const key = /^([A-Za-z_][A-Za-z0-9_]*)\s*=(?!=)/.exec(source.slice(i, i + 200));
      if (key) {
        i += key[0].length;
        const value = readValue();
        if (value !== undefined) args.set(key[1]!, value);
      } else {
        readValue();
      }
      skipSpace();
      if (source[i] === ',') i++;
      else if (source[i] !== ')') skipExpression();
    }
    found.push({ name: name[0], args, line: start });
  }
  return found;
}

const str = (v: Value | undefined): string | undefined => (typeof v === 'string' ? v : undefined);

export function parseModuleFile(source: string): ModuleFile {
  const result: ModuleFile = { deps: [], overrides: new Map() };
  for (const call of calls(source.replace(/^\uFEFF/, ''))) {
    if (call.name === 'module') {
      const name = str(call.args.get('name'));
      if (name) result.module = { name, version: str(call.args.get('version')) ?? '' };
    } else if (call.name === 'bazel_dep') {
      const name = str(call.args.get('name'));
      if (name) result.deps.push({ name, version: str(call.args.get('version')) ?? '', dev: call.args.get('dev_dependency') === true, line: call.line });
    } else if (/^(single_version|multiple_version|git|archive|local_path)_override$/.test(call.name)) {
      const name = str(call.args.get('module_name'));
      if (!name) continue;
      result.overrides.set(name, {
        kind: call.name.replace(/_override$/, ''), version: str(call.args.get('version')) || undefined, remote: str(call.args.get('remote')),
        commit: str(call.args.get('commit')) ?? str(call.args.get('tag')), registry: str(call.args.get('registry')), line: call.line,
      });
    }
  }
  return result;
}
