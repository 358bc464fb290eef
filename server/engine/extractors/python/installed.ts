// Installed distributions found anywhere in the tree (site-packages, dist-packages, vendored
// folders): `*.dist-info/METADATA`, `*.egg-info/PKG-INFO` (with requires.txt), `EGG-INFO/PKG-INFO` and
// single-file `*.egg-info`, and zipped eggs (`*.egg`, read in place). Core-metadata headers give name, version and licence
// (License-Expression, else a short License field, else License classifiers). Requires-Dist edges
// point at the distributions installed beside it (same folder), extras' optional ones excluded.
import path from 'node:path';
import type { ExtractContext, Extractor, InputFile, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { classifierLicense } from '../../matchers/licenses/classifiers.ts';
import { fileAccess } from '../common/random-access.ts';
import { listZip, readZipEntry, ZipFormatError } from '../common/zip-index.ts';
import { component, normalizePypiName, parseRequirementHead, pypiPurl, TargetBuilder } from './common.ts';

export function isInstalledMetadata(p: string): boolean {
  return /\.dist-info\/METADATA$/.test(p) || /\.egg-info\/PKG-INFO$/.test(p) || /(^|\/)EGG-INFO\/PKG-INFO$/.test(p)
    || isEggInfoFile(p) || isZippedEgg(p);
}

/**
 * A distutils install's metadata as one file, `Name-Version(-pyX.Y).egg-info`: in site-packages,
 * or wherever else a sys.path entry holds it (Debian's `lib-dynload/Python-2.7.egg-info`).
 * importlib.metadata, and so pip, lists it wherever it lies on the path; a scan cannot know the
 * path, so a file named so is read anywhere (as `.dist-info` folders are).
 */
const isEggInfoFile = (p: string) => /(^|\/)(site|dist)-packages\/[^/]+\.egg-info$/.test(p) || /(^|\/)[A-Za-z0-9][A-Za-z0-9._]*-\d[^/-]*(-py\d[\d.]*)?\.egg-info$/.test(p);

/** An egg installed as one zip file (easy_install), `site-packages/foo-1.0-py3.8.egg`. */
const isZippedEgg = (p: string) => /(^|\/)(site|dist)-packages\/[^/]+\.egg$/.test(p);

/** The metadata of a zipped egg, read in place; undefined when the upload unpacked it beside itself (`foo.egg!/`), whose EGG-INFO/PKG-INFO is then a file of the scan. */
async function zippedEggMetadata(file: InputFile, ctx: ExtractContext): Promise<Buffer | undefined> {
  if (await ctx.exists(`${file.path}!`)) return undefined;
  try {
    const src = await fileAccess(file);
    const entry = (await listZip(src)).find((e) => e.name === 'EGG-INFO/PKG-INFO');
    const data = entry && (await readZipEntry(src, entry, 1024 * 1024));
    if (!data) throw new ExtractError(`Python egg ${file.path} 中没有 EGG-INFO/PKG-INFO`);
    return data;
  } catch (error) {
    if (error instanceof ZipFormatError) throw new ExtractError(`无法读取 Python egg ${file.path}：${error.message}`);
    throw error;
  }
}

/** RFC 822 style headers up to the first blank line; continuation lines fold into the previous. */
export function parseHeaders(text: string): Map<string, string[]> {
  const headers = new Map<string, string[]>();
  let last: { key: string; index: number } | undefined;
  for (const line of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    if (line === '') break;
    if (/^[ \t]/.test(line)) {
      if (last) {
        const values = headers.get(last.key)!;
        values[last.index] += `\n${line.replace(/^ {7}\|?|^\s+/, '')}`;
      }
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    const values = headers.get(key);
    if (values) { values.push(value); last = { key, index: values.length - 1 }; } else { headers.set(key, [value]); last = { key, index: 0 }; }
  }
  return headers;
}

const SHORT_SPDX: Record<string, string> = {
  'mit': 'MIT', 'mit license': 'MIT', 'bsd': 'BSD-3-Clause', 'apache 2.0': 'Apache-2.0', 'apache-2.0': 'Apache-2.0',
  'apache license 2.0': 'Apache-2.0', 'apache license, version 2.0': 'Apache-2.0', 'apache 2': 'Apache-2.0',
  'apache software license': 'Apache-2.0', 'isc': 'ISC', 'psf': 'PSF-2.0', 'mpl-2.0': 'MPL-2.0', 'mpl 2.0': 'MPL-2.0',
};

export function licensesOf(headers: Map<string, string[]>): string[] {
  const expression = headers.get('license-expression')?.[0]?.trim();
  if (expression) return [expression];
  const declared = headers.get('license')?.[0]?.trim() ?? '';
  if (declared && declared.toUpperCase() !== 'UNKNOWN' && !declared.includes('\n') && declared.length <= 100) {
    return [SHORT_SPDX[declared.toLowerCase()] ?? declared];
  }
  const fromClassifiers: string[] = [];
  for (const classifier of headers.get('classifier') ?? []) {
    const parts = classifier.split('::').map((x) => x.trim());
    const last = parts[parts.length - 1];
    if (parts[0] !== 'License' || parts.length < 2 || last === 'OSI Approved') continue;
    // PyPI's classifiers map to their SPDX id (classifiers.ts); one naming no licence (Freeware,
    // Public Domain) keeps its words, an unknown one too.
    fromClassifiers.push(classifierLicense(classifier)?.spdx ?? last ?? classifier);
  }
  return [...new Set(fromClassifiers)];
}

/** name -> version of distributions installed in one folder, from `name-version.dist-info` names. */
const installedCache = new WeakMap<ExtractContext, Map<string, Promise<Map<string, string>>>>();

function installedIn(ctx: ExtractContext, dir: string): Promise<Map<string, string>> {
  let perCtx = installedCache.get(ctx);
  if (!perCtx) { perCtx = new Map(); installedCache.set(ctx, perCtx); }
  let found = perCtx.get(dir);
  if (!found) {
    found = ctx.list(dir).then((names) => {
      const map = new Map<string, string>();
      for (const n of names) {
        const m = /^(.+?)-([^-]+?)(?:-py[\d.]+(?:-[\w-]+?)?)?\.(dist-info|egg-info|egg)$/.exec(n);
        if (m) map.set(normalizePypiName(m[1]), m[2]);
      }
      return map;
    }).catch(() => new Map<string, string>());
    perCtx.set(dir, found);
  }
  return found;
}

/**
 * An egg's requires.txt as Requires-Dist values: the lines before any section are unconditional,
 * `[:marker]` sections hold requirements under that marker, `[extra]` / `[extra:marker]` those
 * of an extra (kept with an `extra ==` marker, so they are not edges).
 */
export function eggRequires(text: string): string[] {
  const out: string[] = [];
  let marker = '';
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/(^|\s)#.*$/, '').trim();
    if (!line) continue;
    const section = /^\[(.*)\]$/.exec(line);
    if (section) {
      const [extra = '', cond = ''] = section[1]!.split(':');
      marker = [extra.trim() ? `extra == "${extra.trim()}"` : '', cond.trim()].filter(Boolean).join(' and ');
      continue;
    }
    out.push(marker ? `${line}; ${marker}` : line);
  }
  return out;
}

export const installed: Extractor = {
  name: 'python-pkg',
  ecosystem: 'pypi',
  reads: ['*.dist-info/METADATA', '*.egg-info/PKG-INFO', 'site-packages/*.egg'],
  matches: isInstalledMetadata,
  async extract(file: InputFile, ctx: ExtractContext): Promise<Target[]> {
    const egg = isZippedEgg(file.path);
    const buf = egg ? await zippedEggMetadata(file, ctx) : await file.read();
    if (!buf) return [];
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(buf);
    } catch {
      text = buf.toString('latin1');
    }
    const headers = parseHeaders(text);
    const name = headers.get('name')?.[0]?.trim() ?? '';
    const version = headers.get('version')?.[0]?.trim() ?? '';
    if (!/^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/.test(name)) {
      throw new ExtractError(`Python 包元数据 ${file.path} 缺少有效的 Name 字段`);
    }
    if (!version) throw new ExtractError(`Python 包元数据 ${file.path} 缺少 Version 字段`);

    const dependsOn: string[] = [];
    const requires = headers.get('requires-dist') ?? [];
    // An egg's PKG-INFO rarely lists Requires-Dist: setuptools writes them to requires.txt beside
    // it, which importlib.metadata (and so pip) reads instead.
    if (!requires.length && /(\.egg-info|(^|\/)EGG-INFO)\/PKG-INFO$/.test(file.path)) {
      const txt = await ctx.readText(`${path.posix.dirname(file.path)}/requires.txt`).catch(() => undefined);
      if (txt) requires.push(...eggRequires(txt));
    }
    if (requires.length) {
      // <site>/<name>.dist-info/METADATA -> siblings in <site>; <site>/x.egg-info (file) -> <site>.
      const metaDir = /\.egg(-info)?$/.test(file.path) ? file.path : path.posix.dirname(file.path);
      const site = path.posix.dirname(metaDir);
      const siblings = await installedIn(ctx, site === '.' ? '' : site);
      for (const req of requires) {
        const [spec, marker = ''] = req.split(';');
        if (/\bextra\s*==/.test(marker)) continue;
        const head = parseRequirementHead(spec);
        const v = head && siblings.get(normalizePypiName(head.name));
        if (head && v) dependsOn.push(pypiPurl(head.name, v));
      }
    }
    const builder = new TargetBuilder();
    builder.add(component({ name, version, licenses: licensesOf(headers), location: { file: file.path }, dependsOn: [...new Set(dependsOn)] }));
    return [builder.target(file.path, 'python-pkg', null, [])];
  },
};
