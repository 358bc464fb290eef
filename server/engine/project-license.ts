// The analysed project's own (outbound) licence, as its manifests declare it. The project form
// promises it: 出站许可证, "留空则从项目清单文件中读取". The platform's precedence is the user's
// choice (the project's setting) > what this module reads > none (jobs/execute-run.ts).
//
// Which manifests: those of the ROOT project only — the top of the analysed tree, or the single
// folder an archive wraps everything in (`myapp-1.2/`). A manifest deeper down describes a
// sub-module, a vendored library or a test fixture, never the product as a whole. At the root,
// in this order (the first that declares a licence wins; the order puts the manifests that state
// an SPDX expression first):
//   package.json `license` (npm; `UNLICENSED` is the closed-source marker), legacy `licenses`
//   Cargo.toml `[package] license`
//   pyproject.toml `[project] license` (PEP 639 expression, or the older `{ text = … }`), else
//     `[tool.poetry] license`, else the `License ::` classifiers
//   setup.cfg `[metadata] license`, else its `License ::` classifiers
//   composer.json `license` (a string, or a list: the package is offered under any of them → OR)
//   *.gemspec `license` / `licenses` (a list → OR, RubyGems' reading)
//   *.csproj / *.fsproj / *.vbproj `<PackageLicenseExpression>`, *.nuspec `<license type="expression">`
//   pom.xml `<licenses><license><name>` (several → OR; Maven's reading: "the project may be used
//     under any of them")
// Each declaration goes through the same normalisation as a user's entry (normalizeDeclared), so
// "Apache License, Version 2.0" becomes Apache-2.0. Declarations that name no licence ("SEE
// LICENSE IN …", a licence file reference) are skipped. Without a manifest declaration, the full
// licence texts in the root's LICENSE / LICENCE / COPYING / UNLICENSE files are read instead
// (the caller passes what the licence analysis found there).
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { childEl, childEls, childText, decodeXmlBytes, parseXml } from './extractors/common/xml.ts';
import { licensesOf } from './extractors/python/installed.ts';
import { parseGemspec } from './extractors/ruby/gemspec.ts';
import { normalizeDeclared } from './matchers/licenses/expression.ts';

/** Where the project's licence was read from. */
export interface ProjectLicense {
  /** Normalised SPDX expression. */
  expression: string;
  /** manifest: a manifest's licence field; license-file: the full licence text of a root licence file. */
  source: 'manifest' | 'license-file';
  /** Root-relative path of the file it was read from. */
  file: string;
}

type Reader = (text: string) => string | null;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);

/** Joins normalised alternatives with OR (parenthesising compound ones); null when none is a licence. */
function anyOf(values: Array<string | null>): string | null {
  const ids = [...new Set(values.map((v) => (v ? normalizeLicence(v) : null)).filter((v): v is string => v !== null))];
  if (!ids.length) return null;
  return ids.length === 1 ? ids[0]! : ids.map((id) => (/ (AND|OR) /.test(id) ? `(${id})` : id)).join(' OR ');
}

/** A declaration → SPDX expression; the closed-source markers are kept as such (conflicts read them). */
function normalizeLicence(text: string): string | null {
  const t = text.trim();
  if (/^unlicensed$/i.test(t)) return 'UNLICENSED';
  if (/^(proprietary|commercial|closed[- ]source|other\/proprietary license)$/i.test(t)) return 'LicenseRef-proprietary';
  return normalizeDeclared(t);
}

/** package.json: `license` (string or the old `{ type }`), else the legacy `licenses` list. */
export const readPackageJson: Reader = (text) => {
  const json = JSON.parse(text) as unknown;
  if (!isObject(json)) return null;
  const { license, licenses } = json;
  if (str(license)) return normalizeLicence(str(license)!);
  if (isObject(license)) return anyOf([str(license.type)]);
  if (Array.isArray(licenses)) return anyOf(licenses.map((l) => (isObject(l) ? str(l.type) : str(l))));
  return null;
};

/** composer.json: `license`, a string or a list of alternatives. */
export const readComposerJson: Reader = (text) => {
  const json = JSON.parse(text) as unknown;
  if (!isObject(json)) return null;
  const { license } = json;
  if (Array.isArray(license)) return anyOf(license.map(str));
  return str(license) ? normalizeLicence(str(license)!) : null;
};

/** Cargo.toml: `[package] license` (an SPDX expression; `license-file` names no licence). */
export const readCargoToml: Reader = (text) => {
  const toml = parseToml(text) as Record<string, unknown>;
  const pkg = toml.package;
  if (!isObject(pkg)) return null;
  return str(pkg.license) ? normalizeLicence(str(pkg.license)!) : null;
};

/** `License ::` trove classifiers → alternatives (a package listing two is offered under either). */
function fromClassifiers(classifiers: unknown): string | null {
  if (!Array.isArray(classifiers)) return null;
  const list = classifiers.filter((c): c is string => typeof c === 'string' && /^\s*License\s*::/.test(c));
  if (!list.length) return null;
  return anyOf(licensesOf(new Map([['classifier', list]])));
}

/** pyproject.toml: `[project] license` (string or `{ text }`), `[tool.poetry] license`, classifiers. */
export const readPyprojectToml: Reader = (text) => {
  const toml = parseToml(text) as Record<string, unknown>;
  const project = isObject(toml.project) ? toml.project : {};
  const license = project.license;
  if (str(license)) return normalizeLicence(str(license)!);
  if (isObject(license) && str(license.text)) {
    const short = str(license.text)!;
    // `{ text = … }` sometimes holds a whole licence text; a name is what it should hold.
    if (short.length <= 100 && !short.includes('\n')) {
      const found = normalizeLicence(short);
      if (found) return found;
    }
  }
  const tool = isObject(toml.tool) ? toml.tool : {};
  const poetry = isObject(tool.poetry) ? tool.poetry : {};
  if (str(poetry.license)) return normalizeLicence(str(poetry.license)!);
  return fromClassifiers(project.classifiers) ?? fromClassifiers(poetry.classifiers);
};

/** setup.cfg: `[metadata] license` (or `license_expression`), else its classifiers. */
export const readSetupCfg: Reader = (text) => {
  const metadata: Record<string, string> = {};
  let section = '';
  let key = '';
  for (const raw of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    if (/^\s*[#;]/.test(raw)) continue;
    const head = /^\s*\[([^\]]+)\]\s*$/.exec(raw);
    if (head) { section = head[1]!.trim().toLowerCase(); key = ''; continue; }
    if (section !== 'metadata') continue;
    const pair = /^([A-Za-z0-9_.-]+)\s*[=:]\s*(.*)$/.exec(raw);
    if (pair) { key = pair[1]!.toLowerCase().replace(/-/g, '_'); metadata[key] = pair[2]!.trim(); continue; }
    if (key && /^\s+\S/.test(raw)) metadata[key] = `${metadata[key] ?? ''}\n${raw.trim()}`.replace(/^\n/, '');
  }
  const declared = metadata.license_expression || metadata.license;
  if (declared && !declared.includes('\n') && declared.length <= 100 && !/^file:/i.test(declared)) {
    const found = normalizeLicence(declared);
    if (found) return found;
  }
  return fromClassifiers((metadata.classifiers ?? '').split('\n').map((c) => c.trim()).filter(Boolean));
};

/** *.gemspec: `spec.license = …` / `spec.licenses = [ … ]` (a list: any of them). */
export const readGemspec: Reader = (text) => anyOf(parseGemspec(text).licenses);

/** *.csproj (and the other MSBuild projects): `<PackageLicenseExpression>`. */
export const readMsbuildProject: Reader = (text) => {
  const root = parseXml(text, 'project');
  for (const group of childEls(root, 'PropertyGroup')) {
    const expression = childText(group, 'PackageLicenseExpression');
    if (expression?.trim()) return normalizeLicence(expression);
  }
  return null;
};

/** *.nuspec: `<metadata><license type="expression">`. */
export const readNuspec: Reader = (text) => {
  const metadata = childEl(parseXml(text, 'nuspec'), 'metadata');
  const license = childEl(metadata, 'license');
  if (!license || (license.attrs.type ?? 'expression') !== 'expression') return null;
  const value = license.text.trim();
  return value ? normalizeLicence(value) : null;
};

/** pom.xml: `<licenses><license><name>` (several: any of them). */
export const readPomXml: Reader = (text) => {
  const root = parseXml(text, 'pom.xml');
  const names = childEls(childEl(root, 'licenses'), 'license').map((l) => childText(l, 'name')?.trim() || childText(l, 'url')?.trim() || null);
  return anyOf(names);
};

/** The manifests read, in precedence order: a name, or a pattern for the names that vary. */
export const MANIFEST_READERS: ReadonlyArray<{ match: (name: string) => boolean; read: Reader; label: string }> = [
  { label: 'package.json', match: (n) => n === 'package.json', read: readPackageJson },
  { label: 'Cargo.toml', match: (n) => n === 'Cargo.toml', read: readCargoToml },
  { label: 'pyproject.toml', match: (n) => n === 'pyproject.toml', read: readPyprojectToml },
  { label: 'setup.cfg', match: (n) => n === 'setup.cfg', read: readSetupCfg },
  { label: 'composer.json', match: (n) => n === 'composer.json', read: readComposerJson },
  { label: '*.gemspec', match: (n) => n.endsWith('.gemspec'), read: readGemspec },
  { label: '*.csproj', match: (n) => /\.(cs|fs|vb)proj$/i.test(n), read: readMsbuildProject },
  { label: '*.nuspec', match: (n) => /\.nuspec$/i.test(n), read: readNuspec },
  { label: 'pom.xml', match: (n) => n === 'pom.xml', read: readPomXml },
];

/** Root licence files whose full licence texts name the project's licence. */
export const LICENSE_FILE = /^(licen[cs]e|copying|unlicense)([-_.][a-z0-9]+)*(\.(txt|md|markdown|rst))?$/i;

/**
 * The project's root folder under `root`: the root itself, or the one folder it holds when it holds
 * nothing else (an archive wrapping the project in `name-version/`). Root-relative, '' for the root.
 */
export async function projectRootOf(root: string): Promise<string> {
  const entries = (await readdir(root, { withFileTypes: true })).filter((e) => !/^(\.|__MACOSX$)/.test(e.name));
  return entries.length === 1 && entries[0]!.isDirectory() ? entries[0]!.name : '';
}

/**
 * The licence the root project's manifests declare, or null. `licenceTexts` are the full licence
 * texts the licence analysis found, by root-relative file: the fallback for the root's licence files.
 */
export async function readProjectLicense(root: string, licenceTexts: ReadonlyMap<string, readonly string[]> = new Map()): Promise<ProjectLicense | null> {
  const base = await projectRootOf(root);
  const names = (await readdir(path.join(root, base), { withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name).sort();
  for (const reader of MANIFEST_READERS) {
    for (const name of names.filter(reader.match)) {
      const file = base ? `${base}/${name}` : name;
      let expression: string | null = null;
      try {
        const bytes = await readFile(path.join(root, file));
        expression = reader.read(/\.(xml|csproj|fsproj|vbproj|nuspec)$/i.test(name) ? decodeXmlBytes(bytes) : bytes.toString('utf8').replace(/^\uFEFF/, ''));
      } catch {
        // A manifest that does not parse declares nothing here; the extractors report it as a problem.
      }
      if (expression) return { expression, source: 'manifest', file };
    }
  }
  for (const name of names.filter((n) => LICENSE_FILE.test(n))) {
    const file = base ? `${base}/${name}` : name;
    const ids = licenceTexts.get(file);
    if (ids?.length) return { expression: [...new Set(ids)].sort().join(' AND '), source: 'license-file', file };
  }
  return null;
}
