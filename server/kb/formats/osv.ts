// One OSV advisory (JSON or YAML, https://ossf.github.io/osv-schema/) as an AdvisoryRecord:
// ecosystems become purl types (plus the distribution release for OS packages), package names are
// normalised the way the matcher compares them, and the level is computed once here.
import YAML from 'yaml';
import { OSV_LANGUAGE_PURL_TYPE, OSV_OS_ECOSYSTEMS } from '../../../contract/ecosystems.ts';
import { assessSeverity, normalizePackageName, severityDatabase, type AffectedPackage, type CvssInput, type OsvRange } from '../../engine/index.ts';
import type { AdvisoryRecord } from '../../db/repositories/knowledge-base.ts';

/** The release part of an OS ecosystem string (`Debian:11`, `Alpine:v3.16`, `Ubuntu:Pro:18.04:LTS`, `Red Hat:enterprise_linux:8::appstream`). */
function releaseOf(parts: string[]): string | null {
  const versionLike = parts.find((p) => /^v?\d+(\.\d+)*$/i.test(p.trim()));
  if (versionLike) return versionLike.trim().replace(/^v/i, '');
  const named = parts.map((p) => p.trim()).filter((p) => p && !/^(lts|pro|fips)$/i.test(p));
  if (named.length === 0) return null;
  // `Red Hat:enterprise_linux:8::appstream` keeps its major version in a token like `enterprise_linux:8`.
  const digits = named.map((p) => /(\d+(?:\.\d+)*)/.exec(p)?.[1]).find(Boolean);
  return digits ?? named[named.length - 1]!.toLowerCase();
}

/**
 * SUSE's and openSUSE's products as the releases their systems' os-release name (matchers/
 * distribution.ts): `SUSE:Linux Enterprise Server 15 SP5` → `sles:15.5` (every SLE 15 SP5 module
 * ships to the same systems), `SUSE:Linux Enterprise Micro 5.5` → `sles-micro:5.5`,
 * `openSUSE:Leap 15.5` → `opensuse-leap:15.5`, `openSUSE:Tumbleweed` → `opensuse-tumbleweed`.
 */
function suseDistribution(key: string, product: string): string {
  const text = product.trim();
  if (key === 'opensuse') {
    if (/tumbleweed/i.test(text)) return 'opensuse-tumbleweed';
    const version = /(\d+(?:\.\d+)*)/.exec(text)?.[1];
    const id = /micro/i.test(text) ? 'opensuse-leap-micro' : 'opensuse-leap';
    return version ? `${id}:${version}` : id;
  }
  const micro = /micro/i.test(text);
  const m = /\b(\d+)(?:\.(\d+))?(?:\s*SP(\d+))?\b/i.exec(text);
  const id = micro ? 'sles-micro' : 'sles';
  if (!m) return id;
  const minor = m[3] ?? m[2];
  return minor ? `${id}:${m[1]}.${minor}` : `${id}:${m[1]}`;
}

export function mapOsvEcosystem(ecosystem: string): { ecosystem: string; distribution: string | null } {
  const [head = '', ...rest] = ecosystem.split(':');
  const key = head.trim().toLowerCase();
  const language = OSV_LANGUAGE_PURL_TYPE[key];
  if (language) return { ecosystem: language, distribution: null };
  const os = OSV_OS_ECOSYSTEMS[key];
  if (os) {
    if (key === 'suse' || key === 'opensuse') return { ecosystem: os.type, distribution: rest.length ? suseDistribution(key, rest.join(':')) : os.distro };
    let release = releaseOf(rest);
    // Red Hat's streams (`rhel_aus:8.2`, `rhel_eus:9.2`) ship to systems of the major release.
    if (release && os.distro === 'redhat') release = release.split('.')[0]!;
    return { ecosystem: os.type, distribution: release ? `${os.distro}:${release}` : os.distro };
  }
  return { ecosystem: key || 'unknown', distribution: null };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v : null);

/** Parses the text by the file's extension, falling back to the other syntax. */
function parseDocument(text: string, fileName: string): unknown {
  const body = text.replace(/^\uFEFF/, '');
  const yamlFirst = /\.ya?ml$/i.test(fileName);
  try {
    // YAML's failsafe schema keeps every scalar a string: `1.10` must stay a version, not 1.1.
    return yamlFirst ? YAML.parse(body, { schema: 'failsafe' }) : JSON.parse(body);
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new Error(yamlFirst ? `不是有效的 YAML 文档：${reason}` : `不是有效的 JSON 文档：${reason}`, { cause: error });
  }
}

/** A GIT range's fixed commit as a link when the repository is on a forge we know. */
function commitLink(repo: string, sha: string): string {
  const base = repo.replace(/\.git$/i, '').replace(/\/+$/, '');
  return /^https?:\/\/(www\.)?(github\.com|gitlab\.com)\//i.test(base) ? `${base}/commit/${sha}` : `${repo}@${sha}`;
}

/** The summary line: OSV's summary, else the first sentence of the details. */
export function summaryOf(summary: string | null, details: string): string {
  if (summary) return summary.trim();
  const first = details.trim().split(/\n\s*\n|(?<=[.。])\s/)[0] ?? '';
  return first.length > 300 ? `${first.slice(0, 297)}...` : first;
}

/**
 * Chainguard's and Wolfi's advisory events (`ecosystem_specific.components[].latest_event_status`)
 * for an entry without a fix: fix_not_planned → will_not_fix, pending_upstream_fix →
 * fix_deferred, detection → under_investigation; anything else (true_positive_determination,
 * analysis_not_planned) stays affected. A false_positive_determination comes as `fixed 0`.
 */
const CHAINGUARD_EVENT: Record<string, 'will_not_fix' | 'fix_deferred' | 'under_investigation'> = {
  fix_not_planned: 'will_not_fix', pending_upstream_fix: 'fix_deferred', detection: 'under_investigation',
};
function eventState(specific: unknown): 'affected' | 'will_not_fix' | 'fix_deferred' | 'under_investigation' {
  const components = isObject(specific) && Array.isArray(specific.components) ? specific.components : [];
  const states = components
    .map((c) => (isObject(c) && typeof c.latest_event_status === 'string' ? CHAINGUARD_EVENT[c.latest_event_status.trim().toLowerCase().replace(/-/g, '_')] : undefined));
  // One component still vulnerable without a statement makes the package plainly affected.
  if (states.length === 0 || states.some((s) => s === undefined)) return 'affected';
  for (const state of ['will_not_fix', 'fix_deferred', 'under_investigation'] as const) if (states.includes(state)) return state;
  return 'affected';
}

/** An OS entry stating that no version is affected: every range is `introduced 0, fixed 0` and no version is listed. */
function notAffectedStatement(ranges: OsvRange[], versions: string[]): boolean {
  if (versions.length > 0 || ranges.length === 0) return false;
  return ranges.every((r) => r.type !== 'GIT' && r.events.length > 0 && r.events.some((e) => e.fixed === '0')
    && r.events.every((e) => (e.introduced === undefined || e.introduced === '0') && (e.fixed === undefined || e.fixed === '0') && e.last_affected === undefined && e.limit === undefined));
}

export function parseOsv(text: string, fileName: string): AdvisoryRecord {
  const doc = parseDocument(text, fileName);
  return osvRecord(doc);
}

/** An already-parsed OSV document as a record (also used for OSV JSON inside other containers). */
export function osvRecord(doc: unknown): AdvisoryRecord {
  if (!isObject(doc)) throw new Error('不是 OSV 漏洞文档：顶层应为对象');
  const id = str(doc.id)?.trim();
  if (!id) throw new Error('不是 OSV 漏洞文档：缺少 id');
  if (id.length > 100) throw new Error(`漏洞编号过长：${id.slice(0, 40)}…`);
  if (doc.affected !== undefined && doc.affected !== null && !Array.isArray(doc.affected)) throw new Error(`漏洞 ${id} 的 affected 应为数组`);
  if (doc.aliases !== undefined && doc.aliases !== null && !Array.isArray(doc.aliases)) throw new Error(`漏洞 ${id} 的 aliases 应为数组`);

  const cvss: CvssInput[] = [];
  const severities: { type: string; score: string }[] = [];
  // A distribution's own rating where no CVSS is given: Ubuntu's priority (`{type: Ubuntu, score: medium}`).
  let distroRating: string | null = null;
  const addSeverity = (list: unknown) => {
    if (!Array.isArray(list)) return;
    for (const s of list) {
      if (!isObject(s) || typeof s.type !== 'string' || typeof s.score !== 'string') continue;
      severities.push({ type: s.type, score: s.score });
      if (/^CVSS/i.test(s.type)) cvss.push({ type: s.type, vector: s.score });
      else if (/^ubuntu$/i.test(s.type)) distroRating ??= s.score;
    }
  };
  addSeverity(doc.severity);

  const affected: AffectedPackage[] = [];
  const fixCommits: string[] = [];
  const ecosystems: string[] = [];
  for (const [index, entry] of ((doc.affected as unknown[] | undefined) ?? []).entries()) {
    if (!isObject(entry)) throw new Error(`漏洞 ${id} 的 affected[${index}] 应为对象`);
    if (entry.ranges !== undefined && !Array.isArray(entry.ranges)) throw new Error(`漏洞 ${id} 的 affected[${index}].ranges 应为数组`);
    if (entry.versions !== undefined && entry.versions !== null && !Array.isArray(entry.versions)) throw new Error(`漏洞 ${id} 的 affected[${index}].versions 应为数组`);
    addSeverity(entry.severity);
    const ranges: OsvRange[] = [];
    const fixed: string[] = [];
    for (const [r, range] of ((entry.ranges as unknown[] | undefined) ?? []).entries()) {
      if (!isObject(range) || typeof range.type !== 'string' || !Array.isArray(range.events)) {
        throw new Error(`漏洞 ${id} 的 affected[${index}].ranges[${r}] 缺少 type 或 events`);
      }
      const events = range.events.filter(isObject).map((e) => {
        const event: OsvRange['events'][number] = {};
        for (const key of ['introduced', 'fixed', 'last_affected', 'limit'] as const) {
          const value = e[key];
          if (typeof value === 'string' || typeof value === 'number') event[key] = String(value);
        }
        return event;
      });
      ranges.push({ type: range.type, events });
      for (const event of events) {
        if (!event.fixed) continue;
        if (range.type === 'GIT') {
          if (typeof range.repo === 'string') fixCommits.push(commitLink(range.repo, event.fixed));
        } else if (!fixed.includes(event.fixed)) {
          fixed.push(event.fixed);
        }
      }
    }
    const pkg = entry.package;
    // OSV allows affected entries without a package when they only carry GIT ranges.
    if (pkg === undefined || pkg === null) continue;
    if (!isObject(pkg) || !str(pkg.name) || !str(pkg.ecosystem)) throw new Error(`漏洞 ${id} 的 affected[${index}].package 缺少 name 或 ecosystem`);
    const rawEcosystem = (pkg.ecosystem as string).trim();
    if (!ecosystems.includes(rawEcosystem)) ecosystems.push(rawEcosystem);
    const mapped = mapOsvEcosystem(rawEcosystem);
    const versions = ((entry.versions as unknown[] | undefined) ?? []).filter((v) => typeof v === 'string' || typeof v === 'number').map(String);
    if (mapped.distribution !== null && notAffectedStatement(ranges, versions)) {
      // Alpine's secdb writes "fixed in 0" for a branch whose package was never affected (aports'
      // secfixes `0:` key); its OSV records carry that as `introduced 0, fixed 0`.
      affected.push({ ecosystem: mapped.ecosystem, distribution: mapped.distribution, name: normalizePackageName(mapped.ecosystem, pkg.name as string), ranges: [], versions: [], vulnerable: [], patched: [], fixed: [], fixState: 'not_affected' });
      continue;
    }
    affected.push({
      ecosystem: mapped.ecosystem,
      distribution: mapped.distribution,
      name: normalizePackageName(mapped.ecosystem, pkg.name as string),
      ranges,
      versions,
      vulnerable: [],
      patched: [],
      fixed,
      // OSV states no distribution status of its own: Debian, Ubuntu, Alpine, Red Hat, Rocky,
      // Alma and SUSE list a release's source package under affected when it is vulnerable (with
      // `fixed` once released) and leave it out when not affected; Ubuntu's ignored, deferred
      // and needed all read "affected, no fix". Chainguard and Wolfi say more per component.
      ...(mapped.distribution !== null ? { fixState: fixed.length > 0 ? 'fixed' as const : eventState(entry.ecosystem_specific) } : {}),
    });
  }

  for (const ref of Array.isArray(doc.references) ? doc.references : []) {
    if (isObject(ref) && ref.type === 'FIX' && typeof ref.url === 'string' && !fixCommits.includes(ref.url)) fixCommits.push(ref.url);
  }
  const references = (Array.isArray(doc.references) ? doc.references : [])
    .filter(isObject)
    .filter((r) => typeof r.url === 'string')
    .map((r) => ({ type: typeof r.type === 'string' ? r.type : 'WEB', url: r.url as string }));

  const databaseSpecific = isObject(doc.database_specific) ? doc.database_specific : {};
  const assessment = assessSeverity(cvss, str(databaseSpecific.severity) ?? distroRating, severityDatabase('osv', id));
  const cwes = strings(databaseSpecific.cwe_ids);
  const details = typeof doc.details === 'string' ? doc.details : '';
  // Distributions' records (UBUNTU-CVE-…, ALPINE-CVE-…, RHSA, RLSA, SUSE-SU, …) name the flaws they
  // are about in `upstream` rather than `aliases` (OSV 1.7): both are the record's other ids, so the
  // distribution's statement and the CVE's other records are one finding.
  const aliases = [...new Set([...strings(doc.aliases), ...strings(doc.upstream)].map((a) => a.trim()).filter((a) => a && a !== id))];

  return {
    advisory: {
      id,
      aliases,
      summary: summaryOf(str(doc.summary), details),
      level: assessment.level,
      score: assessment.score,
      vector: assessment.vector,
      exploit: assessment.exploit,
      severitySource: assessment.source,
      cwes,
      published: str(doc.published),
      modified: str(doc.modified),
      withdrawn: Boolean(str(doc.withdrawn)),
      affected,
    },
    source: 'osv',
    origin: ecosystems.join(', ').slice(0, 200),
    details,
    references,
    fixCommits: [...new Set(fixCommits)],
    severities,
    document: doc,
  };
}
