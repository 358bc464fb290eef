// NuGet packages as they lie on disk: `*.nupkg` files (a zip whose root holds `<id>.nuspec`) and
// the extracted packages of a global packages folder (~/.nuget/packages/<id>/<version>/<id>.nuspec,
// id and version in lower case), each one component from its nuspec: id, version, licence
// (`<license type="expression">`, or for packages older than NuGet 4.9 the `<licenseUrl>` where it
// names a licence: licenses.nuget.org/MIT, opensource.org/licenses/…, apache.org/licenses/…), with
// CONFIDENCE.METADATA as the package tool wrote it. A
// global packages folder keeps the .nupkg beside the nuspec: the package is read once, from the
// nuspec. (A project's own nuspec, the one `nuget pack` reads, is a manifest in a source tree and
// is not claimed: only a nuspec in an <id>/<version>/ folder is.)
import path from 'node:path/posix';
import { normalizeDeclared } from '../../matchers/licenses/expression.ts';
import type { Component, ExtractContext, Extractor, InputFile, Target } from '../../model.ts';
import { CONFIDENCE, ExtractError } from '../../model.ts';
import { fileAccess } from '../common/random-access.ts';
import { childEl, childText, decodeXmlBytes, parseXml } from '../common/xml.ts';
import { listZip, looksLikeZip, readZipEntry, ZipFormatError } from '../common/zip-index.ts';
import { nugetPurl } from '../nuget/common.ts';

/** A nuspec is a few KiB; a large one is not a nuspec. */
const MAX_NUSPEC = 1 << 20;

const VERSION_DIR = /^\d+(\.\d+){1,3}([-+][0-9A-Za-z.+-]*)?$/;

/** `…/<id>/<version>/<id>.nuspec` with the same id, case-insensitively. */
export function isExtractedNuspec(p: string): boolean {
  const parts = p.split('/');
  if (parts.length < 3) return false;
  const [id, version, file] = parts.slice(-3) as [string, string, string];
  return file.toLowerCase() === `${id.toLowerCase()}.nuspec` && VERSION_DIR.test(version);
}

function componentFromNuspec(xml: Buffer, file: string, rule: string): Target {
  const root = parseXml(decodeXmlBytes(xml), file);
  const metadata = childEl(root, 'metadata');
  const id = childText(metadata, 'id');
  const version = childText(metadata, 'version') ?? '';
  if (root.name !== 'package' || !id) throw new ExtractError(`${file} 中的 nuspec 缺少 <metadata><id>，不是 NuGet 包清单`);
  const license = childEl(metadata, 'license');
  const licenses = license?.attrs.type === 'expression' && license.text.trim() ? [license.text.trim()] : licenseOfUrl(childText(metadata, 'licenseUrl'));
  const purl = nugetPurl(id, version);
  const component: Component = {
    purl, ecosystem: 'nuget', name: id, version, direct: true, scope: 'runtime',
    locations: [{ file }], licenses, dependsOn: [],
    evidence: [{ file, rule, text: `<id>${id}</id> <version>${version}</version>` }],
    confidence: CONFIDENCE.METADATA,
  };
  return { file, type: 'nupkg', ecosystem: 'nuget', project: null, roots: [purl], components: [component] };
}

/**
 * A licenseUrl is kept only when the address itself names a licence; a project page
 * (`http://nunit.org/nuget/license.html`) says nothing without fetching it, and `nuget pack`
 * writes `https://aka.ms/deprecateLicenseUrl` beside every `<license>` element.
 */
function licenseOfUrl(url: string | undefined): string[] {
  const id = url ? normalizeDeclared(url.trim()) : null;
  return id ? [id] : [];
}

async function extractNupkg(file: InputFile, ctx: ExtractContext): Promise<Target[]> {
  const base = path.basename(file.path);
  if (/\.nuspec$/i.test(base)) {
    if (file.size > MAX_NUSPEC) throw new ExtractError(`${file.path} 有 ${file.size} 字节，不像 nuspec，未读取`);
    return [componentFromNuspec(await file.read(), file.path, 'nuspec')];
  }
  // A global packages folder: <id>/<version>/<id>.<version>.nupkg beside <id>.nuspec, read there.
  const dir = path.dirname(file.path);
  if (isExtractedNuspec(`${dir}/${path.basename(path.dirname(dir))}.nuspec`) && await ctx.exists(`${dir}/${path.basename(path.dirname(dir))}.nuspec`)) return [];
  const src = await fileAccess(file);
  if (!looksLikeZip(await src.read(0, 4))) throw new ExtractError(`${file.path} 不是有效的 NuGet 包：不是 zip 文件`);
  try {
    const entries = await listZip(src);
    const nuspec = entries.find((e) => !e.name.includes('/') && /\.nuspec$/i.test(e.name));
    if (!nuspec) throw new ExtractError(`${file.path} 不是有效的 NuGet 包：根目录没有 .nuspec 文件`);
    const xml = await readZipEntry(src, nuspec, MAX_NUSPEC);
    if (!xml) throw new ExtractError(`${file.path} 中的 ${nuspec.name} 无法读取（加密、压缩方式不支持或超过 1 MiB）`);
    return [componentFromNuspec(xml, file.path, `nupkg!/${nuspec.name}`)];
  } catch (error) {
    if (error instanceof ZipFormatError) throw new ExtractError(`${file.path} 不是有效的 NuGet 包：${error.message}`);
    throw error;
  }
}

export const nugetPackageExtractor: Extractor = {
  name: 'nupkg',
  ecosystem: 'nuget',
  reads: ['*.nupkg', 'newtonsoft.json/13.0.3/newtonsoft.json.nuspec'],
  matches: (p) => /\.nupkg$/i.test(p) || isExtractedNuspec(p),
  extract: extractNupkg,
};
