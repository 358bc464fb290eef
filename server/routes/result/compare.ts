// Batches (runs) of a project and comparisons between two runs or two subjects.
//
// Pairing (documented in the contract): components by ecosystem + name — the same version on both
// sides is `same`, another version `changed` (a name present in several versions pairs equal
// versions first, then the rest in version order), otherwise `added` / `removed`. Findings by
// component ecosystem + name + advisory id, so an upgrade that keeps an advisory reads `changed`
// (version differs) rather than fixed + new; `changed` also covers level, mark and VEX changes.
import type { ComponentCompareRow, VulnerabilityCompareRow, resultCompareCalls } from '../../../contract/api/result/index.ts';
import { ok } from '../../../contract/envelope.ts';
import { TASK_STATUS } from '../../../contract/enums.ts';
import type { ServerContext } from '../../context.ts';
import { accessibleRun, accessibleSubject, latestRun, latestRunsOf, resultScope, runViews } from '../../db/repositories/results.ts';
import { componentSide, findingSide, listRuns, type CSide, type FSide } from '../../db/repositories/results-compare.ts';
import { UserError } from '../../errors.ts';
import { pageOf, pagingOf } from '../shared.ts';
import { signedIn, type AreaHandlers } from '../register.ts';

const CHANGE_ORDER = { added: 0, removed: 1, changed: 2, same: 3 };

function compareComponents(base: CSide[], compare: CSide[]): ComponentCompareRow[] {
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

function compareFindings(base: FSide[], compare: FSide[]): VulnerabilityCompareRow[] {
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

export function compareHandlers({ db }: ServerContext): AreaHandlers<typeof resultCompareCalls> {
  /** Both runs, visible and succeeded, with their column headers. */
  const taskSides = async (userId: number, baseId: number, compareId: number) => {
    const sides = [];
    for (const id of [baseId, compareId]) {
      const { run, project } = await accessibleRun(db, userId, id);
      if (run.status !== TASK_STATUS.SUCCEEDED) throw new UserError(NOT_SUCCEEDED);
      sides.push({ id, label: `${project.name} #${run.seq}`, finishedAt: run.finished_at });
    }
    return sides as [typeof sides[0], typeof sides[0]];
  };

  const subjectSides = async (userId: number, body: { baseSubjectId: number; compareSubjectId: number; baseVersionId?: number; compareVersionId?: number }) => {
    const out = [];
    for (const [id, versionId] of [[body.baseSubjectId, body.baseVersionId], [body.compareSubjectId, body.compareVersionId]] as const) {
      const subject = await accessibleSubject(db, userId, { id });
      const runs = await latestRunsOf(db, { subjectIds: [id], ...(versionId !== undefined && { versionId }) });
      out.push({ ref: { id, label: subject.name, finishedAt: null }, runIds: runs.map((r) => r.runId) });
    }
    return out as [typeof out[0], typeof out[0]];
  };

  return {
    async batchList({ request, query }) {
      await resultScope(db, signedIn(request).userId, query.projectId);
      return ok(await listRuns(db, query.projectId, query.status, pagingOf(query)));
    },

    async batchLatest({ request, query }) {
      await resultScope(db, signedIn(request).userId, query.projectId);
      const latest = await latestRun(db, query.projectId);
      return ok(latest ? (await runViews(db, [latest]))[0]! : null);
    },

    async compareTaskComponent({ request, body }) {
      const [base, compare] = await taskSides(signedIn(request).userId, body.baseTaskId, body.compareTaskId);
      const rows = compareComponents(await componentSide(db, [body.baseTaskId], true), await componentSide(db, [body.compareTaskId], true));
      return ok({ base, compare, ...finish(rows, body, componentText) });
    },

    async compareTaskVulnerability({ request, body }) {
      const [base, compare] = await taskSides(signedIn(request).userId, body.baseTaskId, body.compareTaskId);
      const rows = compareFindings(await findingSide(db, [body.baseTaskId], true), await findingSide(db, [body.compareTaskId], true));
      return ok({ base, compare, ...finish(rows, body, findingText) });
    },

    async compareSubjectComponent({ request, body }) {
      const [b, c] = await subjectSides(signedIn(request).userId, body);
      const rows = compareComponents(await componentSide(db, b.runIds, false), await componentSide(db, c.runIds, false));
      return ok({ base: b.ref, compare: c.ref, ...finish(rows, body, componentText) });
    },

    async compareSubjectVulnerability({ request, body }) {
      const [b, c] = await subjectSides(signedIn(request).userId, body);
      const rows = compareFindings(await findingSide(db, b.runIds, false), await findingSide(db, c.runIds, false));
      return ok({ base: b.ref, compare: c.ref, ...finish(rows, body, findingText) });
    },
  };
}
