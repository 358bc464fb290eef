// OSV's ecosystem names and the purl types Cairn stores. One table for the knowledge-base import
// (kb/formats/osv.ts), the version schemes (engine/matchers/versions) and the system vulnerability
// form, which all meet OSV names (`Go`, `crates.io`, `Debian:12`) where a purl type is meant.

/** OSV language ecosystems, lower-cased → purl type. */
export const OSV_LANGUAGE_PURL_TYPE: Readonly<Record<string, string>> = {
  npm: 'npm',
  maven: 'maven',
  pypi: 'pypi',
  go: 'golang',
  'crates.io': 'cargo',
  rubygems: 'gem',
  packagist: 'composer',
  nuget: 'nuget',
  pub: 'pub',
  hex: 'hex',
  cran: 'cran',
  bioconductor: 'bioconductor',
  hackage: 'hackage',
  ghc: 'hackage',
  swifturl: 'swift',
  conancenter: 'conan',
  cocoapods: 'cocoapods',
  julia: 'julia',
  opam: 'opam',
  'github actions': 'githubactions',
};

/** OSV OS ecosystems (the name before the first colon), lower-cased → purl type and distribution id. */
export const OSV_OS_ECOSYSTEMS: Readonly<Record<string, { type: 'deb' | 'apk' | 'rpm'; distro: string }>> = {
  debian: { type: 'deb', distro: 'debian' },
  ubuntu: { type: 'deb', distro: 'ubuntu' },
  alpine: { type: 'apk', distro: 'alpine' },
  wolfi: { type: 'apk', distro: 'wolfi' },
  chainguard: { type: 'apk', distro: 'chainguard' },
  alpaquita: { type: 'apk', distro: 'alpaquita' },
  'red hat': { type: 'rpm', distro: 'redhat' },
  'rocky linux': { type: 'rpm', distro: 'rocky' },
  almalinux: { type: 'rpm', distro: 'almalinux' },
  suse: { type: 'rpm', distro: 'sles' },
  opensuse: { type: 'rpm', distro: 'opensuse-leap' },
  mageia: { type: 'rpm', distro: 'mageia' },
  'photon os': { type: 'rpm', distro: 'photon' },
  'azure linux': { type: 'rpm', distro: 'azurelinux' },
  openeuler: { type: 'rpm', distro: 'openeuler' },
};

/** The purl type an OSV ecosystem name stands for (`Go` → golang, `Debian:12` → deb), or null. */
export function purlTypeOfOsvEcosystem(ecosystem: string): string | null {
  const key = (ecosystem.split(':')[0] ?? '').trim().toLowerCase();
  return OSV_LANGUAGE_PURL_TYPE[key] ?? OSV_OS_ECOSYSTEMS[key]?.type ?? null;
}

/** Distribution ids as the knowledge base stores them (`redhat:8`, `sles:15.5`) → the names people use. */
const DISTRIBUTION_NAMES: Readonly<Record<string, string>> = {
  debian: 'Debian', ubuntu: 'Ubuntu', alpine: 'Alpine', wolfi: 'Wolfi', chainguard: 'Chainguard', alpaquita: 'Alpaquita',
  redhat: 'Red Hat Enterprise Linux', rocky: 'Rocky Linux', almalinux: 'AlmaLinux', centos: 'CentOS', oracle: 'Oracle Linux',
  amazon: 'Amazon Linux', sles: 'SUSE Linux Enterprise', 'sles-micro': 'SUSE Linux Enterprise Micro', 'opensuse-leap': 'openSUSE Leap',
  'opensuse-leap-micro': 'openSUSE Leap Micro', 'opensuse-tumbleweed': 'openSUSE Tumbleweed', photon: 'Photon OS',
  mariner: 'CBL-Mariner', azurelinux: 'Azure Linux', mageia: 'Mageia', openeuler: 'openEuler',
};

/**
 * A distribution release for people: `redhat:8` → Red Hat Enterprise Linux 8, `sles:15.5` →
 * SUSE Linux Enterprise 15 SP5, `ubuntu:22.04` → Ubuntu 22.04; an unknown id is shown as it is.
 */
export function distributionLabel(distribution: string): string {
  const colon = distribution.indexOf(':');
  const id = colon < 0 ? distribution : distribution.slice(0, colon);
  const release = colon < 0 ? '' : distribution.slice(colon + 1);
  const name = DISTRIBUTION_NAMES[id];
  if (!name) return distribution;
  if (!release) return name;
  const sp = id === 'sles' ? /^(\d+)\.(\d+)$/.exec(release) : null;
  return sp && sp[2] !== '0' ? `${name} ${sp[1]} SP${sp[2]}` : `${name} ${release}`;
}
