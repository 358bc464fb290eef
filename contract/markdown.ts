// A safe subset of Markdown, as advisory descriptions are written (OSV `details`, GitHub and
// RustSec advisories): headings, paragraphs, fenced and indented code, lists, block quotes, rules;
// inline code, emphasis and links (inline, reference-style, autolinks and bare addresses). The
// parser builds plain data: the renderer's Markdown.tsx turns it into React elements, so nothing is
// ever parsed as HTML (raw HTML in a description stays visible text, and only http(s) addresses
// become links, which the desktop hands to the system browser through its checked window-open
// handler); the reports take markdownToText's plain text.

export type Inline =
  | { kind: 'text'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'strong'; children: Inline[] }
  | { kind: 'em'; children: Inline[] }
  | { kind: 'link'; url: string; children: Inline[] };

export type Block =
  | { kind: 'heading'; level: number; children: Inline[] }
  | { kind: 'paragraph'; children: Inline[] }
  | { kind: 'code'; lang: string; text: string }
  | { kind: 'list'; ordered: boolean; start: number; items: Block[][] }
  | { kind: 'quote'; children: Block[] }
  | { kind: 'rule' };

/** Only plain web addresses become links. */
const isSafeUrl = (url: string): boolean => /^https?:\/\/[^\s<>"']+$/i.test(url);

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([\w+#.-]*)/;
const HEADING = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const RULE = /^ {0,3}([-*_])(\s*\1){2,}\s*$/;
const BULLET = /^( {0,3})([-*+])\s+(.*)$/;
const ORDERED = /^( {0,3})(\d{1,9})[.)]\s+(.*)$/;
const QUOTE = /^ {0,3}>\s?(.*)$/;
const DEFINITION = /^ {0,3}\[([^\]]+)\]:\s*<?(\S+?)>?(?:\s+["'(].*["')])?\s*$/;
const INDENTED = /^( {4}|\t)/;

const blank = (line: string) => line.trim() === '';
const refKey = (label: string) => label.trim().replace(/\s+/g, ' ').toLowerCase();

/** Parses a description; `refs` holds the reference definitions (collected from the whole text). */
export function parseMarkdown(text: string): Block[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const refs = new Map<string, string>();
  const body: string[] = [];
  let fenced = false;
  for (const line of lines) {
    if (FENCE.test(line)) fenced = !fenced;
    const def = fenced ? null : DEFINITION.exec(line);
    if (def) refs.set(refKey(def[1]!), def[2]!);
    else body.push(line);
  }
  return parseBlocks(body, refs);
}

function parseBlocks(lines: string[], refs: Map<string, string>): Block[] {
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (blank(line)) { i += 1; continue; }

    const fence = FENCE.exec(line);
    if (fence) {
      const marker = fence[1]!;
      const code: string[] = [];
      i += 1;
      while (i < lines.length && !lines[i]!.trimStart().startsWith(marker)) code.push(lines[i++]!);
      i += 1; // the closing fence (or the end)
      blocks.push({ kind: 'code', lang: fence[2] ?? '', text: code.join('\n') });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      blocks.push({ kind: 'heading', level: heading[1]!.length, children: parseInline(heading[2]!, refs) });
      i += 1;
      continue;
    }
    if (RULE.test(line)) { blocks.push({ kind: 'rule' }); i += 1; continue; }
    if (INDENTED.test(line)) {
      const code: string[] = [];
      while (i < lines.length && (INDENTED.test(lines[i]!) || (blank(lines[i]!) && i + 1 < lines.length && INDENTED.test(lines[i + 1]!)))) {
        code.push(lines[i++]!.replace(INDENTED, ''));
      }
      blocks.push({ kind: 'code', lang: '', text: code.join('\n') });
      continue;
    }
    if (QUOTE.test(line)) {
      const inner: string[] = [];
      while (i < lines.length && !blank(lines[i]!)) {
        const q = QUOTE.exec(lines[i]!);
        inner.push(q ? q[1]! : lines[i]!);
        i += 1;
      }
      blocks.push({ kind: 'quote', children: parseBlocks(inner, refs) });
      continue;
    }
    const bullet = BULLET.exec(line);
    const ordered = bullet ? null : ORDERED.exec(line);
    if (bullet || ordered) {
      const isOrdered = Boolean(ordered);
      const itemPattern = isOrdered ? ORDERED : BULLET;
      const items: string[][] = [];
      while (i < lines.length) {
        const current = lines[i]!;
        const m = itemPattern.exec(current);
        if (m) { items.push([m[3]!]); i += 1; continue; }
        if (blank(current)) {
          // A blank line ends the list unless an indented continuation or another item follows.
          const next = lines[i + 1];
          if (next !== undefined && (itemPattern.test(next) || /^\s{2,}\S/.test(next))) { items.at(-1)!.push(''); i += 1; continue; }
          break;
        }
        // A continuation line (indented, or lazy text right under the item).
        if (/^\s+\S/.test(current) || !startsBlock(current)) { items.at(-1)!.push(current.replace(/^\s{1,4}/, '')); i += 1; continue; }
        break;
      }
      blocks.push({
        kind: 'list', ordered: isOrdered, start: ordered ? Number(ordered[2]) : 1,
        items: items.map((item) => parseBlocks(item, refs)),
      });
      continue;
    }
    const paragraph: string[] = [];
    while (i < lines.length && !blank(lines[i]!) && (paragraph.length === 0 || !startsBlock(lines[i]!))) paragraph.push(lines[i++]!.trim());
    blocks.push({ kind: 'paragraph', children: parseInline(paragraph.join('\n'), refs) });
  }
  return blocks;
}

/** Whether a line starts a block other than a paragraph (ending the paragraph above it). */
const startsBlock = (line: string) =>
  FENCE.test(line) || HEADING.test(line) || RULE.test(line) || QUOTE.test(line) || BULLET.test(line) || ORDERED.test(line);

// ---- inline ------------------------------------------------------------------------------------

const BARE_URL = /https?:\/\/[^\s<>"'`)\]]*[^\s<>"'`)\].,;:!?]/y;

/** Inline Markdown: code spans, **strong**, *em*, [links](url), [ref] links, <autolinks>, bare URLs. */
export function parseInline(text: string, refs: ReadonlyMap<string, string> = new Map()): Inline[] {
  const out: Inline[] = [];
  let buffer = '';
  const flush = () => {
    if (buffer) out.push({ kind: 'text', text: buffer });
    buffer = '';
  };
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    const rest = text.slice(i);

    if (ch === '\\' && i + 1 < text.length && /[\\`*_[\]()<>#!.{}+-]/.test(text[i + 1]!)) {
      buffer += text[i + 1];
      i += 2;
      continue;
    }
    if (ch === '`') {
      const ticks = /^`+/.exec(rest)![0];
      const end = text.indexOf(ticks, i + ticks.length);
      if (end > 0) {
        flush();
        out.push({ kind: 'code', text: text.slice(i + ticks.length, end).replace(/\n/g, ' ').trim() });
        i = end + ticks.length;
        continue;
      }
      buffer += ticks;
      i += ticks.length;
      continue;
    }
    if (ch === '*' || ch === '_') {
      const double = text.startsWith(ch + ch, i);
      const marker = double ? ch + ch : ch;
      // `_` inside a word (snake_case) is not emphasis.
      const wordBefore = ch === '_' && i > 0 && /\w/.test(text[i - 1]!);
      const end = wordBefore ? -1 : closingMarker(text, i + marker.length, marker);
      if (end > i + marker.length) {
        flush();
        const children = parseInline(text.slice(i + marker.length, end), refs);
        out.push(double ? { kind: 'strong', children } : { kind: 'em', children });
        i = end + marker.length;
        continue;
      }
      buffer += marker;
      i += marker.length;
      continue;
    }
    if (ch === '[') {
      const link = readLink(text, i, refs);
      if (link) {
        flush();
        const children = parseInline(link.label, refs);
        out.push(isSafeUrl(link.url) ? { kind: 'link', url: link.url, children } : { kind: 'text', text: link.label });
        i = link.end;
        continue;
      }
    }
    if (ch === '<') {
      const auto = /^<(https?:\/\/[^\s<>]+)>/i.exec(rest);
      if (auto && isSafeUrl(auto[1]!)) {
        flush();
        out.push({ kind: 'link', url: auto[1]!, children: [{ kind: 'text', text: auto[1]! }] });
        i += auto[0].length;
        continue;
      }
    }
    if ((ch === 'h' || ch === 'H') && (i === 0 || !/\w/.test(text[i - 1]!))) {
      BARE_URL.lastIndex = i;
      const bare = BARE_URL.exec(text);
      if (bare && isSafeUrl(bare[0])) {
        flush();
        out.push({ kind: 'link', url: bare[0], children: [{ kind: 'text', text: bare[0] }] });
        i += bare[0].length;
        continue;
      }
    }
    buffer += ch;
    i += 1;
  }
  flush();
  return out;
}

function closingMarker(text: string, from: number, marker: string): number {
  let at = text.indexOf(marker, from);
  while (at > 0) {
    const before = text[at - 1]!;
    const after = text[at + marker.length];
    // A closing marker follows non-space; a single `*` must not be the start of `**`.
    const valid = !/\s/.test(before) && (marker.length === 2 || after !== marker[0]) && !(marker === '_' && after !== undefined && /\w/.test(after));
    if (valid) return at;
    at = text.indexOf(marker, at + marker.length);
  }
  return -1;
}

/** `[label](url)`, `[label][ref]`, `[label][]` or `[label]` with a definition; null otherwise. */
function readLink(text: string, start: number, refs: ReadonlyMap<string, string>): { label: string; url: string; end: number } | null {
  let depth = 0;
  let close = -1;
  for (let j = start; j < text.length; j += 1) {
    const c = text[j];
    if (c === '\\') { j += 1; continue; }
    if (c === '[') depth += 1;
    else if (c === ']') {
      depth -= 1;
      if (depth === 0) { close = j; break; }
    }
  }
  if (close < 0) return null;
  const label = text.slice(start + 1, close);
  const after = text.slice(close + 1);
  // The target may hold one level of balanced parentheses (wiki addresses, `javascript:alert(1)`).
  const inline = /^\(\s*<?((?:[^\s()<>]|\([^\s()<>]*\))+)>?(?:\s+["'][^"']*["'])?\s*\)/.exec(after);
  if (inline) return { label, url: inline[1]!, end: close + 1 + inline[0].length };
  const full = /^\[([^\]]*)\]/.exec(after);
  if (full) {
    const url = refs.get(refKey(full[1] || label));
    return url ? { label, url, end: close + 1 + full[0].length } : null;
  }
  const url = refs.get(refKey(label));
  return url ? { label, url, end: close + 1 } : null;
}

// ---- plain text (reports) ------------------------------------------------------------------------

function inlineText(nodes: Inline[]): string {
  return nodes.map((n) => {
    if (n.kind === 'text' || n.kind === 'code') return n.text;
    const label = inlineText(n.children);
    if (n.kind !== 'link') return label;
    return label === n.url ? n.url : `${label}（${n.url}）`;
  }).join('');
}

function blocksText(blocks: Block[], indent = ''): string[] {
  return blocks.flatMap((b): string[] => {
    switch (b.kind) {
      case 'heading':
      case 'paragraph':
        return [indent + inlineText(b.children).replace(/\n/g, `\n${indent}`)];
      case 'code':
        return [b.text.split('\n').map((line) => `${indent}    ${line}`).join('\n')];
      case 'list':
        return [b.items.map((item, i) => {
          const marker = b.ordered ? `${b.start + i}. ` : '• ';
          const text = blocksText(item, `${indent}  `).join('\n').trimStart();
          return `${indent}${marker}${text}`;
        }).join('\n')];
      case 'quote':
        return blocksText(b.children, `${indent}  `);
      case 'rule':
        return [];
    }
  });
}

/**
 * A description as plain text for documents that cannot draw Markdown (PDF, Word, SBOM exports):
 * markers removed, links as `label（address）`, list items with bullets, code indented, blocks
 * separated by a blank line.
 */
export function markdownToText(text: string): string {
  return blocksText(parseMarkdown(text)).join('\n\n');
}
