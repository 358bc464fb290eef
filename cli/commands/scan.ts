// `cairn scan <path> [--format json|cyclonedx|spdx] [--output file]`: scans a directory or an
// archive offline and prints (or writes) the components found. The engine is loaded when a scan
// runs, not for `cairn scan --help`.
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { InventoryEntry, OutputFormat, ScanResult, Target } from '../../server/engine/index.ts';
import { productVersion } from '../../server/version.ts';

const engine = () => import('../../server/engine/index.ts');

export const scanUsage = `用法：cairn scan <目录、压缩包（zip/jar/war、7z、tar、tar.gz、tar.bz2、tar.xz）、特征文件（cairn feature 生成）、SBOM 或 Excel/CSV 组件清单> [--format json|cyclonedx|spdx] [--output 文件] [--kb 知识库文件]

  --format, -f   输出格式：json（默认）、cyclonedx（CycloneDX 1.6 JSON）、spdx（SPDX 2.3 JSON）
  --output, -o   写入文件而不是标准输出
  --kb           用漏洞知识库（cairn kb import 生成的数据库文件）匹配漏洞；json 格式中每个组件
                 增加 riskLevel 和 vulnerabilities（id、aliases、level、score、exploit、fixedVersions、summary）`;

export class UsageError extends Error {}

/** Files that are an inventory by themselves: Excel/CSV component lists and SBOMs. */
const SINGLE_FILE = /\.(xlsx|xlsm|xls|csv|json|xml|spdx|ya?ml|rdf|tv|jsonl)$/i;

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
      const { importSbom } = await loadSbom();
      target = await importSbom(await readFile(file, 'utf8'), name);
    }
  } catch (error) {
    throw error instanceof ExtractError ? new UsageError(error.message) : error;
  }
  const bytes = (await stat(file)).size;
  return { root: file, targets: [target], problems: [], stats: { files: 1, bytes, ms: Math.round(performance.now() - started) } };
}

/** A feature file (cairn feature) read into a temporary folder as the platform reads it. */
async function openFeatureFile(file: string): Promise<{ root: string; unpacked?: { problems: ScanResult['problems'] }; cleanup: () => Promise<void> }> {
  const { readFeatureFile } = await engine();
  const parent = await mkdtemp(path.join(tmpdir(), 'cairn-feature-'));
  const cleanup = () => rm(parent, { recursive: true, force: true, maxRetries: 3 });
  try {
    const feature = await readFeatureFile(file, path.join(parent, 'root'), { kind: 'source', name: path.basename(file) });
    return { root: path.join(parent, 'root'), unpacked: { problems: feature.problems }, cleanup };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

/** A directory is scanned in place; an archive is unpacked (with limits) into a temp folder, a feature file read. */
async function scanInput(given: string): Promise<ScanResult> {
  const { isFeatureFile, loadExtractors, openInput, scanTree, UnpackError } = await engine();
  const opening = (await stat(given)).isFile() && (await isFeatureFile(given)) ? openFeatureFile(given) : openInput(given);
  const input = await opening.catch((error: unknown) => {
    throw error instanceof UnpackError ? new UsageError(error.message) : error;
  });
  try {
    const { allExtractors } = await loadExtractors();
    const result = await scanTree(input.root, { extractors: allExtractors });
    // Nested archives left packed (too deep, damaged) are problems: their contents were not read.
    const left = input.unpacked?.problems ?? [];
    if (left.length) result.problems = [...result.problems, ...left].sort((a, b) => a.file.localeCompare(b.file));
    return result;
  } finally {
    await input.cleanup();
  }
}

export async function scanCommand(args: string[]): Promise<{ output: string; file?: string; summary: string }> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { format: { type: 'string', short: 'f', default: 'json' }, output: { type: 'string', short: 'o' }, kb: { type: 'string' } },
  });
  const target = positionals[0];
  if (!target || positionals.length > 1) throw new UsageError(scanUsage);
  const format = values.format as OutputFormat;
  const { OUTPUT_FORMATS, toCycloneDx, toJson, toSpdx } = await (await engine()).loadOutputFormats();
  if (!OUTPUT_FORMATS.includes(format)) throw new UsageError(`不支持的输出格式：${values.format}（可选 ${OUTPUT_FORMATS.join('、')}）\n\n${scanUsage}`);

  if (values.kb && format !== 'json') throw new UsageError('--kb 目前只能与 --format json 一起使用（CycloneDX 漏洞导出随报告功能提供）');
  const kbFile = values.kb ? path.resolve(values.kb) : null;
  if (kbFile && !(await stat(kbFile).catch(() => null))?.isFile()) throw new UsageError(`找不到知识库文件：${values.kb}（先用 cairn kb import --db ${values.kb} <漏洞数据> 建立）`);

  const given = path.resolve(target);
  const info = await stat(given).catch(() => null);
  if (!info) throw new UsageError(`找不到要扫描的路径：${target}`);
  const result = info.isFile() && SINGLE_FILE.test(given) ? await importFile(given) : await scanInput(given);
  result.root = given;
  const tool = { name: 'Cairn', version: productVersion() };
  const name = path.basename(given);
  const doc = format === 'json' ? toJson(result, tool) : format === 'cyclonedx' ? toCycloneDx(result, tool, name) : toSpdx(result, tool, name);
  const vulnerable = kbFile ? await addVulnerabilities(doc as JsonDocument, kbFile) : null;
  const output = JSON.stringify(doc, null, 2) + '\n';
  const count = new Set(result.targets.flatMap((t) => t.components.map((c) => c.purl))).size;
  const summary = `扫描完成：${result.stats.files} 个文件，${result.targets.length} 个清单，${count} 个组件，${result.problems.length} 个问题，用时 ${result.stats.ms} 毫秒${vulnerable ? `；${vulnerable}` : ''}`;
  if (values.output) await writeFile(values.output, output);
  return { output, file: values.output, summary };
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
      vulnerabilities: list.map((f) => ({ id: f.id, aliases: f.aliases, level: f.level, score: f.score, exploit: f.exploit, fixedVersions: f.fixedVersions, summary: f.summary })),
    };
  });
  doc.vulnerabilitySummary = { advisories: advisories.length, findings, levels };
  const affected = matched.filter((m) => m.findings.length).length;
  return `知识库 ${advisories.length} 条漏洞，${affected} 个组件命中 ${findings} 个漏洞（超危 ${levels[1]}，高危 ${levels[2]}，中危 ${levels[4]}，低危 ${levels[8]}，未知 ${levels[16]}）`;
}
