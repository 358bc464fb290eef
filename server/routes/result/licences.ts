// Licence tabs of a task: licences found (declared and recognised in files), copyright holders,
// and conflicts of each component's licence with the project's outbound licence.
import { sql } from 'kysely';
import type { ConflictRow, CopyrightRow, LicenseUsageRow } from '../../../contract/api/result/index.ts';
import { fail, ok } from '../../../contract/envelope.ts';
import type { ServerContext } from '../../context.ts';
import { resultScope } from '../../db/repositories/results.ts';
import { checkCompatibility } from '../../engine/matchers/licenses/conflicts.ts';
import { expressionIds } from '../../engine/matchers/licenses/expression.ts';
import { pageOf, pagingOf } from '../shared.ts';
import { signedIn } from '../register.ts';
import type { HandlersOf } from './common.ts';

export const NO_OUTBOUND = '项目未设置许可证，无法判断兼容性；请在项目设置中填写项目的出站许可证后重新检测';
const NO_DECLARED = '组件未声明许可证，无法判断兼容性';

const cache = new Map<string, Omit<ConflictRow, 'componentId' | 'name' | 'version' | 'purl' | 'licenseExpression'>>();

/** The verdict of one component licence against the outbound licence (memoised: few distinct pairs). */
export function conflictOf(outbound: string | null, inbound: string | null): Omit<ConflictRow, 'componentId' | 'name' | 'version' | 'purl' | 'licenseExpression'> {
  if (!outbound) return { verdict: 'unknown', explanation: NO_OUTBOUND, chosen: null, conflicting: [] };
  if (!inbound) return { verdict: 'unknown', explanation: NO_DECLARED, chosen: null, conflicting: [] };
  const key = `${outbound}\u0000${inbound}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const r = checkCompatibility(outbound, inbound);
  let conflicting: string[] = [];
  if (r.verdict === 'incompatible') {
    const ids = expressionIds(inbound);
    conflicting = ids.length > 1 ? ids.filter((id) => checkCompatibility(outbound, id).verdict === 'incompatible') : ids;
  }
  const out = { verdict: r.verdict, explanation: r.explanation, chosen: r.chosen ?? null, conflicting };
  if (cache.size > 5000) cache.clear();
  cache.set(key, out);
  return out;
}

export function licenceHandlers({ db }: ServerContext): HandlersOf<'licenseList' | 'copyrightList' | 'licenseConflict'> {
  return {
    async licenseList({ request, params, query }) {
      const scope = await resultScope(db, signedIn(request).userId, params.projectId, query?.taskId);
      if (!scope.ok) return fail(scope.message);
      const { run } = scope.value;
      if (!run) return ok({ content: [], total: 0 });
      const { page, size } = pagingOf(query);
      // A run recognises at most a few hundred distinct licences: group in SQL, filter and page here.
      const groups = await db.selectFrom('run_licenses').where('run_id', '=', run.id)
        .select(['spdx_id', sql<number>`count(distinct component_id)`.as('components'), sql<number>`count(distinct file)`.as('files')])
        .groupBy('spdx_id').execute();
      const sources = await db.selectFrom('run_licenses').where('run_id', '=', run.id).select(['spdx_id', 'source']).distinct().execute();
      const known = groups.length
        ? await db.selectFrom('licenses').select(['id', 'spdx_id', 'name', 'level', 'copyleft']).where('spdx_id', 'in', groups.map((g) => g.spdx_id)).execute()
        : [];
      const kb = new Map(known.map((k) => [k.spdx_id, k]));
      const keyword = query?.keyword?.trim().toLowerCase();
      const rows = groups.map((g) => {
        const k = kb.get(g.spdx_id);
        return {
          spdxId: g.spdx_id, name: k?.name ?? g.spdx_id, level: (k?.level ?? 16) as LicenseUsageRow['level'], licenseId: k?.id ?? null,
          copyleft: (k?.copyleft || null) as LicenseUsageRow['copyleft'],
          sources: sources.filter((s) => s.spdx_id === g.spdx_id).map((s) => s.source as LicenseUsageRow['sources'][number]),
          componentCount: Number(g.components), fileCount: Number(g.files),
        };
      }).filter((r) => (!keyword || r.spdxId.toLowerCase().includes(keyword) || r.name.toLowerCase().includes(keyword))
        && (query?.level === undefined || r.level === query.level))
        .sort((a, b) => a.level - b.level || b.componentCount - a.componentCount || a.spdxId.localeCompare(b.spdxId));
      const content: LicenseUsageRow[] = [];
      for (const r of pageOf(rows, page, size)) {
        const [components, files] = await Promise.all([
          db.selectFrom('run_licenses as l').innerJoin('run_components as c', 'c.id', 'l.component_id')
            .select(['c.id', 'c.name', 'c.version']).distinct().where('l.run_id', '=', run.id).where('l.spdx_id', '=', r.spdxId)
            .orderBy('c.name').orderBy('c.id').limit(5).execute(),
          // One line per place: a lock file declaring the licence for many components is one place.
          db.selectFrom('run_licenses')
            .select(['file', 'start_line', 'end_line', sql<string>`min(source)`.as('source'), sql<number | null>`max(score)`.as('score'), sql<number>`min(id)`.as('first')])
            .where('run_id', '=', run.id).where('spdx_id', '=', r.spdxId).where('file', 'is not', null)
            .groupBy(['file', 'start_line', 'end_line']).orderBy('first').limit(5).execute(),
        ]);
        content.push({
          ...r,
          components: components.map((c) => ({ id: c.id, name: c.name, version: c.version })),
          files: files.map((f) => ({
            file: f.file!, startLine: f.start_line, endLine: f.end_line, source: f.source as LicenseUsageRow['sources'][number],
            score: f.score === null ? null : Number(f.score),
          })),
        });
      }
      return ok({ content, total: rows.length });
    },

    async copyrightList({ request, params, query }) {
      const scope = await resultScope(db, signedIn(request).userId, params.projectId, query?.taskId);
      if (!scope.ok) return fail(scope.message);
      const { run } = scope.value;
      if (!run) return ok({ content: [], total: 0 });
      const { page, size } = pagingOf(query);
      const rows = await db.selectFrom('run_copyrights').select(['file', 'statement', 'holder', 'author', 'line'])
        .where('run_id', '=', run.id).orderBy('id').execute();
      // Author lines (holder null, author set) are attached to the holders of the same files.
      const authorsByFile = new Map<string, Set<string>>();
      const groups = new Map<string, { statements: Set<string>; files: Array<{ file: string; line: number }>; fileSet: Set<string> }>();
      for (const r of rows) {
        if (r.author) {
          const set = authorsByFile.get(r.file) ?? new Set<string>();
          set.add(r.author);
          authorsByFile.set(r.file, set);
          continue;
        }
        const key = r.holder?.trim() || r.statement.trim();
        const g = groups.get(key) ?? { statements: new Set<string>(), files: [], fileSet: new Set<string>() };
        g.statements.add(r.statement);
        g.fileSet.add(r.file);
        if (g.files.length < 10) g.files.push({ file: r.file, line: r.line });
        groups.set(key, g);
      }
      const keyword = query?.keyword?.trim().toLowerCase();
      const all: CopyrightRow[] = [...groups].map(([holder, g]) => {
        const authors = new Set<string>();
        for (const f of g.fileSet) for (const a of authorsByFile.get(f) ?? []) authors.add(a);
        return { holder, statements: [...g.statements].slice(0, 5), statementCount: g.statements.size, authors: [...authors].slice(0, 10), fileCount: g.fileSet.size, files: g.files };
      }).filter((r) => !keyword || r.holder.toLowerCase().includes(keyword) || r.statements.some((s) => s.toLowerCase().includes(keyword)))
        .sort((a, b) => b.fileCount - a.fileCount || a.holder.localeCompare(b.holder));
      return ok({ content: pageOf(all, page, size), total: all.length });
    },

    async licenseConflict({ request, params, query }) {
      const scope = await resultScope(db, signedIn(request).userId, params.projectId, query?.taskId);
      if (!scope.ok) return fail(scope.message);
      const { run, project } = scope.value;
      const totals = { compatible: 0, incompatible: 0, unknown: 0 };
      // The run keeps the outbound licence it was analysed with; a project without runs shows its setting.
      const outbound = run ? run.outbound_license : project.outbound_license;
      if (!run) return ok({ outboundLicense: outbound, totals, content: [], total: 0 });
      const { page, size } = pagingOf(query);
      const comps = await db.selectFrom('run_components').select(['id', 'name', 'version', 'purl', 'license_expression'])
        .where('run_id', '=', run.id).orderBy('name').orderBy('id').execute();
      const keyword = query?.keyword?.trim().toLowerCase();
      const order = { incompatible: 0, unknown: 1, compatible: 2 };
      const rows: ConflictRow[] = [];
      for (const c of comps) {
        const verdict = conflictOf(outbound, c.license_expression);
        totals[verdict.verdict]++;
        if (query?.verdict && verdict.verdict !== query.verdict) continue;
        if (keyword && !`${c.name}\u0000${c.purl}\u0000${c.license_expression ?? ''}`.toLowerCase().includes(keyword)) continue;
        rows.push({ componentId: c.id, name: c.name, version: c.version, purl: c.purl, licenseExpression: c.license_expression, ...verdict });
      }
      rows.sort((a, b) => order[a.verdict] - order[b.verdict]);
      return ok({ outboundLicense: outbound, totals, content: pageOf(rows, page, size), total: rows.length });
    },
  };
}
