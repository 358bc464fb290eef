// rpm License tags as SPDX expressions. Two vocabularies meet here: SPDX itself (Fedora since 2022,
// newer SUSE and Mariner packages) and the short names of Fedora's legacy licence list ("GPLv2+",
// "ASL 2.0", "GPL+ or Artistic"), still in RHEL 8/9, CentOS, Amazon Linux and Mariner 2.0. The tag
// is split at its own and/or and parentheses (legacy tags combine names that are not SPDX ids, so
// the whole string cannot go to an SPDX parser); each operand is mapped through the legacy table,
// else through normalizeDeclared, and an operand neither knows is kept as `LicenseRef-<text>` so
// nothing the package declares is dropped. Precedence is SPDX's (AND before OR); parentheses are
// kept as written.
import { licenseRef, normalizeDeclared } from '../../../matchers/licenses/expression.ts';

/**
 * Fedora's legacy abbreviations whose meaning differs from a generic reading (Fedora's licence
 * list: "GPLv3" is 3.0 only, "GPL+" any version, "ASL" Apache) or that a generic reading misses.
 */
const FEDORA_LEGACY: Record<string, string> = {
  'gpl+': 'GPL-1.0-or-later', 'gplv1': 'GPL-1.0-only', 'gplv2': 'GPL-2.0-only', 'gplv2+': 'GPL-2.0-or-later',
  'gplv3': 'GPL-3.0-only', 'gplv3+': 'GPL-3.0-or-later',
  'lgplv2': 'LGPL-2.0-only', 'lgplv2+': 'LGPL-2.0-or-later', 'lgplv2.1': 'LGPL-2.1-only', 'lgplv2.1+': 'LGPL-2.1-or-later',
  'lgplv3': 'LGPL-3.0-only', 'lgplv3+': 'LGPL-3.0-or-later',
  'agplv3': 'AGPL-3.0-only', 'agplv3+': 'AGPL-3.0-or-later',
  'asl 1.0': 'Apache-1.0', 'asl 1.1': 'Apache-1.1', 'asl 2.0': 'Apache-2.0',
  'mplv1.0': 'MPL-1.0', 'mplv1.1': 'MPL-1.1', 'mplv2.0': 'MPL-2.0',
  'artistic': 'Artistic-1.0-Perl', 'artistic 2.0': 'Artistic-2.0', 'artistic clarified': 'ClArtistic',
  'bsd with advertising': 'BSD-4-Clause', 'openldap': 'OLDAP-2.8', 'bzip2': 'bzip2-1.0.6', 'ofl': 'OFL-1.1',
  'php': 'PHP-3.01', 'netscape': 'NPL-1.1', 'ucd': 'Unicode-DFS-2016', 'inner-net': 'Inner-Net-2.0',
  'cc0': 'CC0-1.0', 'boost': 'BSL-1.0', 'zlib': 'Zlib', 'python': 'Python-2.0', 'psf': 'PSF-2.0',
};

const cache = new Map<string, string | null>();

export function rpmLicense(raw: string): string | null {
  const text = raw.trim().replace(/\s+/g, ' ');
  if (!text || /^(?:\(none\)|unknown|none)$/i.test(text)) return null;
  let hit = cache.get(text);
  if (hit === undefined) {
    hit = convert(text);
    if (cache.size > 10_000) cache.clear();
    cache.set(text, hit);
  }
  return hit;
}


function leaf(text: string): string {
  const legacy = FEDORA_LEGACY[text.toLowerCase()];
  if (legacy) return legacy;
  // "GPLv2+ with exceptions": the exception is unnamed, and a bare GPL would claim too much.
  if (/\bwith\b/i.test(text)) {
    const spdx = normalizeDeclared(text);
    return spdx && / WITH /.test(spdx) ? spdx : licenseRef(text);
  }
  return normalizeDeclared(text) ?? licenseRef(text);
}

function convert(text: string): string {
  const tokens = text.match(/\(|\)|[^()\s]+/g) ?? [];
  let depth = 0;
  for (const t of tokens) {
    depth += t === '(' ? 1 : t === ')' ? -1 : 0;
    if (depth < 0) break;
  }
  if (depth !== 0) return normalizeDeclared(text) ?? licenseRef(text);
  const out: string[] = [];
  let words: string[] = [];
  const flush = () => {
    if (!words.length) return;
    const mapped = leaf(words.join(' '));
    out.push(/ (?:AND|OR) /.test(mapped) ? `(${mapped})` : mapped);
    words = [];
  };
  for (const t of tokens) {
    const op = /^(?:and|or)$/i.test(t) ? t.toUpperCase() : undefined;
    if (t === '(' || t === ')' || op) {
      flush();
      out.push(op ?? t);
    } else words.push(t);
  }
  flush();
  const expression = out.join(' ').replace(/\( /g, '(').replace(/ \)/g, ')');
  // An operator without operands ("GPL and", "( )") is not an expression: keep the text whole.
  return /^(?:AND|OR)\b|\b(?:AND|OR)$|\b(?:AND|OR) (?:AND|OR)\b|\((?:AND|OR)\b|\b(?:AND|OR)\)|\(\)/.test(expression)
    ? licenseRef(text)
    : expression;
}
