// The scan's components merged across targets: one entry per purl, whichever files declared it.
// This is what the CLI prints and what SBOM exports describe.
import { normalizeDeclared } from '../matchers/licenses/expression.ts';
import type { Component, Evidence, Location, ScanResult, Scope } from '../model.ts';

export interface InventoryEntry {
  purl: string;
  name: string;
  version: string;
  ecosystem: Component['ecosystem'];
  scope: Scope;
  direct: boolean;
  locations: Location[];
  licenses: string[];
  /**
   * The declared licences as one normalised SPDX expression (each declaration repaired, joined
   * with AND since every one applies); null when none could be understood.
   */
  licenseExpression: string | null;
  dependsOn: string[];
  maintainer?: string;
  /** Image inputs: index of the layer the component first appeared in (AnalyseResult.image.layers). */
  layer?: number;
  /** The version range a manifest declares when none pins an exact version (Component.constraint). */
  constraint?: string;
  /** How a component found in a built artefact was identified (Component.evidence), each observation once. */
  evidence?: Evidence[];
  /** The highest confidence any identification gave; absent when a manifest or lockfile names it. */
  confidence?: number;
}

/** A component found in thousands of copies of one library keeps the first observations only. */
const MAX_EVIDENCE = 20;

/** Declarations repeat across thousands of components ("MIT"): each is normalised once. */
const normalised = new Map<string, string | null>();
function normalizeOnce(declared: string): string | null {
  let hit = normalised.get(declared);
  if (hit === undefined && !normalised.has(declared)) {
    hit = normalizeDeclared(declared);
    if (normalised.size > 10_000) normalised.clear();
    normalised.set(declared, hit);
  }
  return hit ?? null;
}

export function licenseExpressionOf(licenses: string[]): string | null {
  const parts = [...new Set(licenses.map(normalizeOnce).filter((e): e is string => !!e))];
  if (!parts.length) return null;
  return parts.length === 1 ? parts[0]! : parts.map((e) => (/ (AND|OR) /.test(e) ? `(${e})` : e)).join(' AND ');
}

export function inventory(result: ScanResult): InventoryEntry[] {
  const byPurl = new Map<string, InventoryEntry & { seen: Set<string> }>();
  for (const target of result.targets) {
    for (const c of target.components) {
      let entry = byPurl.get(c.purl);
      if (!entry) {
        entry = { purl: c.purl, name: c.name, version: c.version, ecosystem: c.ecosystem, scope: c.scope, direct: c.direct, locations: [], licenses: [], licenseExpression: null, dependsOn: [], seen: new Set() };
        byPurl.set(c.purl, entry);
      }
      // Runtime anywhere makes it runtime; direct anywhere makes it direct.
      if (c.scope === 'runtime') entry.scope = 'runtime';
      entry.direct ||= c.direct;
      if (c.maintainer) entry.maintainer ??= c.maintainer;
      // The same unpinned package declared by several manifests: the ranges, each once.
      if (c.constraint && !entry.constraint?.split(' | ').includes(c.constraint)) entry.constraint = entry.constraint ? `${entry.constraint} | ${c.constraint}` : c.constraint;
      if (c.confidence !== undefined) entry.confidence = Math.max(entry.confidence ?? 0, c.confidence);
      for (const ev of c.evidence ?? []) {
        const key = `ev:${ev.file}:${ev.rule}:${ev.offset ?? ''}`;
        if (entry.seen.has(key)) continue;
        entry.seen.add(key);
        if ((entry.evidence ??= []).length < MAX_EVIDENCE) entry.evidence.push(ev);
      }
      for (const loc of c.locations) {
        const key = `${loc.file}:${loc.startLine ?? ''}`;
        if (!entry.seen.has(key)) { entry.seen.add(key); entry.locations.push(loc); }
      }
      for (const l of c.licenses) if (!entry.licenses.includes(l)) entry.licenses.push(l);
      for (const d of c.dependsOn) if (!entry.dependsOn.includes(d)) entry.dependsOn.push(d);
    }
  }
  return [...byPurl.values()]
    .map(({ seen: _seen, ...entry }) => ({ ...entry, licenseExpression: licenseExpressionOf(entry.licenses) }))
    .sort((a, b) => a.purl.localeCompare(b.purl));
}
