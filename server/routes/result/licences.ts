// Licence tabs of a task: licences found (declared and recognised in files), copyright holders,
// and conflicts of each component's licence with the project's outbound licence.
import type { ConflictRow, CopyrightRow, LicenseUsageRow, resultLicenceCalls } from '../../../contract/api/result/index.ts';
import { ok } from '../../../contract/envelope.ts';
import type { ServerContext } from '../../context.ts';
import { resultScope } from '../../db/repositories/results.ts';
import { componentLicences, licenceFilterOf, licenceSamples, licenceViewCounts, runCopyrights, runLicences } from '../../db/repositories/results-licences.ts';
import { foldLatin, normaliseHolder } from '../../engine/index.ts';
import { conflictOf, OSADL_VERSION } from '../../licenses/conflicts.ts';
import { pageOf, pagingOf } from '../shared.ts';
import { signedIn, type AreaHandlers } from '../register.ts';

export function licenceHandlers({ db }: ServerContext): AreaHandlers<typeof resultLicenceCalls> {
  return {
    async licenseList({ request, params, query }) {
      const { run } = await resultScope(db, signedIn(request).userId, params.projectId, query?.taskId);
      if (!run) return ok({ content: [], total: 0, views: { project: 0, excluded: 0 } });
      const { page, size } = pagingOf(query);
      const keyword = query?.keyword?.trim().toLowerCase();
      const view = query?.view ?? 'project';
      const filter = licenceFilterOf(query);
      const rows = (await runLicences(db, run.id, view, filter)).filter((r) => (!keyword || r.spdxId.toLowerCase().includes(keyword) || r.name.toLowerCase().includes(keyword))
        && (query?.level === undefined || r.level === query.level))
        .sort((a, b) => a.level - b.level || b.componentCount - a.componentCount || a.spdxId.localeCompare(b.spdxId));
      const content: LicenseUsageRow[] = [];
      for (const r of pageOf(rows, page, size)) content.push({ ...r, ...(await licenceSamples(db, run.id, r.spdxId, view, filter)) });
      return ok({ content, total: rows.length, views: await licenceViewCounts(db, run.id, filter) });
    },

    async copyrightList({ request, params, query }) {
      const { run } = await resultScope(db, signedIn(request).userId, params.projectId, query?.taskId);
      if (!run) return ok({ content: [], total: 0 });
      const { page, size } = pagingOf(query);
      const rows = await runCopyrights(db, run.id);
      // Author lines (holder null, author set) are attached to the holders of the same files.
      const authorsByFile = new Map<string, Set<string>>();
      // One row per holder however it is spelt ("Foo, Inc." / "FOO INC", "Koskimäki" / "Koskimaki"),
      // shown under the first spelling found.
      const groups = new Map<string, { holder: string; statements: Set<string>; files: Array<{ file: string; line: number }>; fileSet: Set<string> }>();
      for (const r of rows) {
        if (r.author) {
          const set = authorsByFile.get(r.file) ?? new Set<string>();
          set.add(r.author);
          authorsByFile.set(r.file, set);
          continue;
        }
        const holder = r.holder?.trim() || r.statement.trim();
        const key = normaliseHolder(holder) || holder;
        const g = groups.get(key) ?? { holder, statements: new Set<string>(), files: [], fileSet: new Set<string>() };
        g.statements.add(r.statement);
        g.fileSet.add(r.file);
        if (g.files.length < 10) g.files.push({ file: r.file, line: r.line });
        groups.set(key, g);
      }
      // "koskimaki" finds "Sami Koskimäki": accents do not have to be typed.
      const keyword = query?.keyword ? foldLatin(query.keyword.trim()).toLowerCase() : '';
      const matches = (value: string): boolean => foldLatin(value).toLowerCase().includes(keyword);
      const all: CopyrightRow[] = [...groups.values()].map(({ holder, ...g }) => {
        const authors = new Set<string>();
        for (const f of g.fileSet) for (const a of authorsByFile.get(f) ?? []) authors.add(a);
        return { holder, statements: [...g.statements].slice(0, 5), statementCount: g.statements.size, authors: [...authors].slice(0, 10), fileCount: g.fileSet.size, files: g.files };
      }).filter((r) => !keyword || matches(r.holder) || r.statements.some(matches))
        .sort((a, b) => b.fileCount - a.fileCount || a.holder.localeCompare(b.holder));
      return ok({ content: pageOf(all, page, size), total: all.length });
    },

    async licenseConflict({ request, params, query }) {
      const { run, project } = await resultScope(db, signedIn(request).userId, params.projectId, query?.taskId);
      const totals = { compatible: 0, incompatible: 0, check: 0, unknown: 0 };
      // The run keeps the outbound licence it was analysed with (and where it came from); a project
      // without runs shows its setting.
      const outbound = run ? run.outbound_license : project.outbound_license;
      const from = {
        outboundSource: (run ? run.outbound_source : project.outbound_license ? 'project' : null) as 'project' | 'manifest' | 'license-file' | null,
        outboundFile: run?.outbound_file ?? null,
      };
      if (!run) return ok({ outboundLicense: outbound, ...from, osadlVersion: OSADL_VERSION, componentCount: 0, totals, content: [], total: 0 });
      const { page, size } = pagingOf(query);
      const comps = await componentLicences(db, run.id);
      // Without an outbound licence no verdict can be given: nothing is listed as 未知, the tab
      // explains how to set one (the components' count says what would be judged).
      if (!outbound) return ok({ outboundLicense: null, ...from, osadlVersion: OSADL_VERSION, componentCount: comps.length, totals, content: [], total: 0 });
      const keyword = query?.keyword?.trim().toLowerCase();
      const order = { incompatible: 0, check: 1, unknown: 2, compatible: 3 };
      const rows: ConflictRow[] = [];
      for (const c of comps) {
        const verdict = conflictOf(outbound, c.license_expression);
        totals[verdict.verdict]++;
        if (query?.verdict && verdict.verdict !== query.verdict) continue;
        if (keyword && !`${c.name}\u0000${c.purl}\u0000${c.license_expression ?? ''}`.toLowerCase().includes(keyword)) continue;
        rows.push({ componentId: c.id, name: c.name, version: c.version, purl: c.purl, licenseExpression: c.license_expression, ...verdict });
      }
      rows.sort((a, b) => order[a.verdict] - order[b.verdict]);
      return ok({ outboundLicense: outbound, ...from, osadlVersion: OSADL_VERSION, componentCount: comps.length, totals, content: pageOf(rows, page, size), total: rows.length });
    },
  };
}
