// The 许可证 column: one SPDX expression kept whole (`MIT OR Apache-2.0`), otherwise a list split
// on , ; 、 / | and line breaks, without breaking names such as `Apache License, Version 2.0`.
import parseSpdx from 'spdx-expression-parse';

const isSpdx = (text: string): boolean => {
  try {
    parseSpdx(text);
    return true;
  } catch {
    return false;
  }
};

/** `Version 2.0`, `v2`, `第2版`, `2.0` continue the previous piece instead of starting a licence. */
const CONTINUATION = /^(version\b|v\s*\d|第\s*\d|\d+(\.\d+)*$)/i;

export function splitLicenses(cell: string): string[] {
  const folded = cell.normalize('NFKC');
  const text = folded.replace(/\s+/g, ' ').trim();
  if (!text) return [];
  if (isSpdx(text)) return [text];
  const pieces: string[] = [];
  for (const raw of folded.split(/[,;、/|\r\n]/)) {
    const piece = raw.replace(/\s+/g, ' ').trim();
    if (!piece) continue;
    if (pieces.length > 0 && CONTINUATION.test(piece)) pieces[pieces.length - 1] += `, ${piece}`;
    else pieces.push(piece);
  }
  return [...new Set(pieces)];
}
