// Reading Python source as text, never running it (conanfile.py, setup.py): comments blanked,
// string literals with their offsets, one expression (brackets may span lines), offset -> line.

/** The text with `#` comments blanked (newlines kept), so offsets and lines still match. */
export function withoutComments(text: string): string {
  let out = '';
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i]!;
    if (c === '#') {
      const end = text.indexOf('\n', i);
      const stop = end < 0 ? n : end;
      out += ' '.repeat(stop - i);
      i = stop;
    } else if (c === '"' || c === "'") {
      const triple = text.startsWith(c.repeat(3), i);
      const q = triple ? c.repeat(3) : c;
      let j = i + q.length;
      while (j < n && !text.startsWith(q, j)) {
        if (text[j] === '\\') j++;
        else if (!triple && text[j] === '\n') break;
        j++;
      }
      j = Math.min(n, j + q.length);
      out += text.slice(i, j);
      i = j;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

export interface PyLiteral {
  value: string;
  /** Offset of the literal (its prefix) in the expression. */
  offset: number;
  /** Offset of the value, after the prefix and the opening quotes. */
  valueOffset: number;
  /** Offset just after the closing quotes. */
  end: number;
  /** `f`, `r`, `b`, `u` or a pair of them; '' for a plain string. */
  prefix: string;
}

/** String literals of a Python expression, in order, with their offsets. */
export function literals(expr: string): PyLiteral[] {
  const out: PyLiteral[] = [];
  const re = /(?<![\w])([fFrRbBuU]{0,2})("""|'''|"|')((?:\\.|(?!\2)[^\\])*?)\2/gs;
  for (let m = re.exec(expr); m; m = re.exec(expr)) {
    out.push({ value: m[3]!, offset: m.index, valueOffset: m.index + m[1]!.length + m[2]!.length, end: m.index + m[0].length, prefix: m[1]! });
  }
  return out;
}

/** The expression starting at `start`: up to the end of the logical line (brackets may span lines). */
export function expressionAt(text: string, start: number): string {
  let depth = 0;
  let i = start;
  for (; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"' || c === "'") {
      const triple = text.startsWith(c.repeat(3), i);
      const q = triple ? c.repeat(3) : c;
      i += q.length;
      while (i < text.length && !text.startsWith(q, i)) { if (text[i] === '\\') i++; i++; }
      i += q.length - 1;
    } else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') { if (depth === 0) break; depth--; } else if (c === '\n' && depth === 0 && text[i - 1] !== '\\') break;
  }
  return text.slice(start, i);
}

export const lineAt = (text: string, offset: number) => {
  let line = 1;
  for (let k = text.indexOf('\n'); k >= 0 && k < offset; k = text.indexOf('\n', k + 1)) line++;
  return line;
};
