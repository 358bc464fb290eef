// `cairn scan <path> [--format json|cyclonedx|spdx] [--output file]`: scans a directory or an
// archive offline and prints (or writes) the components found. A container image (docker save tar,
// OCI layout folder or tar, told by content) is analysed as an image, each component with its
// layer; `cairn scan --image <reference>` pulls one from a registry into a private temp folder
// first. The engine is loaded when a scan runs, not for `cairn scan --help`.
import { mkdtemp, open, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { InventoryEntry, OnlineResolution, OutputFormat, ScanResult, ScannedImage, Target } from '../../server/engine/index.ts';
import { productVersion } from '../../server/version.ts';

const engine = () => import('../../server/engine/index.ts');

export const scanUsage = `用法：cairn scan <目录、压缩包（zip/jar/war、7z、tar、tar.gz、tar.bz2、tar.xz）、容器镜像（docker save 的 tar、OCI 镜像目录或其 tar）、特征文件（cairn feature 生成）、SBOM 或 Excel/CSV 组件清单> [选项]
      cairn scan --image <镜像地址（仓库/名称:标签 或 仓库/名称@sha256:摘要）> [选项]

  --format, -f      输出格式：json（默认）、cyclonedx（CycloneDX 1.6 JSON）、spdx（SPDX 2.3 JSON）
  --output, -o      写入文件而不是标准输出
  --resolve         在线解析依赖（默认关闭）：没有锁文件的 pom.xml、package.json 与未固定版本的
                    requirements 通过下面的仓库解析出传递依赖（Python 环境标记按 CPython 3.12、Linux x86_64 求值）
  --maven-repo      Maven 仓库地址（Maven 目录布局），可重复；--resolve 时默认 https://repo.maven.apache.org/maven2/
  --npm-registry    npm 注册表地址，可重复；--resolve 时默认 https://registry.npmjs.org/
  --pypi-index      PyPI 简单索引地址，可重复；--resolve 时默认 https://pypi.org/simple/
  --kb              用漏洞知识库（cairn kb import 生成的数据库文件）匹配漏洞；json 格式中每个组件
                    增加 riskLevel 和 vulnerabilities（id、aliases、level、score、exploit、fixedVersions、
                    fixState（发行版修复状态：fixed、affected、will_not_fix 等）、summary）
  --jar-index       Java 归档的 SHA-1 索引文件（每行 “sha1,groupId,artifactId,version” 或
                    “sha1 groupId:artifactId:version”，# 开头为注释）：没有 pom.properties 的 jar/war
                    按内容的 SHA-1 查得坐标，精确匹配，优先于按文件名推测

容器镜像（按内容识别，也可用 --image 从镜像仓库拉取；拉取到私有临时目录，分析后删除）：
  --image           从镜像仓库拉取并分析的镜像地址，例如 registry.example.com/team/app:1.0
  --platform        多平台镜像要分析的平台，例如 linux/arm64（默认 linux/amd64）
  --username        镜像仓库用户名
  --password-stdin  从标准输入读取镜像仓库密码或令牌（密码不接受命令行参数，也不会打印）
  --ca-file         额外信任的 CA 证书文件（PEM），用于自签名证书的私有仓库
  --insecure-http   用不加密的 HTTP 访问镜像仓库（仅限可信网络）
  镜像的每个组件带有它首次出现的层：json 中为 layer（层序号，0 为最底层）和 image（镜像摘要、平台、
  操作系统与各层）；CycloneDX 中组件属性 cairn:image:layer:digest 等、metadata.component 为 container；
  SPDX 中根包为 CONTAINER，组件的层写在注释（annotations）中`;

export class UsageError extends Error {}

/** How `cairn scan` reads its standard input (the registry password) and reports a pull's progress; tests pass their own. */
export interface ScanIo {
  readStdin: () => Promise<string>;
  /** One line of progress (stderr). */
  progress?: (line: string) => void;
}

async function readProcessStdin(): Promise<string> {
  if (process.stdin.isTTY) throw new UsageError('--password-stdin 需要从标准输入传入密码，例如：printf %s "$TOKEN" | cairn scan --image … --username 用户 --password-stdin');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const defaultIo: ScanIo = { readStdin: readProcessStdin, progress: (line) => console.error(line) };

/** Files that are an inventory by themselves: Excel/CSV component lists and SBOMs. */
const SINGLE_FILE = /\.(xlsx|xlsm|xls|csv|json|xml|spdx|ya?ml|rdf|tv|jsonl|jsonld|textproto|txtpb|ttl|swidtag)$|\.(?:cdx|bom)\.(?:pb|bin|protobuf)$/i;

async function importFile(file: string): Promise<ScanResult> {
  const { ExtractError, loadComponentLists, loadSbom } = await engine();
  const started = performance.now();
  const name = path.basename(file);
  let target: Target;
  try {
    if (/\.(xlsx|xlsm|xls|csv)$/i.test(file)) {
      const { importComponentList } = await loadComponentLists();
      const imported = await importComponentList({ path: name, read: () => readFile(file) });
      for (const r of imported.rejected) console.error(r.reason);
      target = imported.target;
    } else {
      const { importSbomFile } = await loadSbom();
      target = await importSbomFile(await readFile(file), name);
    }
  } catch (error) {
    throw error instanceof ExtractError ? new UsageError(error.message) : error;
  }
  const bytes = (await stat(file)).size;
  return { root: file, targets: [target], problems: [], stats: { files: 1, bytes, ms: Math.round(performance.now() - started) } };
}

/**
 * A feature file (cairn feature) read into a temporary folder as the platform reads it: a source
 * tree's is scanned as the folder; an image's as the image (each component with its layer).
 */
async function scanFeatureInput(file: string): Promise<{ result: ScanResult; image: ScannedImage | null }> {
  const { loadExtractors, readFeatureFile, scanImageFeature, scanTree, UnpackError } = await engine();
  const parent = await mkdtemp(path.join(tmpdir(), 'cairn-feature-'));
  try {
    const root = path.join(parent, 'root');
    const feature = await readFeatureFile(file, root, { name: path.basename(file) }).catch((error: unknown) => {
      throw error instanceof UnpackError ? new UsageError(error.message) : error;
    });
    if (feature.manifest.kind === 'image') {
      const image = await scanImageFeature(feature, root, path.basename(file));
      return { result: image.scan, image };
    }
    const { allExtractors } = await loadExtractors();
    const result = await scanTree(root, { extractors: allExtractors });
    if (feature.problems.length) result.problems = [...result.problems, ...feature.problems].sort((a, b) => a.file.localeCompare(b.file));
    return { result, image: null };
  } finally {
    await rm(parent, { recursive: true, force: true, maxRetries: 3 });
  }
}

/** Whether a file that is no archive is an SBOM, read or not (its first 4 MiB decide). */
async function isSbomFile(file: string): Promise<boolean> {
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) return false;
  const { loadSbom } = await engine();
  const { describeSbomFile } = await loadSbom();
  const handle = await open(file, 'r');
  try {
    const bytes = Buffer.alloc(Math.min(info.size, 4 * 1024 * 1024));
    await handle.read(bytes, 0, bytes.length, 0);
    return describeSbomFile(bytes, path.basename(file)) !== null;
  } finally {
    await handle.close();
  }
}

const DEFAULT_REPOSITORIES = {
  maven: 'https://repo.maven.apache.org/maven2/',
  npm: 'https://registry.npmjs.org/',
  pypi: 'https://pypi.org/simple/',
} as const;

/** The repositories of `--resolve`: each given address checked (http or https, no credentials in it), else the public default. */
export function onlineOptions(values: { resolve?: boolean; 'maven-repo'?: string[]; 'npm-registry'?: string[]; 'pypi-index'?: string[] }): OnlineResolution | undefined {
  const given = { maven: values['maven-repo'] ?? [], npm: values['npm-registry'] ?? [], pypi: values['pypi-index'] ?? [] };
  if (!values.resolve) {
    if (given.maven.length || given.npm.length || given.pypi.length) throw new UsageError('--maven-repo、--npm-registry、--pypi-index 只在 --resolve 在线解析时使用');
    return undefined;
  }
  const check = (option: string, text: string) => {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new UsageError(`${option} 的地址无效：${text}（应为完整的 http:// 或 https:// 地址）`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${option} 只支持 http 或 https 地址：${text}`);
    if (url.username || url.password) throw new UsageError(`${option} 的地址不能包含用户名或密码`);
    return { url: url.toString() };
  };
  return {
    maven: (given.maven.length ? given.maven : [DEFAULT_REPOSITORIES.maven]).map((u) => check('--maven-repo', u)),
    npm: (given.npm.length ? given.npm : [DEFAULT_REPOSITORIES.npm]).map((u) => check('--npm-registry', u)),
    pypi: (given.pypi.length ? given.pypi : [DEFAULT_REPOSITORIES.pypi]).map((u) => check('--pypi-index', u)),
  };
}

/** A directory is scanned in place; an archive is unpacked (with limits) into a temp folder. */
async function scanInput(given: string, online?: OnlineResolution): Promise<ScanResult> {
  const { loadExtractors, openInput, resolveOnline, scanTree, UnpackError } = await engine();
  const input = await openInput(given).catch(async (error: unknown) => {
    if (!(error instanceof UnpackError)) throw error;
    // An SBOM under another name (or in a serialisation Cairn does not read) is named as such, not as no archive.
    if (error.code === 'not-archive' && (await isSbomFile(given))) return null;
    throw new UsageError(error.message);
  });
  if (!input) return importFile(given);
  try {
    const { allExtractors } = await loadExtractors();
    const result = await scanTree(input.root, { extractors: allExtractors });
    if (online) await resolveOnline(input.root, result, online, new AbortController().signal);
    // Nested archives left packed (too deep, damaged) are problems: their contents were not read.
    const left = input.unpacked?.problems ?? [];
    if (left.length) result.problems = [...result.problems, ...left].sort((a, b) => a.file.localeCompare(b.file));
    return result;
  } finally {
    await input.cleanup();
  }
}

/** An image archive or OCI layout folder analysed in a private temp folder, removed after. */
async function scanImageInput(file: string, options: { platform?: string; reference?: string }): Promise<ScannedImage> {
  const { scanImage } = await engine();
  const work = await mkdtemp(path.join(tmpdir(), 'cairn-image-scan-'));
  try {
    return await scanImage({ file, platform: options.platform, reference: options.reference }, work);
  } finally {
    await rm(work, { recursive: true, force: true, maxRetries: 3 });
  }
}

export interface PullRequest {
  reference: string;
  platform?: string;
  username?: string;
  passwordStdin: boolean;
  caFile?: string;
  insecureHttp: boolean;
}

/**
 * Pulls the image into `<work>/layout` (an OCI layout; `work` is a private temp folder the caller
 * removes), with the registry options of `cairn scan --image`; answers the layout and the reference.
 */
export async function pullToLayout(request: PullRequest, io: ScanIo, work: string): Promise<{ layout: string; reference: string }> {
  const { formatImageReference, parseImageReference, pullImage } = await engine();
  const reference = formatImageReference(parseImageReference(request.reference));
  let caPem: string | undefined;
  if (request.caFile) {
    caPem = await readFile(request.caFile, 'utf8').catch(() => {
      throw new UsageError(`无法读取 CA 证书文件：${request.caFile}`);
    });
    if (!caPem.includes('-----BEGIN CERTIFICATE-----')) throw new UsageError(`CA 证书文件 ${request.caFile} 不是 PEM 格式的证书`);
  }
  let password: string | undefined;
  if (request.passwordStdin) {
    password = (await io.readStdin()).replace(/\r?\n$/, '');
    if (!password) throw new UsageError('--password-stdin 从标准输入读到的密码为空');
  }
  if (password !== undefined && !request.username) throw new UsageError('--password-stdin 需要同时用 --username 指定用户名');
  const auth = request.username ? { username: request.username, ...(password !== undefined && { password }) } : undefined;
  const layout = path.join(work, 'layout');
  let shown = -1;
  await pullImage(reference, layout, {
    auth,
    caPem,
    insecureHttp: request.insecureHttp,
    platform: request.platform,
    onProgress: (p) => {
      const percent = p.total ? Math.floor((p.bytes / p.total) * 100) : 0;
      if (percent >= shown + 10 || p.bytes === p.total) {
        shown = percent;
        io.progress?.(`拉取 ${reference}：第 ${p.layer}/${p.layers} 层，${percent}%`);
      }
    },
  });
  return { layout, reference };
}

/** Pulls the image into a private temp folder, analyses it there offline, and removes the folder. */
async function pullAndScan(request: PullRequest, io: ScanIo): Promise<ScannedImage> {
  const work = await mkdtemp(path.join(tmpdir(), 'cairn-pull-'));
  try {
    const { layout, reference } = await pullToLayout(request, io, work);
    io.progress?.(`已拉取 ${reference}，开始分析`);
    return await scanImageInput(layout, { platform: request.platform, reference });
  } finally {
    await rm(work, { recursive: true, force: true, maxRetries: 3 });
  }
}

/** The options of pulling from a registry (cairn scan --image, cairn feature --image). */
export const REGISTRY_OPTIONS = {
  image: { type: 'string' },
  platform: { type: 'string' },
  username: { type: 'string' },
  'password-stdin': { type: 'boolean', default: false },
  'ca-file': { type: 'string' },
  'insecure-http': { type: 'boolean', default: false },
} as const;

const OPTIONS = {
  format: { type: 'string', short: 'f', default: 'json' },
  output: { type: 'string', short: 'o' },
  kb: { type: 'string' },
  'jar-index': { type: 'string' },
  resolve: { type: 'boolean', default: false },
  'maven-repo': { type: 'string', multiple: true },
  'npm-registry': { type: 'string', multiple: true },
  'pypi-index': { type: 'string', multiple: true },
  ...REGISTRY_OPTIONS,
} as const;

function parseScanArgs(args: string[]) {
  // A password on the command line would stay in the shell history and the process list: refused, and never echoed.
  if (args.some((a) => a === '--password' || a.startsWith('--password='))) throw new UsageError('不接受命令行上的密码：请用 --password-stdin 从标准输入传入');
  try {
    return parseArgs({ args, allowPositionals: true, options: OPTIONS });
  } catch (error) {
    const code = (error as { code?: string }).code;
    const option = /'(-[^']*)'/.exec((error as Error).message)?.[1] ?? '';
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw new UsageError(`未知选项：${option}\n\n${scanUsage}`);
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') throw new UsageError(`选项 ${option} 缺少取值或取值不正确\n\n${scanUsage}`);
    throw new UsageError(`${(error as Error).message}\n\n${scanUsage}`);
  }
}

/** What a scan printed: the document as text, '' when it was written to `file` instead. */
export async function scanCommand(args: string[], io: ScanIo = defaultIo): Promise<{ output: string; file?: string; summary: string }> {
  const { values, positionals } = parseScanArgs(args);
  const target = positionals[0];
  if (values.image !== undefined ? positionals.length > 0 : !target || positionals.length > 1) throw new UsageError(values.image !== undefined ? `--image 与要扫描的路径只能给一个\n\n${scanUsage}` : scanUsage);
  const pulling = values.image !== undefined;
  const registryOnly = (['username', 'password-stdin', 'ca-file', 'insecure-http'] as const).filter((o) => values[o]);
  if (!pulling && registryOnly.length) throw new UsageError(`${registryOnly.map((o) => `--${o}`).join('、')} 只用于 --image 从镜像仓库拉取`);
  const format = values.format as OutputFormat;
  const { OUTPUT_FORMATS, toCycloneDx, toJson, toSpdx, jsonPieces } = await (await engine()).loadOutputFormats();
  if (!OUTPUT_FORMATS.includes(format)) throw new UsageError(`不支持的输出格式：${values.format}（可选 ${OUTPUT_FORMATS.join('、')}）\n\n${scanUsage}`);

  if (values.kb && format !== 'json') throw new UsageError('--kb 目前只能与 --format json 一起使用（CycloneDX 漏洞导出随报告功能提供）');
  const kbFile = values.kb ? path.resolve(values.kb) : null;
  const online = onlineOptions(values);
  if (online && pulling) throw new UsageError('--resolve 只用于目录与压缩包，不用于容器镜像');
  if (kbFile && !(await stat(kbFile).catch(() => null))?.isFile()) throw new UsageError(`找不到知识库文件：${values.kb}（先用 cairn kb import --db ${values.kb} <漏洞数据> 建立）`);

  // The SHA-1 index of this scan (none unless given: a previous scan's in the same process is dropped).
  const { loadJarIndex, useJarIndex } = await (await engine()).loadJarIndexes();
  const { UserError } = await import('../../server/errors.ts');
  try {
    useJarIndex(values['jar-index'] !== undefined ? await loadJarIndex(path.resolve(values['jar-index'])) : undefined);
  } catch (error) {
    throw error instanceof UserError ? new UsageError(error.message) : error;
  }

  let result: ScanResult;
  let image: ScannedImage | null = null;
  let name: string;
  if (pulling) {
    image = await pullAndScan({
      reference: values.image!, platform: values.platform, username: values.username, passwordStdin: values['password-stdin'], caFile: values['ca-file'], insecureHttp: values['insecure-http'],
    }, io);
    result = image.scan;
    result.root = image.image.reference ?? values.image!;
    name = result.root;
  } else {
    const given = path.resolve(target!);
    const info = await stat(given).catch(() => null);
    if (!info) throw new UsageError(`找不到要扫描的路径：${target}`);
    const { detectImage, isFeatureFile } = await engine();
    const resolvable = !(info.isFile() && SINGLE_FILE.test(given)) && !(await detectImage(given)) && !(info.isFile() && (await isFeatureFile(given)));
    if (online && !resolvable) throw new UsageError('--resolve 只用于目录与压缩包，不用于容器镜像、特征文件、SBOM 或组件清单');
    if (!(info.isFile() && SINGLE_FILE.test(given)) && (await detectImage(given))) {
      image = await scanImageInput(given, { platform: values.platform });
      result = image.scan;
    } else if (info.isFile() && (await isFeatureFile(given))) {
      if (values.platform) throw new UsageError(`--platform 只用于容器镜像：特征文件 ${target} 已是生成时所选平台的内容`);
      ({ result, image } = await scanFeatureInput(given));
    } else {
      if (values.platform) throw new UsageError(`--platform 只用于容器镜像，${target} 不是镜像`);
      result = info.isFile() && SINGLE_FILE.test(given) ? await importFile(given) : await scanInput(given, online);
    }
    result.root = given;
    name = path.basename(given);
  }
  const tool = { name: 'Cairn', version: productVersion() };
  const layered = image ? { image: image.image, layers: image.layers } : undefined;
  const doc = format === 'json' ? toJson(result, tool, layered) : format === 'cyclonedx' ? toCycloneDx(result, tool, name, layered) : toSpdx(result, tool, name, layered);
  const vulnerable = kbFile ? await addVulnerabilities(doc as JsonDocument, kbFile) : null;
  const count = new Set(result.targets.flatMap((t) => t.components.map((c) => c.purl))).size;
  const about = image ? `镜像 ${image.image.reference ?? image.image.manifestDigest}（${image.image.platform}${image.image.os ? `，${image.image.os.prettyName}` : ''}，${image.image.layers.length} 层）` : '';
  const summary = `扫描完成：${about ? `${about}，` : ''}${result.stats.files} 个文件，${result.targets.length} 个清单，${count} 个组件，${result.problems.length} 个问题，用时 ${result.stats.ms} 毫秒${vulnerable ? `；${vulnerable}` : ''}`;
  if (values.output) {
    await writeDocument(values.output, jsonPieces(doc));
    return { output: '', file: values.output, summary };
  }
  return { output: JSON.stringify(doc, null, 2) + '\n', summary };
}

/** Written in chunks of about this many characters. */
const CHUNK = 1 << 16;

/**
 * Writes the document's text (and a final newline) to `file` piece by piece, in chunks: a huge
 * inventory's text is never held whole (server/engine/output/write-json.ts).
 */
async function writeDocument(file: string, pieces: Iterable<string>): Promise<void> {
  const handle = await open(file, 'w');
  try {
    let chunk: string[] = [];
    let size = 0;
    for (const piece of pieces) {
      chunk.push(piece);
      size += piece.length;
      if (size >= CHUNK) {
        await handle.write(chunk.join(''));
        chunk = [];
        size = 0;
      }
    }
    chunk.push('\n');
    await handle.write(chunk.join(''));
  } finally {
    await handle.close();
  }
}

type JsonDocument = { components: InventoryEntry[]; vulnerabilitySummary?: object };

/** Matches the inventory against a knowledge-base file and adds the findings to each component. */
async function addVulnerabilities(doc: JsonDocument, kbFile: string): Promise<string> {
  const { openKnowledgeBase } = await import('../../server/kb/open.ts');
  const { loadAdvisories } = await import('../../server/db/repositories/knowledge-base.ts');
  const { buildAdvisoryIndex, matchComponents } = await engine();
  const kb = await openKnowledgeBase(kbFile);
  let advisories;
  try {
    advisories = await loadAdvisories(kb.db);
  } finally {
    await kb.close();
  }
  const matched = matchComponents(buildAdvisoryIndex(advisories), doc.components);
  const levels: Record<number, number> = { 1: 0, 2: 0, 4: 0, 8: 0, 16: 0 };
  let findings = 0;
  doc.components = matched.map(({ component, findings: list, risk }) => {
    findings += list.length;
    for (const f of list) levels[f.level] = (levels[f.level] ?? 0) + 1;
    return {
      ...component,
      riskLevel: risk,
      vulnerabilities: list.map((f) => ({ id: f.id, aliases: f.aliases, level: f.level, score: f.score, exploit: f.exploit, fixedVersions: f.fixedVersions, fixState: f.fixState, summary: f.summary })),
    };
  });
  doc.vulnerabilitySummary = { advisories: advisories.length, findings, levels };
  const affected = matched.filter((m) => m.findings.length).length;
  return `知识库 ${advisories.length} 条漏洞，${affected} 个组件命中 ${findings} 个漏洞（超危 ${levels[1]}，高危 ${levels[2]}，中危 ${levels[4]}，低危 ${levels[8]}，未知 ${levels[16]}）`;
}
