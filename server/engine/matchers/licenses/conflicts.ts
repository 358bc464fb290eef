// Licence conflict evaluation: is a component's INBOUND licence expression compatible with the
// project's OUTBOUND licence expression? The rules live in compatibility.ts; this file walks the
// SPDX expressions and picks the rule for each pair of concrete licence versions.
//
// Semantics (documented here because they are product decisions, not SPDX facts):
// - Inbound `A OR B`: the project may use the component under either licence, so the best
//   alternative wins (compatible > compatible-with-condition > unknown > incompatible; ties keep
//   the written order) and is reported in `chosen`.
// - Inbound `A AND B`: every part applies at once; the first incompatible (else the first unknown)
//   part explains the verdict.
// - Inbound `X WITH exception`: exceptions only add permissions, so the better of "base licence"
//   and "base licence + exception effect" counts; exceptions without a modelled effect fall back to
//   the base licence.
// - `-or-later` / `+` (inbound): the recipient may pick any later version in the family, so the
//   best version counts. On the outbound side `-or-later` is one licence with an upgrade path, not a
//   dual licence: the combined work may be distributed under any version in range, so one
//   compatible version suffices and the explanation says which version the combination narrows to.
// - Outbound `A OR B` (a dual-licensed project) and `A AND B`: recipients may take the project
//   under any of its licences, so EVERY outbound licence must be satisfied; the worst answer over
//   the outbound licences is the verdict (and its `chosen`, if any, is reported).
// - Outbound `NONE`, `UNLICENSED` and `LicenseRef-*proprietary*` / `*commercial*` /
//   `*closed-source*` mean closed-source distribution; `NOASSERTION` gives `unknown`.
// - Inbound `NONE` / `NOASSERTION` / `UNLICENSED`, licences outside the model, `LicenseRef-*` and
//   unparseable expressions give `unknown`.
// - Source: for every pair of one inbound and one outbound licence term, the OSADL compatibility
//   matrix (osadl.ts) decides first when it holds both licences with Yes / Same / No / Check
//   dependency; Cairn's own rules (compatibility.ts) decide pairs it does not hold or marks Unknown.
//   `source` on the result names which one decided the reported outcome.
// Input is expected to be normalised SPDX already; only letter case of operators and modelled ids
// and the common non-SPDX `WITH Commons-Clause` spelling are repaired here.
import parseSpdx from 'spdx-expression-parse';
import {
  CATEGORY_RULES,
  EXCEPTIONS,
  FAMILIES,
  LICENSES,
  MESSAGES,
  MODELLED_LICENSES,
  OPENSSL_LICENSES,
  PAIR_RULES,
  SAME_LICENSE_RULE,
} from './compatibility.ts';
import type { CompatRule, LicenseCategory, Verdict } from './compatibility.ts';
import { osadlCell, osadlExplanation, osadlName } from './osadl.ts';
import type { OsadlCell } from './osadl.ts';

export { MODELLED_LICENSES } from './compatibility.ts';
export type { LicenseCategory, Verdict } from './compatibility.ts';

export interface CompatibilityResult {
  verdict: Verdict;
  /** One Chinese sentence; conditions of a compatible verdict (e.g. 动态链接时可用) are stated here. */
  explanation: string;
  /** Id of the pair, category or exception rule that decided (see compatibility.ts), or `osadl:<cell>`. */
  rule?: string;
  /** The inbound alternative chosen when the inbound expression contains OR. */
  chosen?: string;
  /** Who decided: the OSADL compatibility matrix, or Cairn's own rules (compatibility.ts). */
  source: VerdictSource;
}

type VerdictSource = 'osadl' | 'cairn';

type Node = parseSpdx.Info;
type Leaf = parseSpdx.LicenseInfo;

interface Outcome extends CompatibilityResult {
  conditional: boolean;
}

interface Term {
  /** As written: `GPL-2.0-or-later WITH Classpath-exception-2.0`. */
  text: string;
  /** Key into LICENSES, or null when the licence is outside the model. */
  key: string | null;
  /** The SPDX id as written, after deprecated ids with a built-in exception are split. */
  id: string;
  orLater: boolean;
  exception?: string;
  licenseRef: boolean;
}

const CLOSED: ReadonlySet<LicenseCategory> = new Set(['proprietary', 'non-commercial', 'restricted']);
const PROPRIETARY_KEY = 'LicenseRef-proprietary';
const PROPRIETARY_REF = /^LicenseRef-(?:.*[-_.])?(?:proprietary|commercial|closed[-_]?source)(?:[-_.].*)?$/i;
const NO_LICENSE = /^(?:NONE|UNLICENSED|NOASSERTION)$/i;
const GNU_ID = /^(A?GPL|LGPL)-(\d\.\d)(-only|-or-later)?$/;

// Old SPDX ids that bundled an exception into the licence id.
const DEPRECATED_WITH: Readonly<Record<string, readonly [string, string]>> = {
  'GPL-2.0-with-classpath-exception': ['GPL-2.0', 'Classpath-exception-2.0'],
  'GPL-2.0-with-GCC-exception': ['GPL-2.0', 'GCC-exception-2.0'],
  'GPL-3.0-with-GCC-exception': ['GPL-3.0', 'GCC-exception-3.1'],
  'GPL-2.0-with-autoconf-exception': ['GPL-2.0', 'Autoconf-exception-2.0'],
  'GPL-3.0-with-autoconf-exception': ['GPL-3.0', 'Autoconf-exception-3.0'],
  'GPL-2.0-with-bison-exception': ['GPL-2.0', 'Bison-exception-2.2'],
};

// Case repair table: operators plus every id the model knows, keyed by lower case.
const CANONICAL = new Map<string, string>(
  [...MODELLED_LICENSES, ...Object.keys(LICENSES), ...Object.keys(EXCEPTIONS), ...Object.keys(DEPRECATED_WITH), 'AND', 'OR', 'WITH'].map(
    (id) => [id.toLowerCase(), id],
  ),
);
const LOWER_KEYS = new Map(Object.keys(LICENSES).map((key) => [key.toLowerCase(), key]));

function prepare(text: string): string {
  const folded = text
    .normalize('NFKC')
    .replace(/\s+/g, ' ')
    .trim()
    // `Apache-2.0 WITH Commons-Clause` is common in package metadata but Commons Clause is not an
    // SPDX exception: it is a separate restriction, so it becomes an AND term the model knows.
    .replace(/\bWITH\s+(?:LicenseRef-)?Commons-Clause\b/gi, 'AND LicenseRef-Commons-Clause')
    .replace(/(^|[\s(])Commons-Clause(?=$|[\s)])/gi, '$1LicenseRef-Commons-Clause');
  return folded
    .split(/(\s+|[()])/)
    .map((token) => {
      const plus = token.endsWith('+') ? '+' : '';
      const canonical = CANONICAL.get((plus ? token.slice(0, -1) : token).toLowerCase());
      return canonical ? canonical + plus : token;
    })
    .join('');
}

function parse(text: string): Node | null {
  try {
    return parseSpdx(text);
  } catch {
    return null;
  }
}

const isLeaf = (node: Node): node is Leaf => 'license' in node;

function leafText(leaf: Leaf): string {
  return `${leaf.license}${leaf.plus ? '+' : ''}${leaf.exception ? ` WITH ${leaf.exception}` : ''}`;
}

function render(node: Node): string {
  if (isLeaf(node)) return leafText(node);
  const side = (child: Node) => (!isLeaf(child) && child.conjunction === 'or' && node.conjunction === 'and' ? `(${render(child)})` : render(child));
  return `${side(node.left)} ${node.conjunction.toUpperCase()} ${side(node.right)}`;
}

/** Operands of a chain of the same conjunction: `A OR B OR C` -> [A, B, C]. */
function operands(node: Node, conjunction: 'and' | 'or'): Node[] {
  if (isLeaf(node) || node.conjunction !== conjunction) return [node];
  return [...operands(node.left, conjunction), ...operands(node.right, conjunction)];
}

function leaves(node: Node): Leaf[] {
  return isLeaf(node) ? [node] : [...leaves(node.left), ...leaves(node.right)];
}

function resolve(leaf: Leaf): Term {
  const text = leafText(leaf);
  let id = leaf.license.replace(/^DocumentRef-[^:]+:/, '');
  let exception = leaf.exception;
  const orLater = leaf.plus === true;
  const bundled = DEPRECATED_WITH[id];
  if (bundled) [id, exception] = [bundled[0], exception ?? bundled[1]];
  if (PROPRIETARY_REF.test(id)) return { text, id, key: PROPRIETARY_KEY, orLater: false, licenseRef: false };
  if (/^LicenseRef-Commons-Clause$/i.test(id)) return { text, id, key: 'Commons-Clause', orLater: false, licenseRef: false };
  const gnu = GNU_ID.exec(id);
  if (gnu) {
    const key = `${gnu[1]}-${gnu[2]}`;
    if (LICENSES[key]?.gnu) return { text, id, key, orLater: orLater || gnu[3] === '-or-later', exception, licenseRef: false };
  }
  const key = LICENSES[id] ? id : (LOWER_KEYS.get(id.toLowerCase()) ?? null);
  return { text, id, key, orLater, exception, licenseRef: /^LicenseRef-/i.test(id) };
}

/** The concrete versions a term allows: itself, plus later family members for -or-later / `+`. */
function versions(term: Term & { key: string }): string[] {
  const family = LICENSES[term.key]?.family;
  const members = family ? FAMILIES[family] : undefined;
  if (!term.orLater || !members) return [term.key];
  const at = members.indexOf(term.key);
  return at < 0 ? [term.key] : members.slice(at);
}

function categoryOf(key: string): LicenseCategory {
  return (LICENSES[key] as { category: LicenseCategory }).category;
}

function selects(selectors: readonly string[], key: string): boolean {
  const entry = LICENSES[key];
  return selectors.some((selector) => {
    if (selector === '*') return true;
    if (!entry) return false;
    if (selector === '@gnu') return entry.gnu === true;
    if (selector === '@closed') return CLOSED.has(entry.category);
    if (selector === '@open') return !CLOSED.has(entry.category);
    if (selector.startsWith('@')) return entry.category === selector.slice(1);
    return selector === key;
  });
}

/** Best to worst: compatible, compatible under conditions, check (OSADL: depends on how it is combined), unknown, incompatible. */
const rank = (outcome: Outcome): number =>
  outcome.verdict === 'compatible' ? (outcome.conditional ? 3 : 4) : outcome.verdict === 'check' ? 2 : outcome.verdict === 'unknown' ? 1 : 0;

/** The best outcome; ties keep the earliest (the written order / the nominal version). */
function best(outcomes: readonly Outcome[]): Outcome {
  return outcomes.reduce((a, b) => (rank(b) > rank(a) ? b : a));
}

/** The worst outcome; ties keep the earliest. */
function worst(outcomes: readonly Outcome[]): Outcome {
  return outcomes.reduce((a, b) => (rank(b) < rank(a) ? b : a));
}

/** Joins Chinese lead-in text and an explanation, spacing a Latin start (`其中 MIT …`). */
function join(lead: string, rest: string): string {
  return /[^\s\x20-\x7e，：（“]$/.test(lead) && /^[A-Za-z0-9]/.test(rest) ? `${lead} ${rest}` : `${lead}${rest}`;
}

/** Fills a rule template; a Latin value after a Chinese character gets a separating space. */
function fill(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (_match, name: string, offset: number) => {
    const value = values[name] ?? '';
    const before = template[offset - 1];
    const spaced = before !== undefined && /[^\s\x20-\x7e]/.test(before) && /^[A-Za-z0-9]/.test(value) && !/[（“：，。、]/.test(before);
    return spaced ? ` ${value}` : value;
  });
}

function productOf(outKey: string): string {
  const category = categoryOf(outKey);
  if (category === 'proprietary') return '闭源产品';
  return CLOSED.has(category) ? `以 ${outKey} 授权的产品` : `${outKey} 项目`;
}

function fromRule(rule: CompatRule | { id: string; verdict: Verdict; conditional?: true; explanation: string }, inKey: string, outKey: string, exception?: string): Outcome {
  const explanation = fill(rule.explanation, {
    in: inKey,
    out: outKey,
    product: productOf(outKey),
    restriction: LICENSES[inKey]?.restriction ?? '',
    exception: exception ?? '',
  });
  return { verdict: rule.verdict, explanation, rule: rule.id, conditional: rule.conditional === true, source: 'cairn' };
}

function evaluateBase(inKey: string, outKey: string): Outcome {
  // Two `LicenseRef-proprietary` components are two different contracts, not one licence.
  if (inKey === outKey && inKey !== PROPRIETARY_KEY) return fromRule(SAME_LICENSE_RULE, inKey, outKey);
  const rule =
    PAIR_RULES.find((r) => selects(r.inbound, inKey) && selects(r.outbound, outKey)) ??
    CATEGORY_RULES.find((r) => selects(r.inbound, inKey) && selects(r.outbound, outKey));
  // CATEGORY_RULES end every inbound category with a `*` row, so this fallback is defensive only.
  if (!rule) return { verdict: 'unknown', explanation: fill(MESSAGES.unknownInbound, { text: inKey }), rule: 'no-rule', conditional: false, source: 'cairn' };
  return fromRule(rule, inKey, outKey);
}

/** One concrete inbound version (with its exception) against one concrete outbound version. */
function evaluateConcrete(inKey: string, inException: string | undefined, outKey: string, outException: string | undefined): Outcome {
  const outEntry = outException ? EXCEPTIONS[outException] : undefined;
  if (outEntry?.effect === 'openssl' && OPENSSL_LICENSES.includes(inKey)) {
    return fromRule({ id: `exception:${outException}`, verdict: 'compatible', explanation: outEntry.explanation }, inKey, outKey, outException);
  }
  const base = evaluateBase(inKey, outKey);
  const entry = inException ? EXCEPTIONS[inException] : undefined;
  if (!entry || !inException) return base;
  const id = `exception:${inException}`;
  let granted: Outcome | null = null;
  switch (entry.effect) {
    case 'linking':
    case 'runtime':
    case 'output':
    case 'syscall':
      granted = fromRule({ id, verdict: 'compatible', conditional: true, explanation: entry.explanation }, inKey, outKey, inException);
      break;
    case 'llvm':
      if (base.rule === 'apache2-gpl2') granted = fromRule({ id, verdict: 'compatible', explanation: entry.explanation }, inKey, outKey, inException);
      break;
    case 'foss':
      if (!CLOSED.has(categoryOf(outKey))) granted = fromRule({ id, verdict: 'compatible', conditional: true, explanation: entry.explanation }, inKey, outKey, inException);
      break;
    case 'openssl':
      break;
  }
  return granted && rank(granted) > rank(base) ? granted : base;
}

/** Two resolved terms: every allowed inbound version against every allowed outbound version. */
function evaluateTerms(inTerm: Term & { key: string }, outTerm: Term & { key: string }): Outcome {
  const candidates: Outcome[] = [];
  for (const inKey of versions(inTerm)) {
    for (const outKey of versions(outTerm)) {
      const outcome = evaluateConcrete(inKey, inTerm.exception, outKey, outTerm.exception);
      const notes: string[] = [];
      if (inKey !== inTerm.key) notes.push(`${inTerm.text} 允许选择 ${inKey}`);
      if (outKey !== outTerm.key) notes.push(`项目许可证 ${outTerm.text} 允许以 ${outKey} 分发组合作品`);
      candidates.push(
        notes.length === 0
          ? outcome
          : { ...outcome, explanation: `${notes.join('，')}：${outcome.explanation}`, conditional: outcome.conditional || outKey !== outTerm.key },
      );
    }
  }
  return best(candidates);
}

function unknown(template: string, text: string, rule: string): Outcome {
  return { verdict: 'unknown', explanation: fill(template, { text }), rule, conditional: false, source: 'cairn' };
}

/**
 * A term as OSADL names it: GNU ids with `-only` / `-or-later` (deprecated `GPL-2.0` is `-only`,
 * `GPL-2.0+` is `-or-later`), an exception as ` WITH <exception>`; null when the matrix lacks it.
 * Other licences with `+` have no single OSADL id (see osadlVersionsOf).
 */
function osadlIdOf(term: Term): string | null {
  let id: string;
  if (term.key !== null && LICENSES[term.key]?.gnu) id = `${term.key}-${term.orLater ? 'or-later' : 'only'}`;
  else if (term.orLater) return null;
  else id = term.key ?? term.id;
  return osadlName(term.exception ? `${id} WITH ${term.exception}` : id);
}

/**
 * The OSADL ids a term stands for: its own id, or for a non-GNU `+` (`MPL-1.1+`, `EUPL-1.1+`) every
 * version of its family from that one on, since OSADL holds single versions; null when the matrix
 * lacks any of them (then Cairn's rules judge the term as a whole).
 */
function osadlVersionsOf(term: Term): string[] | null {
  const own = osadlIdOf(term);
  if (own !== null) return [own];
  if (!term.orLater || term.key === null || LICENSES[term.key]?.gnu) return null;
  const ids = versions(term as Term & { key: string }).map((key) => osadlName(term.exception ? `${key} WITH ${term.exception}` : key));
  return ids.length > 1 && ids.every((id) => id !== null) ? (ids as string[]) : null;
}

const OSADL_VERDICT: Readonly<Record<OsadlCell['compatibility'], Verdict | null>> = {
  Yes: 'compatible',
  Same: 'compatible',
  No: 'incompatible',
  'Check dependency': 'check',
  Unknown: null,
};

function fromCell(cell: OsadlCell, verdict: Verdict): Outcome {
  const explanation =
    osadlExplanation(cell) ??
    (verdict === 'compatible'
      ? `OSADL 兼容性矩阵认定 ${cell.subordinate} 组件可并入 ${cell.leading} 项目。`
      : verdict === 'incompatible'
        ? `OSADL 兼容性矩阵认定 ${cell.subordinate} 组件不能并入 ${cell.leading} 项目。`
        : `OSADL 兼容性矩阵认定 ${cell.subordinate} 与 ${cell.leading} 是否兼容取决于组件与项目代码的结合方式，须人工确认。`);
  return { verdict, explanation, rule: `osadl:${cell.compatibility}`, conditional: false, source: 'osadl' };
}

/**
 * OSADL's decision for one inbound term in a project under one outbound term; null: OSADL does not
 * decide. A `+` term is decided only when OSADL decides every version it allows; the best version
 * counts, as in evaluateTerms.
 */
function osadlOutcome(inTerm: Term, outTerm: Term): Outcome | null {
  if (!useOsadl) return null;
  const outIds = osadlVersionsOf(outTerm);
  const inIds = outIds === null ? null : osadlVersionsOf(inTerm);
  if (outIds === null || inIds === null) return null;
  const candidates: Outcome[] = [];
  for (const inId of inIds) {
    for (const outId of outIds) {
      const cell = osadlCell(outId, inId);
      const verdict = cell ? OSADL_VERDICT[cell.compatibility] : null;
      if (!cell || !verdict) return null;
      const outcome = fromCell(cell, verdict);
      const notes: string[] = [];
      if (inIds.length > 1) notes.push(`${inTerm.text} 允许选择 ${inId}`);
      if (outIds.length > 1) notes.push(`项目许可证 ${outTerm.text} 允许以 ${outId} 分发组合作品`);
      candidates.push(notes.length === 0 ? outcome : { ...outcome, explanation: `${notes.join('，')}：${outcome.explanation}` });
    }
  }
  return best(candidates);
}

/**
 * OSADL's verdict with what Cairn's rules add. A Yes says nothing about conditions: where Cairn's
 * rules agree but attach one (modified MPL files stay MPL, the LGPL library must stay replaceable
 * ...), the explanation adds it and the outcome ranks as conditional, so OR choices still prefer an
 * unconditional alternative. A No judges redistribution under the outbound licence; where Cairn's
 * rules allow a use under a condition (dynamic linking, separate files), that is added as a note for
 * the reviewer — the verdict stays OSADL's.
 */
function withCairnNote(decided: Outcome, inTerm: Term, outTerm: Term): Outcome {
  if (decided.verdict === 'unknown' || decided.verdict === 'check' || inTerm.key === null || outTerm.key === null) return decided;
  const own = evaluateTerms(inTerm as Term & { key: string }, outTerm as Term & { key: string });
  if (own.verdict !== 'compatible' || !own.conditional) return decided;
  if (decided.verdict === 'compatible') return { ...decided, conditional: true, explanation: `${decided.explanation}使用条件（Cairn 规则）：${own.explanation}` };
  return { ...decided, explanation: `${decided.explanation}供人工复核参考（Cairn 规则）：${own.explanation}` };
}

/** Whether the current checkCompatibility call consults OSADL (off only to test Cairn's own rules). */
let useOsadl = true;

function evaluateInbound(node: Node, outTerm: Term): Outcome {
  if (isLeaf(node)) {
    const term = resolve(node);
    const decided = osadlOutcome(term, outTerm);
    if (decided) return withCairnNote(decided, term, outTerm);
    if (outTerm.key === null) return unknown(MESSAGES.unknownOutbound, outTerm.text, 'unknown-outbound');
    if (term.key === null) {
      return term.licenseRef ? unknown(MESSAGES.licenseRefInbound, term.text, 'license-ref') : unknown(MESSAGES.unknownInbound, term.text, 'unknown-license');
    }
    return evaluateTerms(term as Term & { key: string }, outTerm as Term & { key: string });
  }
  if (node.conjunction === 'or') {
    const alternatives = operands(node, 'or');
    const outcomes = alternatives.map((alternative) => evaluateInbound(alternative, outTerm));
    const top = best(outcomes);
    if (top.verdict === 'compatible') {
      const chosen = top.chosen ?? render(alternatives[outcomes.indexOf(top)] as Node);
      return { ...top, chosen, explanation: `可选择 ${chosen} 授权使用：${top.explanation}` };
    }
    const lead = top.verdict === 'incompatible' ? `${render(node)} 的所有选项都不兼容` : `${render(node)} 中没有确定兼容的选项`;
    return { ...top, chosen: undefined, explanation: join(`${lead}，例如`, top.explanation) };
  }
  const parts = operands(node, 'and');
  const outcomes = parts.map((part) => evaluateInbound(part, outTerm));
  const bad = worst(outcomes);
  const whole = render(node);
  if (bad.verdict !== 'compatible') return { ...bad, chosen: undefined, explanation: join(`须同时遵守 ${whole}，其中`, bad.explanation) };
  const chosen = outcomes.some((o) => o.chosen) ? outcomes.map((o, i) => o.chosen ?? render(parts[i] as Node)).join(' AND ') : undefined;
  return { ...bad, chosen, explanation: `须同时遵守 ${whole}，各部分均兼容：${bad.explanation}` };
}

function publish(outcome: Outcome): CompatibilityResult {
  const result: CompatibilityResult = { verdict: outcome.verdict, explanation: outcome.explanation, source: outcome.source };
  if (outcome.rule) result.rule = outcome.rule;
  if (outcome.chosen) result.chosen = outcome.chosen;
  return result;
}

/**
 * Whether a component under `inbound` may be combined into a project distributed under `outbound`
 * (both SPDX expressions; outbound `NONE` / `LicenseRef-proprietary` means closed source).
 * `osadl: false` asks Cairn's own rules alone (used by the tests of those rules).
 */
export function checkCompatibility(outbound: string, inbound: string, options: { osadl?: boolean } = {}): CompatibilityResult {
  useOsadl = options.osadl !== false;
  try {
    return compatibility(outbound, inbound);
  } finally {
    useOsadl = true;
  }
}

function compatibility(outbound: string, inbound: string): CompatibilityResult {
  const outText = prepare(outbound);
  const inText = prepare(inbound);
  if (/^NOASSERTION$/i.test(outText) || outText === '') return publish(unknown(MESSAGES.noAssertionOutbound, outText, 'no-outbound'));
  if (NO_LICENSE.test(inText) || inText === '') return publish(unknown(MESSAGES.noLicenseInbound, inText || 'NONE', 'no-license'));
  const outNode = /^(?:NONE|UNLICENSED)$/i.test(outText) ? ({ license: PROPRIETARY_KEY } as Leaf) : parse(outText);
  if (!outNode) return publish(unknown(MESSAGES.unparseableOutbound, outText, 'unparseable'));
  const inNode = parse(inText);
  if (!inNode) return publish(unknown(MESSAGES.unparseableInbound, inText, 'unparseable'));

  const seen = new Set<string>();
  const outTerms = leaves(outNode)
    .map(resolve)
    .filter((term) => !seen.has(term.text) && seen.add(term.text));
  const outcomes = outTerms.map((term) =>
    // A licence outside Cairn's model may still be one OSADL holds: then the pairs decide themselves.
    term.key === null && (!useOsadl || osadlVersionsOf(term) === null) ? unknown(MESSAGES.unknownOutbound, term.text, 'unknown-outbound') : evaluateInbound(inNode, term),
  );
  const verdict = worst(outcomes);
  if (outTerms.length === 1) return publish(verdict);
  const at = outcomes.indexOf(verdict);
  const whole = render(outNode);
  const explanation =
    verdict.verdict === 'compatible'
      ? `对项目许可证 ${whole} 的每个选项均兼容：${verdict.explanation}`
      : `项目许可证 ${whole} 的每个选项都须满足，对 ${(outTerms[at] as Term).text} 而言：${verdict.explanation}`;
  return publish({ ...verdict, explanation });
}

/** The model's category for one licence id (`GPL-2.0-or-later`, `MIT`, `LicenseRef-proprietary` ...), or null. */
export function licenseCategory(id: string): LicenseCategory | null {
  const text = prepare(id);
  if (/^(?:NONE|UNLICENSED)$/i.test(text)) return null;
  const node = parse(text);
  if (!node || !isLeaf(node)) return null;
  const key = resolve(node).key;
  return key ? categoryOf(key) : null;
}
