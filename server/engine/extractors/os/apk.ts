// Alpine's installed database (lib/apk/db/installed, apk-tools' text format): one record per
// package, `X:value` lines (P name, V version, A architecture, o origin = source package,
// L licence, m maintainer, D dependencies, p provides, F folder / R file of the installed files),
// records separated by empty lines. Packages the user asked for are listed in etc/apk/world.
import { licenseRef, normalizeDeclared } from '../../matchers/licenses/expression.ts';
import type { Component, ExtractContext, Extractor, InputFile, Target } from '../../model.ts';
import { fileLocations, joinRoot, osPurl, readOptional, rootOf } from './common.ts';
import { findDistribution } from './os-release.ts';

const APK_INSTALLED = /(?:^|\/)lib\/apk\/db\/installed$/;

export interface ApkPackage {
  name: string;
  version: string;
  architecture: string;
  origin?: string;
  license?: string;
  maintainer?: string;
  url?: string;
  description?: string;
  depends: string[];
  provides: string[];
  files: string[];
  startLine: number;
  endLine: number;
}

export interface ApkDatabase {
  packages: ApkPackage[];
  problems: string[];
}

const where = (start: number, end: number) => (start === end ? `第 ${start} 行` : `第 ${start}–${end} 行`);

export function parseApkInstalled(text: string): ApkDatabase {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const packages: ApkPackage[] = [];
  const problems: string[] = [];
  let record: { fields: Map<string, string>; depends: string[]; provides: string[]; files: string[]; folder: string; start: number; end: number; error?: string } | undefined;
  const flush = () => {
    if (!record) return;
    const r = record;
    record = undefined;
    const name = r.fields.get('P');
    const version = r.fields.get('V');
    if (r.error) problems.push(`${where(r.start, r.end)}的软件包记录无法解析，已跳过：${r.error}`);
    else if (!name) problems.push(`${where(r.start, r.end)}的软件包记录缺少 P:（名称）字段，已跳过`);
    else if (!version) problems.push(`${where(r.start, r.end)}的软件包 ${name} 缺少 V:（版本）字段，已跳过`);
    else {
      const get = (k: string) => r.fields.get(k) || undefined;
      packages.push({
        name, version, architecture: r.fields.get('A') ?? '',
        ...(get('o') ? { origin: get('o') } : {}),
        ...(get('L') ? { license: get('L') } : {}),
        ...(get('m') ? { maintainer: get('m') } : {}),
        ...(get('U') ? { url: get('U') } : {}),
        ...(get('T') ? { description: get('T') } : {}),
        depends: r.depends, provides: r.provides, files: r.files, startLine: r.start, endLine: r.end,
      });
    }
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === '') { flush(); continue; }
    record ??= { fields: new Map(), depends: [], provides: [], files: [], folder: '', start: i + 1, end: i + 1 };
    record.end = i + 1;
    if (record.error) continue;
    if (line.length < 2 || line[1] !== ':') {
      record.error = `第 ${i + 1} 行“${line.length > 40 ? `${line.slice(0, 40)}…` : line}”不是“X:值”格式`;
      continue;
    }
    const key = line[0]!;
    const value = line.slice(2);
    switch (key) {
      case 'F': record.folder = value; record.files.push(value); break;
      case 'R': record.files.push(record.folder ? `${record.folder}/${value}` : value); break;
      case 'D': record.depends.push(...value.split(/\s+/).filter(Boolean)); break;
      case 'p': record.provides.push(...value.split(/\s+/).filter(Boolean)); break;
      default: if (!record.fields.has(key)) record.fields.set(key, value);
    }
  }
  flush();
  return { packages, problems };
}

/** An operand of L: as SPDX; one SPDX does not know (`custom`, Alpine's word for a licence without an id) as `LicenseRef-…`. */
function apkOperand(text: string): string {
  const spdx = normalizeDeclared(text) ?? licenseRef(text);
  return / (AND|OR) /.test(spdx) ? `(${spdx})` : spdx;
}

const OPERATOR = /^(and|or|with)$/i;

/**
 * apk's L: as SPDX: an expression as written (`MIT AND BSD-2-Clause`); older packages list
 * several licences separated by spaces (`MIT BSD-3-Clause`), every one of which applies. Each
 * operand is normalised on its own, so an unknown one stays in the expression as a LicenseRef
 * (the whole-text normaliser would drop `custom` from `MIT AND custom`).
 */
export function apkLicense(value: string): string | undefined {
  const text = value.trim();
  if (!text) return undefined;
  const tokens = text.match(/\(|\)|[^()\s]+/g) ?? [];
  const words = tokens.filter((t) => t !== '(' && t !== ')');
  if (tokens.length === 1) return normalizeDeclared(text) ?? licenseRef(text);
  if (!words.some((t) => OPERATOR.test(t)) && words.length === tokens.length) {
    return [...new Set(words.map(apkOperand))].join(' AND ');
  }
  // Two operands side by side (`GPL-2.0 OR MIT BSD`, the list form inside an expression) both apply.
  const out: string[] = [];
  tokens.forEach((t, i) => {
    const previous = out[out.length - 1];
    const operand = t !== ')' && !OPERATOR.test(t);
    if (operand && previous !== undefined && previous !== '(' && !OPERATOR.test(previous) && !/^with$/i.test(tokens[i - 1] ?? '')) out.push('AND');
    if (t === '(' || t === ')') out.push(t);
    else if (OPERATOR.test(t)) out.push(t.toUpperCase());
    else out.push(/^with$/i.test(tokens[i - 1] ?? '') ? t : apkOperand(t));
  });
  const rebuilt = out.join(' ').replace(/\( /g, '(').replace(/ \)/g, ')');
  return normalizeDeclared(rebuilt) ?? rebuilt;
}

/** A dependency or provided name without its version constraint: `so:libc.musl-x86_64.so.1=1` → `so:libc.musl-x86_64.so.1`. */
const depName = (dep: string) => dep.replace(/^!/, '').replace(/[<>=~].*$/, '');

async function extractInstalled(file: InputFile, ctx: ExtractContext): Promise<Target[]> {
  const root = rootOf(file.path, APK_INSTALLED);
  const db = parseApkInstalled(await file.text());
  const distribution = await findDistribution(ctx, root);
  const namespace = distribution?.id ?? 'alpine';
  const worldText = await readOptional(ctx, joinRoot(root, 'etc/apk/world'));
  const world = worldText === undefined ? null : new Set(worldText.split(/\s+/).filter(Boolean).map(depName));

  const purls = db.packages.map((p) => osPurl('apk', namespace, { name: p.name, version: p.version, architecture: p.architecture, ...(p.origin ? { source: p.origin } : {}) }, distribution));
  const byName = new Map<string, string>();
  db.packages.forEach((p, i) => { byName.set(p.name, purls[i]!); });
  db.packages.forEach((p, i) => { for (const provided of p.provides) if (!byName.has(depName(provided))) byName.set(depName(provided), purls[i]!); });

  const components = db.packages.map((p, i): Component => {
    const purl = purls[i]!;
    const dependsOn: string[] = [];
    for (const dep of p.depends) {
      if (dep.startsWith('!')) continue; // a conflict, not a dependency
      const hit = byName.get(depName(dep));
      if (hit && hit !== purl && !dependsOn.includes(hit)) dependsOn.push(hit);
    }
    const license = p.license ? apkLicense(p.license) : undefined;
    return {
      purl,
      ecosystem: 'apk',
      name: p.name,
      version: p.version,
      direct: world ? world.has(p.name) : true,
      scope: 'runtime',
      locations: [{ file: file.path, startLine: p.startLine, endLine: p.endLine }, ...fileLocations(root, p.files)],
      licenses: license ? [license] : [],
      dependsOn,
      ...(p.maintainer ? { maintainer: p.maintainer } : {}),
    };
  });
  return [{
    file: file.path,
    type: 'apk',
    ecosystem: 'apk',
    project: null,
    roots: components.filter((c) => c.direct).map((c) => c.purl),
    components,
    ...(db.problems.length ? { problems: db.problems.map((m) => `${file.path}：${m}`) } : {}),
  }];
}

export const apkExtractor: Extractor = {
  name: 'apk',
  ecosystem: 'apk',
  reads: ['lib/apk/db/installed'],
  matches: (path) => APK_INSTALLED.test(path),
  extract: extractInstalled,
};
