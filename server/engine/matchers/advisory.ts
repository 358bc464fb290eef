// An advisory as the matcher sees it: the OSV schema's essentials, already normalised by the
// knowledge base (levels computed at import, package names normalised per ecosystem). Plain data,
// so it crosses worker threads and is what the knowledge base loads from its tables.
import type { OsvRange } from './versions/ranges.ts';
import type { FixState } from '../../../contract/enums.ts';

/** 1 超危, 2 高危, 4 中危, 8 低危, 16 未知 (spec doc 1 §3). */
export type Level = 1 | 2 | 4 | 8 | 16;
/** 1 容易, 2 一般, 4 困难, 16 未知. */
export type ExploitDifficulty = 1 | 2 | 4 | 16;

export interface AffectedPackage {
  /** purl type of the package (npm, maven, pypi, golang, cargo, gem, composer, nuget, pub, hex, deb, apk, rpm, ...). */
  ecosystem: string;
  /** Distribution release for OS packages (`alpine:3.9`, `debian:11`); null for language packages. */
  distribution: string | null;
  /** Package name normalised with `normalizePackageName`. */
  name: string;
  /** OSV ranges (SEMVER / ECOSYSTEM; GIT ranges are kept but never match a version). */
  ranges: OsvRange[];
  /** OSV `versions`: explicitly affected versions. */
  versions: string[];
  /**
   * Constraint strings as some databases write them instead of ranges (trivy, GitLab, custom
   * entries): affected when any `vulnerable` constraint matches and no `patched` one does.
   */
  vulnerable: string[];
  patched: string[];
  /** Versions that fix the flaw, for display and for the recommended upgrade. */
  fixed: string[];
  /**
   * The distribution's statement for this package and release (issue 16 item 6). Absent means
   * what the ranges say: fixed when `fixed` names a version, else affected. `not_affected` entries
   * never match and cancel the flaw for their release; will_not_fix, fix_deferred, end_of_life
   * and under_investigation match every version and mark the finding.
   */
  fixState?: FixState;
}

export interface Advisory {
  /** Primary id (GHSA-…, GO-…, RUSTSEC-…, PYSEC-…, CVE-…, or a custom id). */
  id: string;
  /** Every other id of the same flaw: CVE, GHSA, PYSEC, GO, RUSTSEC, CNNVD, CNVD, … */
  aliases: string[];
  summary: string;
  level: Level;
  /** Best available CVSS base score and its vector (null when the advisory has none). */
  score: number | null;
  vector: string | null;
  exploit: ExploitDifficulty;
  /** Which source set the level (`CVSS:3.1 NVD 9.8`, `GHSA 数据库评级 HIGH`); null or absent when unrated. */
  severitySource?: string | null;
  /** The level comes from an imported id mapping (CNNVD), the last source a finding's level is taken from. */
  levelFromMapping?: boolean;
  cwes: string[];
  published: string | null;
  modified: string | null;
  withdrawn: boolean;
  /** Empty for records that only describe a flaw (NVD entries, severity tables). */
  affected: AffectedPackage[];
}

/** Package names as each ecosystem compares them (PEP 503 for PyPI, case-insensitive registries). */
export function normalizePackageName(ecosystem: string, name: string): string {
  const trimmed = name.trim();
  switch (ecosystem) {
    case 'pypi':
      return trimmed.toLowerCase().replace(/[-_.]+/g, '-');
    case 'npm':
    case 'nuget':
    case 'composer':
    case 'maven':
    case 'cargo':
    case 'hex':
    case 'pub':
    case 'deb':
    case 'apk':
      return trimmed.toLowerCase();
    case 'githubactions':
      // `owner/repo[/path]`: advisories name the repository (case-insensitive); an action in a
      // sub-folder (`github/codeql-action/init`) is affected with its repository.
      return trimmed.split('/').slice(0, 2).join('/').toLowerCase();
    default:
      // Go module paths, gems, rpm names and the rest are case-sensitive.
      return trimmed;
  }
}
