// The engine's public face: the only module of server/engine/ that code outside the engine may
// import (the platform's jobs, knowledge base, licences and routes, the CLI, benchmarks and tests
// other than the engine's own unit tests; eslint.config.js refuses the rest).
//
// Loading stays proportional to use. Exported directly are only the error classes and the
// knowledge helpers the platform calls synchronously (advisories, severity, version schemes,
// vulnerability matching, licence expressions, knowledge and compatibility). Everything else is
// loaded on first use: async entries (analyseProject, scanTree, walkTree, unpackArchive, …) import
// their module when called, and the synchronous APIs of the other modules (extractors, SBOM and
// Excel importers, output formats, licence recognition, copyright detection) come from `load…()`
// functions. So `cairn compare-versions` loads no extractor and `cairn scan` no exceljs.

// ---- Analysing a project (the platform's analysis job) ----------------------------------------

export type {
  KnowledgeSource, ProjectAnalysis, ProjectAnalysisOptions, ProjectAnalysisRequest, ProjectProgress, ProjectStage,
} from './analyse-project.ts';
export type { AnalyseProgress, AnalyseRequest, AnalyseResult, AnalyseStage, FileEntry, InputKind } from './analyse.ts';
export type { AnalyseThreadOptions } from './analyse-thread.ts';
export type {
  AnalysedComponent, AnalysisKnowledge, Analyzer, AnalyzerOptions, ComponentAnalyzer, ComponentVerdict, FileAnalyzer, FileFindings, KnowledgeRequest, TextFile,
} from './analyzers/model.ts';

/**
 * Analyses a project's input: extraction and the file analyzers its modes select in a worker
 * thread, then the component analyzers (vulnerabilities, licence levels) against the knowledge
 * `knowledge` supplies once the inventory is known.
 */
export async function analyseProject(...args: Parameters<typeof import('./analyse-project.ts').analyseProject>) {
  return (await import('./analyse-project.ts')).analyseProject(...args);
}

/** Extraction and the file analyzers of one input in a worker thread with a heap cap (no knowledge needed). */
export async function analyseInWorker(...args: Parameters<typeof import('./analyse-thread.ts').analyseInWorker>) {
  return (await import('./analyse-thread.ts')).analyseInWorker(...args);
}

// ---- Scanning a tree (the CLI, benchmarks) ----------------------------------------------------

export type {
  Component, Ecosystem, Evidence, ExtractContext, Extractor, InputFile, Location, ScanProblem, ScanResult, Scope, Target,
} from './model.ts';
export { CONFIDENCE, ExtractError, identityTechnique } from './model.ts';
// Sensitive-information rules: the built-in ones (listed beside the administrators') and the check of a new one.
export { BUILTIN_LEAK_RULES, leakPatternProblem } from './detectors/leaks/rules.ts';
// The extractor families an analysis runs (binary extractors with mode 8 on source inputs).
export { skippedExtractorFamilies } from './extractors/selection.ts';
export type { ScanOptions } from './scan.ts';
export type { WalkedFile } from './sources/tree.ts';
export type { WorkerScanOptions } from './worker.ts';

/** Offers every file under `root` to the given extractors; collects targets and problems. */
export async function scanTree(...args: Parameters<typeof import('./scan.ts').scanTree>) {
  return (await import('./scan.ts')).scanTree(...args);
}

/** Every regular file under `root` (root-relative, `/`-separated), without following links. */
export async function* walkTree(...args: Parameters<typeof import('./sources/tree.ts').walkTree>) {
  yield* (await import('./sources/tree.ts')).walkTree(...args);
}

/** scanTree in a worker thread: same result, without blocking the caller. */
export async function scanInWorker(...args: Parameters<typeof import('./worker.ts').scanInWorker>) {
  return (await import('./worker.ts')).scanInWorker(...args);
}

/** Every extractor (`allExtractors`, what a scan offers files to) and each ecosystem's own list (`families`). */
export async function loadExtractors() {
  const { allExtractors, extractorFamilies } = await import('./extractors/index.ts');
  return { allExtractors, families: extractorFamilies };
}

// ---- Online resolution (off by default) -------------------------------------------------------

export type { OnlineResolution, Repository, ResolutionSummary, ResolveLimits } from './resolve/index.ts';

/** Resolves a scan's unlocked manifests (pom.xml, package.json without a lockfile, requirements) through repositories, in place. */
export async function resolveOnline(...args: Parameters<typeof import('./resolve/index.ts').resolveOnline>) {
  return (await import('./resolve/index.ts')).resolveOnline(...args);
}

// ---- Unpacking inputs -------------------------------------------------------------------------

export { UnpackError, type UnpackErrorCode } from './sources/archive/errors.ts';
export type { Input, OpenInputOptions, UnpackLimits, UnpackOptions, UnpackResult } from './sources/unpack.ts';

/** Unpacks an archive into `dest` with size, count, ratio and path limits (UnpackError when refused). */
export async function unpackArchive(...args: Parameters<typeof import('./sources/unpack.ts').unpackArchive>) {
  return (await import('./sources/unpack.ts')).unpackArchive(...args);
}

/**
 * Reads an uploaded archive through with the analysis's readers and limits, in a worker thread with
 * a heap cap, into a temporary folder removed afterwards (the platform's check before a launch):
 * null for a file that is not an archive; a UserError with the engine's Chinese message when it
 * cannot be analysed (unsupported, damaged, over a limit, empty).
 */
export async function verifyArchiveInWorker(...args: Parameters<typeof import('./verify-thread.ts').verifyInWorker>) {
  return (await import('./verify-thread.ts')).verifyInWorker(...args);
}

/** A folder as it is, or an archive unpacked into a temporary folder that `cleanup()` removes. */
export async function openInput(...args: Parameters<typeof import('./sources/unpack.ts').openInput>) {
  return (await import('./sources/unpack.ts')).openInput(...args);
}

// ---- Container images (docker save tars, OCI layouts) --------------------------------------------

export { ImageError, type ImageErrorCode } from './sources/image/errors.ts';
export type { ImageInfo, ImageLayer, SquashedImage, UnpackImageOptions } from './sources/image/index.ts';

/** `docker-archive`, `oci-layout` or null: what an input is, by content (a file, a gzip-compressed tar or a folder). */
export async function detectImage(...args: Parameters<typeof import('./sources/image/index.ts').detectImage>) {
  return (await import('./sources/image/index.ts')).detectImage(...args);
}

/** The platforms an image offers (`linux/amd64`, `linux/arm/v7`). */
export async function imagePlatforms(...args: Parameters<typeof import('./sources/image/index.ts').imagePlatforms>) {
  return (await import('./sources/image/index.ts')).imagePlatforms(...args);
}

/** The platform an unpack for `wanted` analyses of those an image offers (ImageError naming them when none fits). */
export async function choosePlatform(...args: Parameters<typeof import('./sources/image/index.ts').choosePlatform>) {
  return (await import('./sources/image/index.ts')).choosePlatform(...args);
}

/** Applies an image's layers into one folder, with the layer of each file and the kept versions of chosen paths (ImageError when refused). */
export async function unpackImage(...args: Parameters<typeof import('./sources/image/index.ts').unpackImage>) {
  return (await import('./sources/image/index.ts')).unpackImage(...args);
}

/** A path of an unpacked image resolved as the container sees it (links inside the root); null when nothing is there. */
export async function resolveInImage(...args: Parameters<typeof import('./sources/image/index.ts').resolveInImage>) {
  return (await import('./sources/image/index.ts')).resolveInImage(...args);
}

export type { ImageInput, ScannedImage } from './image-analysis.ts';

/** Scans an image archive or OCI layout folder offline (the CLI): the scan, each component's layer, the image's record. */
export async function scanImage(...args: Parameters<typeof import('./image-analysis.ts').scanImage>) {
  return (await import('./image-analysis.ts')).scanImage(...args);
}

// ---- Container images from registries ----------------------------------------------------------

export { RegistryError, type RegistryErrorCode } from './sources/image/registry/errors.ts';
export { formatImageReference, parseImageReference, type ImageReference } from './sources/image/registry/reference.ts';
export type { PullOptions, PullProgress, PulledImage, RegistryAuth } from './sources/image/registry/index.ts';

/** Pulls an image (OCI distribution API v2) into an OCI image layout folder, verified, all or nothing (RegistryError when refused). */
export async function pullImage(...args: Parameters<typeof import('./sources/image/registry/index.ts').pullImage>) {
  return (await import('./sources/image/registry/index.ts')).pullImage(...args);
}

/** Resolves a reference's manifest with the given credentials (a form's 校验): its digest and platforms. */
export async function checkRegistryAccess(...args: Parameters<typeof import('./sources/image/registry/index.ts').checkRegistryAccess>) {
  return (await import('./sources/image/registry/index.ts')).checkRegistryAccess(...args);
}

// ---- Feature files: what an analysis reads, and the hashes of the rest (feature/README.md) -----

export type { FeatureFileEntry, FeatureImage, FeatureKind, FeatureManifest, FeatureTree, ReadFeatureOptions, WriteFeatureOptions, WriteFeatureResult, WriteImageFeatureOptions } from './feature/index.ts';

/** Writes the feature file of a folder: its manifests, lockfiles, databases and notices, and a SHA-256 of every other file. */
export async function writeFeatureFile(...args: Parameters<typeof import('./feature/write.ts').writeFeatureFile>) {
  return (await import('./feature/write.ts')).writeFeatureFile(...args);
}

/** Writes the feature file of a container image (docker save tar, OCI layout folder or tar): its squashed root as a folder's, each file's layer, the image record. */
export async function writeImageFeatureFile(...args: Parameters<typeof import('./feature/image.ts').writeImageFeatureFile>) {
  return (await import('./feature/image.ts')).writeImageFeatureFile(...args);
}

/** Scans an image feature file read by readFeatureFile as scanImage scans the image (the CLI). */
export async function scanImageFeature(...args: Parameters<typeof import('./feature/image.ts').scanImageFeature>) {
  return (await import('./feature/image.ts')).scanImageFeature(...args);
}

/** Unpacks and checks an uploaded feature file into a folder to scan (UnpackError when refused). */
export async function readFeatureFile(...args: Parameters<typeof import('./feature/read.ts').readFeatureFile>) {
  return (await import('./feature/read.ts')).readFeatureFile(...args);
}

/** Whether a file is a zip with a feature manifest (read from its central directory only). */
export async function isFeatureFile(...args: Parameters<typeof import('./feature/read.ts').isFeatureFile>) {
  return (await import('./feature/read.ts')).isFeatureFile(...args);
}

// ---- SBOM and Excel component lists -----------------------------------------------------------

/** The SBOM importer (CycloneDX, SPDX, in-toto): importSbom, validateCycloneDx, decodeText, normalizePurl, sbomExtractor, … */
export const loadSbom = () => import('./extractors/sbom/index.ts');

/** What an SBOM file on disk is (`CycloneDX JSON 格式的 SBOM`, `CycloneDX protobuf 二进制格式`), or null: for refusals naming it. */
export async function describeSbomAt(...args: Parameters<typeof import('./extractors/sbom/index.ts').describeSbomAt>) {
  return (await import('./extractors/sbom/index.ts')).describeSbomAt(...args);
}

export { sbomNotArchiveMessage } from './extractors/sbom/serialisations.ts';

/** Excel / CSV component lists (exceljs): importComponentList, buildTemplate, TEMPLATE_FILE_NAME, TEMPLATE_HEADERS, … */
export const loadComponentLists = () => import('./extractors/excel/index.ts');

/** The SHA-1 index of Java archives a user imports (cairn scan --jar-index), loaded when used. */
export const loadJarIndexes = () => import('./extractors/maven/jar-index.ts');
export { JAR_INDEX_FILE } from './extractors/maven/jar-index.ts';

// ---- Output formats ---------------------------------------------------------------------------

export type { InventoryEntry } from './output/inventory.ts';
export type { OutputFormat, ToolInfo } from './output/formats.ts';

/** The CLI's output formats: OUTPUT_FORMATS and toJson, toCycloneDx, toSpdx of a scan result. */
export const loadOutputFormats = () => import('./output/formats.ts');

// ---- Vulnerabilities: advisories, severity, version schemes, matching -------------------------

export { normalizePackageName, type Advisory, type AffectedPackage, type ExploitDifficulty, type Level } from './matchers/advisory.ts';
export { assessSeverity, cnnvdSeveritySource, severityDatabase, severitySourceLabel, storedSeveritySource, type CvssInput, type SeverityAssessment } from './matchers/severity.ts';
export { distributionKey } from './matchers/distribution.ts';
export { schemeForEcosystem, SCHEME_IDS } from './matchers/versions/index.ts';
export type { OsvRange } from './matchers/versions/ranges.ts';
export type { VersionScheme } from './matchers/versions/scheme.ts';
export {
  buildAdvisoryIndex, matchComponents, matchPackage, recommendVersion, withDistribution,
  type AdvisoryIndex, type ComponentFindings, type Finding, type PackageRef, type RiskLevel,
} from './matchers/vulnerabilities.ts';

// ---- Licences: expressions, knowledge, compatibility, recognition -----------------------------

export { expressionIds, expressionLevel, normalizeDeclared } from './matchers/licenses/expression.ts';
export {
  exceptionIdList, LEVEL_UNKNOWN, licenseAttributes, licenseIds, licenseInfo, licenseLevel, licenseText,
  type LicenseAttributes, type LicenseInfo, type LicenseLevel,
} from './matchers/licenses/knowledge.ts';
export { checkCompatibility, type CompatibilityResult } from './matchers/licenses/conflicts.ts';
export { OSADL_MATRIX_DATE } from './matchers/licenses/osadl.ts';
export { familyOf, type Family } from './matchers/licenses/families.ts';
export { EXCLUDED_SCOPES, isProjectScope, licenseScopeOf, type LicenseScope } from './analyzers/license-scope.ts';
export type { ProjectLicense } from './project-license.ts';
export type { LicenseMatch, LicenseRecognizer } from './matchers/licenses/recognize.ts';
export type { CopyrightDetection, Found } from './detectors/copyright/index.ts';
/** One key for differently spelt holders ("Foo, Inc." = "FOO INC", "Koskimäki" = "Koskimaki"); Latin letters folded to ASCII. */
export { normaliseHolder } from './detectors/copyright/dedupe.ts';
export { foldLatin } from './detectors/copyright/prepare.ts';
export { binaryStrings, decodeText, readableText, type DecodedText, type TextEncoding } from './text-decode.ts';

/** Licence text recognition (analysis mode 4): createLicenseRecognizer builds its index on first use. */
export async function loadLicenseRecognition() {
  const { createLicenseRecognizer } = await import('./matchers/licenses/recognize.ts');
  return { createLicenseRecognizer };
}

/** Copyright, holder and author detection (analysis mode 7). */
export async function loadCopyrightDetection() {
  const { detectCopyrights } = await import('./detectors/copyright/index.ts');
  return { detectCopyrights };
}
