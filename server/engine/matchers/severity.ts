// Vulnerability level and exploit difficulty from CVSS (design §5). The level comes from the best
// available CVSS: the newest version that the advisory carries (v4 over v3.1 over v3.0 over v2),
// scored with a maintained calculator, then banded as NVD bands scores. An advisory without any
// vector may still state a severity word (GHSA's `database_specific.severity`, trivy's `Severity`).
//
// Precedence of a finding's level (issue 14, item 2), over every record of the flaw the knowledge
// base holds — the matched advisories and the records reached through their ids and aliases (an
// NVD entry for a GHSA's CVE alias, a trivy record), matchers/vulnerabilities.ts toFinding:
//   1. a CVSS vector, the newest version first (v4.0, v3.1, v3.0, v2), the higher score among
//      vectors of the same version;
//   2. the severity an advisory database states (OSV/GHSA `database_specific.severity`, NVD
//      `baseSeverity`, trivy `Severity`), the more severe first;
//   3. the CNNVD level an imported CVE→CNNVD mapping file states (`CNNVD 高危`);
//   4. otherwise the flaw is unrated: level 16, shown as 未评级 with the reason.
// The finding records which source set its level, e.g. `CVSS:3.1 NVD 9.8` or `GHSA 数据库评级 HIGH`
// (severitySourceLabel).
import calculator from 'ae-cvss-calculator';
import type { ExploitDifficulty, Level } from './advisory.ts';

const { Cvss2, Cvss3P0, Cvss3P1, Cvss4P0 } = ((calculator as unknown as { default?: typeof calculator }).default ?? calculator) as typeof calculator;

export interface CvssInput {
  /** OSV `severity[].type`: CVSS_V2, CVSS_V3, CVSS_V4 (or our own spelling of them). */
  type?: string;
  /** The vector; OSV puts it in `score`. */
  vector: string;
  /** A score the source states beside the vector (NVD, trivy); used when the vector cannot be scored. */
  score?: number;
}

export interface SeverityAssessment {
  level: Level;
  score: number | null;
  vector: string | null;
  /** 2, 3.0, 3.1 or 4.0; null without a vector. */
  version: string | null;
  exploit: ExploitDifficulty;
  /** Which source set the level (`CVSS:3.1 NVD 9.8`, `GHSA 数据库评级 HIGH`); null when unrated. */
  source: string | null;
}

const rank = (version: string): number => ({ '4.0': 4, '3.1': 3.1, '3.0': 3, '2': 2 })[version] ?? 0;

function versionOf(vector: string): string | null {
  const head = /^CVSS:(\d\.\d)\//.exec(vector);
  if (head) return head[1]!;
  return /(^|\/)AV:[LAN](\/|$)/.test(vector) && /(^|\/)Au:[MSN](\/|$)/.test(vector) ? '2' : null;
}

/** Base score of a vector, or null when it is not a complete, valid vector. */
export function scoreVector(vector: string): number | null {
  const version = versionOf(vector);
  try {
    const scored =
      version === '4.0' ? new Cvss4P0(vector) :
      version === '3.1' ? new Cvss3P1(vector) :
      version === '3.0' ? new Cvss3P0(vector) :
      version === '2' ? new Cvss2(vector) : null;
    const base = scored?.calculateScores().base;
    return typeof base === 'number' && Number.isFinite(base) ? base : null;
  } catch {
    return null;
  }
}

/** NVD's bands; CVSS v2 has no critical band. */
export function levelOfScore(score: number, version: string | null): Level {
  if (version !== '2' && score >= 9) return 1;
  if (score >= 7) return 2;
  if (score >= 4) return 4;
  if (score > 0) return 8;
  return 16;
}

/** CRITICAL / HIGH / MODERATE / MEDIUM / LOW as advisories write them; anything else unknown. */
export function levelOfWord(word: string | undefined | null): Level {
  switch ((word ?? '').trim().toUpperCase()) {
    case 'CRITICAL': return 1;
    case 'HIGH': case 'IMPORTANT': return 2;
    case 'MODERATE': case 'MEDIUM': return 4;
    case 'LOW': case 'NEGLIGIBLE': return 8;
    default: return 16;
  }
}

/** How easy the flaw is to exploit, read from the vector's exploitability metrics. */
export function exploitOf(vector: string | null): ExploitDifficulty {
  if (!vector) return 16;
  const metric = (name: string) => new RegExp(`(?:^|/)${name}:([A-Z])`).exec(vector)?.[1];
  const version = versionOf(vector);
  if (!version) return 16;
  const complexity = metric('AC');
  if (version === '2') {
    if (complexity === 'H') return 4;
    return complexity === 'L' && metric('Au') === 'N' ? 1 : 2;
  }
  if (complexity === 'H' || metric('AT') === 'P') return 4;
  const noPrivileges = metric('PR') === 'N';
  const noInteraction = metric('UI') === 'N';
  return complexity === 'L' && noPrivileges && noInteraction ? 1 : 2;
}

/**
 * The assessment from every CVSS an advisory carries, plus an optional severity word; `database`
 * names where the record comes from in the source label (severityDatabase).
 */
export function assessSeverity(inputs: CvssInput[], word?: string | null, database?: string): SeverityAssessment {
  let best: { vector: string; version: string; score: number } | null = null;
  for (const input of inputs) {
    const vector = input.vector?.trim();
    if (!vector) continue;
    const version = versionOf(vector);
    if (!version) continue;
    const score = scoreVector(vector) ?? (typeof input.score === 'number' ? input.score : null);
    if (score === null) continue;
    if (!best || rank(version) > rank(best.version) || (rank(version) === rank(best.version) && score > best.score)) {
      best = { vector, version, score };
    }
  }
  if (best) {
    const level = levelOfScore(best.score, best.version);
    return { level, score: best.score, vector: best.vector, version: best.version, exploit: exploitOf(best.vector), source: severitySourceLabel({ database, version: best.version, score: best.score, level }) };
  }
  const level = levelOfWord(word);
  return { level, score: null, vector: null, version: null, exploit: 16, source: severitySourceLabel({ database, version: null, score: null, level, word }) };
}

const DATABASE_OF_PREFIX: Record<string, string> = {
  GHSA: 'GHSA', PYSEC: 'PyPA', RUSTSEC: 'RustSec', GO: 'Go', OSV: 'OSV', MAL: 'OSSF', CVE: 'NVD', DSA: 'Debian', DLA: 'Debian', DEBIAN: 'Debian',
  USN: 'Ubuntu', UBUNTU: 'Ubuntu', ALSA: 'AlmaLinux', RLSA: 'Rocky', RHSA: 'Red Hat', GSD: 'GSD', BIT: 'Bitnami', PSF: 'PSF', CURL: 'curl',
  ALPINE: 'Alpine', OESA: 'openEuler', CGA: 'Chainguard', MGASA: 'Mageia', SUSE: 'SUSE', 'OPENSUSE': 'openSUSE', HSEC: 'Haskell', RSEC: 'R',
};

/**
 * The database a knowledge-base record comes from, as a source label names it: NVD for NVD feeds,
 * the advisory database of an OSV id (GHSA, PyPA, RustSec, Go, …), trivy and its data source, or
 * 系统漏洞库 for the administrators' own entries.
 */
export function severityDatabase(source: string, advisoryId: string, origin?: string | null): string {
  if (source === 'nvd') return 'NVD';
  if (source === 'custom') return origin?.trim() || '系统漏洞库';
  const prefix = /^([A-Za-z]+)-/.exec(advisoryId.trim())?.[1]?.toUpperCase();
  if (source === 'trivy') return 'trivy';
  return (prefix && DATABASE_OF_PREFIX[prefix]) || prefix || 'OSV';
}

const WORD_OF_LEVEL: Record<number, string> = { 1: 'CRITICAL', 2: 'HIGH', 4: 'MODERATE', 8: 'LOW' };

/**
 * `CVSS:3.1 NVD 9.8` for a scored vector, `GHSA 数据库评级 HIGH` for a stated severity (the word as
 * the database wrote it, else the word of the level), null for a record without either.
 */
export function severitySourceLabel(input: { database?: string | null | undefined; version: string | null; score: number | null; level: number; word?: string | null | undefined }): string | null {
  const database = input.database?.trim();
  if (input.version && input.score !== null) {
    const version = input.version === '2' ? '2.0' : input.version;
    return [`CVSS:${version}`, database, input.score.toFixed(1)].filter(Boolean).join(' ');
  }
  if (input.level === 16) return null;
  const word = input.word?.trim().toUpperCase() || WORD_OF_LEVEL[input.level];
  return `${database ? `${database} ` : ''}数据库评级 ${word}`;
}

const MANUAL_LEVEL: Record<number, string> = { 1: '超危', 2: '高危', 4: '中危', 8: '低危' };

/**
 * The source label of a stored knowledge-base record (what the knowledge base loads for matching):
 * its vector and score, else the level its database stated, else — for an administrator's own
 * entry — the level they chose (`系统漏洞库 人工评级 高危`); null when the record rates nothing.
 */
export function storedSeveritySource(row: { source: string; advisoryId: string; origin?: string | null; vector: string | null; score: number | null; level: number }): string | null {
  const database = severityDatabase(row.source, row.advisoryId, row.origin);
  const version = row.vector ? versionOf(row.vector) : null;
  if (row.source === 'custom' && !(version && row.score !== null)) return row.level === 16 ? null : `${database} 人工评级 ${MANUAL_LEVEL[row.level] ?? ''}`.trim();
  return severitySourceLabel({ database, version, score: row.score, level: row.level });
}

/** `CNNVD 高危`: the source label of a level a CVE→CNNVD mapping states. */
export const cnnvdSeveritySource = (level: number): string => `CNNVD ${MANUAL_LEVEL[level] ?? ''}`.trim();
