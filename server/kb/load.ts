// Reads the whole knowledge base back as the matcher's Advisory objects. Tables are fetched in
// pages of advisories (by primary key) with their aliases and affected rows in bulk, then joined
// in memory: a handful of queries per page instead of one per advisory.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Advisory, AffectedPackage, ExploitDifficulty, Level } from '../engine/index.ts';

const PAGE = 5000;

const parse = <T>(text: string | null, fallback: T): T => {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};

export async function loadAdvisories(db: Kysely<Database>): Promise<Advisory[]> {
  // CNNVD / CNVD numbers by CVE, folded into the aliases of every advisory that names the CVE.
  const idMap = new Map<string, string[]>();
  for (const row of await db.selectFrom('kb_id_map').select(['cve', 'cnnvd', 'cnvd']).orderBy('id').execute()) {
    const ids = idMap.get(row.cve) ?? [];
    for (const id of [row.cnnvd, row.cnvd]) if (id && !ids.includes(id)) ids.push(id);
    idMap.set(row.cve, ids);
  }

  const out: Advisory[] = [];
  let after = 0;
  for (;;) {
    const rows = await db.selectFrom('kb_advisories')
      .select(['id', 'advisory_id', 'summary', 'level', 'score', 'vector', 'exploit', 'cwes', 'published', 'modified', 'withdrawn'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(PAGE)
      .execute();
    if (rows.length === 0) break;
    const first = rows[0]!.id;
    const last = rows[rows.length - 1]!.id;
    after = last;

    const aliases = new Map<number, string[]>();
    for (const row of await db.selectFrom('kb_aliases').select(['advisory_pk', 'alias'])
      .where('advisory_pk', '>=', first).where('advisory_pk', '<=', last).execute()) {
      const list = aliases.get(row.advisory_pk) ?? [];
      list.push(row.alias);
      aliases.set(row.advisory_pk, list);
    }
    const affected = new Map<number, AffectedPackage[]>();
    for (const row of await db.selectFrom('kb_affected')
      .select(['advisory_pk', 'ecosystem', 'distribution', 'name', 'ranges', 'versions', 'vulnerable', 'patched', 'fixed'])
      .where('advisory_pk', '>=', first).where('advisory_pk', '<=', last).orderBy('id').execute()) {
      const list = affected.get(row.advisory_pk) ?? [];
      list.push({
        ecosystem: row.ecosystem,
        distribution: row.distribution,
        name: row.name,
        ranges: parse(row.ranges, []),
        versions: parse(row.versions, []),
        vulnerable: parse(row.vulnerable, []),
        patched: parse(row.patched, []),
        fixed: parse(row.fixed, []),
      });
      affected.set(row.advisory_pk, list);
    }

    for (const row of rows) {
      const own = aliases.get(row.id) ?? [];
      const all = [...own];
      for (const id of [row.advisory_id, ...own]) {
        for (const mapped of idMap.get(id) ?? []) if (!all.includes(mapped) && mapped !== row.advisory_id) all.push(mapped);
      }
      out.push({
        id: row.advisory_id,
        aliases: all,
        summary: row.summary,
        level: row.level as Level,
        score: row.score === null ? null : Number(row.score),
        vector: row.vector,
        exploit: row.exploit as ExploitDifficulty,
        cwes: parse(row.cwes, []),
        published: row.published,
        modified: row.modified,
        withdrawn: row.withdrawn !== null,
        affected: affected.get(row.id) ?? [],
      });
    }
    if (rows.length < PAGE) break;
  }
  return out;
}
