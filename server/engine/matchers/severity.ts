// Vulnerability level and exploit difficulty from CVSS (design §5). The level comes from the best
// available CVSS: the newest version that the advisory carries (v4 over v3.1 over v3.0 over v2),
// scored with a maintained calculator, then banded as NVD bands scores. An advisory without any
// vector may still state a severity word (GHSA's `database_specific.severity`, trivy's `Severity`).
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

/** The assessment from every CVSS an advisory carries, plus an optional severity word. */
export function assessSeverity(inputs: CvssInput[], word?: string | null): SeverityAssessment {
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
  if (best) return { level: levelOfScore(best.score, best.version), score: best.score, vector: best.vector, version: best.version, exploit: exploitOf(best.vector) };
  return { level: levelOfWord(word), score: null, vector: null, version: null, exploit: 16 };
}
