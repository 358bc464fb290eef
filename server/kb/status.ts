// The knowledge base's status (sources, advisories per ecosystem, last update, stale or not) and
// the coverage a run is analysed with. One function answers both the status call and the analysis,
// so the home page, the 漏洞知识库 screen and every run agree on what the knowledge base holds.
//
// The status is kept per database handle and recomputed only when its stamp moves (any advisory
// write, mapping import or finished import of any process) or an import of this process says so
// (knowledgeChanged): the counts group a large table, the stamp is three indexed reads.
import type { Kysely } from 'kysely';
import {
  KB_STALE_DAYS_DEFAULT, KB_STALE_DAYS_MAX, type KbCoverage, type KbSource, type KbSourceKind, type KbStatus,
} from '../../contract/api/kb-status.ts';
import { coverageReasons } from '../../contract/coverage.ts';
import { kbStatusCounts, kbStatusStamp, type KbStatusCounts } from '../db/repositories/knowledge-base-status.ts';
import { getSetting, putSetting } from '../db/repositories/settings.ts';
import type { Database } from '../db/schema.ts';
import { SETTING } from '../db/seed.ts';
import { knowledgeChanged } from './import.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

interface Cached { stamp: string; counts: Promise<KbStatusCounts> }
const cache = new WeakMap<object, Cached>();
/** Moved by every import of this process that changed rows: every cached entry's stamp misses. */
let generation = 0;
knowledgeChanged.subscribe(() => { generation++; });

async function countsOf(db: Kysely<Database>): Promise<KbStatusCounts> {
  const stamp = `${generation}|${await kbStatusStamp(db)}`;
  const cached = cache.get(db);
  if (cached && cached.stamp === stamp) return cached.counts;
  const counts = kbStatusCounts(db);
  cache.set(db, { stamp, counts });
  counts.catch(() => { if (cache.get(db)?.counts === counts) cache.delete(db); });
  return counts;
}

/** CAIRN_KB_STALE_DAYS, when it is a whole number of days in range. */
function envStaleDays(env: NodeJS.ProcessEnv): number | null {
  const text = env.CAIRN_KB_STALE_DAYS?.trim();
  if (!text) return null;
  const n = Number(text);
  return Number.isInteger(n) && n >= 1 && n <= KB_STALE_DAYS_MAX ? n : null;
}

/** The stale threshold: the administrators' setting, else CAIRN_KB_STALE_DAYS, else 30 days. */
export async function staleThreshold(db: Kysely<Database>, env: NodeJS.ProcessEnv = process.env): Promise<{ days: number; source: KbStatus['staleDaysSource'] }> {
  const stored = await getSetting<number>(db, SETTING.kbStaleDays);
  if (typeof stored === 'number' && Number.isInteger(stored) && stored >= 1) return { days: stored, source: 'setting' };
  const fromEnv = envStaleDays(env);
  if (fromEnv !== null) return { days: fromEnv, source: 'env' };
  return { days: KB_STALE_DAYS_DEFAULT, source: 'default' };
}

export async function setStaleThreshold(db: Kysely<Database>, days: number): Promise<void> {
  await putSetting(db, SETTING.kbStaleDays, days);
}

const SOURCES: { kind: KbSourceKind; label: string }[] = [
  { kind: 'osv', label: 'OSV' },
  { kind: 'nvd', label: 'NVD' },
  { kind: 'trivy', label: 'trivy 数据库' },
  { kind: 'id-map', label: 'CNNVD/CNVD 编号对照' },
  { kind: 'sync', label: '镜像同步' },
  { kind: 'custom', label: '系统漏洞（自定义）' },
];

const latestOf = (...values: Array<string | null | undefined>): string | null =>
  values.filter((v): v is string => Boolean(v)).sort().at(-1) ?? null;

function sourcesOf(counts: KbStatusCounts): KbSource[] {
  return SOURCES.map(({ kind, label }) => {
    if (kind === 'id-map') {
      return { kind, label, count: counts.idMappings, unit: '条对照', lastImportAt: counts.lastImports.get('id-map') ?? null };
    }
    if (kind === 'sync') {
      const synced = latestOf(...counts.syncedEcosystems.map((s) => s.completedAt));
      return { kind, label, count: counts.syncedEcosystems.length, unit: '个生态', lastImportAt: latestOf(synced, counts.lastImports.get('sync')) };
    }
    const rows = counts.bySource.get(kind);
    // Custom entries are written one at a time on the screen: their last edit is their "import".
    const last = kind === 'custom' ? latestOf(rows?.latest, counts.lastImports.get('custom')) : counts.lastImports.get(kind) ?? null;
    return { kind, label, count: rows?.count ?? 0, unit: '条漏洞', lastImportAt: last };
  });
}

/**
 * When the knowledge base was last brought up to date: the last import (or sync) that succeeded,
 * or the newest row an importer wrote (advisories saved without a record, as older CLIs did).
 * Custom entries do not count: writing one does not refresh the rest.
 */
function lastUpdateOf(counts: KbStatusCounts): string | null {
  const imported = [...counts.lastImports].filter(([kind]) => kind !== 'custom').map(([, at]) => at);
  const rows = [...counts.bySource].filter(([source]) => source !== 'custom').map(([, r]) => r.latest);
  return latestOf(...imported, ...rows, ...counts.syncedEcosystems.map((s) => s.completedAt));
}

export async function kbStatus(db: Kysely<Database>, now = Date.now()): Promise<KbStatus> {
  const [counts, threshold] = await Promise.all([countsOf(db), staleThreshold(db)]);
  const total = [...counts.bySource.values()].reduce((n, r) => n + r.count, 0);
  const lastUpdate = lastUpdateOf(counts);
  const ageDays = lastUpdate === null ? null : Math.max(0, Math.floor((now - Date.parse(lastUpdate)) / DAY_MS));
  const empty = total === 0;
  const stale = !empty && (ageDays === null || ageDays > threshold.days);
  const message = empty
    ? '知识库为空：尚未导入任何漏洞数据，分析结果无法发现漏洞'
    : stale
      ? (ageDays === null ? `知识库的更新时间未知，可能已过期（超过 ${threshold.days} 天视为过期）` : `知识库已 ${ageDays} 天未更新（超过 ${threshold.days} 天视为过期），分析结果可能遗漏新漏洞`)
      : `知识库正常：共 ${total.toLocaleString('zh-CN')} 条漏洞，覆盖 ${counts.byEcosystem.length} 个生态`;
  return {
    total,
    empty,
    sources: sourcesOf(counts),
    ecosystems: counts.byEcosystem,
    lastUpdate,
    ageDays,
    stale,
    staleDays: threshold.days,
    staleDaysSource: threshold.source,
    message,
  };
}

/**
 * The coverage of a run whose components are `components` (their ecosystems), against the
 * knowledge base as it is now: asked right after matching, so it states what the matcher knew.
 */
export async function runCoverage(db: Kysely<Database>, components: Array<{ ecosystem: string; risk: number }>, now = Date.now()): Promise<KbCoverage> {
  const status = await kbStatus(db, now);
  const known = new Set(status.ecosystems.filter((e) => e.advisories > 0).map((e) => e.ecosystem));
  const perEcosystem = new Map<string, number>();
  for (const c of components) perEcosystem.set(c.ecosystem, (perEcosystem.get(c.ecosystem) ?? 0) + 1);
  const uncovered = [...perEcosystem].filter(([ecosystem]) => !known.has(ecosystem))
    .map(([ecosystem, count]) => ({ ecosystem, components: count }))
    .sort((a, b) => b.components - a.components || (a.ecosystem < b.ecosystem ? -1 : 1));
  // Nothing to look up: no result to call incomplete.
  if (components.length === 0) uncovered.length = 0;
  const facts = components.length === 0
    ? { empty: false, stale: false, staleDays: status.staleDays, ageDays: status.ageDays, uncovered }
    : { empty: status.empty, stale: status.stale, staleDays: status.staleDays, ageDays: status.ageDays, uncovered };
  const reasons = coverageReasons(facts);
  return {
    complete: reasons.length === 0,
    ...facts,
    lastUpdate: status.lastUpdate,
    uncoveredComponents: uncovered.reduce((n, u) => n + u.components, 0),
    uncoveredNoVulnerability: components.filter((c) => c.risk === 32 && uncovered.some((u) => u.ecosystem === c.ecosystem)).length,
    reasons,
    checkedAt: new Date(now).toISOString(),
  };
}
