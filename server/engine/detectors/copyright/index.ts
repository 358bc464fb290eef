// Copyright detection (analysis mode 7): copyright statements, their holders and authors, each
// with the line range it was found on. Our own detector, no dependency: it is product core.
import { findAuthors } from './authors.ts';
import { binaryToText, CANDIDATE, cleanLine, splitLines, type Line } from './prepare.ts';
import { findCopyrights, type Found } from './statements.ts';

export type { Found } from './statements.ts';
export { dedupe, normaliseHolder } from './dedupe.ts';

export type CopyrightDetection = { copyrights: Found[]; holders: Found[]; authors: Found[] };

const LONG_LINE = 4000;
const MAX_SEGMENTS = 50;

// A minified bundle is one huge line with its licence banners ("/*! foo | (c) Bar */") inside:
// only a window around each marker is read, each as its own line followed by a blank one so
// windows never join into one statement.
function segments(raw: string, line: number): Line[] {
  const out: Line[] = [];
  const marker = new RegExp(CANDIDATE.source, 'gi');
  let m: RegExpExecArray | null;
  let after = -1;
  while ((m = marker.exec(raw)) !== null && out.length < 2 * MAX_SEGMENTS) {
    if (m.index < after) continue;
    const from = Math.max(0, m.index - 120);
    after = m.index + 300;
    out.push({ text: cleanLine(raw.slice(from, after)), line }, { text: '', line });
  }
  return out;
}

// Keeps only lines near a marker (the marker line and the three after it, for statements that
// span lines), so ordinary source is scanned with one regular-expression test per line.
function candidateLines(text: string): Line[] {
  const raw = splitLines(text);
  const out: Line[] = [];
  let keepUntil = -1;
  for (let i = 0; i < raw.length; i++) {
    const r = raw[i]!;
    if (r.length > LONG_LINE) {
      if (CANDIDATE.test(r)) out.push(...segments(r, i + 1));
      continue;
    }
    // Three lines after a marker cover statements that wrap; a heading such as "Authors:" or
    // "Copyright holders:" may be followed by a longer list of names.
    if (CANDIDATE.test(r)) keepUntil = Math.max(keepUntil, /(?:authors?|maintainers?|holders?)\s*:\s*$/i.test(r) ? i + 30 : i + 3);
    if (i > keepUntil) continue;
    const text = cleanLine(r);
    out.push(text === '' && /<[a-z!/]/i.test(r) ? { text, line: i + 1, skip: true } : { text, line: i + 1 });
  }
  return out;
}

export function detectCopyrights(text: string): CopyrightDetection {
  const prepared = text.includes('\u0000') ? binaryToText(text) : text;
  // Most files carry no marker at all: one search of the whole text (a superset of the per-line
  // test, \s may cross a line break there) spares splitting them into lines.
  if (!CANDIDATE.test(prepared)) return { copyrights: [], holders: [], authors: [] };
  const lines = candidateLines(prepared);
  if (lines.length === 0) return { copyrights: [], holders: [], authors: [] };
  const { copyrights, holders } = findCopyrights(lines);
  // Values keep the file's own spelling ("Koskimäki"); foldLatin is for comparing them only.
  return { copyrights, holders, authors: findAuthors(lines) };
}
