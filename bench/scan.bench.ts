// Whole scans in a fresh process each: every trivy fixture project, and the generated 5,000+
// component monorepo. Prints wall time and peak RSS (the figures go in bench/README.md).
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { generateMonorepo } from './monorepo.ts';

const TRIVY_REPO = path.resolve(import.meta.dirname, '../../shared/corpora/trivy/repo');

function scanOnce(root: string): { ms: number; maxRssMB: number; components: number; problems: number } {
  const out = execFileSync(process.execPath, [path.join(import.meta.dirname, 'scan-child.ts'), root], { encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').pop()!);
}

export async function run(): Promise<void> {
  const row = (name: string, r: ReturnType<typeof scanOnce>) =>
    console.log(`${name.padEnd(28)} ${r.ms.toFixed(0).padStart(6)} ms  峰值内存 ${r.maxRssMB.toFixed(0).padStart(4)} MB  ${String(r.components).padStart(6)} 个组件  ${r.problems} 个问题`);
  const mono = generateMonorepo();
  scanOnce(mono.root); // warm the page cache
  row(`monorepo（≥${mono.expected}）`, scanOnce(mono.root));
  for (const name of readdirSync(TRIVY_REPO).sort()) row(`trivy/${name}`, scanOnce(path.join(TRIVY_REPO, name)));
}
