// `cairn scan <path> [--format json|cyclonedx|spdx] [--output file]`: scans a directory or an
// archive offline and prints (or writes) the components found.
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { allExtractors } from '../../server/engine/extractors/index.ts';
import type { ScanResult, Target } from '../../server/engine/model.ts';
import { ExtractError } from '../../server/engine/model.ts';
import { OUTPUT_FORMATS, toCycloneDx, toJson, toSpdx, type OutputFormat } from '../../server/engine/output/formats.ts';
import { scanTree } from '../../server/engine/scan.ts';
import { openInput, UnpackError } from '../../server/engine/sources/unpack.ts';
import { productVersion } from '../../server/version.ts';

export const scanUsage = `用法：cairn scan <目录、压缩包（zip/jar/war、7z、tar、tar.gz、tar.bz2、tar.xz）、SBOM 或 Excel/CSV 组件清单> [--format json|cyclonedx|spdx] [--output 文件]

  --format, -f   输出格式：json（默认）、cyclonedx（CycloneDX 1.6 JSON）、spdx（SPDX 2.3 JSON）
  --output, -o   写入文件而不是标准输出`;

export class UsageError extends Error {}

/** Files that are an inventory by themselves: Excel/CSV component lists and SBOMs. */
const SINGLE_FILE = /\.(xlsx|xlsm|xls|csv|json|xml|spdx|ya?ml|rdf|tv|jsonl)$/i;

async function importFile(file: string): Promise<ScanResult> {
  const started = performance.now();
  const name = path.basename(file);
  let target: Target;
  try {
    if (/\.(xlsx|xlsm|xls|csv)$/i.test(file)) {
      const { importComponentList } = await import('../../server/engine/extractors/excel/index.ts');
      const imported = await importComponentList({ path: name, read: () => readFile(file) });
      for (const r of imported.rejected) console.error(r.reason);
      target = imported.target;
    } else {
      const { importSbom } = await import('../../server/engine/extractors/sbom/index.ts');
      target = await importSbom(await readFile(file, 'utf8'), name);
    }
  } catch (error) {
    throw error instanceof ExtractError ? new UsageError(error.message) : error;
  }
  const bytes = (await stat(file)).size;
  return { root: file, targets: [target], problems: [], stats: { files: 1, bytes, ms: Math.round(performance.now() - started) } };
}

/** A directory is scanned in place; an archive is unpacked (with limits) into a temp folder. */
async function scanInput(given: string): Promise<ScanResult> {
  const input = await openInput(given).catch((error: unknown) => {
    throw error instanceof UnpackError ? new UsageError(error.message) : error;
  });
  try {
    return await scanTree(input.root, { extractors: allExtractors });
  } finally {
    await input.cleanup();
  }
}

export async function scanCommand(args: string[]): Promise<{ output: string; file?: string; summary: string }> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { format: { type: 'string', short: 'f', default: 'json' }, output: { type: 'string', short: 'o' } },
  });
  const target = positionals[0];
  if (!target || positionals.length > 1) throw new UsageError(scanUsage);
  const format = values.format as OutputFormat;
  if (!OUTPUT_FORMATS.includes(format)) throw new UsageError(`不支持的输出格式：${values.format}（可选 ${OUTPUT_FORMATS.join('、')}）\n\n${scanUsage}`);

  const given = path.resolve(target);
  const info = await stat(given).catch(() => null);
  if (!info) throw new UsageError(`找不到要扫描的路径：${target}`);
  const result = info.isFile() && SINGLE_FILE.test(given) ? await importFile(given) : await scanInput(given);
  result.root = given;
  const tool = { name: 'Cairn', version: productVersion() };
  const name = path.basename(given);
  const doc = format === 'json' ? toJson(result, tool) : format === 'cyclonedx' ? toCycloneDx(result, tool, name) : toSpdx(result, tool, name);
  const output = JSON.stringify(doc, null, 2) + '\n';
  const count = new Set(result.targets.flatMap((t) => t.components.map((c) => c.purl))).size;
  const summary = `扫描完成：${result.stats.files} 个文件，${result.targets.length} 个清单，${count} 个组件，${result.problems.length} 个问题，用时 ${result.stats.ms} 毫秒`;
  if (values.output) await writeFile(values.output, output);
  return { output, file: values.output, summary };
}
