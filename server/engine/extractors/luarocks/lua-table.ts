// A small evaluator for the Lua subset rockspecs and LuaRocks manifests are written in: top-level
// assignments (`package = "x"`, `local v = "1.0"`) of strings (quoted or long brackets), numbers,
// booleans, nil, table constructors, names assigned earlier, `..` concatenation and the
// comparisons and logic rockspecs use to pick a branch or a tag
// (`(package_version == "dev") and "main" or nil`). Function calls and anything else evaluate to
// undefined rather than failing, so an unusual rockspec still yields what it spells out plainly.

export type LuaValue = string | number | boolean | null | undefined | LuaTable;
export interface LuaTable { array: LuaValue[]; fields: Map<string, LuaValue> }

type Token = { kind: 'name' | 'string' | 'number' | 'op' | 'eof'; value: string; line: number };

export class LuaSyntaxError extends Error {}

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let line = 1;
  const longBracket = (at: number): { level: number; end: number } | null => {
    const m = /^\[(=*)\[/.exec(source.slice(at, at + 64));
    if (!m) return null;
    const close = `]${m[1]}]`;
    const end = source.indexOf(close, at + m[0].length);
    if (end < 0) throw new LuaSyntaxError(`第 ${line} 行的长字符串没有结束`);
    return { level: m[0].length, end: end + close.length };
  };
  while (i < source.length) {
    const c = source[i]!;
    if (c === '\n') { line++; i++; continue; }
    if (/\s/.test(c)) { i++; continue; }
    if (source.startsWith('--', i)) {
      const long = longBracket(i + 2);
      const end = long ? long.end : source.indexOf('\n', i);
      const stop = end < 0 ? source.length : end;
      line += (source.slice(i, stop).match(/\n/g) ?? []).length;
      i = stop;
      continue;
    }
    if (c === '[' && /^\[=*\[/.test(source.slice(i, i + 64))) {
      const long = longBracket(i)!;
      const raw = source.slice(i + long.level, long.end - long.level);
      tokens.push({ kind: 'string', value: raw.replace(/^\r?\n/, ''), line });
      line += (source.slice(i, long.end).match(/\n/g) ?? []).length;
      i = long.end;
      continue;
    }
    if (c === '"' || c === "'") {
      let j = i + 1;
      let value = '';
      while (j < source.length && source[j] !== c) {
        if (source[j] === '\n') throw new LuaSyntaxError(`第 ${line} 行的字符串没有结束`);
        if (source[j] === '\\') {
          const n = source[j + 1] ?? '';
          const escapes: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', '"': '"', "'": "'", '\n': '\n' };
          value += escapes[n] ?? n;
          j += 2;
        } else {
          value += source[j];
          j++;
        }
      }
      if (j >= source.length) throw new LuaSyntaxError(`第 ${line} 行的字符串没有结束`);
      tokens.push({ kind: 'string', value, line });
      i = j + 1;
      continue;
    }
    const number = /^(?:0[xX][0-9a-fA-F]+|\d+(?:\.\d*)?(?:[eE][-+]?\d+)?|\.\d+)/.exec(source.slice(i, i + 64));
    if (number) { tokens.push({ kind: 'number', value: number[0], line }); i += number[0].length; continue; }
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(source.slice(i, i + 256));
    if (name) { tokens.push({ kind: 'name', value: name[0], line }); i += name[0].length; continue; }
    const op = /^(?:\.\.\.|\.\.|==|~=|<=|>=|::|[-+*/%^#<>=(){}[\];:,.])/.exec(source.slice(i, i + 3));
    if (!op) throw new LuaSyntaxError(`第 ${line} 行有无法识别的字符 ${JSON.stringify(c)}`);
    tokens.push({ kind: 'op', value: op[0], line });
    i += op[0].length;
  }
  tokens.push({ kind: 'eof', value: '', line });
  return tokens;
}

const KEYWORDS = new Set(['and', 'or', 'not', 'nil', 'true', 'false', 'function', 'end', 'local', 'return', 'if', 'then', 'else', 'elseif', 'for', 'while', 'do', 'repeat', 'until', 'in', 'break', 'goto']);

/** Evaluates the top-level assignments of a Lua file; answers the globals it sets, with the line each was set on. */
export function evaluateLua(source: string): { globals: Map<string, LuaValue>; lines: Map<string, number> } {
  const tokens = tokenize(source.replace(/^\uFEFF/, '').replace(/^#![^\n]*/, ''));
  let pos = 0;
  const globals = new Map<string, LuaValue>();
  const locals = new Map<string, LuaValue>();
  const lines = new Map<string, number>();
  const peek = () => tokens[pos]!;
  const next = () => tokens[pos++]!;
  const isOp = (v: string) => peek().kind === 'op' && peek().value === v;
  const isName = (v: string) => peek().kind === 'name' && peek().value === v;
  const expect = (v: string) => {
    const t = next();
    if (t.value !== v) throw new LuaSyntaxError(`第 ${t.line} 行应为 ${v}，实为 ${t.value || '文件结尾'}`);
  };
  const lookup = (name: string): LuaValue => (locals.has(name) ? locals.get(name) : globals.get(name));

  const PRECEDENCE: Record<string, number> = { or: 1, and: 2, '<': 3, '>': 3, '<=': 3, '>=': 3, '~=': 3, '==': 3, '..': 5, '+': 6, '-': 6, '*': 7, '/': 7, '%': 7 };
  const binaryOp = (): string | undefined => {
    const t = peek();
    if ((t.kind === 'op' || (t.kind === 'name' && (t.value === 'and' || t.value === 'or'))) && PRECEDENCE[t.value] !== undefined) return t.value;
    return undefined;
  };
  const truthy = (v: LuaValue) => v !== null && v !== undefined && v !== false;

  function skipBalanced(open: string, close: string): void {
    let depth = 0;
    do {
      const t = next();
      if (t.kind === 'eof') throw new LuaSyntaxError(`缺少 ${close}`);
      if (t.kind === 'op' && t.value === open) depth++;
      else if (t.kind === 'op' && t.value === close) depth--;
    } while (depth > 0);
  }

  function skipFunctionBody(): void {
    // `function (...) ... end`: blocks opened by function/do/then/repeat close with end/until.
    let depth = 1;
    while (depth > 0) {
      const t = next();
      if (t.kind === 'eof') throw new LuaSyntaxError('function 缺少 end');
      if (t.kind !== 'name') continue;
      if (t.value === 'function' || t.value === 'do' || t.value === 'then' || t.value === 'repeat') depth++;
      else if (t.value === 'end' || t.value === 'until' || t.value === 'elseif') depth--; // elseif's own `then` opens again
    }
  }

  function table(): LuaTable {
    expect('{');
    const result: LuaTable = { array: [], fields: new Map() };
    while (!isOp('}')) {
      if (isOp('[')) {
        next();
        const key = expression();
        expect(']');
        expect('=');
        const value = expression();
        if (key !== undefined && key !== null && typeof key !== 'object') result.fields.set(String(key), value);
      } else if (peek().kind === 'name' && !KEYWORDS.has(peek().value) && tokens[pos + 1]?.value === '=' && tokens[pos + 1]?.kind === 'op') {
        const key = next().value;
        next();
        result.fields.set(key, expression());
      } else {
        result.array.push(expression());
      }
      if (isOp(',') || isOp(';')) next();
      else break;
    }
    expect('}');
    return result;
  }

  function primary(): LuaValue {
    const t = peek();
    if (t.kind === 'string') { next(); return t.value; }
    if (t.kind === 'number') { next(); return Number(t.value); }
    if (t.kind === 'op' && t.value === '{') return table();
    if (t.kind === 'op' && t.value === '(') {
      next();
      const value = expression();
      expect(')');
      return value;
    }
    if (t.kind === 'op' && (t.value === '-' || t.value === '#')) {
      next();
      const value = unary();
      if (t.value === '-') return typeof value === 'number' ? -value : undefined;
      return typeof value === 'string' ? value.length : value && typeof value === 'object' ? value.array.length : undefined;
    }
    if (t.kind === 'name') {
      if (t.value === 'nil') { next(); return null; }
      if (t.value === 'true') { next(); return true; }
      if (t.value === 'false') { next(); return false; }
      if (t.value === 'not') { next(); return !truthy(unary()); }
      if (t.value === 'function') { next(); skipBalanced('(', ')'); skipFunctionBody(); return undefined; }
      next();
      let value = lookup(t.value);
      // Suffixes: field access, indexing, calls (whose results are unknown).
      for (;;) {
        if (isOp('.')) { next(); const key = next().value; value = value && typeof value === 'object' ? value.fields.get(key) : undefined; }
        else if (isOp('[')) { next(); const key = expression(); expect(']'); value = value && typeof value === 'object' && key !== null && key !== undefined && typeof key !== 'object' ? value.fields.get(String(key)) : undefined; }
        else if (isOp('(')) { skipBalanced('(', ')'); value = undefined; }
        else if (isOp(':')) { next(); next(); if (isOp('(')) skipBalanced('(', ')'); else if (peek().kind === 'string') next(); else if (isOp('{')) table(); value = undefined; }
        else if (peek().kind === 'string') { next(); value = undefined; }
        else break;
      }
      return value;
    }
    throw new LuaSyntaxError(`第 ${t.line} 行应为表达式，实为 ${t.value || '文件结尾'}`);
  }

  function unary(): LuaValue {
    return primary();
  }

  function expression(minPrecedence = 0): LuaValue {
    let left = unary();
    for (;;) {
      const op = binaryOp();
      if (!op) return left;
      const precedence = PRECEDENCE[op]!;
      if (precedence <= minPrecedence && !(op === '..' && precedence === minPrecedence)) return left;
      next();
      // `..` is right-associative; the rest are left-associative.
      const right = expression(op === '..' ? precedence - 1 : precedence);
      left = binary(op, left, right);
    }
  }

  function binary(op: string, a: LuaValue, b: LuaValue): LuaValue {
    switch (op) {
      case 'or': return truthy(a) ? a : b;
      case 'and': return truthy(a) ? b : a;
      case '..': return (typeof a === 'string' || typeof a === 'number') && (typeof b === 'string' || typeof b === 'number') ? `${a}${b}` : undefined;
      case '==': return a === undefined || b === undefined ? undefined : a === b;
      case '~=': return a === undefined || b === undefined ? undefined : a !== b;
      default:
        if (typeof a === 'number' && typeof b === 'number') {
          switch (op) {
            case '+': return a + b;
            case '-': return a - b;
            case '*': return a * b;
            case '/': return a / b;
            case '%': return a % b;
            case '<': return a < b;
            case '>': return a > b;
            case '<=': return a <= b;
            case '>=': return a >= b;
          }
        }
        return undefined;
    }
  }

  while (peek().kind !== 'eof') {
    if (isOp(';')) { next(); continue; }
    const local = isName('local');
    if (local) next();
    if (isName('function')) {
      next();
      while (!isOp('(')) next();
      skipBalanced('(', ')');
      skipFunctionBody();
      continue;
    }
    const start = peek();
    if (start.kind !== 'name') throw new LuaSyntaxError(`第 ${start.line} 行应为赋值语句，实为 ${start.value || '文件结尾'}`);
    const names: string[] = [next().value];
    let nested = false;
    while (isOp(',') || isOp('.') || isOp('[')) {
      if (isOp(',')) { next(); names.push(next().value); }
      else { nested = true; if (isOp('.')) { next(); next(); } else skipBalanced('[', ']'); }
    }
    if (!isOp('=')) {
      // A statement that is no assignment (a call): skip it.
      if (isOp('(')) { skipBalanced('(', ')'); continue; }
      if (peek().kind === 'string') { next(); continue; }
      if (isOp('{')) { table(); continue; }
      if (local) continue;
      throw new LuaSyntaxError(`第 ${start.line} 行应为赋值语句`);
    }
    next();
    const values: LuaValue[] = [expression()];
    while (isOp(',')) { next(); values.push(expression()); }
    if (nested) continue;
    names.forEach((name, index) => {
      if (local) locals.set(name, values[index]);
      else { globals.set(name, values[index]); lines.set(name, start.line); }
    });
  }
  return { globals, lines };
}

export const isTable = (v: LuaValue): v is LuaTable => typeof v === 'object' && v !== null;
export const asString = (v: LuaValue): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);
