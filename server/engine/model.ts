// What the engine finds: components identified by purl, with scope, locations, declared
// licences and dependency edges (design.md §5). Plain data: it crosses worker threads and the
// CLI's JSON output unchanged.
import { UserError } from '../errors.ts';

/** purl types we produce (https://github.com/package-url/purl-spec). */
export type Ecosystem =
  | 'npm' | 'maven' | 'pypi' | 'golang' | 'cargo' | 'gem' | 'composer' | 'nuget' | 'cocoapods'
  | 'swift' | 'pub' | 'hex' | 'conan' | 'conda' | 'julia' | 'terraform' | 'githubactions' | 'hackage' | 'cran' | 'cpan'
  | 'luarocks' | 'opam' | 'nix' | 'brew' | 'pear' | 'pecl' | 'wordpress' | 'bazel'
  | 'deb' | 'apk' | 'rpm' | 'alpm' | 'generic';

/** runtime: shipped with the product; development: build, test and tooling only. */
export type Scope = 'runtime' | 'development';

export interface Location {
  /** Path relative to the scan root, `/`-separated. */
  file: string;
  startLine?: number;
  endLine?: number;
}

export interface Component {
  /** Canonical purl, built with `purlOf` so the same package always has the same string. */
  purl: string;
  ecosystem: Ecosystem;
  /** The name as its ecosystem writes it: `@babel/core`, `org.slf4j:slf4j-api`, `github.com/x/y`. */
  name: string;
  /** Exact version; '' when the input does not pin one. */
  version: string;
  /**
   * The version range the manifest declares when it pins no exact version (`>=2.0,<3`, `^1.2`,
   * `[1.0,2.0)`), as written; absent when the version is exact or nothing was declared.
   */
  constraint?: string;
  /** Declared by the project itself rather than pulled in by another component. */
  direct: boolean;
  scope: Scope;
  locations: Location[];
  /** Declared licences as written by the package (SPDX ids or expressions where possible). */
  licenses: string[];
  /** purls of the components this one depends on (edges parent -> child). */
  dependsOn: string[];
  /** Who maintains the package, as an OS package database names them (`Name <mail>`): dpkg Maintainer, apk m:. */
  maintainer?: string;
  /**
   * How a component found in a built artefact (an archive, an executable, a package file) was
   * identified: which file, which rule, which bytes. Absent for manifests and lockfiles, whose
   * location says it all.
   */
  evidence?: Evidence[];
  /**
   * How sure the identification is, 0–1 (see CONFIDENCE): 1 for metadata the build tool wrote,
   * less for a file name or a version string. Absent means certain (a lockfile entry).
   */
  confidence?: number;
}

/** One observation that identified a component in a binary artefact. */
export interface Evidence {
  /** The file, relative to the scan root; inside archives `app.war!/WEB-INF/lib/x.jar!/META-INF/...`. */
  file: string;
  /** The rule that matched, as a user reads it: `pom.properties`, `MANIFEST.MF`, `文件名`, `SHA-1 索引`, `Go 构建信息`, `版本字符串 OpenSSL`. */
  rule: string;
  /** The bytes that matched, as text (printable, at most 200 characters). */
  text?: string;
  /** Byte offset of `text` in `file`, when the rule read it at a position. */
  offset?: number;
}

/**
 * The confidence each kind of identification carries, one scale for every binary extractor:
 * metadata a build or package tool wrote (pom.properties, Go build info, cargo-auditable, a package
 * file's control data, a wheel's METADATA) is exact; a hash found in an imported index nearly so;
 * a manifest's Implementation-* attributes or a .NET version resource are what the author
 * declared; an embedded version string is the library speaking for itself but may be a copy; a
 * file name is a guess.
 */
export const CONFIDENCE = {
  METADATA: 1,
  HASH: 0.95,
  MANIFEST: 0.8,
  VERSION_STRING: 0.7,
  FILE_NAME: 0.5,
} as const;

/** The CycloneDX 1.6 identity technique (evidence.identity.methods) a confidence of that scale stands for. */
export function identityTechnique(confidence: number): string {
  if (confidence <= CONFIDENCE.FILE_NAME) return 'filename';
  if (confidence === CONFIDENCE.VERSION_STRING) return 'binary-analysis';
  if (confidence === CONFIDENCE.HASH) return 'hash-comparison';
  return 'manifest-analysis';
}

/** One manifest, lockfile or SBOM that yielded components. */
export interface Target {
  /** Path of the file relative to the scan root. */
  file: string;
  /** Which extractor read it, e.g. `npm`, `pom`, `cyclonedx`. */
  type: string;
  ecosystem: Ecosystem;
  /** The project the file describes (e.g. `app@0.1.0` of a Cargo.lock), when it names one. */
  project: { purl: string; name: string; version: string } | null;
  /** purls the project itself depends on directly (roots of the dependency tree). */
  roots: string[];
  components: Component[];
  /**
   * Parts of the file that could not be read while the rest was (a malformed record of an OS
   * package database), in Chinese: the scan moves them into its problems.
   */
  problems?: string[];
}

export interface ScanProblem {
  file: string;
  /** Chinese message for the user. */
  message: string;
}

export interface ScanResult {
  root: string;
  targets: Target[];
  problems: ScanProblem[];
  stats: { files: number; bytes: number; ms: number };
}

/** A file offered to extractors: lazily read, path relative to the scan root. */
export interface InputFile {
  path: string;
  size: number;
  read(): Promise<Buffer>;
  text(): Promise<string>;
  /**
   * Reads up to `length` bytes at `position` (fewer at the end of the file) without reading the
   * rest: what an extractor of large binaries (executables, jars) uses. Absent for inputs that can
   * only be read whole; such extractors then fall back on read().
   */
  readAt?(position: number, length: number): Promise<Buffer>;
}

/** What an extractor may do besides reading its own file: read siblings inside the scan root. */
export interface ExtractContext {
  /** Reads a file by root-relative path; undefined when absent. Never leaves the scan root. */
  readText(path: string): Promise<string | undefined>;
  /** Lists root-relative paths under a root-relative folder (one level, names only). */
  list(dir: string): Promise<string[]>;
  /** Whether a root-relative path exists in the scanned tree. */
  exists(path: string): Promise<boolean>;
  signal: AbortSignal;
}

export interface Extractor {
  /** Short name, also the Target type: `npm`, `yarn`, `pom`, ... */
  name: string;
  ecosystem: Ecosystem;
  /**
   * The files it reads, as a user would name them (`package-lock.json`, `*.csproj`): what an
   * analysis that found nothing to read lists (each concrete name satisfies `matches`).
   */
  reads: readonly string[];
  /** Whether a root-relative path is one of this extractor's inputs (by name, cheap). */
  matches(path: string): boolean;
  /** Reads one input. Throws ExtractError with a Chinese message for a malformed file. */
  extract(file: InputFile, ctx: ExtractContext): Promise<Target[]>;
}

/**
 * A malformed or unreadable input, in a Chinese message for the user: a scan reports it and
 * carries on with the rest; an SBOM or Excel list that is the whole input fails its analysis.
 */
export class ExtractError extends UserError {
  override name = 'ExtractError';

  constructor(message: string, options?: ErrorOptions) {
    super(message, 'invalid', options);
  }
}
