// The scan's components merged across targets: one entry per purl, whichever files declared it.
// This is what the CLI prints and what SBOM exports describe.
import type { Component, Location, ScanResult, Scope } from '../model.ts';

export interface InventoryEntry {
  purl: string;
  name: string;
  version: string;
  ecosystem: Component['ecosystem'];
  scope: Scope;
  direct: boolean;
  locations: Location[];
  licenses: string[];
  dependsOn: string[];
}

export function inventory(result: ScanResult): InventoryEntry[] {
  const byPurl = new Map<string, InventoryEntry & { seen: Set<string> }>();
  for (const target of result.targets) {
    for (const c of target.components) {
      let entry = byPurl.get(c.purl);
      if (!entry) {
        entry = { purl: c.purl, name: c.name, version: c.version, ecosystem: c.ecosystem, scope: c.scope, direct: c.direct, locations: [], licenses: [], dependsOn: [], seen: new Set() };
        byPurl.set(c.purl, entry);
      }
      // Runtime anywhere makes it runtime; direct anywhere makes it direct.
      if (c.scope === 'runtime') entry.scope = 'runtime';
      entry.direct ||= c.direct;
      for (const loc of c.locations) {
        const key = `${loc.file}:${loc.startLine ?? ''}`;
        if (!entry.seen.has(key)) { entry.seen.add(key); entry.locations.push(loc); }
      }
      for (const l of c.licenses) if (!entry.licenses.includes(l)) entry.licenses.push(l);
      for (const d of c.dependsOn) if (!entry.dependsOn.includes(d)) entry.dependsOn.push(d);
    }
  }
  return [...byPurl.values()]
    .map(({ seen: _seen, ...entry }) => entry)
    .sort((a, b) => a.purl.localeCompare(b.purl));
}
