// Issue 17 (Done when 4): a ~200 MB folder of built artefacts — 300 Java archives, some nested (wars
// holding jars, Spring Boot fat jars holding stored jars, ears holding wars), made from Debian's
// /usr/share/java jars, and 50 executables (the Go programs of Debian's golang-go, docker-registry
// and skopeo, then other ELF files of /usr/bin and /usr/lib) — analysed the way `cairn scan`
// analyses a folder (scanTree with every extractor), in a fresh process: wall time, peak RSS,
// components, problems. Run: `npm run bench -- binaries` (needs zip and the .ci/run packages).
import { execFileSync } from 'node:child_process';
import { closeSync, copyFileSync, lstatSync, openSync, readSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const MiB = 1024 * 1024;
const JARS = 300;
const EXECUTABLES = 50;
/** Bytes of executables aimed at; the jars make up the rest of ~200 MB. */
const EXECUTABLE_BUDGET = 90 * MiB;

function realFiles(dir: string, test: (name: string) => boolean): string[] {
  let names: string[];
  try { names = readdirSync(dir); } catch { return []; }
  return names.filter(test).map((n) => path.join(dir, n)).filter((f) => lstatSync(f).isFile());
}

const isElf = (file: string) => {
  try {
    const fd = openSync(file, 'r');
    const head = Buffer.alloc(4);
    readSync(fd, head, 0, 4, 0);
    closeSync(fd);
    return head.toString('latin1') === '\x7fELF';
  } catch {
    return false;
  }
};

/** Go programs first (they carry build info), then the largest other ELF executables and libraries. */
function pickExecutables(): string[] {
  const go = [
    '/usr/bin/docker-registry', '/usr/bin/skopeo',
    ...realFiles('/usr/lib/go-1.19/bin', () => true),
    ...realFiles('/usr/lib/go-1.19/pkg/tool/linux_amd64', () => true),
  ].filter((f) => { try { return statSync(f).isFile(); } catch { return false; } });
  const others = [...realFiles('/usr/bin', () => true), ...realFiles('/usr/lib/x86_64-linux-gnu', (n) => /\.so[.\d]*$/.test(n))]
    .filter((f) => !go.includes(f) && statSync(f).size >= 128 * 1024 && statSync(f).size <= 8 * MiB && isElf(f))
    .sort((a, b) => statSync(b).size - statSync(a).size);
  const picked: string[] = [];
  let bytes = 0;
  for (const f of go) {
    if (picked.length >= EXECUTABLES - 25 || bytes + statSync(f).size > EXECUTABLE_BUDGET * 0.6) continue;
    picked.push(f);
    bytes += statSync(f).size;
  }
  for (const f of others) {
    if (picked.length >= EXECUTABLES) break;
    // At most 1.3 times the average size the rest of the budget leaves: fifty files, not a few large ones.
    if (statSync(f).size > (1.3 * (EXECUTABLE_BUDGET - bytes)) / (EXECUTABLES - picked.length)) continue;
    picked.push(f);
    bytes += statSync(f).size;
  }
  return picked;
}

/** `zip` run in a folder laid out from `files` (source paths); `stored` entries kept uncompressed. */
function zipOf(out: string, files: Record<string, string>, work: string, stored = false): void {
  const dir = mkdtempSync(path.join(work, 'z-'));
  for (const [rel, from] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    if (from.startsWith('text:')) writeFileSync(path.join(dir, rel), from.slice(5));
    else copyFileSync(from, path.join(dir, rel));
  }
  execFileSync('zip', ['-q', '-r', '-X', ...(stored ? ['-0'] : []), out, '.'], { cwd: dir });
  rmSync(dir, { recursive: true, force: true });
}

function buildBinaryFolder(root: string, work: string): { jars: number; nested: number; executables: number; bytes: number } {
  const jars = realFiles('/usr/share/java', (n) => n.endsWith('.jar')).sort();
  if (!jars.length) throw new Error('/usr/share/java 中没有 jar：先安装 .ci/run 中的 Debian 软件包');
  let next = 0;
  const take = (n: number) => Array.from({ length: n }, () => jars[next++ % jars.length]!);
  const pom = (g: string, a: string, v: string) => `text:groupId=${g}\nartifactId=${a}\nversion=${v}\n`;
  let nested = 0;
  let made = 0;
  // 40 wars of 5 jars, 40 Spring Boot jars of 5 stored jars, 20 ears holding a war of 4 jars: 100 archives holding 500.
  for (let i = 0; i < 40; i++) {
    const lib = Object.fromEntries(take(5).map((j, k) => [`WEB-INF/lib/${k}-${path.basename(j)}`, j]));
    const out = path.join(root, `webapps/shop-${i}.war`);
    mkdirSync(path.dirname(out), { recursive: true });
    zipOf(out, { 'META-INF/maven/com.example/shop/pom.properties': pom('com.example', `shop-${i}`, '1.0.0'), 'WEB-INF/web.xml': 'text:<web-app/>', ...lib }, work);
    nested += 5; made++;
  }
  for (let i = 0; i < 40; i++) {
    const lib = Object.fromEntries(take(5).map((j, k) => [`BOOT-INF/lib/${k}-${path.basename(j)}`, j]));
    const out = path.join(root, `services/svc-${i}/svc-${i}-2.1.0.jar`);
    mkdirSync(path.dirname(out), { recursive: true });
    zipOf(out, { 'META-INF/maven/com.example/svc/pom.properties': pom('com.example', `svc-${i}`, '2.1.0'), ...lib }, work, true);
    nested += 5; made++;
  }
  for (let i = 0; i < 20; i++) {
    const war = path.join(work, `inner-${i}.war`);
    zipOf(war, { 'META-INF/maven/com.example/portal/pom.properties': pom('com.example', `portal-${i}`, '3.0'), ...Object.fromEntries(take(4).map((j, k) => [`WEB-INF/lib/${k}-${path.basename(j)}`, j])) }, work);
    const out = path.join(root, `ear/portal-${i}.ear`);
    mkdirSync(path.dirname(out), { recursive: true });
    zipOf(out, { 'META-INF/application.xml': 'text:<application/>', [`portal-${i}.war`]: war }, work);
    rmSync(war);
    nested += 5; made++;
  }
  // The other 200 as plain jars in application lib folders.
  for (let i = 0; made < JARS; i++, made++) {
    const j = take(1)[0]!;
    const out = path.join(root, `apps/app-${i % 20}/lib/${Math.floor(i / 20)}-${path.basename(j)}`);
    mkdirSync(path.dirname(out), { recursive: true });
    copyFileSync(j, out);
  }
  const executables = pickExecutables();
  executables.forEach((f, i) => {
    const out = path.join(root, `opt/tools/bin/${i}-${path.basename(f)}`);
    mkdirSync(path.dirname(out), { recursive: true });
    copyFileSync(f, out);
  });
  const bytes = Number(execFileSync('du', ['-sb', root], { encoding: 'utf8' }).split('\t')[0]);
  return { jars: made, nested, executables: executables.length, bytes };
}

function scanOnce(root: string): { ms: number; maxRssMB: number; components: number; problems: number } {
  const out = execFileSync(process.execPath, [path.join(import.meta.dirname, 'scan-child.ts'), root], { encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').pop()!);
}

export async function run(): Promise<void> {
  const work = mkdtempSync(path.join(tmpdir(), 'cairn-bench-binaries-'));
  try {
    const root = path.join(work, 'root');
    mkdirSync(root);
    const built = buildBinaryFolder(root, work);
    console.log(`目录：${(built.bytes / MiB).toFixed(0)} MiB，${built.jars} 个 Java 归档（其中内嵌 ${built.nested} 个），${built.executables} 个可执行文件`);
    scanOnce(root); // warm the page cache
    for (let i = 0; i < 3; i++) {
      const r = scanOnce(root);
      console.log(`第 ${i + 1} 次  ${(r.ms / 1000).toFixed(2).padStart(6)} s  峰值内存 ${r.maxRssMB.toFixed(0).padStart(4)} MB  ${r.components} 个组件  ${r.problems} 个问题`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
