// `cairn licenses <file|dir> [--format json] [--output file]`: licence text recognition (analysis
// mode 4) and copyright detection (mode 7) over a file or a source tree, offline. Prints, per file
// that has any, the SPDX ids found with score and line range, and the copyrights, holders and
// authors with their lines.
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { LicenseMatch } from '../../server/engine/index.ts';
import { productVersion } from '../../server/version.ts';

export const licensesUsage = `用法：cairn licenses <文件或目录> [--format json] [--output 文件]

识别许可证文本（LICENSE、COPYING、NOTICE、文件头和 SPDX-License-Identifier 标记）和版权声明，
输出每个文件的 SPDX 许可证（置信度、行号范围）以及版权声明、版权人和作者（行号）。
文件按各自的编码读取（UTF-8、带 BOM 的 UTF-16、GB18030、Latin-1/Windows-1252），
二进制文件（DLL、共享库）读取其中的可打印字符串。
  --format, -f   输出格式：json（默认）
  --output, -o   写入文件而不是标准输出`;

export class LicensesUsageError extends Error {}

/** Larger files are not source text worth reading for notices (generated bundles, data). */
const MAX_FILE_BYTES = 4 * 1024 * 1024;
const CONCURRENCY = 8;

interface Found { value: string; startLine: number; endLine: number }
export interface FileFindings {
  path: string;
  licenses: LicenseMatch[];
  copyrights: Found[];
  holders: Found[];
  authors: Found[];
}

export async function licensesCommand(args: string[]): Promise<{ output: string; file?: string; summary: string }> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { format: { type: 'string', short: 'f', default: 'json' }, output: { type: 'string', short: 'o' } },
  });
  const target = positionals[0];
  if (!target || positionals.length > 1) throw new LicensesUsageError(licensesUsage);
  if (values.format !== 'json') throw new LicensesUsageError(`不支持的输出格式：${values.format}（可选 json）\n\n${licensesUsage}`);
  const given = path.resolve(target);
  const info = await stat(given).catch(() => null);
  if (!info) throw new LicensesUsageError(`找不到要识别的路径：${target}`);

  // The engine is loaded when recognition runs, not for `cairn licenses --help`.
  const { loadCopyrightDetection, loadLicenseRecognition, readableText, walkTree } = await import('../../server/engine/index.ts');
  const [{ createLicenseRecognizer }, { detectCopyrights }] = await Promise.all([loadLicenseRecognition(), loadCopyrightDetection()]);
  const started = performance.now();
  const recognizer = createLicenseRecognizer();
  const files: FileFindings[] = [];
  let read = 0;
  let skipped = 0;

  const examine = async (rel: string, absolute: string, size: number) => {
    if (size > MAX_FILE_BYTES) { skipped++; return; }
    // Each file in its own encoding; a binary by its printable strings (text-decode.ts).
    const { text } = readableText(await readFile(absolute));
    if (!text) { skipped++; return; }
    read++;
    const licenses = recognizer.recognize(text, path.basename(rel));
    const { copyrights, holders, authors } = detectCopyrights(text);
    if (licenses.length || copyrights.length || holders.length || authors.length) files.push({ path: rel, licenses, copyrights, holders, authors });
  };

  if (info.isFile()) {
    await examine(path.basename(given), given, info.size);
  } else {
    const running = new Set<Promise<void>>();
    for await (const file of walkTree(given)) {
      const job = examine(file.path, file.absolute, file.size).finally(() => running.delete(job));
      running.add(job);
      if (running.size >= CONCURRENCY) await Promise.race(running);
    }
    await Promise.all(running);
  }
  files.sort((a, b) => a.path.localeCompare(b.path));
  const ms = Math.round(performance.now() - started);
  const doc = { tool: { name: 'Cairn', version: productVersion() }, root: given, generatedAt: new Date().toISOString(), stats: { files: read, skipped, ms }, files };
  const output = JSON.stringify(doc, null, 2) + '\n';
  const ids = new Set(files.flatMap((f) => f.licenses.map((l) => l.spdx)));
  const summary = `识别完成：读取 ${read} 个文件（跳过无可读文本或过大的文件 ${skipped} 个），${files.filter((f) => f.licenses.length).length} 个文件含许可证（${ids.size} 种），${files.filter((f) => f.holders.length).length} 个文件含版权人，用时 ${ms} 毫秒`;
  if (values.output) await writeFile(values.output, output);
  return { output, file: values.output, summary };
}
