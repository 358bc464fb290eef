// Reads of the vulnerability knowledge base for the platform's screens: the filtered, paged list,
// one advisory with everything about it, id look-ups (the import records are
// knowledge-base-imports.ts's). Writes go through
// knowledge-base.ts (saveAdvisories / deleteAdvisories), which alone knows the row layout.
import { sql, type Expression, type ExpressionBuilder, type OrderByItemBuilder, type SqlBool } from 'kysely';
import type {
  AffectedPackageView, VulnerabilityDetail, VulnerabilityFilter, VulnerabilityRow,
} from '../../../contract/api/vulnerability.ts';
import type { Page } from '../../../contract/api/kit.ts';
import { isFixState, TASK_STATUS } from '../../../contract/enums.ts';
import { storedSeveritySource, type ExploitDifficulty, type Level, type OsvRange } from '../../engine/index.ts';
import { affectedTexts, referenceGroup, weaknessesOf } from '../../kb/advisory-view.ts';
import { prepared } from '../prepared.ts';
import type { Database } from '../schema.ts';
import { SETTING } from '../seed.ts';
import { likePattern } from '../like.ts';
import type { Db } from '../transaction.ts';
import { involvedSubjects } from './involved.ts';

type Eb = ExpressionBuilder<Database, 'kb_advisories'>;

export interface Paging {
  page: number;
  size: number;
}

const PACKAGES_PER_ROW = 5;
/** Look-ups of many ids are split so no statement nears SQLite's bound-variable limit. */
const IDS_PER_STATEMENT = 500;

const parseJson = <T>(text: string | null | undefined, fallback: T): T => {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

// ---- ids --------------------------------------------------------------------------------------

/**
 * The spellings an id is stored under. Ids are compared exactly so the alias index serves the
 * look-up; databases write them upper case (CVE-, GO-, PYSEC-, CNNVD-) except GHSA's lower-case
 * body, so these variants cover what a user types in any case without a lower() scan.
 */
function idVariants(text: string): string[] {
  const id = text.trim();
  const variants = new Set([id, id.toUpperCase(), id.toLowerCase()]);
  const ghsa = /^ghsa-(.+)$/i.exec(id);
  if (ghsa) variants.add(`GHSA-${ghsa[1]!.toLowerCase()}`);
  return [...variants].filter(Boolean);
}

/** Looks like a vulnerability id (CVE-2021-44228, GO-2022-0001, GHSA-xxxx-…) rather than words. */
const isIdLike = (text: string): boolean => /^[A-Z]{2,12}-\d{2,}[\w.:-]*$/i.test(text) || /^GHSA(-[a-z0-9]{4}){3}$/i.test(text);

const lowerLike = (column: string, pattern: string) => sql<SqlBool>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;

// ---- the list ---------------------------------------------------------------------------------

/** A bare date as the start or the end of its day (UTC); a timestamp as itself. */
function boundOf(text: string, end: boolean): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return `${text}T${end ? '23:59:59.999' : '00:00:00.000'}Z`;
  const t = Date.parse(text);
  return Number.isNaN(t) ? text : new Date(t).toISOString();
}

export interface ListScope {
  /** Only this source (the system list passes 'custom'). */
  source?: string;
  /** purl types an ecosystem filter stands for (an OSV name may stand for one). */
  ecosystem?: string;
  /**
   * The caller's data scope, in which involvedSubjects counts the subjects an advisory is found in
   * (visibleSubjectIds: 'all' for domain administrators); null when the caller counts for itself
   * (the home dashboard counts projects), leaving the counts 0.
   */
  involvedIn: number[] | 'all' | null;
}

function conditions(eb: Eb, filter: VulnerabilityFilter, scope: ListScope): Expression<SqlBool>[] {
  const where: Expression<SqlBool>[] = [];
  if (!filter.includeWithdrawn) where.push(eb('kb_advisories.withdrawn', 'is', null));
  const source = scope.source ?? filter.source;
  if (source) where.push(eb('kb_advisories.source', '=', source));
  if (filter.levels?.length) where.push(eb('kb_advisories.level', 'in', filter.levels));
  if (filter.exploit?.length) where.push(eb('kb_advisories.exploit', 'in', filter.exploit));
  if (filter.publishedFrom) where.push(eb('kb_advisories.published', '>=', boundOf(filter.publishedFrom, false)));
  if (filter.publishedTo) where.push(eb('kb_advisories.published', '<=', boundOf(filter.publishedTo, true)));
  const ecosystem = scope.ecosystem ?? filter.ecosystem;
  if (ecosystem) {
    where.push(eb.exists(eb.selectFrom('kb_affected').select(sql`1`.as('one'))
      .whereRef('kb_affected.advisory_pk', '=', 'kb_advisories.id').where('kb_affected.ecosystem', '=', ecosystem)));
  }
  const keyword = filter.keyword?.trim();
  if (keyword) {
    const variants = idVariants(keyword);
    // Exact id and alias matches go through the unique and alias indexes.
    const matches: Expression<SqlBool>[] = [
      eb('kb_advisories.advisory_id', 'in', variants),
      eb('kb_advisories.id', 'in', eb.selectFrom('kb_aliases').select('kb_aliases.advisory_pk').where('kb_aliases.alias', 'in', variants)),
    ];
    // Words (and id fragments such as 2021-44228) also search names, ids and aliases by substring.
    if (!isIdLike(keyword)) {
      const pattern = likePattern(keyword);
      matches.push(
        lowerLike('kb_advisories.summary', pattern),
        lowerLike('kb_advisories.advisory_id', pattern),
        eb('kb_advisories.id', 'in', eb.selectFrom('kb_aliases').select('kb_aliases.advisory_pk').where(lowerLike('kb_aliases.alias', pattern))),
      );
    }
    where.push(eb.or(matches));
  }
  return where;
}

interface AdvisoryListRow {
  id: number;
  advisory_id: string;
  cve: string | null;
  cnnvd: string | null;
  cnvd: string | null;
  summary: string;
  level: number;
  score: number | null;
  vector: string | null;
  exploit: number;
  published: string | null;
  modified: string | null;
  withdrawn: string | null;
  source: string;
  origin: string;
}

const LIST_COLUMNS = [
  'kb_advisories.id', 'kb_advisories.advisory_id', 'kb_advisories.cve', 'kb_advisories.cnnvd', 'kb_advisories.cnvd',
  'kb_advisories.summary', 'kb_advisories.level', 'kb_advisories.score', 'kb_advisories.vector', 'kb_advisories.exploit',
  'kb_advisories.published', 'kb_advisories.modified', 'kb_advisories.withdrawn', 'kb_advisories.source', 'kb_advisories.origin',
] as const;

/**
 * How many subjects in scope each advisory is found in (involved.ts's involvedSubjects), under its
 * own id or any alias; null scope counts nothing (a caller that counts for itself).
 */
async function involvedSubjectCounts(db: Db, pks: number[], involvedIn: number[] | 'all' | null): Promise<Map<number, number>> {
  if (involvedIn === null || pks.length === 0) return new Map(pks.map((pk) => [pk, 0]));
  return involvedSubjects(db, involvedIn, pks, async () => {
    const idsOf = new Map<number, string[]>(pks.map((pk) => [pk, []]));
    for (const part of chunks(pks, IDS_PER_STATEMENT)) {
      const own = await db.selectFrom('kb_advisories').select(['id', 'advisory_id']).where('id', 'in', part).execute();
      for (const r of own) idsOf.get(r.id)!.push(r.advisory_id);
      const aliases = await db.selectFrom('kb_aliases').select(['advisory_pk', 'alias']).where('advisory_pk', 'in', part).execute();
      for (const r of aliases) idsOf.get(r.advisory_pk)!.push(r.alias);
    }
    return idsOf;
  });
}

// ---- list totals --------------------------------------------------------------------------------
// Counting a filter's rows is most of a list call's database work (8,000 index entries for the
// default list), and the knowledge base changes only when something is imported or edited. A
// total is kept with the knowledge base's revision (settings' kb_revision, renewed by every
// transaction that writes advisories, aliases or affected packages: knowledge-base.ts) and used
// while the revision read with the page is the same. The revision is a random value, so a total is
// never taken for another database's. A database without a revision yet is always counted.

const TOTALS_KEPT = 256;
const knownTotals = new Map<string, { revision: string; total: number }>();

function rememberTotal(key: string, revision: string, total: number): void {
  knownTotals.delete(key);
  knownTotals.set(key, { revision, total });
  if (knownTotals.size > TOTALS_KEPT) knownTotals.delete(knownTotals.keys().next().value!);
}

/** Everything that decides which rows the list counts. */
const totalKeyOf = (filter: VulnerabilityFilter, scope: ListScope): string => JSON.stringify([
  Boolean(filter.includeWithdrawn), scope.source ?? filter.source ?? null, filter.levels ?? null, filter.exploit ?? null,
  filter.publishedFrom ?? null, filter.publishedTo ?? null, scope.ecosystem ?? filter.ecosystem ?? null, filter.keyword?.trim() || null,
]);

const revisionOf = (eb: Eb) =>
  eb.selectFrom('settings').select('settings.value').where('settings.key', '=', SETTING.kbRevision);

/**
 * One page of the list in one statement: the page of advisories (a CTE), the filtered total as an
 * uncorrelated scalar subquery (evaluated once), whether any analysed project is in the caller's
 * scope (else nothing can be involved and the counts are not looked up), and each row's affected
 * packages joined on (about 1.2 a row). A page past the end carries no total: it is counted then.
 */
export async function listVulnerabilities(db: Db, filter: VulnerabilityFilter, paging: Paging, scope: ListScope): Promise<Page<VulnerabilityRow>> {
  const where = (eb: Eb) => eb.and(conditions(eb, filter, scope));
  const sort = filter.sort ?? 'published';
  // Most severe first and newest first are what a user means by "sort by" these.
  const order = filter.order ?? (sort === 'level' ? 'asc' : 'desc');
  const involvedIn = scope.involvedIn;
  // The total is counted unless the same filter was counted at the knowledge base's current
  // revision (read in the same statement, so in the same snapshot as the page).
  const totalKey = totalKeyOf(filter, scope);
  const known = knownTotals.get(totalKey);
  let pageQuery = db.selectFrom('kb_advisories').where(where).select([...LIST_COLUMNS])
    .select((eb) => revisionOf(eb).as('revision'))
    .select((eb) => {
      const count = eb.selectFrom('kb_advisories').where(where).select(eb.fn.countAll<number>().as('n'));
      return (known ? sql<number | null>`case when ${revisionOf(eb)} = ${known.revision} then null else ${count} end` : count).as('total');
    })
    .select((eb) => {
      let runs = eb.selectFrom('runs').innerJoin('projects', 'projects.id', 'runs.project_id')
        .select(sql`1`.as('one')).where('runs.status', '=', TASK_STATUS.SUCCEEDED);
      if (involvedIn === null || (involvedIn !== 'all' && involvedIn.length === 0)) runs = runs.where(sql<SqlBool>`1 = 0`);
      else if (involvedIn !== 'all') runs = runs.where('projects.subject_id', 'in', involvedIn);
      return eb.exists(runs).as('analysed');
    });
  // Blanks last on both dialects (they disagree on where NULL goes by default). Descending with
  // nulls last is SQLite's natural order, so its index on the column still serves the page. A
  // level is never blank: plain order, which the (withdrawn, level, published) index serves.
  const ordering = (ob: OrderByItemBuilder) => {
    const ordered = order === 'asc' ? ob.asc() : ob.desc();
    return sort === 'level' ? ordered : ordered.nullsLast();
  };
  pageQuery = pageQuery.orderBy(`kb_advisories.${sort}`, ordering);
  if (sort !== 'published') pageQuery = pageQuery.orderBy('kb_advisories.published', (ob) => ob.desc().nullsLast());
  // For PostgreSQL's plan of the prepared statement (see `prepared` below): the page size is
  // written in (a whole number the contract bounds; as a parameter the generic plan would expect a
  // tenth of the table on the page and hash-join all affected packages instead of looking up the
  // page's), and the offset is behind a scalar subquery, so that every page is planned alike and
  // PostgreSQL keeps one generic plan (seeing each offset, it would plan every page afresh).
  if (!Number.isSafeInteger(paging.size) || paging.size < 1) throw new Error(`页大小无效：${paging.size}`);
  const offset = (paging.page - 1) * paging.size;
  pageQuery = pageQuery.orderBy('kb_advisories.id', 'desc').limit(sql.lit(paging.size)).offset(sql<number>`(select cast(${offset} as bigint))`);

  // The same order again outside the CTE (a CTE's order is not kept), then the packages' own.
  let joined = db.with('page', () => pageQuery).selectFrom('page')
    .leftJoin('kb_affected', 'kb_affected.advisory_pk', 'page.id')
    // Planned once per connection on PostgreSQL: its generic plan walks the order's index and
    // looks up each row's packages, as a fresh plan does.
    .modifyFront(prepared)
    // Named columns, no page.*: a prepared page.* would fail once a migration changed the table.
    .select([
      'page.id', 'page.advisory_id', 'page.cve', 'page.cnnvd', 'page.cnvd', 'page.summary', 'page.level', 'page.score', 'page.vector',
      'page.exploit', 'page.published', 'page.modified', 'page.withdrawn', 'page.source', 'page.origin', 'page.revision', 'page.total',
      'page.analysed', 'kb_affected.ecosystem', 'kb_affected.name',
    ])
    .orderBy(`page.${sort}`, ordering);
  if (sort !== 'published') joined = joined.orderBy('page.published', (ob) => ob.desc().nullsLast());
  const joinedRows = await joined.orderBy('page.id', 'desc').orderBy('kb_affected.id').execute();

  const rows: AdvisoryListRow[] = [];
  const packageSets = new Map<number, Set<string>>();
  for (const row of joinedRows) {
    let set = packageSets.get(row.id);
    if (!set) {
      set = new Set();
      packageSets.set(row.id, set);
      rows.push(row);
    }
    if (row.ecosystem !== null && row.name !== null) set.add(`${row.ecosystem}:${row.name}`);
  }
  const packages = new Map([...packageSets].map(([pk, set]) => [pk, { names: [...set].slice(0, PACKAGES_PER_ROW), count: set.size }]));
  let total: number;
  const first = joinedRows[0];
  if (first && first.total === null) total = known!.total;
  else if (first) {
    total = Number(first.total);
    if (first.revision !== null) rememberTotal(totalKey, first.revision, total);
  } else {
    const counted = await db.selectFrom('kb_advisories').where(where).select(eb => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    total = Number(counted?.n ?? 0);
  }
  const pks = rows.map((r) => r.id);
  const analysed = joinedRows.length > 0 && Boolean(joinedRows[0]!.analysed);
  const involved = analysed ? await involvedSubjectCounts(db, pks, involvedIn) : new Map<number, number>();
  return {
    total,
    content: rows.map((row) => ({
      ...rowView(row),
      packages: packages.get(row.id)?.names ?? [],
      packageCount: packages.get(row.id)?.count ?? 0,
      involvedSubjects: involved.get(row.id) ?? 0,
    })),
  };
}

function rowView(row: AdvisoryListRow): Omit<VulnerabilityRow, 'packages' | 'packageCount' | 'involvedSubjects'> {
  return {
    id: row.id,
    identify: row.advisory_id,
    cve: row.cve,
    cnnvd: row.cnnvd,
    cnvd: row.cnvd,
    name: row.summary,
    level: row.level as Level,
    score: row.score === null ? null : Number(row.score),
    vector: row.vector,
    exploit: row.exploit as ExploitDifficulty,
    published: row.published,
    modified: row.modified,
    withdrawn: row.withdrawn,
    source: row.source,
    origin: row.origin,
  };
}

// ---- one advisory -----------------------------------------------------------------------------

export interface AdvisoryRef {
  id: number;
  advisoryId: string;
  source: string;
}

/** `{id}` of the detail calls: a row id, else an advisory id or alias in any case. */
export async function findAdvisory(db: Db, idText: string): Promise<AdvisoryRef | undefined> {
  const text = idText.trim();
  if (/^\d+$/.test(text)) {
    const pk = Number(text);
    if (!Number.isSafeInteger(pk)) return undefined;
    const row = await db.selectFrom('kb_advisories').select(['id', 'advisory_id', 'source']).where('id', '=', pk).executeTakeFirst();
    return row && { id: row.id, advisoryId: row.advisory_id, source: row.source };
  }
  const found = (await lookupIds(db, [text])).get(text);
  return found && { id: found.id, advisoryId: found.advisoryId, source: found.source };
}

export interface IdMatch extends AdvisoryRef {
  level: Level;
  summary: string;
}

/**
 * Each id (as given) → the advisory filed under it or carrying it as an alias. An advisory's own
 * id wins over an alias; among aliases the lowest row id wins, so the answer is stable. Ids not
 * found under the usual spellings get one case-insensitive pass (vendor ids such as openSUSE-SU-…).
 */
export async function lookupIds(db: Db, ids: string[]): Promise<Map<string, IdMatch>> {
  const wanted = new Map<string, string[]>();
  for (const id of ids) if (id.trim()) wanted.set(id, idVariants(id));
  const byKey = new Map<string, IdMatch>();
  const aliasHits = new Map<string, IdMatch>();
  const all = [...new Set([...wanted.values()].flat())];
  const toMatch = (r: { id: number; advisory_id: string; source: string; level: number; summary: string }): IdMatch =>
    ({ id: r.id, advisoryId: r.advisory_id, source: r.source, level: r.level as Level, summary: r.summary });
  for (const part of chunks(all, IDS_PER_STATEMENT)) {
    const own = await db.selectFrom('kb_advisories').select(['id', 'advisory_id', 'source', 'level', 'summary'])
      .where('advisory_id', 'in', part).execute();
    for (const r of own) byKey.set(r.advisory_id, toMatch(r));
    const viaAlias = await db.selectFrom('kb_aliases')
      .innerJoin('kb_advisories', 'kb_advisories.id', 'kb_aliases.advisory_pk')
      .select(['kb_aliases.alias', 'kb_advisories.id', 'kb_advisories.advisory_id', 'kb_advisories.source', 'kb_advisories.level', 'kb_advisories.summary'])
      .where('kb_aliases.alias', 'in', part).orderBy('kb_advisories.id').execute();
    for (const r of viaAlias) if (!aliasHits.has(r.alias)) aliasHits.set(r.alias, toMatch(r));
  }
  const out = new Map<string, IdMatch>();
  const missing: string[] = [];
  for (const [id, variants] of wanted) {
    const hit = variants.map((v) => byKey.get(v)).find(Boolean) ?? variants.map((v) => aliasHits.get(v)).find(Boolean);
    if (hit) out.set(id, hit);
    else missing.push(id);
  }
  if (missing.length) {
    const lower = new Map(missing.map((id) => [id.trim().toLowerCase(), id]));
    for (const part of chunks([...lower.keys()], IDS_PER_STATEMENT)) {
      const own = await db.selectFrom('kb_advisories').select(['id', 'advisory_id', 'source', 'level', 'summary'])
        .where(sql<string>`lower(advisory_id)`, 'in', part).orderBy('id').execute();
      for (const r of own) {
        const id = lower.get(r.advisory_id.toLowerCase());
        if (id !== undefined && !out.has(id)) out.set(id, toMatch(r));
      }
      const viaAlias = await db.selectFrom('kb_aliases')
        .innerJoin('kb_advisories', 'kb_advisories.id', 'kb_aliases.advisory_pk')
        .select(['kb_aliases.alias', 'kb_advisories.id', 'kb_advisories.advisory_id', 'kb_advisories.source', 'kb_advisories.level', 'kb_advisories.summary'])
        .where(sql<string>`lower(kb_aliases.alias)`, 'in', part).orderBy('kb_advisories.id').execute();
      for (const r of viaAlias) {
        const id = lower.get(r.alias.toLowerCase());
        if (id !== undefined && !out.has(id)) out.set(id, toMatch(r));
      }
    }
  }
  return out;
}

export async function affectedOf(db: Db, pk: number): Promise<AffectedPackageView[]> {
  const rows = await db.selectFrom('kb_affected').selectAll().where('advisory_pk', '=', pk).orderBy('id').execute();
  return rows.map((row) => {
    const ranges = parseJson<OsvRange[]>(row.ranges, []);
    const vulnerable = parseJson<string[]>(row.vulnerable, []);
    const fixed = parseJson<string[]>(row.fixed, []);
    return {
      ecosystem: row.ecosystem,
      distribution: row.distribution,
      name: row.name,
      affected: affectedTexts(ranges, vulnerable),
      ranges: ranges.map((r) => ({
        type: r.type,
        events: r.events.map((e) => Object.fromEntries(Object.entries(e).filter(([, v]) => typeof v === 'string')) as Record<string, string>),
      })),
      versions: parseJson<string[]>(row.versions, []),
      vulnerable,
      patched: parseJson<string[]>(row.patched, []),
      fixed,
      fixState: isFixState(row.fix_state) ? row.fix_state : row.distribution !== null ? (fixed.length > 0 ? 'fixed' : 'affected') : null,
    };
  });
}

export async function fixCommitsOf(db: Db, pk: number): Promise<string[]> {
  const row = await db.selectFrom('kb_advisories').select('fix_commits').where('id', '=', pk).executeTakeFirst();
  return parseJson<string[]>(row?.fix_commits, []);
}

/** One advisory with everything about it; involvedSubjects counts within `involvedIn` (as the list does). */
export async function loadVulnerabilityDetail(db: Db, pk: number, involvedIn: number[] | 'all'): Promise<VulnerabilityDetail | undefined> {
  const row = await db.selectFrom('kb_advisories').selectAll().where('id', '=', pk).executeTakeFirst();
  if (!row) return undefined;
  const [aliasRows, affected, involved] = await Promise.all([
    db.selectFrom('kb_aliases').select('alias').where('advisory_pk', '=', pk).orderBy('alias').execute(),
    affectedOf(db, pk),
    involvedSubjectCounts(db, [pk], involvedIn),
  ]);
  const aliases = aliasRows.map((a) => a.alias);
  const cwes = parseJson<string[]>(row.cwes, []);
  const relatedCwes = await relatedCwesOf(db, pk, [row.advisory_id, row.cve ?? '', ...aliases]);
  const local = await localIdsOf(db, [row.advisory_id, row.cve ?? '', row.cnnvd ?? '', row.cnvd ?? '', ...aliases]);
  return {
    ...rowView(row),
    involvedSubjects: involved.get(pk) ?? 0,
    aliases,
    details: row.details,
    cvssVersion: row.cvss_version,
    severitySource: storedSeveritySource({
      source: row.source, advisoryId: row.advisory_id, origin: row.origin, vector: row.vector, score: row.score === null ? null : Number(row.score), level: row.level,
    }) ?? '',
    cwes,
    weaknesses: weaknessesOf([...cwes, ...relatedCwes]),
    ...local,
    references: parseJson<{ type?: string; url: string }[]>(row.reference_links, [])
      .map((r) => ({ type: r.type ?? '', url: r.url, group: referenceGroup(r.type ?? '', r.url) })),
    severities: parseJson<{ type: string; score: string }[]>(row.severities, []),
    fixCommits: parseJson<string[]>(row.fix_commits, []),
    affected,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/**
 * The CWE ids other records of the same flaw give (an NVD record of its CVE, the GHSA its OSV
 * record aliases): records filed under one of its ids, or naming one of them as an alias.
 */
async function relatedCwesOf(db: Db, pk: number, ids: string[]): Promise<string[]> {
  const wanted = [...new Set(ids.map((id) => id.trim()).filter(Boolean))].slice(0, IDS_PER_STATEMENT);
  if (!wanted.length) return [];
  const [own, viaAlias] = await Promise.all([
    db.selectFrom('kb_advisories').select(['id', 'cwes']).where('advisory_id', 'in', wanted).where('id', '!=', pk).execute(),
    db.selectFrom('kb_aliases').innerJoin('kb_advisories', 'kb_advisories.id', 'kb_aliases.advisory_pk')
      .select(['kb_advisories.id', 'kb_advisories.cwes']).where('kb_aliases.alias', 'in', wanted).where('kb_advisories.id', '!=', pk).execute(),
  ]);
  return [...own, ...viaAlias].flatMap((r) => parseJson<string[]>(r.cwes, []));
}

const CNNVD = /^CNNVD-/i;
const CNVD = /^CNVD-/i;
const CVE = /^CVE-\d{4}-\d+$/i;

/**
 * The CNNVD and CNVD ids of a flaw known by these ids: those among the ids themselves and those
 * the imported mapping (kb_id_map) gives its CVE ids. Sorted, each once.
 */
async function localIdsOf(db: Db, ids: string[]): Promise<{ cnnvdIds: string[]; cnvdIds: string[] }> {
  const known = ids.map((id) => id.trim()).filter(Boolean);
  const cnnvd = new Set(known.filter((id) => CNNVD.test(id)));
  const cnvd = new Set(known.filter((id) => CNVD.test(id)));
  const cves = [...new Set(known.filter((id) => CVE.test(id)).map((id) => id.toUpperCase()))];
  for (const part of chunks(cves, IDS_PER_STATEMENT)) {
    const rows = await db.selectFrom('kb_id_map').select(['cnnvd', 'cnvd']).where('cve', 'in', part).execute();
    for (const r of rows) {
      if (r.cnnvd) cnnvd.add(r.cnnvd);
      if (r.cnvd) cnvd.add(r.cnvd);
    }
  }
  return { cnnvdIds: [...cnnvd].sort(), cnvdIds: [...cnvd].sort() };
}

/**
 * The knowledge-base advisory that best describes a finding: among the records filed under the
 * finding's ids (its primary id first, then its aliases), one naming the component's package,
 * else one with a description, else the first found. undefined when none is left.
 */
export async function advisoryForFinding(
  db: Db, ids: string[], component: { ecosystem: string; name: string }, involvedIn: number[] | 'all',
): Promise<VulnerabilityDetail | undefined> {
  const found = await lookupIds(db, ids);
  const pks = [...new Set(ids.map((id) => found.get(id)?.id).filter((pk): pk is number => pk !== undefined))].slice(0, 10);
  const name = component.name.toLowerCase();
  let best: { detail: VulnerabilityDetail; score: number } | undefined;
  for (const pk of pks) {
    const detail = await loadVulnerabilityDetail(db, pk, involvedIn);
    if (!detail) continue;
    const names = detail.affected.some((p) => p.name.toLowerCase() === name && (p.ecosystem === component.ecosystem || !component.ecosystem));
    const score = (names ? 2 : 0) + (detail.details.trim() ? 1 : 0);
    if (!best || score > best.score) best = { detail, score };
  }
  return best?.detail;
}

/** The rows behind these ids, for checks before a write (which ones exist, which are custom). */
export async function advisoryRefs(db: Db, pks: number[]): Promise<AdvisoryRef[]> {
  const out: AdvisoryRef[] = [];
  for (const part of chunks([...new Set(pks)], IDS_PER_STATEMENT)) {
    const rows = await db.selectFrom('kb_advisories').select(['id', 'advisory_id', 'source']).where('id', 'in', part).execute();
    out.push(...rows.map((r) => ({ id: r.id, advisoryId: r.advisory_id, source: r.source })));
  }
  return out;
}

/** The stored facts of one advisory an edit starts from. */
export async function advisoryForEdit(db: Db, pk: number) {
  return db.selectFrom('kb_advisories').select(['id', 'advisory_id', 'source', 'published', 'modified']).where('id', '=', pk).executeTakeFirst();
}

/** The row id of the advisory filed under this id (exactly as stored). */
export async function advisoryPk(db: Db, advisoryId: string): Promise<number | undefined> {
  return (await db.selectFrom('kb_advisories').select('id').where('advisory_id', '=', advisoryId).executeTakeFirst())?.id;
}

/** The other ids an advisory is known by. */
export async function aliasesOf(db: Db, pk: number): Promise<string[]> {
  return (await db.selectFrom('kb_aliases').select('alias').where('advisory_pk', '=', pk).execute()).map((a) => a.alias);
}

/** The next free generated id of the year: CAIRN-2026-0001, CAIRN-2026-0002, … */
export async function nextCustomId(db: Db, year: number): Promise<string> {
  const prefix = `CAIRN-${year}-`;
  const rows = await db.selectFrom('kb_advisories').select('advisory_id').where('advisory_id', 'like', `${prefix}%`).execute();
  let max = 0;
  for (const { advisory_id } of rows) {
    const n = Number(advisory_id.slice(prefix.length));
    if (Number.isSafeInteger(n) && n > max) max = n;
  }
  return `${prefix}${String(max + 1).padStart(4, '0')}`;
}

/** Which of these packages (`ecosystem\0name`, names normalised) any advisory names at all. */
export async function knownPackages(db: Db, packages: { ecosystem: string; name: string }[]): Promise<Set<string>> {
  const known = new Set<string>();
  const byEcosystem = new Map<string, Set<string>>();
  for (const p of packages) byEcosystem.set(p.ecosystem, (byEcosystem.get(p.ecosystem) ?? new Set()).add(p.name));
  for (const [ecosystem, names] of byEcosystem) {
    for (const part of chunks([...names], IDS_PER_STATEMENT)) {
      const rows = await db.selectFrom('kb_affected').select('name').distinct()
        .where('ecosystem', '=', ecosystem).where('name', 'in', part).execute();
      for (const r of rows) known.add(`${ecosystem}\0${r.name}`);
    }
  }
  return known;
}
