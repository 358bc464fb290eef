// The 语言/生态 column of a component list: what users write (Chinese or English, language or
// package manager) -> purl type, with the distribution as namespace for OS packages.
import type { Ecosystem } from '../../model.ts';

export interface EcosystemEntry {
  type: Ecosystem;
  /** purl namespace implied by the value (OS distributions: `debian`, `alpine`, ...). */
  namespace?: string;
  /** How the 说明 sheet lists it. */
  label: string;
  /** Accepted spellings, compared after `ecosystemKey`. */
  aliases: string[];
}

export const ECOSYSTEMS: readonly EcosystemEntry[] = [
  { type: 'maven', label: 'Java / Maven（Kotlin、Scala、Groovy、Gradle、Android）', aliases: ['java', 'maven', 'jvm', 'kotlin', 'scala', 'groovy', 'gradle', 'sbt', 'clojure', 'android', 'jar', 'mvn'] },
  { type: 'npm', label: 'JavaScript / TypeScript / Node.js / npm', aliases: ['javascript', 'js', 'typescript', 'ts', 'node', 'nodejs', 'node.js', 'npm', 'yarn', 'pnpm', 'ecmascript'] },
  { type: 'pypi', label: 'Python / PyPI / pip', aliases: ['python', 'python2', 'python3', 'py', 'pypi', 'pip'] },
  { type: 'golang', label: 'Go / Golang', aliases: ['go', 'golang', 'gomod', 'gomodule', 'gomodules'] },
  { type: 'cargo', label: 'Rust / Cargo', aliases: ['rust', 'cargo', 'crates', 'crates.io', 'crate'] },
  { type: 'gem', label: 'Ruby / RubyGems', aliases: ['ruby', 'gem', 'gems', 'rubygems', 'bundler'] },
  { type: 'composer', label: 'PHP / Composer', aliases: ['php', 'composer', 'packagist'] },
  { type: 'nuget', label: '.NET / C# / NuGet', aliases: ['.net', 'dotnet', 'net', 'c#', 'csharp', 'f#', 'fsharp', 'vb.net', 'vb', 'nuget', '.netcore', '.netframework', 'asp.net'] },
  { type: 'conan', label: 'C / C++ / Conan', aliases: ['c', 'c++', 'cpp', 'c/c++', 'c、c++', 'cxx', 'cc', 'conan'] },
  { type: 'swift', label: 'Swift / SwiftPM', aliases: ['swift', 'swiftpm', 'spm'] },
  { type: 'cocoapods', label: 'Objective-C / CocoaPods', aliases: ['objective-c', 'objectivec', 'objc', 'cocoapods', 'pod', 'pods'] },
  { type: 'pub', label: 'Dart / Flutter / pub', aliases: ['dart', 'flutter', 'pub'] },
  { type: 'hex', label: 'Elixir / Erlang / Hex', aliases: ['elixir', 'erlang', 'hex'] },
  { type: 'conda', label: 'Conda', aliases: ['conda', 'anaconda'] },
  { type: 'julia', label: 'Julia', aliases: ['julia'] },
  { type: 'hackage', label: 'Haskell / Hackage', aliases: ['haskell', 'hackage', 'cabal', 'stack', 'ghc'] },
  { type: 'cran', label: 'R / CRAN', aliases: ['r', 'cran', 'renv', 'bioconductor'] },
  { type: 'cpan', label: 'Perl / CPAN', aliases: ['perl', 'perl5', 'cpan', 'carton'] },
  { type: 'terraform', label: 'Terraform / OpenTofu', aliases: ['terraform', 'opentofu', 'tofu', 'hcl'] },
  { type: 'githubactions', label: 'GitHub Actions', aliases: ['githubactions', 'githubaction', 'actions', 'gha'] },
  { type: 'luarocks', label: 'Lua / LuaRocks', aliases: ['lua', 'luarocks', 'rockspec'] },
  { type: 'opam', label: 'OCaml / opam', aliases: ['ocaml', 'opam'] },
  { type: 'nix', label: 'Nix', aliases: ['nix', 'nixpkgs', 'nixos'] },
  { type: 'brew', label: 'Homebrew', aliases: ['brew', 'homebrew'] },
  { type: 'pear', label: 'PHP / PEAR', aliases: ['pear'] },
  { type: 'pecl', label: 'PHP / PECL', aliases: ['pecl'] },
  { type: 'wordpress', namespace: 'plugin', label: 'WordPress 插件', aliases: ['wordpress', 'wp', 'wordpressplugin', 'wordpress插件'] },
  { type: 'bazel', label: 'Bazel 模块', aliases: ['bazel', 'bzlmod', 'bcr'] },
  { type: 'deb', namespace: 'debian', label: 'Debian（deb）', aliases: ['deb', 'debian', 'dpkg', 'apt'] },
  { type: 'deb', namespace: 'ubuntu', label: 'Ubuntu', aliases: ['ubuntu'] },
  { type: 'deb', namespace: 'uos', label: '统信 UOS', aliases: ['uos', '统信', '统信uos'] },
  { type: 'deb', namespace: 'deepin', label: 'Deepin（深度）', aliases: ['deepin', '深度'] },
  { type: 'apk', namespace: 'alpine', label: 'Alpine（apk）', aliases: ['apk', 'alpine'] },
  { type: 'rpm', label: 'RPM', aliases: ['rpm', 'yum', 'dnf'] },
  { type: 'rpm', namespace: 'centos', label: 'CentOS', aliases: ['centos'] },
  { type: 'rpm', namespace: 'redhat', label: 'Red Hat / RHEL', aliases: ['redhat', 'rhel'] },
  { type: 'rpm', namespace: 'fedora', label: 'Fedora', aliases: ['fedora'] },
  { type: 'rpm', namespace: 'openeuler', label: 'openEuler（欧拉）', aliases: ['openeuler', '欧拉'] },
  { type: 'rpm', namespace: 'anolis', label: 'Anolis OS（龙蜥）', aliases: ['anolis', 'anolisos', '龙蜥'] },
  { type: 'generic', label: '其他（通用，建议同时填写 purl）', aliases: ['generic', 'other', 'others', '其他', '其它', '通用'] },
];

/** Short names offered by the template's drop-down list (the importer accepts every alias). */
export const TEMPLATE_CHOICES: readonly string[] = [
  'Java', 'JavaScript', 'TypeScript', 'Python', 'Go', 'Rust', 'Ruby', 'PHP', '.NET', 'C/C++', 'Swift',
  'Objective-C', 'Dart', 'Elixir', 'Erlang', 'Kotlin', 'Scala', 'Conda', 'Julia', 'Debian', 'Ubuntu',
  'Alpine', 'RPM', '其他',
];

/** Full/half-width folded, lower case, no spaces, a trailing 语言 (C语言 -> c) dropped. */
function ecosystemKey(value: string): string {
  return value.normalize('NFKC').toLowerCase().replace(/\s+/g, '').replace(/(编程)?语言$/, '');
}

const byAlias = new Map<string, EcosystemEntry>();
for (const entry of ECOSYSTEMS) for (const alias of entry.aliases) byAlias.set(alias, entry);
// Every purl type we produce is accepted under its own name.
for (const entry of ECOSYSTEMS) if (!byAlias.has(entry.type)) byAlias.set(entry.type, entry);

/**
 * The ecosystem a cell names, or undefined. Combined values (`Java/Maven`, `Maven（Java）`,
 * `Python、pip`) are accepted when every part names the same purl type.
 */
export function lookupEcosystem(value: string): EcosystemEntry | undefined {
  const key = ecosystemKey(value);
  if (!key) return undefined;
  const direct = byAlias.get(key);
  if (direct) return direct;
  const parts = key.split(/[/|,;、()（）\-+]+/).map((p) => p.replace(/(编程)?语言$/, '')).filter(Boolean);
  const found = parts.map((p) => byAlias.get(p));
  if (found.length === 0 || found.some((f) => !f)) return undefined;
  const first = found[0]!;
  return found.every((f) => f!.type === first.type) ? (found.find((f) => f!.namespace) ?? first) : undefined;
}

/** Purl types the engine models; other valid purl types are kept as written under `generic`. */
export const KNOWN_TYPES: ReadonlySet<string> = new Set<Ecosystem>([
  'npm', 'maven', 'pypi', 'golang', 'cargo', 'gem', 'composer', 'nuget', 'cocoapods', 'swift', 'pub', 'hex',
  'conan', 'conda', 'julia', 'terraform', 'githubactions', 'hackage', 'cran', 'cpan', 'luarocks', 'opam', 'nix', 'brew', 'pear', 'pecl', 'wordpress', 'bazel', 'deb', 'apk', 'rpm', 'alpm', 'generic',
]);
