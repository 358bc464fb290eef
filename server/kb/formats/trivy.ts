// trivy's vulnerability database in its YAML fixture form (trivy integration/testdata/fixtures/db):
// a folder of files, each a list of `{bucket, pairs}`. Language buckets (`npm::<source>`) hold
// package → vulnerability id → version constraints; OS buckets (`alpine 3.9`, `debian 10`, …)
// hold package → id → FixedVersion; `vulnerability.yaml` holds titles, severities and CVSS;
// `data-source.yaml` names each bucket's source; `cpe.yaml` resolves Red Hat's CPE indices.
// The result is one AdvisoryRecord per vulnerability id with every bucket's packages merged.
import fs from 'node:fs/promises';
import path from 'node:path';
import YAML from 'yaml';
import { assessSeverity, normalizePackageName, type AffectedPackage, type CvssInput } from '../../engine/index.ts';
import type { AdvisoryRecord } from '../../db/repositories/knowledge-base.ts';
import { summaryOf } from './osv.ts';
import type { FixState } from '../../../contract/enums.ts';

export interface TrivyParseResult {
  records: AdvisoryRecord[];
  /** Files read (YAML files of the folder, cpe.yaml and data-source.yaml included). */
  files: number;
  errors: { file: string; message: string }[];
}

/** The files that mark a folder as a trivy database. */
export const TRIVY_MARKERS = ['vulnerability.yaml', 'data-source.yaml'];

const LANGUAGE_BUCKETS: Record<string, string> = {
  npm: 'npm',
  maven: 'maven',
  pip: 'pypi',
  go: 'golang',
  cargo: 'cargo',
  composer: 'composer',
  nuget: 'nuget',
  rubygems: 'gem',
  conan: 'conan',
  cocoapods: 'cocoapods',
  pub: 'pub',
  erlang: 'hex',
  swift: 'swift',
  julia: 'julia',
  bitnami: 'bitnami',
  // Kubernetes components: trivy's own ecosystem, matched by the k8s scanner only.
  k8s: 'k8s',
};

/** OS bucket names (lowercased, release stripped) → purl type and distribution id. */
const OS_BUCKETS: [RegExp, string, string][] = [
  [/^alpine (.+)$/, 'apk', 'alpine'],
  [/^wolfi$/, 'apk', 'wolfi'],
  [/^chainguard$/, 'apk', 'chainguard'],
  [/^debian (.+)$/, 'deb', 'debian'],
  [/^ubuntu (.+)$/, 'deb', 'ubuntu'],
  [/^alma (.+)$/, 'rpm', 'almalinux'],
  [/^rocky (.+)$/, 'rpm', 'rocky'],
  [/^centos (.+)$/, 'rpm', 'centos'],
  [/^amazon linux (.+)$/, 'rpm', 'amazon'],
  [/^oracle linux (.+)$/, 'rpm', 'oracle'],
  [/^photon os (.+)$/, 'rpm', 'photon'],
  [/^cbl-mariner (.+)$/, 'rpm', 'mariner'],
  [/^azure linux (.+)$/, 'rpm', 'azurelinux'],
  [/^suse linux enterprise micro (.+)$/, 'rpm', 'sles-micro'],
  [/^suse linux enterprise (.+)$/, 'rpm', 'sles'],
  [/^opensuse leap micro (.+)$/, 'rpm', 'opensuse-leap-micro'],
  [/^opensuse leap (.+)$/, 'rpm', 'opensuse-leap'],
  [/^opensuse tumbleweed$/, 'rpm', 'opensuse-tumbleweed'],
];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const strings = (v: unknown): string[] => list(v).filter((s): s is string => typeof s === 'string' && s.trim() !== '').map((s) => s.trim());
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);
const num = (v: unknown): number | undefined => {
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : undefined;
};

interface Bucket { bucket: string; pairs: unknown[] }

/**
 * trivy-db's Status (pkg/types/status.go): 0 unknown, 1 not_affected, 2 affected, 3 fixed,
 * 4 under_investigation, 5 will_not_fix, 6 fix_deferred, 7 end_of_life; the JSON form writes the
 * names. A fixed version makes the entry fixed whatever the status says.
 */
const TRIVY_STATUS: Record<string, FixState> = {
  1: 'not_affected', 2: 'affected', 3: 'fixed', 4: 'under_investigation', 5: 'will_not_fix', 6: 'fix_deferred', 7: 'end_of_life',
  not_affected: 'not_affected', affected: 'affected', fixed: 'fixed', under_investigation: 'under_investigation',
  will_not_fix: 'will_not_fix', fix_deferred: 'fix_deferred', end_of_life: 'end_of_life',
};

/** Debian's tracker states as older trivy databases give them (`State: postponed`). */
const DEBIAN_STATE: Record<string, FixState> = {
  postponed: 'fix_deferred', ignored: 'will_not_fix', 'end-of-life': 'end_of_life', undetermined: 'under_investigation',
  'not-affected': 'not_affected', 'no-dsa': 'affected', unfixed: 'affected',
};

function fixStateOf(fixedVersion: string | null, status: unknown, state?: unknown): FixState {
  if (fixedVersion) return 'fixed';
  const key = typeof status === 'number' ? String(status) : typeof status === 'string' ? status.trim().toLowerCase() : '';
  const byStatus = TRIVY_STATUS[key];
  if (byStatus && byStatus !== 'fixed' && byStatus !== 'affected') return byStatus;
  const byState = typeof state === 'string' ? DEBIAN_STATE[state.trim().toLowerCase()] : undefined;
  return byState ?? 'affected';
}

/** SUSE names service packs `15-SP3`; its systems' os-release says `15.3` (matchers/distribution.ts). */
const releaseOfBucket = (distro: string, release: string): string => {
  const sp = /^(\d+)-sp(\d+)$/i.exec(release);
  return sp && (distro === 'sles' || distro === 'sles-micro') ? `${sp[1]}.${sp[2]}` : release;
};

function bucketsOf(doc: unknown): Bucket[] {
  if (!Array.isArray(doc)) throw new Error('trivy 数据文件应为 {bucket, pairs} 列表');
  return doc.map((b, i) => {
    if (!isObject(b) || typeof b.bucket !== 'string' || !Array.isArray(b.pairs)) throw new Error(`第 ${i + 1} 个数据桶缺少 bucket 或 pairs`);
    return { bucket: b.bucket.trim(), pairs: b.pairs };
  });
}

/** `>= 2.1.3, < 3.0.0` → `2.1.3`: the version a patched constraint starts at. */
function bareVersion(constraint: string): string {
  const first = constraint.split(',')[0]!.trim();
  return first.replace(/^(>=|<=|==|!=|~>|\^|~|>|<|=)\s*/, '').trim();
}

interface Accumulated {
  id: string;
  affected: AffectedPackage[];
  origins: Set<string>;
  aliases: Set<string>;
  entries: unknown[];
}

export async function parseTrivyDb(dir: string): Promise<TrivyParseResult> {
  const names = (await fs.readdir(dir)).filter((n) => /\.ya?ml$/i.test(n)).sort();
  const errors: TrivyParseResult['errors'] = [];
  const documents = new Map<string, unknown>();
  for (const name of names) {
    try {
      const text = await fs.readFile(path.join(dir, name), 'utf8');
      // The failsafe schema keeps versions like `8.45` or `1:1.0.2k` as the strings they are.
      documents.set(name, YAML.parse(text.replace(/^\uFEFF/, ''), { schema: 'failsafe' }));
    } catch (error) {
      errors.push({ file: name, message: `不是有效的 YAML 文档：${error instanceof Error ? error.message.split('\n')[0] : String(error)}` });
    }
  }

  // Bucket → human name of its data source.
  const sourceNames = new Map<string, string>();
  if (documents.has('data-source.yaml')) {
    try {
      for (const b of bucketsOf(documents.get('data-source.yaml'))) {
        for (const pair of b.pairs) {
          if (isObject(pair) && typeof pair.key === 'string' && isObject(pair.value)) {
            sourceNames.set(pair.key.trim(), str(pair.value.Name) ?? pair.key.trim());
          }
        }
      }
    } catch (error) {
      errors.push({ file: 'data-source.yaml', message: (error as Error).message });
    }
  }

  // Red Hat CPE index → major release (`cpe:/o:redhat:enterprise_linux:7::server` → 7).
  const redHatReleases = new Map<string, string>();
  if (documents.has('cpe.yaml')) {
    try {
      for (const b of bucketsOf(documents.get('cpe.yaml'))) {
        for (const inner of b.pairs) {
          if (!isObject(inner) || inner.bucket !== 'cpe') continue;
          for (const pair of list(inner.pairs)) {
            if (!isObject(pair) || typeof pair.value !== 'string') continue;
            const release = /enterprise_linux:(\d+)/.exec(pair.value)?.[1];
            if (release) redHatReleases.set(String(pair.key), release);
          }
        }
      }
    } catch (error) {
      errors.push({ file: 'cpe.yaml', message: (error as Error).message });
    }
  }

  const byId = new Map<string, Accumulated>();
  const entryFor = (id: string): Accumulated => {
    let acc = byId.get(id);
    if (!acc) {
      acc = { id, affected: [], origins: new Set(), aliases: new Set(), entries: [] };
      byId.set(id, acc);
    }
    return acc;
  };

  const vulnerabilities = new Map<string, Record<string, unknown>>();

  for (const [file, doc] of documents) {
    if (file === 'data-source.yaml' || file === 'cpe.yaml') continue;
    let buckets: Bucket[];
    try {
      buckets = bucketsOf(doc);
    } catch (error) {
      errors.push({ file, message: (error as Error).message });
      continue;
    }
    for (const bucket of buckets) {
      if (bucket.bucket === 'vulnerability') {
        for (const pair of bucket.pairs) {
          if (isObject(pair) && typeof pair.key === 'string' && isObject(pair.value)) vulnerabilities.set(pair.key.trim(), pair.value);
        }
        continue;
      }
      const origin = sourceNames.get(bucket.bucket) ?? (bucket.bucket.includes('::') ? bucket.bucket.split('::')[1]!.trim() : bucket.bucket);
      const language = bucket.bucket.includes('::') ? bucket.bucket.split('::')[0]!.trim().toLowerCase() : null;
      const lower = bucket.bucket.toLowerCase();
      const ecosystem = language !== null ? (LANGUAGE_BUCKETS[language] ?? language) : null;
      const os = language === null ? OS_BUCKETS.find(([re]) => re.test(lower)) : undefined;
      const isRedHat = lower === 'red hat';
      if (ecosystem === null && !os && !isRedHat) {
        errors.push({ file, message: `无法识别的数据桶“${bucket.bucket}”，已跳过` });
        continue;
      }
      for (const pkgBucket of bucket.pairs) {
        if (!isObject(pkgBucket) || typeof pkgBucket.bucket !== 'string' || !Array.isArray(pkgBucket.pairs)) {
          errors.push({ file, message: `数据桶“${bucket.bucket}”中有缺少 bucket 或 pairs 的软件包条目，已跳过` });
          continue;
        }
        const rawName = pkgBucket.bucket.trim();
        for (const pair of pkgBucket.pairs) {
          if (!isObject(pair) || (typeof pair.key !== 'string' && typeof pair.key !== 'number')) {
            errors.push({ file, message: `软件包 ${rawName} 中有缺少 key 的漏洞条目，已跳过` });
            continue;
          }
          const key = String(pair.key).trim();
          const value = isObject(pair.value) ? pair.value : {};
          if (ecosystem !== null) {
            const acc = entryFor(key);
            const patched = [...strings(value.PatchedVersions), ...strings(value.UnaffectedVersions)];
            acc.affected.push({
              ecosystem,
              distribution: null,
              name: normalizePackageName(ecosystem, rawName),
              ranges: [],
              versions: [],
              vulnerable: strings(value.VulnerableVersions),
              patched,
              fixed: [...new Set(strings(value.PatchedVersions).map(bareVersion).filter(Boolean))],
            });
            acc.origins.add(origin);
            acc.entries.push({ bucket: bucket.bucket, package: rawName, value });
          } else if (os) {
            const [re, type, distro] = os;
            const release = re.exec(lower)?.[1]?.trim();
            const distribution = release ? `${distro}:${releaseOfBucket(distro, release)}` : distro;
            const fixedVersion = str(value.FixedVersion) ?? strings(list(value.Entries).map((e) => (isObject(e) ? e.FixedVersion : null)))[0] ?? null;
            const status = value.Status ?? list(value.Entries).map((e) => (isObject(e) ? e.Status : undefined)).find((x) => x !== undefined);
            const acc = entryFor(key);
            acc.affected.push(osPackage(type, distribution, rawName, fixedVersion, fixStateOf(fixedVersion, status, value.State)));
            for (const vendorId of [...strings(value.VendorIDs), ...strings(value.VendorIds)]) acc.aliases.add(vendorId);
            for (const e of list(value.Entries)) if (isObject(e)) for (const v of strings(e.VendorIds)) acc.aliases.add(v);
            acc.origins.add(origin);
            acc.entries.push({ bucket: bucket.bucket, package: rawName, value });
          } else {
            // Red Hat OVAL: entries name the CPEs (releases) they apply to; an RHSA key lists its CVEs.
            for (const entry of list(value.Entries)) {
              if (!isObject(entry)) continue;
              const fixedVersion = str(entry.FixedVersion);
              const state = fixStateOf(fixedVersion, entry.Status);
              const cveIds = list(entry.Cves).map((c) => (isObject(c) ? str(c.ID) : null)).filter((c): c is string => Boolean(c));
              const ids = cveIds.length > 0 ? cveIds : [key];
              const releases = [...new Set(list(entry.Affected).map((i) => redHatReleases.get(String(i))).filter((r): r is string => Boolean(r)))];
              const distributions = releases.length > 0 ? releases.map((r) => `redhat:${r}`) : ['redhat'];
              for (const id of ids) {
                const acc = entryFor(id);
                for (const distribution of distributions) acc.affected.push(osPackage('rpm', distribution, rawName, fixedVersion, state));
                if (id !== key) acc.aliases.add(key);
                acc.origins.add(origin);
                acc.entries.push({ bucket: bucket.bucket, package: rawName, key, value: entry });
              }
            }
          }
        }
      }
    }
  }
  if (!documents.has('vulnerability.yaml')) errors.push({ file: 'vulnerability.yaml', message: '缺少 vulnerability.yaml，漏洞将没有标题和严重程度' });
  for (const id of vulnerabilities.keys()) entryFor(id);

  const records = [...byId.values()]
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((acc) => trivyRecord(acc, vulnerabilities.get(acc.id)));
  return { records, files: names.length, errors };
}

function osPackage(type: string, distribution: string, rawName: string, fixedVersion: string | null, fixState: FixState): AffectedPackage {
  if (fixState === 'not_affected') {
    // The distribution's word that the release is not affected: kept, so the knowledge base shows
    // it and the matcher lets it cancel the flaw for the release; it matches no version itself.
    return { ecosystem: type, distribution, name: normalizePackageName(type, rawName), ranges: [], versions: [], vulnerable: [], patched: [], fixed: [], fixState };
  }
  return {
    fixState,
    ecosystem: type,
    distribution,
    name: normalizePackageName(type, rawName),
    // No fix yet: every version is affected, written as OSV's "introduced 0" range.
    ranges: fixedVersion ? [] : [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }] }],
    versions: [],
    vulnerable: fixedVersion ? [`< ${fixedVersion}`] : [],
    patched: [],
    fixed: fixedVersion ? [fixedVersion] : [],
  };
}

/** CVSS of one trivy source (`nvd`, `ghsa`, `redhat`, …) as assessSeverity inputs. */
function cvssOf(source: Record<string, unknown>): CvssInput[] {
  const out: CvssInput[] = [];
  for (const v of ['V40', 'V3', 'V2'] as const) {
    const vector = str(source[`${v}Vector`]);
    if (vector) out.push({ type: v === 'V40' ? 'CVSS_V4' : v === 'V3' ? 'CVSS_V3' : 'CVSS_V2', vector, score: num(source[`${v}Score`]) });
  }
  return out;
}

function trivyRecord(acc: Accumulated, vuln: Record<string, unknown> | undefined): AdvisoryRecord {
  const v = vuln ?? {};
  const cvssSources = isObject(v.CVSS) ? v.CVSS : {};
  // NVD first, then GHSA, then whichever source has a vector: the order trivy itself prefers.
  const order = ['nvd', 'ghsa', ...Object.keys(cvssSources).filter((k) => k !== 'nvd' && k !== 'ghsa').sort()];
  let inputs: CvssInput[] = [];
  for (const name of order) {
    const source = cvssSources[name];
    if (!isObject(source)) continue;
    inputs = cvssOf(source);
    if (inputs.length > 0) break;
  }
  const assessment = assessSeverity(inputs, str(v.Severity), 'trivy');
  const details = str(v.Description) ?? '';
  const aliases = [...acc.aliases].filter((a) => a !== acc.id).sort();
  return {
    advisory: {
      id: acc.id,
      aliases,
      summary: summaryOf(str(v.Title), details),
      level: assessment.level,
      score: assessment.score,
      vector: assessment.vector,
      exploit: assessment.exploit,
      severitySource: assessment.source,
      cwes: strings(v.CweIDs),
      published: str(v.PublishedDate),
      modified: str(v.LastModifiedDate),
      withdrawn: false,
      affected: acc.affected,
    },
    source: 'trivy',
    origin: ([...acc.origins].join(', ') || 'trivy').slice(0, 200),
    details,
    references: strings(v.References).map((url) => ({ type: 'WEB', url })),
    fixCommits: [],
    severities: inputs.map((i) => ({ type: i.type ?? 'CVSS', score: i.vector })),
    document: { id: acc.id, vulnerability: vuln ?? null, packages: acc.entries },
  };
}
