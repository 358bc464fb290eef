// Homebrew: installed kegs and Brewfile locks as pkg:brew components (syft's purl type).
// - `Cellar/<formula>/<version>/INSTALL_RECEIPT.json`, the receipt `brew install` writes in each
//   keg: the formula (named by its Cellar folder, versioned by its keg folder without the `_N`
//   revision), installed on request (direct) or as a dependency, and its `runtime_dependencies`
//   (`full_name`, `version`) as edges. The formula file the keg keeps (`.brew/<formula>.rb`) gives
//   the licence (`license "MIT"`, `license any_of: [...]`).
// - a keg with only `.brew/<formula>.rb` (no receipt, as syft reads it): the formula and licence.
// - `Brewfile.lock.json` (`brew bundle`): the formulae (`entries.brew`) with the versions installed
//   when it was written, each direct. Casks, taps and App Store apps are no packages with versions
//   advisories name, and are passed over.
import type { Component, ExtractContext, Extractor, InputFile, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { purlOf } from '../../purl.ts';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const RECEIPT = /(?:^|\/)Cellar\/([^/]+)\/([^/]+)\/INSTALL_RECEIPT\.json$/;
const FORMULA_FILE = /(?:^|\/)Cellar\/([^/]+)\/([^/]+)\/\.brew\/([^/]+)\.rb$/;
const baseName = (p: string) => p.slice(p.lastIndexOf('/') + 1);

/** `homebrew/core/openssl@3` → `openssl@3`: a formula's name without its tap. */
const formulaName = (fullName: string): string => fullName.slice(fullName.lastIndexOf('/') + 1);
/** A keg's folder is the formula version and its revision (`3.1.0_1`); advisories name the version. */
const kegVersion = (folder: string): string => folder.replace(/_\d+$/, '');

export const brewPurl = (name: string, version: string): string => purlOf('brew', { name: formulaName(name), version });

/** The licences a formula file declares: `license "MIT"`, `license any_of: ["MIT", "Apache-2.0"]`, `license all_of: [...]`. */
export function formulaLicenses(source: string): string[] {
  const m = /^\s*license\s+(.+)$/m.exec(source);
  if (!m) return [];
  const value = m[1]!.trim();
  const single = /^"([^"]+)"/.exec(value) ?? /^:(\w+)/.exec(value);
  if (single) return single[1] === 'public_domain' ? ['LicenseRef-public-domain'] : [single[1]!];
  const list = /^(any_of|all_of|one_of):\s*\[(.*)\]/.exec(value);
  if (!list) return [];
  const ids = [...list[2]!.matchAll(/"([^"]+)"/g)].map((x) => x[1]!);
  if (ids.length <= 1) return ids;
  return [ids.join(list[1] === 'all_of' ? ' AND ' : ' OR ')];
}

function kegComponent(name: string, folder: string, file: string, licenses: string[]): Component {
  const version = kegVersion(folder);
  return {
    purl: brewPurl(name, version), ecosystem: 'brew', name, version, direct: true, scope: 'runtime',
    locations: [{ file }], licenses, dependsOn: [],
  };
}

export function parseReceipt(source: string, file: string, formulaSource?: string): Target {
  const m = RECEIPT.exec(file);
  if (!m) throw new ExtractError(`${file} 不在 Homebrew 的 Cellar/<formula>/<version>/ 中`);
  let doc: unknown;
  try {
    doc = JSON.parse(source.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new ExtractError(`无法解析 ${file}：不是有效的 JSON（${(error as Error).message}）`);
  }
  if (!isObject(doc)) throw new ExtractError(`${file} 不是 Homebrew 的安装记录`);
  const c = kegComponent(m[1]!, m[2]!, file, formulaSource ? formulaLicenses(formulaSource) : []);
  if (doc.installed_on_request === false || (doc.installed_on_request === undefined && doc.installed_as_dependency === true)) c.direct = false;
  for (const dep of Array.isArray(doc.runtime_dependencies) ? doc.runtime_dependencies : []) {
    if (!isObject(dep) || typeof dep.full_name !== 'string') continue;
    const purl = brewPurl(dep.full_name, typeof dep.version === 'string' ? dep.version : '');
    if (!c.dependsOn.includes(purl)) c.dependsOn.push(purl);
  }
  return { file, type: 'brew-receipt', ecosystem: 'brew', project: null, roots: c.direct ? [c.purl] : [], components: [c] };
}

export function parseFormulaKeg(source: string, file: string): Target {
  const m = FORMULA_FILE.exec(file)!;
  const c = kegComponent(m[1]!, m[2]!, file, formulaLicenses(source));
  return { file, type: 'brew-formula', ecosystem: 'brew', project: null, roots: [c.purl], components: [c] };
}

export function parseBrewfileLock(source: string, file: string): Target {
  let doc: unknown;
  try {
    doc = JSON.parse(source.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new ExtractError(`无法解析 ${file}：不是有效的 JSON（${(error as Error).message}）`);
  }
  if (!isObject(doc) || !isObject(doc.entries)) throw new ExtractError(`${file} 不是 brew bundle 的锁文件（缺少 entries）`);
  const lines = source.split('\n');
  const lineOf = (name: string) => {
    const i = lines.findIndex((l) => l.trimStart().startsWith(`${JSON.stringify(name)}:`));
    return i < 0 ? undefined : i + 1;
  };
  const components: Component[] = [];
  const brew = isObject(doc.entries.brew) ? doc.entries.brew : {};
  for (const [name, entry] of Object.entries(brew)) {
    const version = isObject(entry) && typeof entry.version === 'string' ? kegVersion(entry.version) : '';
    const line = lineOf(name);
    components.push({
      purl: brewPurl(name, version), ecosystem: 'brew', name: formulaName(name), version, direct: true, scope: 'runtime',
      locations: [line ? { file, startLine: line, endLine: line } : { file }], licenses: [], dependsOn: [],
    });
  }
  return { file, type: 'brewfile-lock', ecosystem: 'brew', project: null, roots: components.map((c) => c.purl), components };
}

const kegDir = (p: string) => p.replace(/(?:INSTALL_RECEIPT\.json|\.brew\/[^/]+\.rb)$/, '');

export const homebrewExtractor: Extractor = {
  name: 'homebrew',
  ecosystem: 'brew',
  reads: ['Cellar/<formula>/<version>/INSTALL_RECEIPT.json', 'Brewfile.lock.json'],
  matches: (p) => RECEIPT.test(p) || baseName(p) === 'Brewfile.lock.json' || (FORMULA_FILE.test(p) && FORMULA_FILE.exec(p)![1] === FORMULA_FILE.exec(p)![3]),
  async extract(file: InputFile, ctx: ExtractContext) {
    if (baseName(file.path) === 'Brewfile.lock.json') return [parseBrewfileLock(await file.text(), file.path)];
    const receipt = RECEIPT.exec(file.path);
    if (receipt) {
      const formula = await ctx.readText(`${kegDir(file.path)}.brew/${receipt[1]}.rb`).catch(() => undefined);
      return [parseReceipt(await file.text(), file.path, formula)];
    }
    // A formula file is read on its own only in a keg without a receipt.
    if (await ctx.exists(`${kegDir(file.path)}INSTALL_RECEIPT.json`)) return [];
    return [parseFormulaKeg(await file.text(), file.path)];
  },
};
