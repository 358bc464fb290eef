// Expands package.json `workspaces` patterns (`packages/*`, `apps/**`, plain folders, `!` excludes)
// to the folders that hold a package.json, through the confined context.
import type { ExtractContext } from '../../model.ts';
import { joinPath, mapLimit } from './paths.ts';

const globToRegExp = (seg: string) =>
  new RegExp(`^${seg.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]')}$`);

/** Folders (root-relative) matching the patterns, relative to `dir`; at most `limit` of them. */
export async function expandWorkspaces(ctx: ExtractContext, dir: string, patterns: readonly string[], limit = 5000): Promise<string[]> {
  const found = new Set<string>();
  const excluded: RegExp[] = [];
  for (const p of patterns) if (p.startsWith('!')) excluded.push(new RegExp(`^${joinPath(p.slice(1)).split('/').map((s) => (s === '**' ? '.*' : globToRegExp(s).source.slice(1, -1))).join('/')}$`));
  for (const pattern of patterns) {
    if (pattern.startsWith('!')) continue;
    const segs = joinPath(pattern).split('/').filter(Boolean);
    let current = [''];
    for (const seg of segs) {
      ctx.signal.throwIfAborted();
      if (!/[*?[]/.test(seg)) { current = current.map((c) => (c ? `${c}/${seg}` : seg)); continue; }
      const re = seg === '**' ? /^[^.]/ : globToRegExp(seg);
      const lists = await mapLimit(current, 16, (c) => ctx.list(joinPath(dir, c)));
      const next: string[] = [];
      current.forEach((c, k) => {
        for (const name of lists[k]) if (name !== 'node_modules' && !name.startsWith('.') && re.test(name)) next.push(c ? `${c}/${name}` : name);
      });
      current = next.slice(0, limit);
    }
    const hits = await mapLimit(current, 16, async (c) => ((await ctx.exists(joinPath(dir, c, 'package.json'))) ? c : undefined));
    for (const h of hits) if (h !== undefined && !excluded.some((r) => r.test(h))) found.add(h);
  }
  return [...found].slice(0, limit);
}
