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

/** Up to this many, a component's locations are checked for a repeat one by one; beyond, through a Set of keys. */
const LINEAR_DEDUPE = 16;

const locationKey = (loc: Location) => `${loc.file}:${loc.startLine ?? ''}`;

/** `into` and the items of `more` it lacks, each once: `into` itself when none is new, else a new array of the exact size. */
function union(into: string[], more: readonly string[]): string[] {
  let added: string[] | undefined;
  for (const x of more) if (!into.includes(x) && !added?.includes(x)) (added ??= []).push(x);
  return added ? into.concat(added) : into;
}

/**
 * One entry per purl. Built in place with arrays of the exact size (grown by concat, not push,
 * which reserves 17 slots) and no key strings or Set for the common component (one declaration, a
 * location or two): a 43,000-component lockfile's inventory is otherwise as much bookkeeping as
 * data. The Sets of keys exist only for components seen in many places or with evidence.
 */
export function inventory(result: ScanResult): InventoryEntry[] {
  const byPurl = new Map<string, InventoryEntry>();
  /** Keys of the locations and evidence already taken, for the entries that need them. */
  const seen = new Map<InventoryEntry, Set<string>>();
  const seenOf = (entry: InventoryEntry) => {
    let keys = seen.get(entry);
    if (!keys) {
      keys = new Set(entry.locations.map(locationKey));
      seen.set(entry, keys);
    }
    return keys;
  };
  for (const target of result.targets) {
    for (const c of target.components) {
      let entry = byPurl.get(c.purl);
      if (!entry) {
        entry = { purl: c.purl, name: c.name, version: c.version, ecosystem: c.ecosystem, scope: c.scope, direct: c.direct, locations: [], licenses: [], licenseExpression: null, dependsOn: [] };
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
        const keys = seenOf(entry);
        const key = `ev:${ev.file}:${ev.rule}:${ev.offset ?? ''}`;
        if (keys.has(key)) continue;
        keys.add(key);
        if ((entry.evidence ??= []).length < MAX_EVIDENCE) entry.evidence.push(ev);
      }
      const keys = seen.get(entry) ?? (entry.locations.length + c.locations.length > LINEAR_DEDUPE ? seenOf(entry) : undefined);
      let added: Location[] | undefined;
      for (const loc of c.locations) {
        if (keys) {
          const key = locationKey(loc);
          if (!keys.has(key)) { keys.add(key); (added ??= []).push(loc); }
        } else {
          const same = (l: Location) => l.file === loc.file && (l.startLine ?? '') === (loc.startLine ?? '');
          if (!entry.locations.some(same) && !added?.some(same)) (added ??= []).push(loc);
        }
      }
      if (added) entry.locations = entry.locations.concat(added);
      entry.licenses = union(entry.licenses, c.licenses);
      entry.dependsOn = union(entry.dependsOn, c.dependsOn);
    }
  }
  const list = [...byPurl.values()];
  for (const entry of list) entry.licenseExpression = licenseExpressionOf(entry.licenses);
  return list.sort((a, b) => a.purl.localeCompare(b.purl));
}
