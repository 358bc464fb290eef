// Python distributions as files: wheels (`.whl`, a zip whose `<name>-<version>.dist-info/METADATA`
// holds the core metadata) and eggs (`.egg`, a zip whose `EGG-INFO/PKG-INFO` does), read in place.
// Name, Version and the licence (License-Expression, else License, else the License classifiers)
// as the installed-distribution extractor reads them (python/installed.ts); Requires-Dist, extras'
// optional requirements excluded, become edges to the wheels and eggs beside the file (a
// wheelhouse). Eggs installed in site-packages are python-pkg's, not read a second time here.
import path from 'node:path';
import type { ExtractContext, Extractor, InputFile, Target } from '../../model.ts';
import { CONFIDENCE, ExtractError } from '../../model.ts';
import { fileAccess } from '../common/random-access.ts';
import type { RandomAccess } from '../common/random-access.ts';
import { listZip, readZipEntry, ZipFormatError } from '../common/zip-index.ts';
import type { ZipEntry } from '../common/zip-index.ts';
import { component, normalizePypiName, parseRequirementHead, pypiPurl, TargetBuilder } from '../python/common.ts';
import { licensesOf, parseHeaders } from '../python/installed.ts';
import { DEFAULT_LIMITS, formatBytes } from '../../sources/limits.ts';
import { evidence, lineOffset } from './common.ts';

const WHEEL = /\.whl$/i;
const EGG = /\.egg$/i;
/** Eggs python-pkg reads (installed ones). */
const INSTALLED_EGG = /(^|\/)(site|dist)-packages\/[^/]+\.egg$/;
/** Core metadata larger than this is not metadata (real ones are a few KiB, long READMEs included). */
const MAX_METADATA = 4 * 1024 * 1024;

/** `pip-23.0.1-py3-none-any.whl` → pip, 23.0.1 (PEP 427: name-version[-build]-python-abi-platform). */
export function wheelNameVersion(fileName: string): { name: string; version: string } | undefined {
  const m = /^([^-]+)-([^-]+)(?:-\d[^-]*)?-[^-]+-[^-]+-[^-]+\.whl$/i.exec(fileName);
  return m ? { name: m[1]!, version: m[2]! } : undefined;
}

/** `example-21.12-py3.6.egg` → example, 21.12. */
export function eggNameVersion(fileName: string): { name: string; version: string } | undefined {
  const m = /^([^-]+)-([^-]+)(?:-py[\d.]+(?:-[^.]+)?)?\.egg$/i.exec(fileName);
  return m ? { name: m[1]!, version: m[2]! } : undefined;
}

/** name (normalised) → version of the wheels and eggs in one folder, from their file names. */
async function beside(ctx: ExtractContext, dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const n of await ctx.list(dir).catch(() => [] as string[])) {
    const hit = wheelNameVersion(n) ?? eggNameVersion(n);
    if (hit) out.set(normalizePypiName(hit.name), hit.version);
  }
  return out;
}

async function metadataOf(file: string, src: RandomAccess, kind: 'wheel' | 'egg'): Promise<{ entry: ZipEntry; text: string }> {
  const what = kind === 'wheel' ? 'Python wheel' : 'Python egg';
  let entries: ZipEntry[];
  try {
    entries = await listZip(src);
  } catch (error) {
    if (error instanceof ZipFormatError) throw new ExtractError(`${what} ${file} 已损坏：${error.message}`);
    throw error;
  }
  let entry: ZipEntry | undefined;
  if (kind === 'egg') entry = entries.find((e) => e.name === 'EGG-INFO/PKG-INFO');
  else {
    const candidates = entries.filter((e) => /^[^/]+\.dist-info\/METADATA$/.test(e.name));
    // Several .dist-info folders (a vendored one): the one named like the file.
    const own = wheelNameVersion(path.posix.basename(file));
    entry = candidates.find((e) => own && normalizePypiName(e.name.split('-')[0]!) === normalizePypiName(own.name)) ?? candidates[0];
  }
  const wanted = kind === 'wheel' ? '*.dist-info/METADATA' : 'EGG-INFO/PKG-INFO';
  if (!entry) throw new ExtractError(`${what} ${file} 中没有 ${wanted}`);
  if (entry.encrypted) throw new ExtractError(`${what} ${file} 的 ${entry.name} 已加密，无法读取`);
  if (entry.method !== 0 && entry.method !== 8) throw new ExtractError(`${what} ${file} 的 ${entry.name} 使用了不支持的压缩方法 ${entry.method}`);
  // The central directory's sizes, checked before anything is inflated: a bomb declares what it is.
  if (entry.size > MAX_METADATA) {
    throw new ExtractError(`${what} ${file} 的 ${entry.name} 解压后有 ${formatBytes(entry.size)}，超过元数据 ${formatBytes(MAX_METADATA)} 上限，疑似压缩炸弹，已停止读取`);
  }
  if (entry.size > 1024 * 1024 && entry.size > entry.compressedSize * DEFAULT_LIMITS.maxRatio) {
    throw new ExtractError(`${what} ${file} 的 ${entry.name} 压缩比超过 ${DEFAULT_LIMITS.maxRatio}:1 上限，疑似压缩炸弹，已停止读取`);
  }
  let data: Buffer | undefined;
  try {
    // Inflated no further than the size the directory declares: more is a lie (or a bomb).
    data = await readZipEntry(src, entry, entry.size);
  } catch (error) {
    if (error instanceof ZipFormatError) throw new ExtractError(`${what} ${file} 已损坏：${entry.name} 无法解压（数据损坏，或解压后超过目录记录的 ${entry.size} 字节）`);
    throw error;
  }
  if (!data) throw new ExtractError(`${what} ${file} 的 ${entry.name} 无法读取`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    text = data.toString('latin1');
  }
  return { entry, text };
}

async function extractDistribution(file: InputFile, ctx: ExtractContext, kind: 'wheel' | 'egg'): Promise<Target[]> {
  const what = kind === 'wheel' ? 'Python wheel' : 'Python egg';
  const src = await fileAccess(file);
  if (src.size === 0) throw new ExtractError(`${file.path} 是空文件`);
  const { entry, text } = await metadataOf(file.path, src, kind);
  const headers = parseHeaders(text);
  const name = headers.get('name')?.[0]?.trim() ?? '';
  const version = headers.get('version')?.[0]?.trim() ?? '';
  if (!/^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/.test(name)) throw new ExtractError(`${what} ${file.path} 的 ${entry.name} 缺少有效的 Name 字段`);
  if (!version) throw new ExtractError(`${what} ${file.path} 的 ${entry.name} 缺少 Version 字段`);

  const dependsOn: string[] = [];
  const requires = headers.get('requires-dist') ?? [];
  if (requires.length) {
    const dir = path.posix.dirname(file.path);
    const siblings = await beside(ctx, dir === '.' ? '' : dir);
    for (const req of requires) {
      const [spec, marker = ''] = req.split(';');
      if (/\bextra\s*==/.test(marker)) continue;
      const head = parseRequirementHead(spec!);
      const v = head && siblings.get(normalizePypiName(head.name));
      if (head && v && normalizePypiName(head.name) !== normalizePypiName(name)) dependsOn.push(pypiPurl(head.name, v));
    }
  }
  const c = component({ name, version, direct: true, licenses: licensesOf(headers), location: { file: file.path }, dependsOn: [...new Set(dependsOn)] });
  c.evidence = [evidence(`${file.path}!/${entry.name}`, kind === 'wheel' ? 'METADATA' : 'PKG-INFO', `Name: ${name}; Version: ${version}`, lineOffset(text, /^Name:.*$/m))];
  c.confidence = CONFIDENCE.METADATA;
  const builder = new TargetBuilder();
  builder.add(c);
  return [builder.target(file.path, kind, null, [c.purl])];
}

export const wheelExtractor: Extractor = {
  name: 'wheel',
  ecosystem: 'pypi',
  reads: ['*.whl'],
  matches: (p) => WHEEL.test(p),
  extract: (file, ctx) => extractDistribution(file, ctx, 'wheel'),
};

export const eggExtractor: Extractor = {
  name: 'egg',
  ecosystem: 'pypi',
  reads: ['*.egg'],
  matches: (p) => EGG.test(p) && !INSTALLED_EGG.test(p),
  extract: (file, ctx) => extractDistribution(file, ctx, 'egg'),
};
