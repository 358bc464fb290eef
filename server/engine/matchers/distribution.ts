// The release an OS package's purl names (`distro` qualifier), in the form the knowledge base
// stores advisories' releases: what the vulnerability matcher compares.

/**
 * os-release IDs whose advisories name the distribution differently, and how much of VERSION_ID
 * their advisories keep: Red Hat and its rebuilds publish per major release (`rhel-8.6` →
 * `redhat:8`, the trivy bucket `Red Hat` with CPE `enterprise_linux:8`, OSV `Red Hat:enterprise_linux:8`),
 * Debian per major, Alpine per major.minor branch, SUSE per service pack (`sles-15.5`, OSV
 * `SUSE:Linux Enterprise Server 15 SP5`).
 */
const RELEASES: Record<string, { id: string; parts: number | null }> = {
  debian: { id: 'debian', parts: 1 },
  alpine: { id: 'alpine', parts: 2 },
  rhel: { id: 'redhat', parts: 1 },
  redhat: { id: 'redhat', parts: 1 },
  rocky: { id: 'rocky', parts: 1 },
  almalinux: { id: 'almalinux', parts: 1 },
  centos: { id: 'centos', parts: 1 },
  ol: { id: 'oracle', parts: 1 },
  oracle: { id: 'oracle', parts: 1 },
  amzn: { id: 'amazon', parts: 1 },
  sles: { id: 'sles', parts: 2 },
  'sle-micro': { id: 'sles-micro', parts: 2 },
  'sles-micro': { id: 'sles-micro', parts: 2 },
};

/**
 * A purl `distro` qualifier as the knowledge base names releases (server/kb/formats/osv.ts:
 * `Debian:12` → `debian:12`, `Alpine:v3.19` → `alpine:3.19`): `debian-12.4` → `debian:12`,
 * `alpine-3.19.0` → `alpine:3.19`, `ubuntu-22.04` → `ubuntu:22.04`, `rhel-8.6` → `redhat:8`,
 * `rocky-9.3` → `rocky:9`, `sles-15.5` → `sles:15.5`. A qualifier already in that form, or one
 * naming no release, is kept (lower case).
 */
export function distributionKey(distro: string): string {
  const value = distro.trim().toLowerCase();
  // Rolling distributions: their advisories name no release (OSV `Wolfi`, trivy `wolfi`).
  const rolling = /^(wolfi|chainguard|opensuse-tumbleweed)(?:[-:].*)?$/.exec(value);
  if (rolling) return rolling[1]!;
  const m = /^([a-z][a-z0-9._-]*?)[-:]v?(\d+(?:\.\d+)*)$/.exec(value);
  if (!m) return value;
  const [, id, release] = m as unknown as [string, string, string];
  const known = RELEASES[id];
  if (!known) return `${id}:${release}`;
  const parts = release.split('.');
  return `${known.id}:${known.parts === null ? release : parts.slice(0, known.parts).join('.')}`;
}
