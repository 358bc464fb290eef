// Licence recognition on real texts it was never tuned on: the LICENSE / COPYING file of every
// package in this project's node_modules against the single SPDX id its package.json declares.
// Not a timing: it prints how many files yield exactly the declared licence (as a full text or
// notice), how many are reported as modified texts (LicenseRef-Cairn-modified-…, each listed with
// its evidence so a reader can judge it) and the rest, so a change to the recognizer can be
// checked against a few hundred real licence files. Identical texts count once.
//
// Second part, on Debian: every /usr/share/doc/*/copyright of the installed packages (notices files
// holding many licences, often near-variants such as HPND's): how many licence texts are reported
// as modified, each with its first evidence lines, to be read by a person — some are real variants.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { loadLicenseRecognition, readableText } from '../server/engine/index.ts';

const ROOT = path.resolve(import.meta.dirname, '../node_modules');
const LICENCE_FILE = /^(licen[cs]e|copying)(\.(md|txt|markdown))?$/i;

function packageDirs(): string[] {
  const dirs: string[] = [];
  for (const entry of readdirSync(ROOT)) {
    if (entry.startsWith('.')) continue;
    if (entry.startsWith('@')) for (const inner of readdirSync(path.join(ROOT, entry))) dirs.push(path.join(ROOT, entry, inner));
    else dirs.push(path.join(ROOT, entry));
  }
  return dirs;
}

function declaredOf(dir: string): string | undefined {
  try {
    const license = (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { license?: unknown }).license;
    // Expressions and "SEE LICENSE IN" are not one id to compare with.
    return typeof license === 'string' && /^[A-Za-z0-9.+-]+$/.test(license) ? license : undefined;
  } catch {
    return undefined;
  }
}

export async function run(): Promise<void> {
  const { createLicenseRecognizer } = await loadLicenseRecognition();
  const recognizer = createLicenseRecognizer();
  const seen = new Set<string>();
  const counts = { files: 0, exact: 0, modified: 0, none: 0, other: 0 };
  const notes: string[] = [];
  for (const dir of packageDirs()) {
    const declared = declaredOf(dir);
    const file = declared ? readdirSync(dir).find((f) => LICENCE_FILE.test(f)) : undefined;
    if (!declared || !file || !statSync(path.join(dir, file)).isFile()) continue;
    const text = readableText(readFileSync(path.join(dir, file))).text;
    if (seen.has(text)) continue;
    seen.add(text);
    counts.files++;
    const matches = recognizer.recognize(text).filter((m) => m.kind === 'text' || m.kind === 'header');
    const ids = [...new Set(matches.map((m) => m.spdx))];
    const name = path.relative(ROOT, dir);
    if (ids.length === 1 && ids[0] === declared) counts.exact++;
    else if (matches.some((m) => m.nearest)) {
      counts.modified++;
      notes.push(`修改文本 ${name}（声明 ${declared}）：${ids.join(', ')}\n    ${(matches.find((m) => m.nearest)?.evidence ?? []).slice(0, 3).join('\n    ')}`);
    } else if (ids.length === 0) {
      counts.none++;
      notes.push(`未识别 ${name}（声明 ${declared}）`);
    } else {
      counts.other++;
      notes.push(`不同 ${name}（声明 ${declared}）：${ids.join(', ')}`);
    }
  }
  console.log(notes.join('\n'));
  const pct = (n: number) => `${((100 * n) / Math.max(1, counts.files)).toFixed(1)} %`;
  console.log(`${counts.files} 个不同的许可证文件：与 package.json 声明一致 ${counts.exact}（${pct(counts.exact)}），修改文本 ${counts.modified}，未识别 ${counts.none}，其他 ${counts.other}`);
  debianCopyrights(recognizer);
}

function debianCopyrights(recognizer: { recognize(text: string): Array<{ spdx: string; kind: string; nearest?: string; evidence?: string[] }> }): void {
  const DOC = '/usr/share/doc';
  if (!existsSync(DOC)) return;
  const seen = new Set<string>();
  let files = 0;
  let texts = 0;
  const modified: string[] = [];
  for (const pkg of readdirSync(DOC).sort()) {
    const file = path.join(DOC, pkg, 'copyright');
    if (!existsSync(file)) continue;
    const text = readableText(readFileSync(file)).text;
    if (seen.has(text)) continue;
    seen.add(text);
    files++;
    for (const m of recognizer.recognize(text)) {
      if (m.kind !== 'text') continue;
      texts++;
      if (m.nearest) modified.push(`  ${pkg}：${m.spdx}  ${(m.evidence ?? [])[0] ?? ''}`);
    }
  }
  console.log(`\nDebian 版权文件 ${files} 个：识别出全文 ${texts} 段，其中报告为修改文本 ${modified.length} 段：\n${modified.join('\n')}`);
}
