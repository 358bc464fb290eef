// Subject groups (a tree by pid) as the subject list's group view reads them. Groups are few
// (an organisation's departments), so the tree is read whole and walked in memory.
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

type Db = Kysely<Database>;

export interface GroupNode {
  id: number;
  pid: number | null;
  name: string;
}

export async function allGroups(db: Db): Promise<GroupNode[]> {
  const rows = await db.selectFrom('subject_groups').select(['id', 'pid', 'name']).orderBy('name').orderBy('id').execute();
  return rows.map((r) => ({ id: Number(r.id), pid: r.pid === null ? null : Number(r.pid), name: r.name }));
}

/** The groups and every group below them. */
export async function descendantGroupIds(db: Db, roots: number[], groups?: GroupNode[]): Promise<number[]> {
  const all = groups ?? await allGroups(db);
  const out = new Set<number>(roots);
  let frontier = [...roots];
  while (frontier.length) {
    const next = all.filter((g) => g.pid !== null && frontier.includes(g.pid) && !out.has(g.id)).map((g) => g.id);
    next.forEach((id) => out.add(id));
    frontier = next;
  }
  return [...out];
}

/** Root first, the group itself last. */
export function groupPath(groups: GroupNode[], id: number | null): Array<{ id: number; name: string }> {
  const byId = new Map(groups.map((g) => [g.id, g]));
  const path: Array<{ id: number; name: string }> = [];
  const seen = new Set<number>();
  for (let g = id === null ? undefined : byId.get(id); g && !seen.has(g.id); g = g.pid === null ? undefined : byId.get(g.pid)) {
    seen.add(g.id);
    path.unshift({ id: g.id, name: g.name });
  }
  return path;
}
