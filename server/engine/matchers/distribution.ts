// The release an OS package's purl names (`distro` qualifier), in the form the knowledge base
// stores advisories' releases: what the vulnerability matcher compares.
/**
 * A purl `distro` qualifier as the knowledge base names releases (server/kb/formats/osv.ts:
 * `Debian:12` → `debian:12`, `Alpine:v3.19` → `alpine:3.19`): `debian-12.4` → `debian:12`,
 * `alpine-3.19.0` → `alpine:3.19`, `ubuntu-22.04` → `ubuntu:22.04`. A qualifier already in that
 * form, or one naming no release, is kept (lower case).
 */
export function distributionKey(distro: string): string {
  const value = distro.trim().toLowerCase();
  // Rolling distributions: their advisories name no release (OSV `Wolfi`, trivy `wolfi`).
  const rolling = /^(wolfi|chainguard)(?:[-:].*)?$/.exec(value);
  if (rolling) return rolling[1]!;
  const m = /^([a-z][a-z0-9._-]*?)[-:]v?(\d+(?:\.\d+)*)$/.exec(value);
  if (!m) return value;
  const [, id, release] = m as unknown as [string, string, string];
  const parts = release.split('.');
  // Debian advisories name the major release, Alpine's the major.minor branch.
  if (id === 'debian') return `${id}:${parts[0]}`;
  if (id === 'alpine') return `${id}:${parts.slice(0, 2).join('.')}`;
  return `${id}:${release}`;
}
