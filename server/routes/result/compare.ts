// Batches (runs) of a project and comparisons between two runs or two subjects.
//
// Pairing (documented in the contract): components by ecosystem + name — the same version on both
// sides is `same`, another version `changed` (a name present in several versions pairs equal
// versions first, then the rest in version order), otherwise `added` / `removed`. Findings by
// component ecosystem + name + advisory id, so an upgrade that keeps an advisory reads `changed`
// (version differs) rather than fixed + new; `changed` also covers level, mark and VEX changes.
import type { ComponentCompareRow, VulnerabilityCompareRow } from '../../../contract/api/result/index.ts';
import { fail, ok } from '../../../contract/envelope.ts';
import type { ServerContext } from '../../context.ts';
import {
  accessibleRun, accessibleSubject, latestRunsOf, resultScope, runViews, type Db,
} from '../../db/repositories/results.ts';
import { TASK_STATUS } from '../../../contract/enums.ts';
import { pageOf, pagingOf } from '../shared.ts';
import { signedIn } from '../register.ts';
import type { HandlersOf } from './common.ts';

type ComponentSide = NonNullable<ComponentCompareRow['base']>;
type FindingSide = NonNullable<VulnerabilityCompareRow['base']>;
interface CSide extends ComponentSide { ecosystem: string; name: string }
interface FSide extends FindingSide { key: string; identify: string; cve: string | null; cnnvd: string | null; summary: string; ecosystem: string; componentName: string }

const CHANGE_ORDER = { added: 0, removed: 1, changed: 2, same: 3 };

/** Components of some runs, one side entry per purl (several runs: worst risk, projects counted). */
async function componentSide(db: Db, runIds: number[], perRow: boolean): Promise<CSide[]> {
  if (!runIds.length) return [];
  const rows = await db.selectFrom('run_components')
    .select(['id', 'run_id', 'purl', 'ecosystem', 'name', 'version', 'risk_level', 'vul_count', 'license_expression'])
    .where('run_id', 'in', runIds).execute();
  const byPurl = new Map<string, CSide & { runs: Set<number> }>();
  for (const r of rows) {
    const seen = byPurl.get(r.purl);
    if (seen) {
      seen.runs.add(r.run_id);
      seen.projectCount = seen.runs.size;
      seen.riskLevel = Math.min(seen.riskLevel, r.risk_level) as CSide['riskLevel'];
      seen.vulCount = Math.max(seen.vulCount, Number(r.vul_count));
      continue;
    }
    byPurl.set(r.purl, {
      ecosystem: r.ecosystem, name: r.name, componentId: perRow ? r.id : null, version: r.version, riskLevel: r.risk_level as CSide['riskLevel'],
      vulCount: Number(r.vul_count), licenseExpression: r.license_expression, projectCount: 1, runs: new Set([r.run_id]),
    });
  }
  return [...byPurl.values()].map(({ runs: _runs, ...side }) => side);
}

async function findingSide(db: Db, runIds: number[], perRow: boolean): Promise<FSide[]> {
  if (!runIds.length) return [];
  const rows = await db.selectFrom('run_vulnerabilities as v').innerJoin('run_components as c', 'c.id', 'v.component_id')
    .select(['v.id', 'v.run_id', 'v.vul_id', 'v.cve', 'v.cnnvd', 'v.summary', 'v.level', 'v.mark', 'v.vex', 'c.ecosystem', 'c.name', 'c.version'])
    .where('v.run_id', 'in', runIds).orderBy('v.level').orderBy('v.id').execute();
  const byKey = new Map<string, FSide & { runs: Set<number> }>();
  for (const r of rows) {
    const key = `${r.ecosystem}\u0000${r.name}\u0000${r.vul_id}`;
    const seen = byKey.get(key);
    if (seen) {
      seen.runs.add(r.run_id);
      seen.projectCount = seen.runs.size;
      continue;
    }
    byKey.set(key, {
      key, identify: r.vul_id, cve: r.cve, cnnvd: r.cnnvd, summary: r.summary, ecosystem: r.ecosystem, componentName: r.name,
      findingId: perRow ? r.id : null, componentVersion: r.version, level: r.level as FSide['level'], mark: r.mark as FSide['mark'],
      vex: r.vex as FSide['vex'], projectCount: 1, runs: new Set([r.run_id]),
    });
  }
  return [...byKey.values()].map(({ runs: _runs, ...side }) => side);
}

export function compareComponents(base: CSide[], compare: CSide[]): ComponentCompareRow[] {
  const groups = new Map<string, { b: CSide[]; c: CSide[] }>();
  const groupOf = (s: CSide) => {
    const k = `${s.ecosystem}\u0000${s.name}`;
    const g = groups.get(k) ?? { b: [], c: [] };
    groups.set(k, g);
    return g;
  };
  for (const s of base) groupOf(s).b.push(s);
  for (const s of compare) groupOf(s).c.push(s);
  const rows: ComponentCompareRow[] = [];
  const strip = ({ ecosystem: _e, name: _n, ...side }: CSide) => side;
  for (const { b, c } of groups.values()) {
    const restB = [...b].sort((x, y) => x.version.localeCompare(y.version));
    const restC = [...c].sort((x, y) => x.version.localeCompare(y.version));
    for (const s of [...restB]) {
      const at = restC.findIndex((o) => o.version === s.version);
      if (at < 0) continue;
      rows.push({ change: 'same', ecosystem: s.ecosystem, name: s.name, base: strip(s), compare: strip(restC[at]!) });
      restC.splice(at, 1);
      restB.splice(restB.indexOf(s), 1);
    }
    while (restB.length && restC.length) {
      const s = restB.shift()!;
      rows.push({ change: 'changed', ecosystem: s.ecosystem, name: s.name, base: strip(s), compare: strip(restC.shift()!) });
    }
    for (const s of restB) rows.push({ change: 'removed', ecosystem: s.ecosystem, name: s.name, base: strip(s), compare: null });
    for (const s of restC) rows.push({ change: 'added', ecosystem: s.ecosystem, name: s.name, base: null, compare: strip(s) });
  }
  return rows.sort((x, y) => CHANGE_ORDER[x.change] - CHANGE_ORDER[y.change] || x.name.localeCompare(y.name) || x.ecosystem.localeCompare(y.ecosystem));
}

export function compareFindings(base: FSide[], compare: FSide[]): VulnerabilityCompareRow[] {
  const other = new Map(compare.map((s) => [s.key, s]));
  const strip = ({ key: _k, identify: _i, cve: _c, cnnvd: _n, summary: _s, ecosystem: _e, componentName: _m, ...side }: FSide) => side;
  const head = (s: FSide) => ({ identify: s.identify, cve: s.cve, cnnvd: s.cnnvd, summary: s.summary, ecosystem: s.ecosystem, componentName: s.componentName });
  const rows: VulnerabilityCompareRow[] = [];
  for (const b of base) {
    const c = other.get(b.key);
    if (!c) { rows.push({ change: 'removed', ...head(b), base: strip(b), compare: null }); continue; }
    other.delete(b.key);
    const same = b.level === c.level && b.mark === c.mark && b.vex === c.vex && b.componentVersion === c.componentVersion;
    rows.push({ change: same ? 'same' : 'changed', ...head(c), base: strip(b), compare: strip(c) });
  }
  for (const c of other.values()) rows.push({ change: 'added', ...head(c), base: null, compare: strip(c) });
  return rows.sort((x, y) => CHANGE_ORDER[x.change] - CHANGE_ORDER[y.change]
    || (x.compare ?? x.base)!.level - (y.compare ?? y.base)!.level || x.identify.localeCompare(y.identify) || x.componentName.localeCompare(y.componentName));
}

interface Filter { change?: 'added' | 'removed' | 'changed' | 'same'; keyword?: string; page?: number; size?: number }

function finish<T extends { change: keyof typeof CHANGE_ORDER }>(rows: T[], filter: Filter, text: (r: T) => string) {
  const totals = { added: 0, removed: 0, changed: 0, same: 0 };
  for (const r of rows) totals[r.change]++;
  const keyword = filter.keyword?.trim().toLowerCase();
  const kept = rows.filter((r) => (!filter.change || r.change === filter.change) && (!keyword || text(r).toLowerCase().includes(keyword)));
  const { page, size } = pagingOf(filter);
  return { totals, content: pageOf(kept, page, size), total: kept.length };
}

const NOT_SUCCEEDED = '只能对比分析成功的任务';
const componentText = (r: ComponentCompareRow) => `${r.ecosystem}/${r.name}`;
const findingText = (r: VulnerabilityCompareRow) => `${r.identify} ${r.cve ?? ''} ${r.cnnvd ?? ''} ${r.componentName} ${r.summary}`;

export function compareHandlers({ db }: ServerContext): HandlersOf<
  'batchList' | 'batchLatest' | 'compareTaskComponent' | 'compareTaskVulnerability' | 'compareSubjectComponent' | 'compareSubjectVulnerability'
> {
  /** Both runs, visible and succeeded, with their column headers. */
  const taskSides = async (userId: number, baseId: number, compareId: number) => {
    const sides = [];
    for (const id of [baseId, compareId]) {
      const found = await accessibleRun(db, userId, id);
      if (!found.ok) return found;
      if (found.value.run.status !== TASK_STATUS.SUCCEEDED) return { ok: false as const, message: NOT_SUCCEEDED };
      sides.push({ id, label: `${found.value.project.name} #${found.value.run.seq}`, finishedAt: found.value.run.finished_at });
    }
    return { ok: true as const, value: sides as [typeof sides[0], typeof sides[0]] };
  };

  const subjectSides = async (userId: number, body: { baseSubjectId: number; compareSubjectId: number; baseVersionId?: number; compareVersionId?: number }) => {
    const out = [];
    for (const [id, versionId] of [[body.baseSubjectId, body.baseVersionId], [body.compareSubjectId, body.compareVersionId]] as const) {
      const subject = await accessibleSubject(db, userId, { id });
      if (!subject.ok) return subject;
      const runs = await latestRunsOf(db, { subjectIds: [id], ...(versionId !== undefined && { versionId }) });
      out.push({ ref: { id, label: subject.value.name, finishedAt: null }, runIds: runs.map((r) => r.runId) });
    }
    return { ok: true as const, value: out as [typeof out[0], typeof out[0]] };
  };

  return {
    async batchList({ request, query }) {
      const scope = await resultScope(db, signedIn(request).userId, query.projectId);
      if (!scope.ok) return fail(scope.message);
      const { page, size } = pagingOf(query);
      let base = db.selectFrom('runs').where('project_id', '=', query.projectId);
      if (query.status !== undefined) base = base.where('status', '=', query.status);
      const counted = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
      const rows = await base.selectAll().orderBy('id', 'desc').limit(size).offset((page - 1) * size).execute();
      return ok({ content: await runViews(db, rows), total: Number(counted?.n ?? 0) });
    },

    async batchLatest({ request, query }) {
      const scope = await resultScope(db, signedIn(request).userId, query.projectId);
      if (!scope.ok) return fail(scope.message);
      const latest = await db.selectFrom('runs').selectAll().where('project_id', '=', query.projectId).orderBy('id', 'desc').limit(1).executeTakeFirst();
      return ok(latest ? (await runViews(db, [latest]))[0]! : null);
    },

    async compareTaskComponent({ request, body }) {
      const sides = await taskSides(signedIn(request).userId, body.baseTaskId, body.compareTaskId);
      if (!sides.ok) return fail(sides.message);
      const rows = compareComponents(await componentSide(db, [body.baseTaskId], true), await componentSide(db, [body.compareTaskId], true));
      return ok({ base: sides.value[0], compare: sides.value[1], ...finish(rows, body, componentText) });
    },

    async compareTaskVulnerability({ request, body }) {
      const sides = await taskSides(signedIn(request).userId, body.baseTaskId, body.compareTaskId);
      if (!sides.ok) return fail(sides.message);
      const rows = compareFindings(await findingSide(db, [body.baseTaskId], true), await findingSide(db, [body.compareTaskId], true));
      return ok({ base: sides.value[0], compare: sides.value[1], ...finish(rows, body, findingText) });
    },

    async compareSubjectComponent({ request, body }) {
      const sides = await subjectSides(signedIn(request).userId, body);
      if (!sides.ok) return fail(sides.message);
      const [b, c] = sides.value;
      const rows = compareComponents(await componentSide(db, b.runIds, false), await componentSide(db, c.runIds, false));
      return ok({ base: b.ref, compare: c.ref, ...finish(rows, body, componentText) });
    },

    async compareSubjectVulnerability({ request, body }) {
      const sides = await subjectSides(signedIn(request).userId, body);
      if (!sides.ok) return fail(sides.message);
      const [b, c] = sides.value;
      const rows = compareFindings(await findingSide(db, b.runIds, false), await findingSide(db, c.runIds, false));
      return ok({ base: b.ref, compare: c.ref, ...finish(rows, body, findingText) });
    },
  };
}
