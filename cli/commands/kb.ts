// `cairn kb`: fills a knowledge-base SQLite file from OSV dumps, a trivy database, NVD feeds and
// CNNVD/CNVD mapping files, or mirrors OSV's per-ecosystem all.zip from a mirror.
import path from 'node:path';

export const kbUsage = `用法：
  cairn kb import [--db <文件>] <zip|目录|文件>...
      导入 OSV 压缩包（all.zip）或 JSON/YAML 目录、trivy 数据库目录、NVD JSON 2.0（.json/.json.gz）
      或 CNNVD/CNVD 编号映射（.csv/.json）；重复导入只更新有变化的漏洞。
  cairn kb sync --mirror <地址> [--ecosystem <生态>]... [--db <文件>] [--dir <下载目录>]
      从 OSV 镜像（<地址>/<生态>/all.zip）同步，断点续传，未变化的生态跳过。
      默认生态：PyPI、npm、Maven、Go、crates.io、RubyGems、Packagist、NuGet。

选项：
  --db <文件>   知识库文件，默认取环境变量 CAIRN_KB，否则为当前目录下的 cairn-kb.db
  --dir <目录>  同步时的下载目录，默认为知识库文件旁的 cairn-kb-downloads`;

const DEFAULT_ECOSYSTEMS = ['PyPI', 'npm', 'Maven', 'Go', 'crates.io', 'RubyGems', 'Packagist', 'NuGet'];

interface Parsed {
  db: string;
  positional: string[];
  mirror: string | null;
  ecosystems: string[];
  dir: string | null;
}

function parseArgs(args: string[]): Parsed | string {
  const parsed: Parsed = { db: process.env.CAIRN_KB?.trim() || 'cairn-kb.db', positional: [], mirror: null, ecosystems: [], dir: null };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const value = (): string | null => {
      const eq = arg.indexOf('=');
      if (eq > 0) return arg.slice(eq + 1);
      const next = args[i + 1];
      if (next === undefined || next.startsWith('--')) return null;
      i++;
      return next;
    };
    const option = arg.startsWith('--') ? arg.slice(2).split('=')[0] : null;
    if (option === null) { parsed.positional.push(arg); continue; }
    const v = value();
    if (v === null || v === '') return `选项 --${option} 缺少取值`;
    if (option === 'db') parsed.db = v;
    else if (option === 'mirror') parsed.mirror = v;
    else if (option === 'ecosystem') parsed.ecosystems.push(...v.split(',').map((e) => e.trim()).filter(Boolean));
    else if (option === 'dir') parsed.dir = v;
    else return `未知选项：--${option}`;
  }
  return parsed;
}

export async function kbCommand(args: string[]): Promise<{ output: string; code: number }> {
  const [sub, ...rest] = args;
  if (!sub || sub === 'help' || sub === '--help' || sub === '-h') return { output: kbUsage, code: sub ? 0 : 2 };
  if (sub !== 'import' && sub !== 'sync') return { output: `未知的 kb 子命令：${sub}\n\n${kbUsage}`, code: 2 };
  const parsed = parseArgs(rest);
  if (typeof parsed === 'string') return { output: `${parsed}\n\n${kbUsage}`, code: 2 };

  if (sub === 'import' && parsed.positional.length === 0) return { output: `请指定要导入的文件或目录\n\n${kbUsage}`, code: 2 };
  if (sub === 'sync' && !parsed.mirror) return { output: `请用 --mirror 指定镜像地址\n\n${kbUsage}`, code: 2 };
  if (sub === 'sync' && parsed.positional.length > 0) return { output: `多余的参数：${parsed.positional.join(' ')}\n\n${kbUsage}`, code: 2 };

  // The knowledge base (and the engine's matchers under it) is loaded for a command, not for its usage.
  const [{ openKnowledgeBase }, { importKnowledge, summaryLine }, { syncFromMirror }, { importOutcome }] = await Promise.all([
    import('../../server/kb/open.ts'), import('../../server/kb/import.ts'), import('../../server/kb/sync.ts'),
    import('../../server/db/repositories/knowledge-base-imports.ts'),
  ]);
  let kb: Awaited<ReturnType<typeof openKnowledgeBase>>;
  try {
    kb = await openKnowledgeBase(parsed.db);
  } catch (error) {
    return { output: `无法打开知识库 ${parsed.db}：${error instanceof Error ? error.message : String(error)}`, code: 1 };
  }
  const lines: string[] = [];
  let code = 0;
  try {
    if (sub === 'import') {
      for (const input of parsed.positional) {
        const s = await importKnowledge(kb.db, input, { name: path.basename(path.resolve(input)) });
        const record = await importOutcome(kb.db, s.recordId);
        const failed = record?.status === 3;
        if (failed) code = 1;
        lines.push(`${input}：${failed ? record?.message ?? '导入失败' : `导入完成，${summaryLine(s)}`}（文件 ${s.files} 个）`);
        for (const e of s.errors) lines.push(`  ${e.file}：${e.message}`);
      }
    } else {
      const dir = parsed.dir ?? path.join(path.dirname(path.resolve(parsed.db)), 'cairn-kb-downloads');
      const ecosystems = parsed.ecosystems.length > 0 ? parsed.ecosystems : DEFAULT_ECOSYSTEMS;
      const results = await syncFromMirror(kb.db, { mirror: parsed.mirror!, ecosystems, downloadDir: dir });
      for (const r of results) {
        if (r.status === 'failed') code = 1;
        const head = r.status === 'not-modified' ? '镜像未变化，已跳过'
          : r.status === 'failed' ? `同步失败：${r.message}`
          : `同步完成，${summaryLine(r.summary!)}`;
        lines.push(`${r.ecosystem}：${head}`);
        for (const e of r.summary?.errors ?? []) lines.push(`  ${e.file}：${e.message}`);
      }
    }
  } catch (error) {
    lines.push(`执行失败：${error instanceof Error ? error.message : String(error)}`);
    code = 1;
  } finally {
    await kb.close();
  }
  return { output: lines.join('\n'), code };
}
