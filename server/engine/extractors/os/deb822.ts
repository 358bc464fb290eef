// Control-file stanzas (deb822) as dpkg reads its status database: `Field: value`, continuation
// lines starting with a space or tab, stanzas separated by empty lines. Field names are matched
// without regard to case. A line that is neither a field nor a continuation makes its stanza
// malformed: dpkg gives up on the whole file there, a scan skips that stanza and reads on.

export interface Stanza {
  /** Field name (lower case) → value, continuation lines joined with '\n'. */
  fields: Map<string, string>;
  /** 1-based lines of the stanza in its file. */
  startLine: number;
  endLine: number;
  /** Why the stanza cannot be read, when it cannot. */
  error?: string;
}

export function parseStanzas(text: string): Stanza[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const out: Stanza[] = [];
  let current: Stanza | undefined;
  let last: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === '') {
      current = undefined;
      last = undefined;
      continue;
    }
    if (!current) {
      current = { fields: new Map(), startLine: i + 1, endLine: i + 1 };
      out.push(current);
    }
    current.endLine = i + 1;
    if (current.error) continue;
    if (line[0] === ' ' || line[0] === '\t') {
      if (last === undefined) {
        current.error = `第 ${i + 1} 行是续行，但前面没有字段`;
        continue;
      }
      current.fields.set(last, `${current.fields.get(last)}\n${line.trim()}`);
      continue;
    }
    if (line.startsWith('#')) continue;
    const colon = line.indexOf(':');
    if (colon <= 0) {
      current.error = `第 ${i + 1} 行“${line.length > 40 ? `${line.slice(0, 40)}…` : line}”不是“字段: 值”格式`;
      continue;
    }
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!name || /\s/.test(name)) {
      current.error = `第 ${i + 1} 行的字段名“${line.slice(0, colon)}”无效`;
      continue;
    }
    // A repeated field: dpkg refuses the stanza ("duplicate value for field").
    if (current.fields.has(name)) {
      current.error = `第 ${i + 1} 行重复了字段 ${line.slice(0, colon)}`;
      continue;
    }
    current.fields.set(name, line.slice(colon + 1).trim());
    last = name;
  }
  return out;
}
