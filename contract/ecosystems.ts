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
  suse: { type: 'rpm', distro: 'suse' },
  opensuse: { type: 'rpm', distro: 'opensuse' },
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
