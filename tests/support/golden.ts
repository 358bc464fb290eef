// Reads trivy's golden reports (../shared/corpora/trivy/golden) and scores our targets against
// them: package-set F1 by purl and dependency-edge F1, per target file.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Target } from '../../server/engine/index.ts';

export const CORPORA = path.resolve(import.meta.dirname, '../../../shared/corpora');
export const TRIVY = path.join(CORPORA, 'trivy');

interface GoldenPackage { ID?: string; Name?: string; Version?: string; Identifier?: { PURL?: string }; DependsOn?: string[]; Relationship?: string }
interface GoldenResult { Target: string; Type?: string; Packages?: GoldenPackage[]; Vulnerabilities?: Array<{ PkgIdentifier?: { PURL?: string } }> }

export interface GoldenTarget {
  file: string;
  type: string;
  packages: Set<string>;
  edges: Set<string>;
  /** Whether the golden lists the project itself (Relationship root). */
  hasRoot: boolean;
}

/** purls compare case-sensitively except for percent-encoding differences. */
const norm = (purl: string) => decodeURIComponent(purl);

export function readGolden(name: string): GoldenTarget[] {
  const report = JSON.parse(readFileSync(path.join(TRIVY, 'golden', name), 'utf8')) as { Results?: GoldenResult[] };
  return (report.Results ?? []).filter((r) => r.Packages?.length).map((r) => {
    // Some goldens (pip, pipenv) list packages without an ID: key those by purl or name@version.
    const keyOf = (p: GoldenPackage) => p.ID ?? p.Identifier?.PURL ?? `${p.Name}@${p.Version}`;
    const purlOf = (p: GoldenPackage) => (p.Identifier?.PURL ? norm(p.Identifier.PURL) : keyOf(p));
    const byId = new Map(r.Packages!.map((p) => [keyOf(p), purlOf(p)]));
    const packages = new Set(byId.values());
    const edges = new Set<string>();
    for (const p of r.Packages!) for (const dep of p.DependsOn ?? []) edges.add(`${purlOf(p)} -> ${byId.get(dep) ?? dep}`);
    return { file: r.Target, type: r.Type ?? '', packages, edges, hasRoot: r.Packages!.some((p) => p.Relationship === 'root') };
  });
}

export function ourSets(target: Target, includeProject: boolean): { packages: Set<string>; edges: Set<string> } {
  const packages = new Set(target.components.map((c) => norm(c.purl)));
  const edges = new Set<string>();
  for (const c of target.components) for (const dep of c.dependsOn) edges.add(`${norm(c.purl)} -> ${norm(dep)}`);
  if (includeProject && target.project) {
    packages.add(norm(target.project.purl));
    // Roots filtered out with their component (development scope) take their edge with them.
    for (const root of target.roots) if (packages.has(norm(root))) edges.add(`${norm(target.project.purl)} -> ${norm(root)}`);
  }
  return { packages, edges };
}

export interface Score { precision: number; recall: number; f1: number; missing: string[]; extra: string[] }

export function score(expected: Set<string>, actual: Set<string>): Score {
  const missing = [...expected].filter((x) => !actual.has(x));
  const extra = [...actual].filter((x) => !expected.has(x));
  const hits = expected.size - missing.length;
  // An empty expectation met by an empty answer is a perfect score.
  if (expected.size === 0 && actual.size === 0) return { precision: 1, recall: 1, f1: 1, missing, extra };
  const precision = actual.size ? hits / actual.size : 0;
  const recall = expected.size ? hits / expected.size : 0;
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, f1, missing, extra };
}
