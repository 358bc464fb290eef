// SPDX licence expressions: parsing, normalisation to current ids, and repair of the free-text
// declarations found in package manifests ("Apache 2", "GPLv2+", "MIT License", licence URLs).
import { createRequire } from 'node:module';
import {
  canonicalId, isException, isKnownLicense, LEVEL_UNKNOWN, licenseLevel, replaceDeprecated,
  type LicenseLevel,
} from './knowledge.ts';

type ExpressionNode =
  | { license: string; plus?: boolean; exception?: string }
  | { left: ExpressionNode; conjunction: 'and' | 'or'; right: ExpressionNode };

const require = createRequire(import.meta.url);
// CommonJS packages; loaded through require so their `export =` typings apply unchanged.
const spdxParse = require('spdx-expression-parse') as (source: string) => ExpressionNode;
const spdxCorrect = require('spdx-correct') as (identifier: string, options?: { upgrade: boolean }) => string | null;

/** Parses a strict SPDX expression; null when it is not one. */
function parseExpression(text: string): ExpressionNode | null {
  try {
    return spdxParse(text.trim());
  } catch {
    return null;
  }
}

// Licence URLs seen in manifests; spdx-correct knows few of them.
const URL_PATTERNS: [RegExp, (m: RegExpMatchArray) => string | null][] = [
  [/^(?:https?:\/\/)?(?:www\.)?(?:opensource\.org|spdx\.org)\/licenses?\/([A-Za-z0-9.+-]+?)(?:\.html|\.php|\.txt|\.json)?\/?$/i, (m) => m[1] ?? null],
  [/^(?:https?:\/\/)?(?:www\.)?apache\.org\/licenses\/LICENSE-(\d)\.(\d)(?:\.txt|\.html)?\/?$/i, (m) => `Apache-${m[1]}.${m[2]}`],
  [/^(?:https?:\/\/)?(?:www\.)?gnu\.org\/licenses\/(a?gpl|lgpl|fdl)-?(\d\.\d)(?:\.html|\.txt|\.en\.html)?\/?$/i,
    (m) => `${m[1] === 'fdl' ? 'GFDL' : (m[1] ?? '').toUpperCase()}-${m[2]}-only`],
  [/^(?:https?:\/\/)?(?:www\.)?gnu\.org\/licenses\/old-licenses\/(gpl|lgpl|fdl)-(\d\.\d)(?:\.html|\.txt|\.en\.html)?\/?$/i,
    (m) => `${m[1] === 'fdl' ? 'GFDL' : (m[1] ?? '').toUpperCase()}-${m[2]}-only`],
  [/^(?:https?:\/\/)?(?:www\.)?mozilla\.org\/(?:en-US\/)?MPL\/(\d\.\d)\/?$/i, (m) => `MPL-${m[1]}`],
  [/^(?:https?:\/\/)?(?:www\.)?eclipse\.org\/legal\/epl-v?(\d)(\d)\.html$/i, (m) => `EPL-${m[1]}.${m[2]}`],
  [/^(?:https?:\/\/)?(?:www\.)?eclipse\.org\/legal\/epl-2\.0\/?$/i, () => 'EPL-2.0'],
  [/^(?:https?:\/\/)?(?:www\.)?choosealicense\.com\/licenses\/([a-z0-9.-]+)\/?$/i, (m) => m[1] ?? null],
  [/^(?:https?:\/\/)?(?:www\.)?(?:mit-license\.org|opensource\.org\/licenses\/mit-license\.php)\/?$/i, () => 'MIT'],
];

// Free-text names spdx-correct gets wrong or does not know; matched on a squashed lower-case form.
const NAME_FIXES: Record<string, string> = {
  'bsd': 'BSD-3-Clause',
  'newbsd': 'BSD-3-Clause',
  'bsdnew': 'BSD-3-Clause',
  'revisedbsd': 'BSD-3-Clause',
  'modifiedbsd': 'BSD-3-Clause',
  'simplifiedbsd': 'BSD-2-Clause',
  'freebsd': 'BSD-2-Clause',
  'gpl': 'GPL-2.0-or-later',
  'gnugpl': 'GPL-2.0-or-later',
  'lgpl': 'LGPL-2.1-or-later',
  'gnulgpl': 'LGPL-2.1-or-later',
  'publicdomain': 'LicenseRef-public-domain',
  'unlicense': 'Unlicense',
  'theunlicense': 'Unlicense',
  'wtfpl': 'WTFPL',
  'isc': 'ISC',
  'isclicense': 'ISC',
  'mit': 'MIT',
  'x11': 'X11',
  'python': 'Python-2.0',
  'pythonsoftwarefoundation': 'PSF-2.0',
  'psf': 'PSF-2.0',
  'zlib': 'Zlib',
  'zliblibpng': 'Zlib',
  'boost': 'BSL-1.0',
  'cc0': 'CC0-1.0',
};

function squash(text: string): string {
  return text.toLowerCase().replace(/\b(the|license|licence|licensed|version|v)\b/g, '').replace(/[^a-z0-9+]/g, '');
}

/** One free-text licence name → SPDX expression (possibly with WITH), or null. */
function correctOne(raw: string): string | null {
  const text = raw.trim().replace(/^["'([{]+|["')\]};.]+$/g, '').trim();
  if (!text) return null;
  const direct = canonicalId(text);
  if (direct) return normalizeId(direct, false);
  if (/^LicenseRef-[A-Za-z0-9.-]+$/.test(text)) return text;
  for (const [re, f] of URL_PATTERNS) {
    const m = text.match(re);
    if (m) {
      const id = f(m);
      const c = id ? canonicalId(id) ?? canonicalId(id.replace(/-only$/, '')) : undefined;
      if (c) return normalizeId(c, false);
    }
  }
  const fixed = NAME_FIXES[squash(text)];
  if (fixed) return fixed;
  // "GPL-2.0+" / "GPLv2+" style "or later" markers survive spdx-correct; "or later" prose too.
  const orLater = /\bor\s+(?:any\s+)?later\b|\+$/i.test(text);
  const corrected = spdxCorrect(text.replace(/\s*\(?or\s+(?:any\s+)?later(?:\s+version)?\)?\s*$/i, '+'), { upgrade: true });
  if (!corrected) return null;
  const parsed = parseExpression(corrected);
  if (!parsed) return null;
  const out = render(normalizeNode(parsed));
  if (!plausible(text, out)) return null;
  if (orLater && /-only$/.test(out)) return out.replace(/-only$/, '-or-later');
  return out;
}

// spdx-correct guesses hard: "completely unknown words" comes back as MPL-2.0. A correction is
// kept only when the text names the licence family it was corrected to (its id's first part, or
// one of the words people write for it).
const FAMILY_WORDS: Record<string, string[]> = {
  mit: ['mit', 'expat'],
  apache: ['apache', 'asl'],
  gpl: ['gpl', 'gnu', 'general public'],
  lgpl: ['lgpl', 'lesser', 'library general', 'library gpl'],
  agpl: ['agpl', 'affero'],
  mpl: ['mpl', 'mozilla'],
  epl: ['epl', 'eclipse'],
  cddl: ['cddl', 'common development'],
  cc0: ['cc0', 'cc-0', 'public domain'],
  cc: ['cc', 'creative commons'],
  bsl: ['bsl', 'boost'],
  psf: ['psf', 'python'],
  ofl: ['ofl', 'font'],
  'ms': ['ms-', 'microsoft'],
};

function plausible(text: string, expression: string): boolean {
  const lower = text.toLowerCase();
  // At the start of a word: "completely" does not name the MPL.
  const named = (word: string) => new RegExp(`(^|[^a-z])${word.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')}`).test(lower);
  return expressionIds(expression).every((id) => {
    const family = id.toLowerCase().split(/[-.]/)[0]!;
    return (FAMILY_WORDS[family] ?? [family]).some(named);
  });
}

function normalizeId(id: string, plus: boolean): string {
  let out = replaceDeprecated(id);
  if (plus) {
    if (/-only$/.test(out)) out = out.replace(/-only$/, '-or-later');
    else if (!/-or-later$/.test(out)) {
      const later = `${out}-or-later`;
      out = isKnownLicense(later) ? later : `${out}+`;
    }
  }
  return out;
}

/** Rewrites deprecated ids (GPL-2.0 → GPL-2.0-only, GPL-2.0+ → GPL-2.0-or-later) and fixes id casing. */
function normalizeNode(node: ExpressionNode): ExpressionNode {
  if ('conjunction' in node) return { left: normalizeNode(node.left), conjunction: node.conjunction, right: normalizeNode(node.right) };
  const id = canonicalId(node.license) ?? node.license;
  const replaced = normalizeId(id, node.plus === true);
  const exception = node.exception ? canonicalId(node.exception) ?? node.exception : undefined;
  // A replacement may itself carry an exception (GPL-2.0-with-classpath-exception).
  const m = /^(\S+) WITH (\S+)$/.exec(replaced);
  if (m) return { license: m[1] ?? replaced, exception: m[2] };
  return exception ? { license: replaced, exception } : { license: replaced };
}

/** Canonical text of an expression; nested conjunctions of another kind get parentheses. */
function render(node: ExpressionNode, parent?: 'and' | 'or'): string {
  if ('conjunction' in node) {
    const s = `${render(node.left, node.conjunction)} ${node.conjunction.toUpperCase()} ${render(node.right, node.conjunction)}`;
    return parent && parent !== node.conjunction ? `(${s})` : s;
  }
  return node.exception ? `${node.license} WITH ${node.exception}` : node.license;
}

/**
 * A declared licence (manifest field, SBOM, user input) → normalised SPDX expression, or null when
 * nothing recognisable is in it. Strict expressions are kept (ids updated); free text is repaired
 * piecewise across "or"/"and"/"/" separators.
 */
export function normalizeDeclared(text: string | null | undefined): string | null {
  if (!text) return null;
  // Declared licences repeat (thousands of packages say `MIT`, Debian's copyright files the same
  // short names), and spdx-correct tries hundreds of candidates for each miss: each text once.
  const known = normalized.get(text);
  if (known !== undefined) return known;
  const out = normalizeUncached(text);
  if (text.length > MAX_REMEMBERED_LENGTH) return out;
  if (normalized.size >= MAX_NORMALIZED) normalized.clear();
  normalized.set(text, out);
  return out;
}

const normalized = new Map<string, string | null>();
const MAX_NORMALIZED = 10_000;
/** Longer texts (a whole licence pasted in a field) are rare and not worth holding on to. */
const MAX_REMEMBERED_LENGTH = 500;

/** A licence name SPDX has no id for, as an SPDX LicenseRef (`custom` → `LicenseRef-custom`, `GPL+` → `LicenseRef-GPL-plus`). */
export const licenseRef = (text: string): string =>
  `LicenseRef-${text.replace(/\+/g, '-plus').replace(/[^A-Za-z0-9.]+/g, '-').replace(/^-+|-+$/g, '') || 'unknown'}`;

/**
 * An SPDX-style expression (upper-case operators, no parentheses) naming something SPDX has no id
 * for (`MIT AND custom`): each operand on its own, the unknown ones kept as LicenseRefs. The
 * whole-text correction would drop them, and with them an obligation. Null when no operand is known
 * (then it is not an expression of licences at all).
 */
function operandwise(body: string): string | null {
  if (/[()]/.test(body)) return null;
  const parts = body.split(/\s+(AND|OR)\s+/);
  if (parts.length < 3) return null;
  let known = 0;
  const out = parts.map((part, i) => {
    if (i % 2 === 1) return part;
    const id = normalizeDeclared(part);
    if (id) known++;
    const operand = id ?? licenseRef(part.trim());
    return / (AND|OR) /.test(operand) ? `(${operand})` : operand;
  });
  return known ? out.join(' ') : null;
}

function normalizeUncached(text: string): string | null {
  const trimmed = text.trim();
  if (!trimmed || /^(unknown|none|n\/a|unlicensed|see license|see license in .*)$/i.test(trimmed)) return null;
  const strict = parseExpression(trimmed);
  if (strict) return render(normalizeNode(strict));
  // "MIT or Apache 2", "GPLv2 / MIT", "Apache-2.0 and BSD": split on the weakest operator first,
  // before spdx-correct, which would otherwise keep just one of the names.
  const known = NAME_FIXES[squash(trimmed)];
  if (known) return known;
  // "Dual MIT/GPL", "dual licensed under MIT or Apache-2.0": the word adds nothing.
  const body = trimmed.replace(/^dual(?:[- ]licen[cs]ed)?(?:\s+under)?(?:\s+the)?\s+/i, '');
  if (!/:\/\//.test(body)) {
    // A comma list must all be honoured, hence AND ("Apache License, Version 2.0" does not split
    // into recognisable parts and falls through to the whole-text correction below).
    for (const [re, op] of [[/\s+or\s+|\s*\|\|?\s*|\s*\/\s*/i, 'OR'], [/\s+and\s+|\s*&&?\s*|\s*[;,]\s*/i, 'AND']] as const) {
      const parts = body.split(re).filter((p) => p.trim());
      if (parts.length < 2) continue;
      const fixed = parts.map((p) => normalizeDeclared(p));
      if (fixed.every((f): f is string => f !== null)) {
        return fixed.map((f) => (/ (AND|OR) /.test(f) ? `(${f})` : f)).join(` ${op} `);
      }
    }
  }
  return operandwise(body) ?? correctOne(body);
}

/** Licence ids of an expression (without exceptions), in order of appearance, deduplicated. */
export function expressionIds(expression: string): string[] {
  const node = parseExpression(expression);
  const out: string[] = [];
  const walk = (n: ExpressionNode): void => {
    if ('conjunction' in n) { walk(n.left); walk(n.right); return; }
    if (!out.includes(n.license)) out.push(n.license);
  };
  if (node) walk(node);
  else for (const t of expression.split(/[\s()]+/)) if (t && !/^(AND|OR|WITH)$/i.test(t) && !out.includes(t) && !isException(t)) out.push(t);
  return out;
}

/**
 * Risk level of an expression: AND needs every licence (worst counts), OR lets the user choose
 * (best counts). Unknown parts are ignored when something is known. `levelOf` gives a licence's
 * level: the shipped defaults here, the administrators' table on the platform (licences.level).
 * An expression that does not parse is rated by its worst known licence, as if joined by AND.
 */
export function expressionLevel(expression: string, levelOf: (id: string) => LicenseLevel = licenseLevel): LicenseLevel {
  const node = parseExpression(expression);
  const worse = (a: LicenseLevel, b: LicenseLevel) => (a === LEVEL_UNKNOWN ? b : b === LEVEL_UNKNOWN ? a : (Math.min(a, b) as LicenseLevel));
  if (!node) return expressionIds(expression).map(levelOf).reduce(worse, LEVEL_UNKNOWN);
  const walk = (n: ExpressionNode): LicenseLevel => {
    if (!('conjunction' in n)) return levelOf(n.license);
    const a = walk(n.left);
    const b = walk(n.right);
    if (n.conjunction === 'and') return worse(a, b);
    if (a === LEVEL_UNKNOWN) return b;
    if (b === LEVEL_UNKNOWN) return a;
    return Math.max(a, b) as LicenseLevel;
  };
  return walk(node);
}
