// The strings a file holds, with the byte offset of each, for the sensitive-information analysis
// (analysis mode 9): printable ASCII runs (a text file's lines, a binary's embedded strings) and,
// in binaries, UTF-16LE runs (Windows resources, .NET user strings). Streaming over the bytes and
// bounded: a long run is read in windows of WINDOW characters that overlap by OVERLAP (a secret
// across a window edge is still whole in one of them), and at most MAX_CHARS characters per file.

/** Shortest run read, in characters (as `strings` does by default, plus two). */
export const MIN_RUN = 6;
/** Longest string a rule is run over; longer runs are read in overlapping windows. */
export const WINDOW = 1024;
/** Characters shared by consecutive windows of a long run (longer than any built-in rule's match). */
export const OVERLAP = 192;
/** Most characters read from one file. */
export const MAX_CHARS = 8 * 1024 * 1024;

export interface FileString {
  /** Byte offset of the string's first character in the file. */
  offset: number;
  /** Bytes per character: 1 (ASCII) or 2 (UTF-16LE). */
  width: 1 | 2;
  text: string;
}

const printable = (b: number) => (b >= 0x20 && b < 0x7f) || b === 9;

/** The strings of `bytes` in file order (ASCII runs first, then UTF-16LE runs when `wide`). */
export function* fileStrings(bytes: Uint8Array, wide: boolean): Generator<FileString> {
  let budget = MAX_CHARS;
  for (const s of asciiRuns(bytes)) {
    if ((budget -= s.text.length) < 0) return;
    yield s;
  }
  if (!wide) return;
  for (const s of utf16Runs(bytes)) {
    if ((budget -= s.text.length) < 0) return;
    yield s;
  }
}

function* asciiRuns(bytes: Uint8Array): Generator<FileString> {
  let start = -1;
  for (let i = 0; i <= bytes.length; i++) {
    if (i < bytes.length && printable(bytes[i]!)) {
      if (start < 0) start = i;
      continue;
    }
    if (start >= 0 && i - start >= MIN_RUN) yield* windows(start, i - start, 1, (from, to) => latin(bytes, from, to));
    start = -1;
  }
}

function* utf16Runs(bytes: Uint8Array): Generator<FileString> {
  // Both alignments: a string in a resource section starts on an even offset, but not every format aligns.
  for (const parity of [0, 1]) {
    let start = -1;
    for (let i = parity; ; i += 2) {
      const ok = i + 1 < bytes.length && printable(bytes[i]!) && bytes[i + 1] === 0;
      if (ok) {
        if (start < 0) start = i;
        continue;
      }
      if (start >= 0 && (i - start) / 2 >= MIN_RUN) {
        const from = start;
        yield* windows(from, (i - from) / 2, 2, (a, b) => wideText(bytes, from + a * 2, from + b * 2));
      }
      start = -1;
      if (i + 1 >= bytes.length) break;
    }
  }
}

/** A run of `length` characters at byte `offset`, as windows of at most WINDOW characters. */
function* windows(offset: number, length: number, width: 1 | 2, read: (from: number, to: number) => string): Generator<FileString> {
  if (width === 1) {
    for (let at = 0; ; at += WINDOW - OVERLAP) {
      const end = Math.min(length, at + WINDOW);
      yield { offset: offset + at, width, text: read(offset + at, offset + end) };
      if (end >= length) return;
    }
  }
  for (let at = 0; ; at += WINDOW - OVERLAP) {
    const end = Math.min(length, at + WINDOW);
    yield { offset: offset + at * 2, width, text: read(at, end) };
    if (end >= length) return;
  }
}

function latin(bytes: Uint8Array, from: number, to: number): string {
  let s = '';
  for (let i = from; i < to; i += 4096) s += String.fromCharCode(...bytes.subarray(i, Math.min(to, i + 4096)));
  return s;
}

function wideText(bytes: Uint8Array, from: number, to: number): string {
  let s = '';
  for (let i = from; i < to; i += 2) s += String.fromCharCode(bytes[i]!);
  return s;
}
