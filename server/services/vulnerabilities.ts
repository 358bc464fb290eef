// System vulnerabilities (系统漏洞库): entries administrators write themselves, stored as custom
// advisories beside the imported ones so the matcher treats them alike. Only these may be edited
// or deleted; imported advisories change by importing again. Each change and its audit row are one
// transaction; a refused entry is a UserError and changes nothing.
import type { SystemAdd, SystemEdit } from '../../contract/api/vulnerability.ts';
import { audit } from '../db/repositories/audit-log.ts';
import { deleteAdvisories, saveAdvisories, type AdvisoryRecord } from '../db/repositories/knowledge-base.ts';
import { advisoryForEdit, advisoryPk, advisoryRefs, lookupIds, nextCustomId } from '../db/repositories/vulnerabilities.ts';
import { nowIso } from '../db/time.ts';
import { inTransaction, type Db } from '../db/transaction.ts';
import { assessSeverity, normalizePackageName, storedSeveritySource, schemeForEcosystem, type Advisory, type AffectedPackage, type ExploitDifficulty, type Level } from '../engine/index.ts';
import { UserError } from '../errors.ts';
import { advisoriesChanged } from '../kb/changes.ts';
import { KB_MSG } from '../kb/messages.ts';
import { ecosystemOf } from '../kb/packages.ts';
import { isHttpUrl } from './urls.ts';

type SystemFields = Omit<SystemEdit, 'id'>;

const refuse = (message: string) => new UserError(message);

export const CUSTOM_SOURCE = 'custom';
const CUSTOM_ORIGIN = '系统漏洞库';

const CVE = /^CVE-\d{4}-\d{4,}$/;
const CNNVD = /^CNNVD-\d{6}-\d{1,}$/;
const CNVD = /^CNVD-\d{4}-\d{1,}$/;
const ALIAS = /^[A-Za-z][A-Za-z0-9]*-[A-Za-z0-9][\w.:-]*$/;
const CWE = /^CWE-\d{1,5}$/;

const blank = (text: string | undefined | null): string => text?.trim() ?? '';
const upper = (text: string | undefined | null): string => blank(text).toUpperCase();

/** A date becomes midnight UTC of that day; null when absent, undefined when unreadable. */
function publishedOf(text: string | undefined): string | null | undefined {
  if (!blank(text)) return null;
  const t = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(text!.trim()) ? `${text!.trim()}T00:00:00Z` : text!.trim());
  return Number.isNaN(t) ? undefined : new Date(t).toISOString();
}

const cvssType = (version: string | null) =>
  version === '4.0' ? 'CVSS_V4' : version === '2' ? 'CVSS_V2' : 'CVSS_V3';

/**
 * Checks every field and builds the advisory record; the first problem is a UserError. Nothing is
 * written before this has passed, so a refused request changes nothing.
 */
function buildRecord(id: string, fields: SystemFields, published: string | null, modified: string): AdvisoryRecord {
  const name = blank(fields.name);
  if (!name) throw refuse(KB_MSG.nameBlank);

  const ids: Record<'cve' | 'cnnvd' | 'cnvd', string> = { cve: upper(fields.cve), cnnvd: upper(fields.cnnvd), cnvd: upper(fields.cnvd) };
  if (ids.cve && !CVE.test(ids.cve)) throw refuse(KB_MSG.cveInvalid);
  if (ids.cnnvd && !CNNVD.test(ids.cnnvd)) throw refuse(KB_MSG.cnnvdInvalid);
  if (ids.cnvd && !CNVD.test(ids.cnvd)) throw refuse(KB_MSG.cnvdInvalid);
  // An entry filed under a CVE/CNNVD/CNVD id is that id: the field, when given, must agree.
  for (const [field, pattern] of [['cve', CVE], ['cnnvd', CNNVD], ['cnvd', CNVD]] as const) {
    if (pattern.test(id)) {
      if (ids[field] && ids[field] !== id) throw refuse(KB_MSG.identifyConflict(field.toUpperCase(), id));
      ids[field] = '';
    }
  }
  const aliases: string[] = [];
  for (const raw of fields.aliases ?? []) {
    const alias = blank(raw);
    if (!alias) continue;
    if (!ALIAS.test(alias)) throw refuse(KB_MSG.aliasInvalid(alias));
    aliases.push(alias);
  }
  const allAliases = [...new Set([ids.cve, ids.cnnvd, ids.cnvd, ...aliases].filter((a) => a && a !== id))];

  const cwes: string[] = [];
  for (const raw of fields.cwes ?? []) {
    const cwe = upper(raw);
    if (!cwe) continue;
    const normalized = /^\d+$/.test(cwe) ? `CWE-${cwe}` : cwe;
    if (!CWE.test(normalized)) throw refuse(KB_MSG.cweInvalid(raw));
    if (!cwes.includes(normalized)) cwes.push(normalized);
  }

  let level: Level;
  let score: number | null = null;
  let vector: string | null = null;
  let exploit: ExploitDifficulty = fields.exploit ?? 16;
  let version: string | null = null;
  if (blank(fields.vector)) {
    const assessed = assessSeverity([{ vector: blank(fields.vector) }]);
    if (assessed.score === null) throw refuse(KB_MSG.vectorInvalid);
    ({ level, score, vector, exploit, version } = assessed);
  } else if (fields.level !== undefined) {
    level = fields.level;
  } else {
    throw refuse(KB_MSG.levelRequired);
  }

  const references: { type: string; url: string }[] = [];
  for (const raw of fields.references ?? []) {
    const url = blank(raw);
    if (!url) continue;
    if (!isHttpUrl(url)) throw refuse(KB_MSG.urlInvalid(url));
    references.push({ type: 'WEB', url });
  }
  const fixCommits: string[] = [];
  for (const raw of fields.fixCommits ?? []) {
    const url = blank(raw);
    if (!url) continue;
    if (!isHttpUrl(url)) throw refuse(KB_MSG.urlInvalid(url));
    fixCommits.push(url);
    references.push({ type: 'FIX', url });
  }

  const affected: AffectedPackage[] = [];
  for (const [index, pkg] of fields.packages.entries()) {
    const ecosystem = ecosystemOf(pkg.ecosystem);
    const pkgName = normalizePackageName(ecosystem, pkg.name);
    if (!pkgName) throw refuse(KB_MSG.packageNameBlank(index + 1));
    const scheme = schemeForEcosystem(ecosystem);
    const vulnerable = pkg.vulnerable.map(blank).filter(Boolean);
    if (vulnerable.length === 0) throw refuse(KB_MSG.constraintInvalid(pkgName, ''));
    for (const text of vulnerable) {
      try {
        scheme.constraint(text);
      } catch {
        throw refuse(KB_MSG.constraintInvalid(pkgName, text));
      }
    }
    const fixed = (pkg.fixed ?? []).map(blank).filter(Boolean);
    for (const v of fixed) if (!scheme.isValid(v)) throw refuse(KB_MSG.fixedInvalid(pkgName, v));
    affected.push({ ecosystem, distribution: null, name: pkgName, ranges: [], versions: [], vulnerable, patched: [], fixed });
  }

  const details = fields.description?.trim() ?? '';
  const advisory: Advisory = {
    id, aliases: allAliases, summary: name, level, score, vector, exploit, cwes, published, modified, withdrawn: false, affected,
    severitySource: storedSeveritySource({ source: CUSTOM_SOURCE, advisoryId: id, origin: CUSTOM_ORIGIN, vector, score, level }),
  };
  const severities = vector ? [{ type: cvssType(version), score: vector }] : [];
  // The OSV rendering of the entry: what an export or a mirror would carry.
  const document = {
    schema_version: '1.6.0',
    id,
    modified,
    ...(published && { published }),
    aliases: allAliases,
    summary: name,
    details,
    severity: severities,
    affected: affected.map((p) => ({
      package: { ecosystem: p.ecosystem, name: p.name },
      database_specific: { vulnerable: p.vulnerable, fixed: p.fixed },
    })),
    references,
    database_specific: { level, exploit, cwe_ids: cwes, source: CUSTOM_ORIGIN },
  };
  return { advisory, source: CUSTOM_SOURCE, origin: CUSTOM_ORIGIN, details, references, fixCommits, severities, document };
}

/** Generated ids are numbered per year, so two adds must not both pick the same next number. */
function serialised(): <T>(work: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return (work) => {
    const run = tail.then(work, work);
    tail = run.catch(() => undefined);
    return run;
  };
}

const exclusive = new WeakMap<object, <T>(work: () => Promise<T>) => Promise<T>>();

/** Writes a custom advisory and its audit row in one transaction; the index cache hears of it once committed. */
async function saveCustom(db: Db, userId: number, record: AdvisoryRecord, action: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    await saveAdvisories(trx, [record]);
    await audit(trx, { userId, action, detail: { id: record.advisory.id } });
  });
  advisoriesChanged(db);
}

/** A new system vulnerability under the given id, or the year's next generated one; its row id. */
export async function addSystemVulnerability(db: Db, userId: number, body: SystemAdd): Promise<number> {
  if (!exclusive.has(db)) exclusive.set(db, serialised());
  return exclusive.get(db)!(async () => {
    const identify = upper(body.identify);
    if (identify) {
      if (!CVE.test(identify) && !CNNVD.test(identify) && !CNVD.test(identify)) throw new UserError(KB_MSG.identifyInvalid);
      const hit = (await lookupIds(db, [identify])).get(identify);
      if (hit) throw new UserError(KB_MSG.identifyExists(identify, hit.advisoryId), 'conflict');
    }
    const now = nowIso();
    const published = publishedOf(body.published);
    if (published === undefined) throw new UserError(KB_MSG.publishedInvalid);
    const id = identify || await nextCustomId(db, new Date().getUTCFullYear());
    await saveCustom(db, userId, buildRecord(id, body, published ?? now, now), 'kb.vulnerability.added');
    return (await advisoryPk(db, id))!;
  });
}

/** Rewrites a system vulnerability; its row id. */
export async function editSystemVulnerability(db: Db, userId: number, body: SystemEdit): Promise<number> {
  const existing = await advisoryForEdit(db, body.id);
  if (!existing) throw new UserError(KB_MSG.vulnerabilityNotFound, 'not-found');
  if (existing.source !== CUSTOM_SOURCE) throw new UserError(KB_MSG.notCustom);
  const published = body.published === undefined ? existing.published : publishedOf(body.published);
  if (published === undefined) throw new UserError(KB_MSG.publishedInvalid);
  // The store keeps a row whose stored `modified` is newer; an edit must always be newer.
  const stored = existing.modified ? Date.parse(existing.modified) : 0;
  const modified = new Date(Math.max(Date.now(), stored + 1)).toISOString();
  await saveCustom(db, userId, buildRecord(existing.advisory_id, body, published, modified), 'kb.vulnerability.modified');
  return existing.id;
}

/** Deletes system vulnerabilities, all or none; how many were deleted. */
export async function deleteSystemVulnerabilities(db: Db, userId: number, ids: number[]): Promise<number> {
  const wanted = [...new Set(ids)];
  const refs = await advisoryRefs(db, wanted);
  const found = new Set(refs.map((r) => r.id));
  const missing = wanted.filter((id) => !found.has(id));
  if (missing.length) throw new UserError(wanted.length === 1 ? KB_MSG.vulnerabilityNotFound : `${KB_MSG.vulnerabilityNotFound}：${missing.join('、')}`, 'not-found');
  const imported = refs.filter((r) => r.source !== CUSTOM_SOURCE);
  if (imported.length) throw new UserError(wanted.length === 1 ? KB_MSG.notCustom : `${KB_MSG.notCustom}（${imported.map((r) => r.advisoryId).join('、')}）`);
  const advisoryIds = refs.map((r) => r.advisoryId);
  const deleted = await inTransaction(db, async (trx) => {
    const removed = await deleteAdvisories(trx, advisoryIds);
    await audit(trx, { userId, action: 'kb.vulnerability.deleted', detail: { ids: advisoryIds } });
    return removed;
  });
  advisoriesChanged(db);
  return deleted;
}
