// The scheme registry: by scheme id, and by the ecosystem names advisories (OSV) and our purl
// types use. Anything unrecognised falls back to the lenient SemVer ordering, which gives a
// sensible answer for most numeric versions rather than refusing to match.

import { OSV_LANGUAGE_PURL_TYPE, OSV_OS_ECOSYSTEMS } from '../../../../contract/ecosystems.ts';
import { apkScheme } from './apk.ts';
import { cargoScheme } from './cargo.ts';
import { composerScheme } from './composer.ts';
import { cranScheme } from './cran.ts';
import { debScheme } from './deb.ts';
import { gemScheme } from './gem.ts';
import { golangScheme } from './golang.ts';
import { hackageScheme } from './hackage.ts';
import { hexScheme } from './hex.ts';
import { mavenScheme } from './maven.ts';
import { npmScheme } from './npm.ts';
import { nugetScheme } from './nuget.ts';
import { pubScheme } from './pub.ts';
import { pypiScheme } from './pypi.ts';
import { rpmScheme } from './rpm.ts';
import type { SchemeId, VersionScheme } from './scheme.ts';
import { semverScheme } from './semver.ts';

const SCHEMES: Record<SchemeId, VersionScheme> = {
  semver: semverScheme,
  npm: npmScheme,
  golang: golangScheme,
  cargo: cargoScheme,
  hex: hexScheme,
  pub: pubScheme,
  nuget: nugetScheme,
  maven: mavenScheme,
  cran: cranScheme,
  hackage: hackageScheme,
  pypi: pypiScheme,
  gem: gemScheme,
  composer: composerScheme,
  deb: debScheme,
  apk: apkScheme,
  rpm: rpmScheme,
};

export const SCHEME_IDS = Object.keys(SCHEMES) as SchemeId[];

export function schemeFor(id: SchemeId): VersionScheme {
  return SCHEMES[id];
}

/**
 * Lower-cased OSV ecosystem names (without their `:release` suffix) and purl types. Purl types
 * that are scheme ids (npm, maven, deb, ...) need no entry.
 */
const ECOSYSTEMS = new Map<string, SchemeId>([
  // OSV's own names, where their purl type has a scheme here.
  ...[...Object.entries(OSV_LANGUAGE_PURL_TYPE), ...Object.entries(OSV_OS_ECOSYSTEMS).map(([name, os]) => [name, os.type] as const)]
    .filter((entry): entry is [string, SchemeId] => Object.hasOwn(SCHEMES, entry[1])),
  // Other spellings: languages, trivy's and scanners' distribution names.
  ...Object.entries({
    'erlang': 'hex',
    'dart': 'pub',
    'rust': 'cargo',
    'java': 'maven',
    'nodejs': 'npm',
    'python': 'pypi',
    'pip': 'pypi',
    'ruby': 'gem',
    'php': 'composer',
    'dotnet': 'nuget',
    'minimos': 'apk',
    'bellsoft hardened containers': 'apk',
    'redhat': 'rpm',
    'alma': 'rpm',
    'rocky': 'rpm',
    'cbl-mariner': 'rpm',
    'mariner': 'rpm',
    'amazon linux': 'rpm',
    'amazon': 'rpm',
    'oracle linux': 'rpm',
    'oracle': 'rpm',
    'photon': 'rpm',
    'suse linux enterprise': 'rpm',
    'centos': 'rpm',
    'fedora': 'rpm',
    // pacman's vercmp is rpm's rpmvercmp: epoch, version, release (pacman compares the release only
    // when both versions have one; rpm's ordering differs only there and in `^`, which pacman lacks).
    'alpm': 'rpm',
    // opam orders versions with Debian's algorithm (OpamVersionCompare is dpkg's verrevcmp, `~`
    // first), over the whole version: the deb scheme's epoch and revision split changes nothing
    // for versions without `:` and compares `4.12-501` as opam does.
    'opam': 'deb',
    'arch linux': 'rpm',
  } satisfies Record<string, SchemeId>),
]);

export function schemeForEcosystem(eco: string): VersionScheme {
  const name = eco.trim().toLowerCase();
  // `Debian:12`, `Alpine:v3.19`, `Ubuntu:Pro:22.04:LTS`: the release does not change the scheme.
  const base = name.split(':')[0]!;
  const id = ECOSYSTEMS.get(name) ?? ECOSYSTEMS.get(base) ?? (Object.hasOwn(SCHEMES, base) ? (base as SchemeId) : distro(base));
  return SCHEMES[id];
}

/** Trivy-style names put the release after a space (`alpine 3.19`, `openSUSE Leap 15.5`). */
function distro(name: string): SchemeId {
  const words = name.split(/\s+/);
  for (let n = words.length - 1; n > 0; n--) {
    const id = ECOSYSTEMS.get(words.slice(0, n).join(' '));
    if (id) return id;
  }
  return 'semver';
}
