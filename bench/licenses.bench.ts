// Licence text recognition and copyright detection over a real source tree: this project's own
// node_modules (tens of thousands of ordinary files, most without any licence text). Prints
// files per second, MB per second, and the share of the time spent on files in which nothing
// was found — the pre-filters' job is to make that share small.
//
// Second part: licence-dense text, ScanCode's lic1 licence files (../shared/corpora, the non-.yml
// ones), recognition and copyright detection per file in this process (CPU time too: the machine is
// shared). The same files against Debian's licensecheck as whole commands, interleaved, are in
// peers.bench.ts.
import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { licenseText, loadCopyrightDetection, loadLicenseRecognition, readableText, walkTree, type WalkedFile } from '../server/engine/index.ts';

const LIC1 = path.resolve(import.meta.dirname, '../../shared/corpora/licenses/scancode/lic1');
const ROUNDS = 3;
const TEXT = /\.(js|cjs|mjs|ts|d\.ts|json|md|txt|c|h|cc|py|rb|go|rs|java|css|html|yml|yaml)$|(^|\/)(LICEN[CS]E|COPYING|NOTICE|AUTHORS)[^/]*$/i;

/** The bench selection: the first 20,000 text files (≤ 1 MiB) of this project's node_modules, in walk order. Shared with peers.bench.ts. */
export async function* licenceBenchFiles(limit = 20_000): AsyncGenerator<WalkedFile> {
  let n = 0;
  for await (const file of walkTree(path.resolve(import.meta.dirname, '../node_modules'))) {
    if (!TEXT.test(file.path) || file.size > 1024 * 1024) continue;
    yield file;
    if (++n >= limit) return;
  }
}

export async function run(): Promise<void> {
  const [{ createLicenseRecognizer }, { detectCopyrights }] = await Promise.all([loadLicenseRecognition(), loadCopyrightDetection()]);
  const files: { path: string; text: string }[] = [];
  let bytes = 0;
  for await (const file of licenceBenchFiles()) {
    const text = await readFile(file.absolute, 'utf8');
    files.push({ path: file.path, text });
    bytes += text.length;
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
  await licenceDense(recognizer, detectCopyrights);
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const cpuMs = (u: NodeJS.CpuUsage): number => (u.user + u.system) / 1000;

async function licenceDense(recognizer: { recognize(text: string, name?: string): unknown[] }, detectCopyrights: (text: string) => unknown): Promise<void> {
  if (!existsSync(LIC1)) {
    console.log(`（没有 ScanCode lic1 语料 ${LIC1}，跳过许可证密集文本部分）`);
    return;
  }
  const names = readdirSync(LIC1).filter((f) => !f.endsWith('.yml')).sort();
  const texts = await Promise.all(names.map(async (f) => readableText(await readFile(path.join(LIC1, f))).text));
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const start = performance.now();
    const cpu = process.cpuUsage();
    for (const [i, text] of texts.entries()) {
      recognizer.recognize(text, names[i]);
      detectCopyrights(text);
    }
    cpus.push(cpuMs(process.cpuUsage(cpu)));
    walls.push(performance.now() - start);
  }
  console.log(`lic1 进程内 ${texts.length} 个文件（许可证识别 + 版权检测），${ROUNDS} 轮中位数：${((texts.length / median(walls)) * 1000).toFixed(0)} 文件/秒（墙钟），${((texts.length / median(cpus)) * 1000).toFixed(0)} 文件/秒（CPU）`);

  // The same files against Debian's licensecheck, as whole commands: `npm run bench -- peers`.
}
