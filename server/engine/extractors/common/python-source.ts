// Reading Python source as text, never running it (conanfile.py, setup.py): comments blanked,
// string literals with their offsets, one expression (brackets may span lines); and offset -> line
// for any text (the Gradle build-script reader uses it too).

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
export function expressionAt(text: string, start: number, limit = 65536): string {
  let depth = 0;
  let i = start;
  const stop = Math.min(text.length, start + limit); // an unclosed bracket does not swallow the file
  for (; i < stop; i++) {
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

/** offset -> 1-based line, by binary search over the line starts (one pass per text, cached). */
let lastText: { text: string; starts: number[] } | undefined;
export const lineAt = (text: string, offset: number): number => {
  if (lastText?.text !== text) {
    const starts = [0];
    for (let k = text.indexOf('\n'); k >= 0; k = text.indexOf('\n', k + 1)) starts.push(k + 1);
    lastText = { text, starts };
  }
  const { starts } = lastText;
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid; else hi = mid - 1;
  }
  return lo + 1;
};
