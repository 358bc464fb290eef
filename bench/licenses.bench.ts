// Licence text recognition and copyright detection over a real source tree: this project's own
// node_modules (tens of thousands of ordinary files, most without any licence text). Prints
// files per second, MB per second, and the share of the time spent on files in which nothing
// was found — the pre-filters' job is to make that share small.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { licenseText, loadCopyrightDetection, loadLicenseRecognition, walkTree } from '../server/engine/index.ts';

const ROOT = path.resolve(import.meta.dirname, '../node_modules');
const LIMIT = 20_000;
const TEXT = /\.(js|cjs|mjs|ts|d\.ts|json|md|txt|c|h|cc|py|rb|go|rs|java|css|html|yml|yaml)$|(^|\/)(LICEN[CS]E|COPYING|NOTICE|AUTHORS)[^/]*$/i;

export async function run(): Promise<void> {
  const [{ createLicenseRecognizer }, { detectCopyrights }] = await Promise.all([loadLicenseRecognition(), loadCopyrightDetection()]);
  const files: { path: string; text: string }[] = [];
  let bytes = 0;
  for await (const file of walkTree(ROOT)) {
    if (!TEXT.test(file.path) || file.size > 1024 * 1024) continue;
    const text = await readFile(file.absolute, 'utf8');
    files.push({ path: file.path, text });
    bytes += text.length;
    if (files.length >= LIMIT) break;
  }
  let start = performance.now();
  const recognizer = createLicenseRecognizer();
  recognizer.recognize(licenseText('MIT'));
  const buildMs = performance.now() - start;

  for (const [label, work] of [
    ['许可证识别', (text: string, name: string) => recognizer.recognize(text, name).length],
    ['版权检测', (text: string) => { const d = detectCopyrights(text); return d.copyrights.length + d.authors.length; }],
  ] as const) {
    let emptyMs = 0;
    let hits = 0;
    start = performance.now();
    for (const f of files) {
      const t = performance.now();
      const found = work(f.text, path.basename(f.path));
      if (found) hits++;
      else emptyMs += performance.now() - t;
    }
    const ms = performance.now() - start;
    console.log(`${label.padEnd(8)} ${files.length} 个文件 ${(bytes / 1048576).toFixed(1)} MB：${((files.length / ms) * 1000).toFixed(0)} 文件/秒，${(bytes / 1048576 / (ms / 1000)).toFixed(1)} MB/秒；${hits} 个文件有结果；无结果文件用时占 ${((emptyMs / ms) * 100).toFixed(0)}%`);
  }
  console.log(`（建立许可证索引 ${buildMs.toFixed(0)} ms，不计入上面的速度）`);
}
