// Components → findings (design §5): every advisory whose affected ranges hold the exact installed
// version, none whose ranges do not, and one finding per flaw however many databases describe it
// (advisories that share any id or alias are one flaw). Level, score and exploit difficulty come
// from the best-scored record of the flaw, including records that only describe it (NVD entries,
// severity tables); fixed versions and the recommended upgrade come from the affected entries.
import { PackageURL } from 'packageurl-js';
import type { FixState } from '../../../contract/enums.ts';
import { distributionKey } from './distribution.ts';
import { normalizePackageName, type Advisory, type AffectedPackage, type Level } from './advisory.ts';
import { schemeFor, schemeForEcosystem } from './versions/index.ts';
import { inRanges, inVersionList, prepareRanges } from './versions/ranges.ts';
import type { VersionScheme } from './versions/scheme.ts';

export interface PackageRef {
  /** purl type of the component. */
  ecosystem: string;
  name: string;
  version: string;
  /** Distribution release for OS packages (`alpine:3.9`); absent for language packages. */
  distribution?: string | null;
  /**
   * The source package an OS package was built from (its purl's `upstream`), when it differs:
   * distributions publish their advisories per source package (Debian's openssl, not libssl3).
   */
  source?: { name: string; version: string } | null;
}

/** One flaw found in one package version: the describing fields of its best record, plus evidence. */
export interface Finding extends Pick<Advisory, 'summary' | 'level' | 'score' | 'vector' | 'exploit' | 'cwes' | 'published'> {
  /** Which record's severity set the level (severity.ts precedence); null when no record rates the flaw. */
  severitySource: string | null;
  /** Primary id of the flaw: its CVE when it has one, else the advisory's own id. */
  id: string;
  /** Every other id the flaw is known by, sorted. */
  aliases: string[];
  /** Versions that fix it for this package, in version order. */
  fixedVersions: string[];
  /**
   * The distribution's statement for the package's release: fixed when a fixed version is known,
   * else affected, will_not_fix, fix_deferred, end_of_life or under_investigation (never
   * not_affected: such entries produce no finding).
   */
  fixState: FixState;
  /** Ids of the advisories that matched (the evidence). */
  sources: string[];
}

/** Component risk (spec): the worst finding's level, 32 no vulnerability, 64 unknown version. */
export type RiskLevel = Level | 32 | 64;

interface Entry {
  /** Position in the index, to key cached findings by the set of entries that matched. */
  n: number;
  advisory: Advisory;
  affected: AffectedPackage;
  scheme: VersionScheme;
  /** The flaw this entry belongs to among its package's entries (shared ids or aliases). */
  flaw: number;
  /** The package key of the list holding it: flaw numbers are per list. */
  pkg: string;
  /** Compiled lazily: most entries are never asked about. */
  vulnerable?: ((v: string) => boolean)[];
  patched?: ((v: string) => boolean)[];
  /** The `versions` list as exact strings, and sorted for a binary search (both lazily). */
  listed?: Set<string>;
  sorted?: string[];
}

export interface AdvisoryIndex {
  /** `${ecosystem}\0${normalised name}` → affected entries. */
  readonly byPackage: Map<string, Entry[]>;
  /** Any id or alias (upper case) → the records that carry it. */
  readonly byId: Map<string, Advisory[]>;
  readonly advisories: number;
  /**
   * Findings by the entries that produced them: every version of a package that one set of
   * advisories affects gets the same finding, so it is assembled once. The objects are shared
   * by every component they are reported for: callers copy, never change them.
   */
  readonly findings: Map<number | string, Finding>;
}

const semver = schemeFor('semver');

const packageKey = (ecosystem: string, name: string) => `${ecosystem}\0${normalizePackageName(ecosystem, name)}`;
const idKey = (id: string) => id.trim().toUpperCase();

export function buildAdvisoryIndex(advisories: Iterable<Advisory>): AdvisoryIndex {
  const byPackage = new Map<string, Entry[]>();
  const byId = new Map<string, Advisory[]>();
  let count = 0;
  let n = 0;
  for (const advisory of advisories) {
    count++;
    for (const id of [advisory.id, ...advisory.aliases]) {
      const key = idKey(id);
      const list = byId.get(key);
      if (list) list.push(advisory);
      else byId.set(key, [advisory]);
    }
    if (advisory.withdrawn) continue;
    for (const affected of advisory.affected) {
      let key = packageKey(affected.ecosystem, affected.name);
      const list = byPackage.get(key);
      if (list) key = list[0]!.pkg;
      const entry: Entry = { n: n++, advisory, affected, scheme: schemeForEcosystem(affected.ecosystem), flaw: 0, pkg: key };
      prepareRanges(affected.ranges, entry.scheme, semver);
      if (list) list.push(entry);
      else byPackage.set(key, [entry]);
    }
  }
  for (const entries of byPackage.values()) assignFlaws(entries);
  return { byPackage, byId, advisories: count, findings: new Map() };
}

/**
 * Numbers the flaws among one package's entries: entries sharing any id or alias (directly or
 * through another entry of the package) describe the same flaw and become one finding.
 */
function assignFlaws(entries: Entry[]): void {
  const parent = entries.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  const owner = new Map<string, number>();
  entries.forEach((entry, i) => {
    for (const id of [entry.advisory.id, ...entry.advisory.aliases]) {
      const key = idKey(id);
      const j = owner.get(key);
      if (j === undefined) owner.set(key, i);
      else parent[find(i)] = find(j);
    }
  });
  entries.forEach((entry, i) => { entry.flaw = find(i); });
}


function compile(scheme: VersionScheme, constraints: string[]): ((v: string) => boolean)[] {
  return constraints.map((text) => {
    // An empty constraint is the databases' way of saying "every version".
    if (!text.trim()) return () => true;
    try {
      return scheme.constraint(text);
    } catch {
      // An unreadable constraint matches nothing rather than everything: no invented findings.
      return () => false;
    }
  });
}

/** Exact membership of the entry's `versions` list by the scheme's equality. */
function listed(entry: Entry, version: string): boolean {
  const { versions } = entry.affected;
  entry.listed ??= new Set(versions);
  if (entry.listed.has(version)) return true;
  // Equal versions spelled differently (Maven 1.0 = 1, PEP 440 1.0 = 1.0.0): short lists are
  // scanned, long ones (PyPI lists hundreds of releases) binary-searched in scheme order.
  if (versions.length <= 32) return inVersionList(version, versions, entry.scheme);
  const compare = entry.scheme.compare;
  const sorted = (entry.sorted ??= [...versions].sort(compare));
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const order = compare(version, sorted[mid]!);
    if (order === 0) return true;
    if (order < 0) hi = mid - 1;
    else lo = mid + 1;
  }
  return false;
}

function affects(entry: Entry, version: string): boolean {
  const { affected, scheme } = entry;
  if (affected.fixState === 'not_affected') return false;
  if (affected.ranges.length && inRanges(version, affected.ranges, scheme, semver)) return true;
  if (affected.versions.length && listed(entry, version)) return true;
  if (affected.vulnerable.length || affected.patched.length) {
    entry.vulnerable ??= compile(scheme, affected.vulnerable);
    entry.patched ??= compile(scheme, affected.patched);
    if (entry.vulnerable.length && !entry.vulnerable.some((test) => test(version))) return false;
    return !entry.patched.some((test) => test(version));
  }
  return false;
}

/**
 * A GitHub Action pinned to a commit without a release named beside it: a commit ID is no point
 * among the releases an advisory's ranges speak of, so it is placed in none (rather than read as a
 * number: `11bd719…` would fall below every fix).
 */
const isCommitPin = (ref: PackageRef): boolean => ref.ecosystem === 'githubactions' && /^[0-9a-f]{7,40}$/i.test(ref.version);

/** Every id and alias of an entry's advisory, upper case. */
const idsOf = (entry: Entry): string[] => [entry.advisory.id, ...entry.advisory.aliases].map(idKey);

/**
 * The affected entries (with their advisories) that hold this exact version. OS packages are
 * matched per release, under their own name and their source package's; an entry naming the
 * distribution without a release (`redhat`) applies to every release unless an entry of the same
 * flaw names the exact release, and a not_affected statement for the release cancels the flaw.
 */
function matchingEntries(index: AdvisoryIndex, ref: PackageRef): Entry[] {
  if (!ref.version || isCommitPin(ref)) return [];
  const distribution = ref.distribution ?? null;
  const source = ref.source && ref.source.version && ref.source.name !== ref.name ? ref.source : null;
  const lookups: [string, string][] = source ? [[ref.name, ref.version], [source.name, source.version]] : [[ref.name, ref.version]];
  if (distribution === null) {
    const out: Entry[] = [];
    for (const [name, version] of lookups) {
      for (const e of index.byPackage.get(packageKey(ref.ecosystem, name)) ?? []) {
        if ((e.affected.distribution ?? null) === null && !out.includes(e) && affects(e, version)) out.push(e);
      }
    }
    return out;
  }
  const colon = distribution.indexOf(':');
  const generic = colon > 0 ? distribution.slice(0, colon) : null;
  const exact: [Entry, string][] = [];
  const general: [Entry, string][] = [];
  for (const [name, version] of lookups) {
    for (const e of index.byPackage.get(packageKey(ref.ecosystem, name)) ?? []) {
      const d = e.affected.distribution ?? null;
      if (d === distribution) exact.push([e, version]);
      else if (generic !== null && d === generic) general.push([e, version]);
    }
  }
  if (exact.length === 0 && general.length === 0) return [];
  let candidates = exact;
  if (general.length > 0) {
    // What the release's own entries say about a flaw beats what the distribution says in general.
    const stated = new Set(exact.flatMap(([e]) => idsOf(e)));
    candidates = [...exact, ...general.filter(([e]) => !idsOf(e).some((id) => stated.has(id)))];
  }
  const cancelled = new Set<string>();
  for (const [e] of candidates) if (e.affected.fixState === 'not_affected') for (const id of idsOf(e)) cancelled.add(id);
  const out: Entry[] = [];
  for (const [e, version] of candidates) {
    if (out.includes(e) || !affects(e, version)) continue;
    if (cancelled.size > 0 && idsOf(e).some((id) => cancelled.has(id))) continue;
    out.push(e);
  }
  return out;
}

const versionRank = (vector: string | null): number => {
  if (!vector) return 0;
  const head = /^CVSS:(\d\.\d)\//.exec(vector);
  return head ? Number(head[1]) : 2;
};

/** CVE first (what analysts search for), then GHSA, then the rest, each alphabetically. */
function primaryId(ids: Iterable<string>): string {
  const rank = (id: string) => (/^CVE-/i.test(id) ? 0 : /^GHSA-/i.test(id) ? 1 : /^CNNVD-/i.test(id) ? 3 : 2);
  return [...ids].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))[0]!;
}

/**
 * Groups the matched entries by the flaw they describe: the flaw numbers of their package's list,
 * and, for entries of two lists (a binary package and its source package), shared ids.
 */
function groupFlaws(entries: Entry[]): Entry[][] {
  const groups = new Map<number, Entry[]>();
  const pkg = entries[0]?.pkg;
  if (entries.every((e) => e.pkg === pkg)) {
    for (const entry of entries) {
      const group = groups.get(entry.flaw);
      if (group) group.push(entry);
      else groups.set(entry.flaw, [entry]);
    }
    return [...groups.values()];
  }
  const parent = entries.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  const owner = new Map<string, number>();
  entries.forEach((entry, i) => {
    for (const key of [`${entry.pkg}\0#${entry.flaw}`, ...idsOf(entry)]) {
      const j = owner.get(key);
      if (j === undefined) owner.set(key, i);
      else parent[find(i)] = find(j);
    }
  });
  entries.forEach((entry, i) => {
    const root = find(i);
    const group = groups.get(root);
    if (group) group.push(entry);
    else groups.set(root, [entry]);
  });
  return [...groups.values()];
}

/** Which no-fix statement a finding shows when entries of one flaw differ: the most final first. */
const STATE_RANK: Record<FixState, number> = { will_not_fix: 0, end_of_life: 1, fix_deferred: 2, under_investigation: 3, affected: 4, fixed: 5, not_affected: 6 };

function fixStateOf(group: Entry[], fixed: string[]): FixState {
  if (fixed.length > 0) return 'fixed';
  let state: FixState = 'affected';
  for (const { affected } of group) {
    const own = affected.fixState;
    if (own && own !== 'fixed' && own !== 'not_affected' && STATE_RANK[own] < STATE_RANK[state]) state = own;
  }
  return state;
}

/** The finding of a group, assembled once per distinct set of matching entries. */
function findingOf(index: AdvisoryIndex, group: Entry[]): Finding {
  // Most flaws match through one entry: its number is the key, no string to build.
  const key = group.length === 1 ? group[0]!.n : group.map((e) => e.n).join(',');
  let finding = index.findings.get(key);
  if (!finding) {
    finding = toFinding(index, group);
    index.findings.set(key, finding);
  }
  return finding;
}

function toFinding(index: AdvisoryIndex, group: Entry[]): Finding {
  const ids = new Set<string>();
  for (const { advisory } of group) for (const id of [advisory.id, ...advisory.aliases]) ids.add(id.trim());
  // Records that only describe the flaw (NVD, severity tables) share its ids.
  const records = new Set<Advisory>(group.map((e) => e.advisory));
  for (const id of ids) for (const record of index.byId.get(idKey(id)) ?? []) if (!record.withdrawn) records.add(record);

  // Precedence (severity.ts): a vector, newest version and highest score first; then a severity a
  // database states, the more severe first; then a CNNVD level from the id mapping; then unrated.
  const tier = (r: Advisory) => (r.level === 16 ? 0 : r.levelFromMapping ? 1 : 2);
  let best: Advisory | null = null;
  for (const record of records) {
    if (!best) { best = record; continue; }
    const better =
      versionRank(record.vector) > versionRank(best.vector) ||
      (versionRank(record.vector) === versionRank(best.vector) &&
        ((record.score ?? -1) > (best.score ?? -1) ||
          (record.score === best.score && (tier(record) > tier(best) || (tier(record) === tier(best) && record.level < best.level)))));
    if (better) best = record;
  }
  const id = primaryId(ids);
  const scheme = group[0]!.scheme;
  const fixed = [...new Set(group.flatMap((e) => e.affected.fixed).filter(Boolean))].sort(scheme.compare);
  const summary = group.map((e) => e.advisory.summary).find(Boolean) ?? [...records].map((r) => r.summary).find(Boolean) ?? '';
  const published = [...records].map((r) => r.published).filter((p): p is string => !!p).sort()[0] ?? null;
  return {
    id,
    aliases: [...ids].filter((x) => x !== id).sort(),
    summary,
    level: best!.level,
    score: best!.score,
    vector: best!.vector,
    exploit: best!.exploit,
    severitySource: best!.level === 16 ? null : best!.severitySource ?? null,
    cwes: [...new Set([...records].flatMap((r) => r.cwes))].sort(),
    published,
    fixedVersions: fixed,
    fixState: fixStateOf(group, fixed),
    sources: [...new Set(group.map((e) => e.advisory.id))].sort(),
  };
}

/** The findings for one package version, most severe first. */
export function matchPackage(index: AdvisoryIndex, ref: PackageRef): Finding[] {
  const entries = matchingEntries(index, ref);
  if (!entries.length) return [];
  return groupFlaws(entries)
    .map((group) => findingOf(index, group))
    .sort((a, b) => a.level - b.level || (b.score ?? 0) - (a.score ?? 0) || a.id.localeCompare(b.id));
}

export function riskLevel(version: string, findings: Finding[]): RiskLevel {
  if (!version) return 64;
  let worst: RiskLevel = 32;
  for (const f of findings) if (f.level < worst) worst = f.level;
  return worst;
}

const PRE_RELEASE = /(?:^|[^a-z])(?:alpha|beta|rc|pre|preview|dev|snapshot|m\d|cr)\b|-(?:a|b)\d|\d(?:a|b|rc)\d/i;

/**
 * The nearest version at or above the installed one that no known advisory affects, from the
 * versions the knowledge base knows for the package (listed versions and range bounds). Stable
 * versions are preferred; a pre-release is offered only when no stable one qualifies.
 */
export function recommendVersion(index: AdvisoryIndex, ref: PackageRef): { version: string | null; reason: string } {
  if (!ref.version) return { version: null, reason: '版本未知，无法推荐' };
  const entries = index.byPackage.get(packageKey(ref.ecosystem, ref.name)) ?? [];
  if (!matchPackage(index, ref).length) return { version: ref.version, reason: '当前版本无已知漏洞' };
  const scheme = entries[0]?.scheme ?? schemeForEcosystem(ref.ecosystem);
  const known = new Set<string>();
  for (const { affected } of entries) {
    for (const v of affected.versions) known.add(v);
    for (const v of affected.fixed) known.add(v);
    for (const range of affected.ranges) {
      for (const e of range.events) {
        if (e.introduced && e.introduced !== '0') known.add(e.introduced);
        if (e.fixed) known.add(e.fixed);
      }
    }
  }
  const candidates = [...known].filter((v) => scheme.isValid(v) && scheme.compare(v, ref.version) > 0).sort(scheme.compare);
  const safe = candidates.filter((v) => !matchPackage(index, { ...ref, version: v }).length);
  const stable = safe.find((v) => !PRE_RELEASE.test(v));
  const version = stable ?? safe[0] ?? null;
  return version ? { version, reason: `升级到 ${version} 可消除当前版本的全部已知漏洞` } : { version: null, reason: '知识库中没有不受已知漏洞影响的更高版本' };
}

export interface ComponentFindings<C extends PackageRef> {
  component: C;
  findings: Finding[];
  risk: RiskLevel;
}

/** Matches a component list; each distinct package version is evaluated once. */
export function matchComponents<C extends PackageRef>(index: AdvisoryIndex, components: C[]): ComponentFindings<C>[] {
  const memo = new Map<string, Finding[]>();
  return components.map((component) => {
    const key = `${packageKey(component.ecosystem, component.name)}\0${component.version}\0${component.distribution ?? ''}\0${component.source ? `${component.source.name}@${component.source.version}` : ''}`;
    let findings = memo.get(key);
    if (!findings) {
      findings = matchPackage(index, component);
      memo.set(key, findings);
    }
    return { component, findings, risk: riskLevel(component.version, findings) };
  });
}

/**
 * OS packages are matched per distribution release, which their purls carry as `distro`, and also
 * under their source package, which they carry as `upstream` (`openssl`, or `openssl@1.1.1n-0`
 * when the source version differs from the package's own).
 */
function osQualifiers(purl: string, version: string): { distribution: string | null; source: { name: string; version: string } | null } {
  try {
    const q = PackageURL.fromString(purl).qualifiers ?? {};
    const distro = typeof q.distro === 'string' && q.distro ? distributionKey(q.distro) : null;
    const upstream = typeof q.upstream === 'string' ? q.upstream.trim() : '';
    const at = upstream.indexOf('@');
    const source = upstream ? { name: at > 0 ? upstream.slice(0, at) : upstream, version: at > 0 ? upstream.slice(at + 1) : version } : null;
    return { distribution: distro, source };
  } catch {
    return { distribution: null, source: null };
  }
}

/** A component as the matcher takes it: OS packages with their distribution release and source package. */
export function withDistribution<C extends { ecosystem: string; purl: string; version?: string }>(c: C): C & { distribution: string | null; source: { name: string; version: string } | null } {
  if (c.ecosystem !== 'deb' && c.ecosystem !== 'apk' && c.ecosystem !== 'rpm') return { ...c, distribution: null, source: null };
  return { ...c, ...osQualifiers(c.purl, c.version ?? '') };
}
