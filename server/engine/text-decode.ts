// Reading a file's bytes as text, each file in its own encoding, for the licence and copyright
// analyses: notices are written by people on every platform, and a COPYING saved by a Windows tool
// (UTF-16 with a byte-order mark), a Latin-1 AUTHORS file or a GB18030 Chinese notice must read as
// the words it holds, not as mojibake or "binary". The order:
//   1. a byte-order mark decides (UTF-8, UTF-16LE, UTF-16BE); UTF-16 without one is recognised by
//      its zero high bytes (Windows "Unicode" text);
//   2. other files with NUL bytes are binaries (DLLs, shared libraries, class files): their printable
//      strings, ASCII/UTF-8 and UTF-16LE (Windows resources), are read instead, one per line;
//   3. valid UTF-8 is UTF-8 (ASCII included);
//   4. else GB18030 when the high bytes pair up as Chinese characters do, else Windows-1252 (which
//      reads Latin-1 the same, plus the "smart quotes" and € of Windows editors).
// Node's TextDecoder carries full ICU, so every one of these decoders is built in.
import { TextDecoder } from 'node:util';

export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'gb18030' | 'windows-1252' | 'binary';

export interface DecodedText {
  text: string;
  /** How the bytes were read; 'binary' when the text is the file's printable strings. */
  encoding: TextEncoding;
}

/** Bytes looked at to tell a binary (a NUL among them) and UTF-16 without a byte-order mark. */
const SNIFF = 8192;
/** Shortest printable run read from a binary, in characters. */
export const MIN_STRING = 6;
/** Most characters of strings read from one binary. */
export const MAX_STRINGS_CHARS = 2 * 1024 * 1024;

const utf8Strict = new TextDecoder('utf-8', { fatal: true });
const utf8 = new TextDecoder('utf-8');
const decoders = new Map<string, TextDecoder>();
function decoder(label: 'utf-16le' | 'utf-16be' | 'gb18030' | 'windows-1252'): TextDecoder {
  let d = decoders.get(label);
  if (!d) decoders.set(label, (d = new TextDecoder(label)));
  return d;
}

/** A file's bytes as text: decoded in its own encoding, or a binary's printable strings. */
export function readableText(bytes: Uint8Array): DecodedText {
  const bom = bomOf(bytes);
  if (bom) return { text: decodeWith(bom.encoding, bytes.subarray(bom.length)), encoding: bom.encoding };
  const head = bytes.subarray(0, SNIFF);
  if (head.includes(0)) {
    const utf16 = bomlessUtf16(head);
    if (utf16) return { text: decodeWith(utf16, bytes), encoding: utf16 };
    return { text: binaryStrings(bytes), encoding: 'binary' };
  }
  return decodeText(bytes);
}

/** Text bytes without NULs: UTF-8 when valid, else GB18030 for Chinese text, else Windows-1252. */
export function decodeText(bytes: Uint8Array): DecodedText {
  const bom = bomOf(bytes);
  if (bom) return { text: decodeWith(bom.encoding, bytes.subarray(bom.length)), encoding: bom.encoding };
  if (isAscii(bytes)) return { text: utf8.decode(bytes), encoding: 'utf-8' };
  try {
    return { text: utf8Strict.decode(bytes), encoding: 'utf-8' };
  } catch {
    // Not UTF-8: a legacy single- or double-byte encoding.
  }
  if (looksGb18030(bytes)) return { text: decoder('gb18030').decode(bytes), encoding: 'gb18030' };
  return { text: decoder('windows-1252').decode(bytes), encoding: 'windows-1252' };
}

function decodeWith(encoding: 'utf-8' | 'utf-16le' | 'utf-16be', bytes: Uint8Array): string {
  return encoding === 'utf-8' ? utf8.decode(bytes) : decoder(encoding).decode(bytes);
}

function bomOf(bytes: Uint8Array): { encoding: 'utf-8' | 'utf-16le' | 'utf-16be'; length: number } | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { encoding: 'utf-8', length: 3 };
  // FF FE 00 00 would be UTF-32LE, which no licence file uses; it is left to the binary path.
  if (bytes[0] === 0xff && bytes[1] === 0xfe && !(bytes[2] === 0 && bytes[3] === 0)) return { encoding: 'utf-16le', length: 2 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: 'utf-16be', length: 2 };
  return null;
}

/**
 * UTF-16 text without a byte-order mark: nearly every other byte is zero (Latin text) and the
 * zeros sit on one side. A binary has zeros too, but scattered over both positions.
 */
function bomlessUtf16(head: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  const n = head.length - (head.length % 2);
  if (n < 4) return null;
  let evenZero = 0;
  let oddZero = 0;
  let control = 0;
  for (let i = 0; i < n; i += 2) {
    const a = head[i] ?? 0;
    const b = head[i + 1] ?? 0;
    if (a === 0) evenZero++;
    if (b === 0) oddZero++;
    // The character's low byte: control characters other than tab/CR/LF/FF mean binary data.
    const low = oddZero > evenZero ? a : b;
    if ((a === 0) !== (b === 0) && low < 0x20 && low !== 9 && low !== 10 && low !== 13 && low !== 12) control++;
  }
  const pairs = n / 2;
  if (control > pairs * 0.02) return null;
  if (oddZero >= pairs * 0.7 && evenZero <= pairs * 0.05) return 'utf-16le';
  if (evenZero >= pairs * 0.7 && oddZero <= pairs * 0.05) return 'utf-16be';
  return null;
}

function isAscii(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if ((bytes[i] ?? 0) >= 0x80) return false;
  return true;
}

/**
 * GB18030 (and its GB2312/GBK subsets) writes a Chinese character as two high bytes, both in
 * A1–FE for the common characters. Latin-1 and Windows-1252 text has lone high bytes between ASCII
 * letters ("Jérôme", "Müller"), which GB18030 would also decode, as nonsense. So: Chinese when
 * nearly all high bytes come in such pairs.
 */
function looksGb18030(bytes: Uint8Array): boolean {
  let high = 0;
  let paired = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] ?? 0;
    if (b < 0x80) continue;
    const next = bytes[i + 1] ?? 0;
    if (b >= 0x81 && b <= 0xfe && next >= 0x40 && next <= 0xfe && next !== 0x7f) {
      high += 2;
      // Common hanzi (GB2312 levels 1–2, lead B0–F7) and full-width punctuation (A1–A9).
      if (((b >= 0xb0 && b <= 0xf7) || (b >= 0xa1 && b <= 0xa9)) && next >= 0xa1) paired += 2;
      i++;
    } else high++;
  }
  return paired >= 4 && paired >= high * 0.9;
}

// Code units that can sit in a printable UTF-16LE string: printable ASCII and Latin-1 (© ®),
// general punctuation, CJK punctuation and ideographs, full-width forms.
function utf16Printable(unit: number): boolean {
  return (unit >= 0x20 && unit < 0x7f) || unit === 9 || (unit >= 0xa0 && unit <= 0x17f) || (unit >= 0x2000 && unit <= 0x206f) || (unit >= 0x3000 && unit <= 0x303f) || (unit >= 0x4e00 && unit <= 0x9fff) || (unit >= 0xff00 && unit <= 0xffef);
}

/** Length of the valid multi-byte UTF-8 sequence at `i`, or 0. */
function utf8Sequence(bytes: Uint8Array, i: number): number {
  const b = bytes[i] ?? 0;
  const n = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
  if (!n || i + n > bytes.length) return 0;
  for (let k = 1; k < n; k++) if (((bytes[i + k] ?? 0) & 0xc0) !== 0x80) return 0;
  return n;
}

const CJK = /[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]/;
const LATIN_LETTER = /[\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u017f]/;
const ASCII_LETTER = /[A-Za-z]/;

/**
 * Pieces of a decoded run with the implausible characters taken out: an accented letter must sit
 * next to a letter ("Jürgen"), © ® before a space or digit ("© 2020"), a CJK character next to
 * another one (Chinese is written in runs of characters), typographic punctuation next to a space
 * or letter; anything else outside ASCII splits the run.
 */
function splitImplausible(s: string): string[] {
  const chars = [...s];
  const ok = (i: number): boolean => {
    const c = chars[i] ?? '';
    if (c.charCodeAt(0) < 0x80) return true;
    const prev = chars[i - 1] ?? ' ';
    const next = chars[i + 1] ?? ' ';
    if (CJK.test(c)) return CJK.test(prev) || CJK.test(next);
    if (LATIN_LETTER.test(c)) return ASCII_LETTER.test(prev) || ASCII_LETTER.test(next) || LATIN_LETTER.test(prev) || LATIN_LETTER.test(next);
    if (c === '©' || c === '®') return /[\s\d)]/.test(next);
    if (c === '°' || c === '€') return /\d/.test(prev) || /[\s\d]/.test(next);
    if (/[\u2010-\u2027\u00ab\u00bb\u00b7]/.test(c)) return /[\sA-Za-z0-9]/.test(prev) || /[\sA-Za-z0-9]/.test(next);
    return false;
  };
  const out: string[] = [];
  let current = '';
  chars.forEach((c, i) => {
    if (ok(i)) current += c;
    else {
      out.push(current);
      current = '';
    }
  });
  out.push(current);
  return out;
}

/**
 * A binary's printable strings, as `strings(1)` lists them (at least MIN_STRING characters): runs of
 * printable ASCII and UTF-8 (a "©" inside a notice keeps the run whole), and UTF-16LE runs, which
 * Windows PE resources use for their copyright and version fields. One string per line, in file
 * order, at most `limit` characters in all.
 */
export function binaryStrings(bytes: Uint8Array, limit = MAX_STRINGS_CHARS): string {
  const out: string[] = [];
  let total = 0;
  const emitOne = (s: string): boolean => {
    const line = s.trim();
    if (line.length < MIN_STRING) return true;
    out.push(line);
    total += line.length + 1;
    return total < limit;
  };
  // Machine code holds valid UTF-8 and UTF-16 sequences by chance ("9©Ú):):"); a run is cut at
  // every character that does not sit in text the way people write it.
  const emit = (s: string): boolean => {
    if (/^[\x20-\x7e\t]*$/.test(s)) return emitOne(s);
    for (const piece of splitImplausible(s)) if (!emitOne(piece)) return false;
    return true;
  };
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    // An ASCII/UTF-8 run from i.
    let j = i;
    let chars = 0;
    while (j < n) {
      const b = bytes[j] ?? 0;
      if ((b >= 0x20 && b < 0x7f) || b === 9) {
        j++;
        chars++;
        continue;
      }
      const seq = b >= 0x80 ? utf8Sequence(bytes, j) : 0;
      if (!seq) break;
      j += seq;
      chars++;
    }
    // A UTF-16LE run from i: needs some ASCII units (zero high byte) so that plain ASCII bytes,
    // which pair up into plausible ideographs, are not read as one. Chinese UTF-16 bytes in turn
    // look like short ASCII runs ("版权" is 48 72 43 67, "HrCg"): the longer reading wins.
    // ASCII strings between NULs read as UTF-16 too ("sqlite3_free" as 煳楬整...): every such
    // "ideograph" is two printable ASCII bytes, while real Chinese has other low bytes and high
    // bytes above 7E in a good share of its characters.
    let k = i;
    let units = 0;
    let latin = 0;
    let ideographs = 0;
    let unlikeAscii = 0;
    while (k + 1 < n) {
      const low = bytes[k] ?? 0;
      const high = bytes[k + 1] ?? 0;
      const unit = low | (high << 8);
      if (!utf16Printable(unit)) break;
      if (unit < 0x100) latin++;
      else {
        ideographs++;
        if ((low > 0 && low < 0x20) || low > 0x7e || high > 0x7e) unlikeAscii++;
      }
      units++;
      k += 2;
    }
    const plausible = latin >= units / 2 || unlikeAscii >= ideographs / 4;
    if (units >= MIN_STRING && latin >= 2 && plausible && k > j) {
      if (!emit(decoder('utf-16le').decode(bytes.subarray(i, k)))) break;
      i = k;
      continue;
    }
    if (chars >= MIN_STRING) {
      if (!emit(utf8.decode(bytes.subarray(i, j)))) break;
      i = j;
      continue;
    }
    i = Math.max(i + 1, j);
  }
  const text = out.join('\n');
  return text.length > limit ? text.slice(0, limit) : text;
}
