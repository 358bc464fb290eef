// How an advisory reads on the detail screens: its affected ranges as constraints people read
// (`>= 1.0.0, < 1.2.3`), its references by what they are for, its CWE ids with their names, and the
// upgrade a component needs (the smallest fixed version above the installed one, in the
// ecosystem's own version order). Pure functions: the repositories and routes call them.
import cweNames from '../../resources/cwe/names.json' with { type: 'json' };
import type { ReferenceGroup } from '../../contract/api/vulnerability.ts';
import { schemeForEcosystem, type OsvRange } from '../engine/index.ts';
import { isFixState, type FixState } from '../../contract/enums.ts';

/** The text of a range that bounds nothing: every version is affected. */
const ALL_VERSIONS = '全部版本';
/** Appended to ranges of Git commits (their bounds are commit hashes, not versions). */
const GIT_SUFFIX = '（Git 提交）';

const OPERATOR = /^\s*(>=|<=|!=|==|=|>|<|~>|\^|~)\s*/;

/** One constraint with a space after each operator: `>=1.0, <2` → `>= 1.0, < 2`; `[1.0,2.0)` stays. */
export function spacedConstraint(text: string): string {
  return text
    .split(',')
    .map((part) => {
      const m = OPERATOR.exec(part);
      return m ? `${m[1]} ${part.slice(m[0].length).trim()}` : part.trim();
    })
    .filter(Boolean)
    .join(', ');
}

/**
 * One OSV range as constraints people read: each `introduced` opens an interval that the next
 * `fixed` (`<`), `last_affected` (`<=`) or `limit` (`<`) closes; `introduced: 0` has no lower
 * bound; an interval left open affects every later version. GIT ranges name commits (shortened).
 */
export function rangeText(range: OsvRange): string[] {
  const out: string[] = [];
  let lower: string | null = null;
  let open = false;
  const git = range.type.toUpperCase() === 'GIT';
  const short = (v: string) => (git && /^[0-9a-f]{12,}$/i.test(v) ? v.slice(0, 12) : v);
  const close = (upper: string | null) => {
    const parts = [lower && lower !== '0' ? `>= ${short(lower)}` : null, upper].filter(Boolean);
    out.push(parts.length ? parts.join(', ') : ALL_VERSIONS);
    lower = null;
    open = false;
  };
  for (const e of range.events) {
    if (e.introduced !== undefined) {
      if (open) close(null);
      lower = e.introduced;
      open = true;
    } else if (!open) continue;
    else if (e.fixed !== undefined) close(`< ${short(e.fixed)}`);
    else if (e.last_affected !== undefined) close(`<= ${short(e.last_affected)}`);
    else if (e.limit !== undefined && e.limit !== '*') close(`< ${short(e.limit)}`);
  }
  if (open) close(null);
  return git ? out.map((text) => `${text}${GIT_SUFFIX}`) : out;
}

/** The affected versions of one package as readable constraints: its ranges, then the stated constraints. */
export function affectedTexts(ranges: OsvRange[], vulnerable: string[]): string[] {
  return [...new Set([...ranges.flatMap(rangeText), ...vulnerable.map(spacedConstraint).filter(Boolean)])];
}

// ---- references -------------------------------------------------------------------------------

const TYPE_GROUP: Record<string, ReferenceGroup> = {
  ADVISORY: 'advisory',
  FIX: 'fix',
  GIT: 'fix',
  REPORT: 'report',
  DISCUSSION: 'report',
  EVIDENCE: 'report',
  DETECTION: 'report',
  INTRODUCED: 'report',
};

const URL_GROUPS: [RegExp, ReferenceGroup][] = [
  [/\/commits?\/[0-9a-f]{7,}|\/pull\/\d+|\/merge_requests\/\d+|\/compare\/|\/patch(es)?\b|\.patch$|\.diff$/i, 'fix'],
  [/\/security\/advisories\/|\/advisories\/GHSA-|nvd\.nist\.gov\/vuln\/detail|cve\.org\/CVERecord|cve\.mitre\.org\/cgi-bin|osv\.dev\/vulnerability|rustsec\.org\/advisories|pkg\.go\.dev\/vuln|security-tracker\.debian\.org|ubuntu\.com\/security\/(CVE|notices)|access\.redhat\.com\/(security|errata)|cnnvd\.org\.cn|cnvd\.org\.cn/i, 'advisory'],
  [/\/issues\/\d+|bugzilla|show_bug\.cgi|\/bugs?\/\d+|hackerone\.com\/reports|huntr\.(dev|com)\/bounties|seclists\.org|openwall\.com\/lists/i, 'report'],
];

/**
 * What a reference is for: an advisory (a database's or vendor's notice), a patch or fix (commits,
 * pull requests, patches), a report (issues, bug trackers, mailing-list disclosures) or anything
 * else on the web. The OSV type decides where it is specific; WEB, ARTICLE, PACKAGE and untyped
 * links (NVD gives no types) are placed by their address.
 */
export function referenceGroup(type: string, url: string): ReferenceGroup {
  const byType = TYPE_GROUP[type.trim().toUpperCase()];
  if (byType) return byType;
  for (const [pattern, group] of URL_GROUPS) if (pattern.test(url)) return group;
  return 'web';
}

// ---- CWE --------------------------------------------------------------------------------------

const CWE_NAMES: Readonly<Record<string, string>> = cweNames.names;

/** `CWE-79`, `cwe-79` or `79` → `CWE-79`; NVD's placeholders as NVD spells them; anything else trimmed. */
export function normalizeCweId(id: string): string {
  const text = id.trim();
  const m = /^(?:CWE-?)?(\d+)$/i.exec(text);
  if (m) return `CWE-${Number(m[1])}`;
  if (/^NVD-CWE-noinfo$/i.test(text)) return 'NVD-CWE-noinfo';
  if (/^NVD-CWE-Other$/i.test(text)) return 'NVD-CWE-Other';
  return text;
}

/** Each CWE id with its name from resources/cwe/names.json (null when the table does not hold it). */
export function weaknessesOf(ids: readonly string[]): { id: string; name: string | null }[] {
  const seen = new Set<string>();
  const out: { id: string; name: string | null }[] = [];
  for (const raw of ids) {
    const id = normalizeCweId(raw);
    if (!id || seen.has(id)) continue;
    seen.add(id);
    out.push({ id, name: CWE_NAMES[id] ?? null });
  }
  return out;
}

// ---- the recommended upgrade --------------------------------------------------------------------

interface UpgradeAdvice {
  /** The version to upgrade to; null when there is none to name. */
  version: string | null;
  /** Why, in words: what to do, or why no version is named. */
  reason: string;
}

/** Why there is no version to upgrade to, when the distribution said why (issue 16 item 6). */
const NO_FIX_REASON: Partial<Record<FixState, string>> = {
  will_not_fix: '发行版声明不修复该漏洞（不会发布修复版本），请评估影响并采取缓解措施，或更换软件包',
  fix_deferred: '发行版已延期修复该漏洞，暂无修复版本，请关注发行版安全公告并采取缓解措施',
  end_of_life: '该发行版本已停止支持，不会再发布修复版本，请升级到仍受支持的发行版本',
  under_investigation: '发行版仍在调查该漏洞，暂无修复版本，请关注发行版安全公告',
};

/**
 * The smallest fixed version above the installed one, in the ecosystem's version order (the
 * engine's comparison). A finding's fixed versions may be for several release lines (2.3.1 for
 * 2.3.x, 2.12.2 for 2.12.x): the nearest one above the installed version is the one to take.
 */
export function recommendedUpgrade(ecosystem: string, installed: string, fixed: readonly string[], fixState?: FixState | null): UpgradeAdvice {
  const versions = [...new Set(fixed.map((v) => v.trim()).filter(Boolean))];
  if (!versions.length) {
    const why = NO_FIX_REASON[fixState ?? 'affected'];
    return { version: null, reason: why ?? '知识库中没有该漏洞的修复版本，请关注官方发布或采取缓解措施' };
  }
  if (!installed.trim()) return { version: null, reason: `当前版本未知，无法判断应升级到哪个修复版本（修复版本：${versions.join('、')}）` };
  const scheme = schemeForEcosystem(ecosystem);
  const above = versions.filter((v) => scheme.compare(v, installed) > 0).sort(scheme.compare);
  const version = above[0];
  if (!version) return { version: null, reason: `已知修复版本（${versions.join('、')}）均不高于当前版本 ${installed}，请核实受影响范围` };
  return { version, reason: `升级到 ${version} 或更高版本可修复该漏洞` };
}

/**
 * A finding's stored fix state: the state its run recorded, else (runs before migration 0016)
 * what its fixed versions say.
 */
export function storedFixState(stored: string | null | undefined, fixedVersions: readonly string[]): Exclude<FixState, 'not_affected'> {
  if (isFixState(stored) && stored !== 'not_affected' && !(stored === 'fixed' && fixedVersions.length === 0)) return stored;
  return fixedVersions.length > 0 ? 'fixed' : 'affected';
}
