// The knowledge-base tables (kb_advisories with their aliases and affected packages, kb_id_map).
// Every importer (OSV, trivy, NVD, custom entries) hands over AdvisoryRecords; this module alone
// knows the row layout, so re-imports are idempotent the same way whatever the source. It also
// reads the whole knowledge base back as the matcher's Advisory objects, and the cheap stamp the
// matcher's index cache (kb/index-cache.ts) watches.
//
// A write tells this process's index cache (kb/changes.ts) once it has committed: when the caller
// hands a transaction, the caller signals advisoriesChanged on its database after its commit.
import { sql } from 'kysely';
import { isFixState } from '../../../contract/enums.ts';
import { cnnvdSeveritySource, storedSeveritySource, type Advisory, type AffectedPackage, type ExploitDifficulty, type Level } from '../../engine/index.ts';
import { advisoriesChanged } from '../../kb/changes.ts';
import { randomToken } from '../../auth/tokens.ts';
import { SETTING } from '../seed.ts';
import { nowIso } from '../time.ts';
import { inTransaction, type Db } from '../transaction.ts';

export interface AdvisoryRecord {
  advisory: Advisory;
  source: 'osv' | 'trivy' | 'nvd' | 'custom';
  /** The dataset it came from (OSV ecosystem, trivy data source, NVD feed, 系统漏洞库). */
  origin: string;
  details: string;
  references: { type: string; url: string }[];
  fixCommits: string[];
  severities: { type: string; score: string }[];
  /** The document as imported (or its OSV rendering); compared to detect changes. */
  document: unknown;
}

export interface SaveResult {
  inserted: number;
  updated: number;
  unchanged: number;
}

// SQLite allows 32766 bound variables per statement; these keep every statement far below it
// (advisory rows have 24 columns, affected rows 10) while still sending hundreds of rows at once.
const ADVISORY_ROWS_PER_STATEMENT = 200;
const AFFECTED_ROWS_PER_STATEMENT = 300;
const ALIAS_ROWS_PER_STATEMENT = 1000;
const IDS_PER_LOOKUP = 500;

/** Tells the index cache of a write that has committed (a caller's transaction signals after its own commit). */
const changed = (db: Db): void => { if (!db.isTransaction) advisoriesChanged(db); };

/**
 * Marks the advisories, their aliases and affected packages as changed, in the writing transaction:
 * settings' kb_revision gets a new random value, committed (or rolled back) with the change. A
 * reader that kept something derived from these tables with the revision it read alongside (the
 * list's totals, vulnerabilities.ts) knows it still holds while the revision is the same, in any
 * process. Every write to those three tables goes through this module and calls it.
 */
async function bumpRevision(trx: Db): Promise<void> {
  const value = JSON.stringify(randomToken(12));
  await trx.insertInto('settings').values({ key: SETTING.kbRevision, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** JSON with sorted keys: PostgreSQL's jsonb reorders keys, so raw text cannot be compared. */
function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined && typeof v !== 'function')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** Timestamps as millisecond ISO strings: what both dialects hand back, so comparisons hold. */
function normalizeTimestamp(value: string | null | undefined): string | null {
  if (!value) return null;
  const time = Date.parse(value);
  // Go's zero time (0001-01-01), as some dumps write for "unknown", is no date at all.
  return Number.isNaN(time) || time < Date.UTC(1900, 0, 1) ? null : new Date(time).toISOString();
}

const timeOf = (value: string | null): number | null => {
  if (!value) return null;
  const t = Date.parse(value);
  return Number.isNaN(t) ? null : t;
};

function cvssVersion(vector: string | null): string | null {
  if (!vector) return null;
  const head = /^CVSS:(\d\.\d)\//.exec(vector);
  return head ? head[1]! : '2';
}

const firstMatching = (ids: string[], prefix: RegExp): string | null => ids.find((id) => prefix.test(id)) ?? null;

// kb_aliases.alias is varchar(100): longer "aliases" are not ids anyone searches by.
const uniqueAliases = (record: AdvisoryRecord): string[] =>
  [...new Set(record.advisory.aliases.map((a) => a.trim()).filter((a) => a && a.length <= 100 && a !== record.advisory.id))];

// PostgreSQL's jsonb refuses NUL characters in strings; they carry no meaning in advisories.
const jsonText = (value: unknown): string => JSON.stringify(value ?? null).replace(/\\u0000/g, '');

interface Existing {
  id: number;
  advisory_id: string;
  source: string;
  modified: string | null;
  document: string;
  /**
   * A distribution's entry stored before fix states were kept (migration 0016, fix_state ''): the
   * record is written again even when its document is unchanged, so a re-import of the same dump
   * brings the states (and what else the parser now reads, such as OSV `upstream` ids).
   */
  stale: unknown;
}

function advisoryRow(record: AdvisoryRecord, idMap: Map<string, { cnnvd: string | null; cnvd: string | null }>, now: string) {
  const a = record.advisory;
  const aliases = uniqueAliases(record);
  const all = [a.id, ...aliases];
  const cve = firstMatching(all, /^CVE-/i);
  const mapped = cve ? idMap.get(cve) : undefined;
  const doc = record.document as { withdrawn?: unknown } | null;
  const withdrawnAt = a.withdrawn
    ? normalizeTimestamp(typeof doc?.withdrawn === 'string' ? doc.withdrawn : null) ?? normalizeTimestamp(a.modified) ?? normalizeTimestamp(a.published) ?? now
    : null;
  return {
    advisory_id: a.id,
    source: record.source,
    origin: record.origin,
    summary: a.summary ?? '',
    details: record.details ?? '',
    level: a.level,
    score: a.score,
    vector: a.vector,
    cvss_version: cvssVersion(a.vector),
    exploit: a.exploit,
    cve,
    cnnvd: firstMatching(all, /^CNNVD-/i) ?? mapped?.cnnvd ?? null,
    cnvd: firstMatching(all, /^CNVD-/i) ?? mapped?.cnvd ?? null,
    cwes: jsonText(a.cwes),
    reference_links: jsonText(record.references),
    fix_commits: jsonText(record.fixCommits),
    severities: jsonText(record.severities),
    published: normalizeTimestamp(a.published),
    modified: normalizeTimestamp(a.modified),
    withdrawn: withdrawnAt,
    document: jsonText(record.document),
  };
}

async function loadExisting(trx: Db, ids: string[]): Promise<Map<string, Existing>> {
  const found = new Map<string, Existing>();
  for (const part of chunks(ids, IDS_PER_LOOKUP)) {
    const rows = await trx
      .selectFrom('kb_advisories')
      .select(['id', 'advisory_id', 'source', 'modified', 'document'])
      .select((eb) => eb.exists(eb.selectFrom('kb_affected').select(sql`1`.as('one'))
        .whereRef('kb_affected.advisory_pk', '=', 'kb_advisories.id')
        .where('kb_affected.distribution', 'is not', null).where('kb_affected.fix_state', '=', '')).as('stale'))
      .where('advisory_id', 'in', part)
      .execute();
    for (const row of rows) found.set(row.advisory_id, row);
  }
  return found;
}

async function loadIdMap(trx: Db, cves: string[]): Promise<Map<string, { cnnvd: string | null; cnvd: string | null }>> {
  const map = new Map<string, { cnnvd: string | null; cnvd: string | null }>();
  for (const part of chunks([...new Set(cves)], IDS_PER_LOOKUP)) {
    const rows = await trx.selectFrom('kb_id_map').select(['cve', 'cnnvd', 'cnvd']).where('cve', 'in', part).orderBy('id').execute();
    for (const row of rows) {
      const seen = map.get(row.cve) ?? { cnnvd: null, cnvd: null };
      map.set(row.cve, { cnnvd: seen.cnnvd ?? row.cnnvd, cnvd: seen.cnvd ?? row.cnvd });
    }
  }
  return map;
}

async function insertChildren(trx: Db, items: { pk: number; record: AdvisoryRecord }[]): Promise<void> {
  const aliases = items.flatMap(({ pk, record }) => uniqueAliases(record).map((alias) => ({ advisory_pk: pk, alias })));
  for (const part of chunks(aliases, ALIAS_ROWS_PER_STATEMENT)) await trx.insertInto('kb_aliases').values(part).execute();
  const affected = items.flatMap(({ pk, record }) =>
    record.advisory.affected.map((p) => ({
      advisory_pk: pk,
      // Column widths (varchar 30 / 60): ecosystem names of unknown sources are cut, not refused.
      ecosystem: p.ecosystem.slice(0, 30),
      distribution: p.distribution === null ? null : p.distribution.slice(0, 60),
      name: p.name,
      ranges: jsonText(p.ranges),
      versions: jsonText(p.versions),
      vulnerable: jsonText(p.vulnerable),
      patched: jsonText(p.patched),
      fixed: jsonText(p.fixed),
      fix_state: p.fixState ?? '',
    })));
  for (const part of chunks(affected, AFFECTED_ROWS_PER_STATEMENT)) await trx.insertInto('kb_affected').values(part).execute();
}

/**
 * Upserts advisories by `advisory_id` in one transaction. A record whose `modified` and document
 * equal the stored ones is left alone, and so is one older than the stored row (incremental
 * re-import of a dump). NVD records only describe a flaw, so they never replace a row that
 * another source (with affected packages) wrote under the same CVE id.
 */
export async function saveAdvisories(db: Db, records: AdvisoryRecord[]): Promise<SaveResult> {
  const result: SaveResult = { inserted: 0, updated: 0, unchanged: 0 };
  if (records.length === 0) return result;
  // The last record of an id wins within one call, as it would across calls.
  const byId = new Map<string, AdvisoryRecord>();
  for (const record of records) {
    if (byId.has(record.advisory.id)) result.unchanged++;
    byId.set(record.advisory.id, record);
  }
  await inTransaction(db, async (trx) => {
    const existing = await loadExisting(trx, [...byId.keys()]);
    const cves = [...byId.values()].flatMap((r) => [r.advisory.id, ...r.advisory.aliases].filter((id) => /^CVE-/i.test(id)));
    const idMap = await loadIdMap(trx, cves);
    const now = nowIso();
    const inserts: AdvisoryRecord[] = [];
    const updates: { row: Existing; record: AdvisoryRecord }[] = [];
    for (const record of byId.values()) {
      const row = existing.get(record.advisory.id);
      if (!row) { inserts.push(record); continue; }
      if (record.source === 'nvd' && row.source !== 'nvd') { result.unchanged++; continue; }
      const incoming = timeOf(normalizeTimestamp(record.advisory.modified));
      const stored = timeOf(row.modified);
      if (incoming !== null && stored !== null && incoming < stored) { result.unchanged++; continue; }
      const stale = Boolean(Number(row.stale)) && record.advisory.affected.some((p) => p.fixState !== undefined);
      if (!stale && incoming === stored && canonicalJson(JSON.parse(row.document)) === canonicalJson(JSON.parse(jsonText(record.document)))) {
        result.unchanged++;
        continue;
      }
      updates.push({ row, record });
    }

    for (const part of chunks(inserts, ADVISORY_ROWS_PER_STATEMENT)) {
      const rows = part.map((r) => ({ ...advisoryRow(r, idMap, now), created_at: now, updated_at: now }));
      const ids = await trx.insertInto('kb_advisories').values(rows).returning(['id', 'advisory_id']).execute();
      const pkOf = new Map(ids.map((r) => [r.advisory_id, r.id]));
      await insertChildren(trx, part.map((record) => ({ pk: pkOf.get(record.advisory.id)!, record })));
      result.inserted += part.length;
    }

    for (const part of chunks(updates, ADVISORY_ROWS_PER_STATEMENT)) {
      const pks = part.map((u) => u.row.id);
      await trx.deleteFrom('kb_aliases').where('advisory_pk', 'in', pks).execute();
      await trx.deleteFrom('kb_affected').where('advisory_pk', 'in', pks).execute();
      for (const { row, record } of part) {
        await trx.updateTable('kb_advisories').set({ ...advisoryRow(record, idMap, now), updated_at: now }).where('id', '=', row.id).execute();
      }
      await insertChildren(trx, part.map(({ row, record }) => ({ pk: row.id, record })));
      result.updated += part.length;
    }
    if (inserts.length || updates.length) await bumpRevision(trx);
  });
  changed(db);
  return result;
}

/** Removes advisories (their aliases and affected rows go with them by cascade). */
export async function deleteAdvisories(db: Db, advisoryIds: string[]): Promise<number> {
  if (advisoryIds.length === 0) return 0;
  const removed = await inTransaction(db, async (trx) => {
    let removed = 0;
    for (const part of chunks([...new Set(advisoryIds)], IDS_PER_LOOKUP)) {
      const pks = (await trx.selectFrom('kb_advisories').select('id').where('advisory_id', 'in', part).execute()).map((r) => r.id);
      if (pks.length === 0) continue;
      // Children first: SQLite connections opened without foreign_keys would not cascade.
      await trx.deleteFrom('kb_aliases').where('advisory_pk', 'in', pks).execute();
      await trx.deleteFrom('kb_affected').where('advisory_pk', 'in', pks).execute();
      const res = await trx.deleteFrom('kb_advisories').where('id', 'in', pks).executeTakeFirst();
      removed += Number(res.numDeletedRows);
    }
    if (removed) await bumpRevision(trx);
    return removed;
  });
  changed(db);
  return removed;
}

/** The record a mapping's CNNVD level gives a CVE (level from the mapping, no affected packages). */
function cnnvdLevelRecord(cve: string, cnnvd: string, level: Level): Advisory {
  return {
    id: cnnvd, aliases: [cve], summary: '', level, score: null, vector: null, exploit: 16, severitySource: cnnvdSeveritySource(level), levelFromMapping: true,
    cwes: [], published: null, modified: null, withdrawn: false, affected: [],
  };
}

export interface IdMappingRow {
  cve: string;
  cnnvd: string | null;
  cnvd: string | null;
  /** The CNNVD level the file states (1 超危, 2 高危, 4 中危, 8 低危), or null. */
  cnnvdLevel?: number | null;
}

const mappingKey = (r: IdMappingRow) => `${r.cnnvd ?? ''}|${r.cnvd ?? ''}|${r.cnnvdLevel ?? ''}`;

/**
 * Recomputes the cnnvd/cnvd display columns of the advisories whose CVE got a new mapping: an id
 * the advisory carries as an alias wins, else the mapping's. updated_at moves so that caches keyed
 * on it (the matcher's index) see the change.
 */
async function refreshDisplayIds(trx: Db, cves: string[], byCve: Map<string, Map<string, IdMappingRow>>): Promise<void> {
  const advisories = await trx.selectFrom('kb_advisories').select(['id', 'advisory_id', 'cve']).where('cve', 'in', cves).execute();
  if (advisories.length === 0) return;
  const aliases = new Map<number, string[]>();
  for (const part of chunks(advisories.map((a) => a.id), IDS_PER_LOOKUP)) {
    for (const row of await trx.selectFrom('kb_aliases').select(['advisory_pk', 'alias']).where('advisory_pk', 'in', part).execute()) {
      aliases.set(row.advisory_pk, [...(aliases.get(row.advisory_pk) ?? []), row.alias]);
    }
  }
  const now = nowIso();
  for (const advisory of advisories) {
    const own = [advisory.advisory_id, ...(aliases.get(advisory.id) ?? [])];
    const mapped = [...(byCve.get(advisory.cve!)?.values() ?? [])];
    await trx.updateTable('kb_advisories').set({
      cnnvd: firstMatching(own, /^CNNVD-/i) ?? mapped.find((r) => r.cnnvd)?.cnnvd ?? null,
      cnvd: firstMatching(own, /^CNVD-/i) ?? mapped.find((r) => r.cnvd)?.cnvd ?? null,
      updated_at: now,
    }).where('id', '=', advisory.id).execute();
  }
}

/**
 * Stores CNNVD/CNVD numbers per CVE. A CVE's mapping is replaced as a whole by the rows a file
 * gives for it; the same rows again change nothing. Returns how many rows were written. The
 * display columns of advisories with that CVE follow.
 */
export async function saveIdMappings(db: Db, rows: IdMappingRow[]): Promise<number> {
  const byCve = new Map<string, Map<string, IdMappingRow>>();
  for (const raw of rows) {
    const row = { cve: raw.cve.trim().toUpperCase(), cnnvd: raw.cnnvd?.trim().toUpperCase() || null, cnvd: raw.cnvd?.trim().toUpperCase() || null, cnnvdLevel: raw.cnnvdLevel ?? null };
    if (!row.cve || (!row.cnnvd && !row.cnvd)) continue;
    const set = byCve.get(row.cve) ?? new Map<string, IdMappingRow>();
    set.set(mappingKey(row), row);
    byCve.set(row.cve, set);
  }
  if (byCve.size === 0) return 0;
  const written = await inTransaction(db, async (trx) => {
    const stored = new Map<string, Set<string>>();
    for (const part of chunks([...byCve.keys()], IDS_PER_LOOKUP)) {
      for (const row of await trx.selectFrom('kb_id_map').select(['cve', 'cnnvd', 'cnvd', 'cnnvd_level']).where('cve', 'in', part).execute()) {
        const set = stored.get(row.cve) ?? new Set<string>();
        set.add(mappingKey({ ...row, cnnvdLevel: row.cnnvd_level === null ? null : Number(row.cnnvd_level) }));
        stored.set(row.cve, set);
      }
    }
    const changed: string[] = [];
    for (const [cve, wanted] of byCve) {
      const have = stored.get(cve);
      const same = have !== undefined && have.size === wanted.size && [...wanted.keys()].every((k) => have.has(k));
      if (!same) changed.push(cve);
    }
    let written = 0;
    for (const part of chunks(changed, IDS_PER_LOOKUP)) {
      await trx.deleteFrom('kb_id_map').where('cve', 'in', part).execute();
      const values = part.flatMap((cve) => [...byCve.get(cve)!.values()]);
      for (const rowsPart of chunks(values, 1000)) {
        await trx.insertInto('kb_id_map').values(rowsPart.map((r) => ({ cve: r.cve, cnnvd: r.cnnvd, cnvd: r.cnvd, cnnvd_level: r.cnnvdLevel ?? null }))).execute();
      }
      written += values.length;
      await refreshDisplayIds(trx, part, byCve);
    }
    if (written) await bumpRevision(trx);
    return written;
  });
  changed(db);
  return written;
}

// ---- reading back -------------------------------------------------------------------------------
// Tables are fetched in pages of advisories (by primary key) with their aliases and affected rows
// in bulk, then joined in memory: a handful of queries per page instead of one per advisory.

const LOAD_PAGE = 5000;

const parseOr = <T>(text: string | null, fallback: T): T => {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};

/** The whole knowledge base as the matcher's Advisory objects. */
export async function loadAdvisories(db: Db): Promise<Advisory[]> {
  // CNNVD / CNVD numbers by CVE, folded into the aliases of every advisory that names the CVE.
  const idMap = new Map<string, string[]>();
  // A CNNVD level the mapping states is a record of its own that only describes the flaw: the
  // matcher reaches it through the CVE and uses it when nothing else rates the flaw (severity.ts).
  const out: Advisory[] = [];
  for (const row of await db.selectFrom('kb_id_map').select(['cve', 'cnnvd', 'cnvd', 'cnnvd_level']).orderBy('id').execute()) {
    const ids = idMap.get(row.cve) ?? [];
    for (const id of [row.cnnvd, row.cnvd]) if (id && !ids.includes(id)) ids.push(id);
    idMap.set(row.cve, ids);
    if (row.cnnvd && row.cnnvd_level !== null) out.push(cnnvdLevelRecord(row.cve, row.cnnvd, Number(row.cnnvd_level) as Level));
  }

  let after = 0;
  for (;;) {
    const rows = await db.selectFrom('kb_advisories')
      .select(['id', 'advisory_id', 'source', 'origin', 'summary', 'level', 'score', 'vector', 'exploit', 'cwes', 'published', 'modified', 'withdrawn'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(LOAD_PAGE)
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
      .select(['advisory_pk', 'ecosystem', 'distribution', 'name', 'ranges', 'versions', 'vulnerable', 'patched', 'fixed', 'fix_state'])
      .where('advisory_pk', '>=', first).where('advisory_pk', '<=', last).orderBy('id').execute()) {
      const list = affected.get(row.advisory_pk) ?? [];
      list.push({
        ecosystem: row.ecosystem,
        distribution: row.distribution,
        name: row.name,
        ranges: parseOr(row.ranges, []),
        versions: parseOr(row.versions, []),
        vulnerable: parseOr(row.vulnerable, []),
        patched: parseOr(row.patched, []),
        fixed: parseOr(row.fixed, []),
        ...(isFixState(row.fix_state) ? { fixState: row.fix_state } : {}),
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
        severitySource: storedSeveritySource({
          source: row.source, advisoryId: row.advisory_id, origin: row.origin, vector: row.vector, score: row.score === null ? null : Number(row.score), level: row.level,
        }),
        cwes: parseOr(row.cwes, []),
        published: row.published,
        modified: row.modified,
        withdrawn: row.withdrawn !== null,
        affected: affected.get(row.id) ?? [],
      });
    }
    if (rows.length < LOAD_PAGE) break;
  }
  return out;
}

/** A cheap stamp of the knowledge base's content: advisory count and latest update, and the id-map count. */
export async function advisoryStamp(db: Db): Promise<string> {
  const row = await db
    .selectFrom('kb_advisories')
    .select([sql<number>`count(*)`.as('n'), sql<string | null>`max(updated_at)`.as('latest')])
    .executeTakeFirst();
  const map = await db.selectFrom('kb_id_map').select(sql<number>`count(*)`.as('n')).executeTakeFirst();
  return `${row?.n ?? 0}|${row?.latest ?? ''}|${map?.n ?? 0}`;
}
