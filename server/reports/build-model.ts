// Builds a ReportModel from the database (db/repositories/report-model.ts reads it): one task (a
// run), or several runs merged (a subject report: the latest succeeded run of each of its
// projects; a statistics report: those of every project the user may see). Rows are read in keyset
// pages so a run with tens of thousands of components never needs one huge result; the writers
// then take the plain model.
import { COVERAGE_INCOMPLETE, isEcosystemUncovered, isIncomplete } from '../../contract/coverage.ts';
import type { Kysely } from 'kysely';
import { CODE_TYPE_LABEL, labelOf } from '../../contract/enums.ts';
import type { Database } from '../db/schema.ts';
import { UserError } from '../errors.ts';
import {
  advisoryDetails, componentPage, coverNames, edgesOf, findingPage, licenceFacts, licenceFindings, licenceUses, markLogRows, runsOf, type RunInfo,
} from '../db/repositories/report-model.ts';
import { nearestOfId, scoreOf, unfiltered, type LicenceFilter } from '../db/repositories/results-licences.ts';
import { evidenceOf, locationsOf, parseJson } from '../db/repositories/results.ts';
import { markValueLabel } from '../db/repositories/results-marks.ts';
import { taskLevelCounts } from '../db/repositories/level-counts.ts';
import { conflictOf, OSADL_VERSION } from '../licenses/conflicts.ts';
import type {
  Level, ReportComponent, ReportConflict, ReportLicenceFinding, ReportLicense, ReportMarkLog, ReportModel, ReportVulnerability,
} from './model.ts';
import { REPORT_TITLES } from './sections.ts';
import { recommendedUpgrade, storedFixState } from '../kb/advisory-view.ts';
import { markdownToText } from '../../contract/markdown.ts';

/** Rows per page when reading a run's tables. */
const PAGE = 2000;
const LEVELS: readonly Level[] = [1, 2, 4, 8, 16];

export type ModelKind = keyof typeof REPORT_TITLES;

export interface ModelRequest {
  /** task / license: one run; subject / statistic: the runs merged. */
  kind: ModelKind;
  runIds: number[];
  /** The subject of a subject report (its name and version go on the cover). */
  subjectId?: number | null;
  author: string;
  tool: { name: string; version: string };
  generatedAt?: string;
  /** The licence sections' filter (识别方式, 最低可信度); none: every finding. */
  licenceFilter?: LicenceFilter;
}

const asLevel = (n: number | null | undefined): Level => (LEVELS.includes(Number(n) as Level) ? (Number(n) as Level) : 16);

/** Keyset-paged read of one run's table ordered by id. */
async function* paged<T extends { id: number }>(read: (afterId: number) => Promise<T[]>): AsyncGenerator<T> {
  let after = 0;
  for (;;) {
    const rows = await read(after);
    for (const row of rows) yield row;
    if (rows.length < PAGE) return;
    after = Number(rows.at(-1)!.id);
  }
}

/** What the merge keeps per component row id: its ref in the report and its run. */
interface Merge {
  refOf: Map<number, string>;
  components: ReportComponent[];
  byRef: Map<string, ReportComponent>;
  /** The outbound licence each component's verdict is taken against (its run's). */
  outboundOf: Map<string, string | null>;
}

/** `layered`: a single run's report, which carries its image and so each component's layer. */
async function readComponents(db: Kysely<Database>, runs: RunInfo[], layered: boolean): Promise<Merge> {
  const merge: Merge = { refOf: new Map(), components: [], byRef: new Map(), outboundOf: new Map() };
  // Merged reports list a package once: the first run that has it (by purl, else name@version) keeps it.
  const byKey = new Map<string, string>();
  const merged = runs.length > 1;
  for (const run of runs) {
    const rows = paged((after) => componentPage(db, run.id, after, PAGE));
    for await (const c of rows) {
      const id = Number(c.id);
      const key = c.purl || `${c.ecosystem}:${c.name}@${c.version}`;
      const existing = merged ? byKey.get(key) : undefined;
      if (existing) {
        merge.refOf.set(id, existing);
        // A direct dependency in any project is direct in the merged list.
        if (Number(c.direct)) merge.byRef.get(existing)!.direct = true;
        continue;
      }
      const ref = `c${id}`;
      const component: ReportComponent = {
        ref, name: c.name, version: c.version, purl: c.purl, ecosystem: c.ecosystem, direct: Boolean(Number(c.direct)), scope: c.scope,
        license: c.license_expression, licenseLevel: asLevel(c.license_level), risk: Number(c.risk_level),
        // Counted from the findings below, so a merged component counts each distinct finding once.
        vulnerabilityCount: 0,
        locations: locationsOf(c.locations).map((l) => ({ file: l.file, line: l.startLine })),
        evidence: evidenceOf(c.evidence),
        confidence: c.confidence === null || c.confidence === undefined ? null : Number(c.confidence),
        constraint: c.version_constraint ?? null,
        mark: c.mark, markRemark: c.mark_remark, recommendVersion: c.recommend_version,
        covered: !isEcosystemUncovered(run.coverage, c.ecosystem),
        // A component's layer means something only beside its image: a single image run's report.
        layer: layered && run.image && c.layer !== null ? Number(c.layer) : null,
      };
      merge.refOf.set(id, ref);
      merge.byRef.set(ref, component);
      merge.outboundOf.set(ref, run.outbound);
      byKey.set(key, ref);
      merge.components.push(component);
    }
  }
  return merge;
}

async function readEdges(db: Kysely<Database>, runs: RunInfo[], refOf: Map<number, string>): Promise<ReportModel['edges']> {
  const seen = new Set<string>();
  const edges: ReportModel['edges'] = [];
  for (const run of runs) {
    const rows = await edgesOf(db, run.id);
    for (const e of rows) {
      const to = refOf.get(Number(e.child_id));
      if (!to) continue;
      const from = e.parent_id === null ? null : refOf.get(Number(e.parent_id)) ?? null;
      if (from === to) continue;
      const key = `${from}>${to}`;
      if (seen.has(key)) continue;
      seen.add(key);
      edges.push({ from, to });
    }
  }
  return edges;
}

async function readVulnerabilities(db: Kysely<Database>, runs: RunInfo[], merge: Merge): Promise<ReportVulnerability[]> {
  const rows: Array<{ ref: string; v: Awaited<ReturnType<typeof findingPage>>[number] }> = [];
  const seen = new Set<string>();
  for (const run of runs) {
    for await (const v of paged((after) => findingPage(db, run.id, after, PAGE))) {
      const ref = merge.refOf.get(Number(v.component_id));
      if (!ref) continue;
      const key = `${ref}\u0000${v.vul_id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      rows.push({ ref, v });
    }
  }
  const kb = await advisoryDetails(db, [...new Set(rows.map((r) => r.v.vul_id))]);
  return rows.map(({ ref, v }) => {
    const c = merge.byRef.get(ref)!;
    c.vulnerabilityCount++;
    const d = kb.get(v.vul_id);
    const fixed = parseJson<unknown[]>(v.fixed_versions, []).map(String);
    const fixState = storedFixState(v.fix_state, fixed);
    return {
      id: v.cve ?? v.vul_id,
      aliases: [...new Set([v.vul_id, ...parseJson<unknown[]>(v.aliases, []).map(String)])].filter((a) => a !== (v.cve ?? v.vul_id)),
      cve: v.cve, cnnvd: v.cnnvd, cnvd: v.cnvd,
      componentRef: ref, componentName: c.name, componentVersion: c.version, componentPurl: c.purl,
      title: v.summary || d?.summary || v.vul_id,
      // Advisory descriptions are Markdown: documents get them as plain text.
      description: d?.description ? markdownToText(d.description) : (v.summary ?? ''),
      level: asLevel(v.level), originalLevel: asLevel(v.original_level), levelRemark: v.level_remark,
      score: v.score === null ? null : Number(v.score),
      vector: d?.vector ?? null,
      severitySource: v.severity_source ?? '',
      cwes: d?.cwes ?? [],
      fixedVersions: fixed,
      fixState,
      upgrade: recommendedUpgrade(c.ecosystem, c.version, fixed, fixState),
      published: v.published,
      references: d?.references ?? [],
      mark: Number(v.mark), markRemark: v.mark_remark, vex: Number(v.vex), vexRemark: v.vex_remark,
    };
  }).sort((a, b) => a.level - b.level || (b.score ?? -1) - (a.score ?? -1) || a.id.localeCompare(b.id));
}

async function readLicenses(db: Kysely<Database>, runs: RunInfo[], refOf: Map<number, string>, filter: LicenceFilter): Promise<ReportLicense[]> {
  const componentsOf = new Map<string, Set<string>>();
  for (const run of runs) {
    for (const r of await licenceUses(db, run.id, filter)) {
      const set = componentsOf.get(r.spdx_id) ?? new Set<string>();
      const ref = r.component_id === null ? undefined : refOf.get(Number(r.component_id));
      if (ref) set.add(ref);
      componentsOf.set(r.spdx_id, set);
    }
  }
  const ids = [...componentsOf.keys()];
  const known = await licenceFacts(db, ids);
  return ids.map((spdxId) => {
    const k = known.get(spdxId);
    return {
      spdxId, name: k?.name ?? spdxId, level: asLevel(k?.level), componentCount: componentsOf.get(spdxId)!.size,
      osiApproved: k?.osi ?? false, fsfLibre: k?.fsf ?? false, copyleft: k?.copyleft || 'none',
    };
  }).sort((a, b) => a.level - b.level || b.componentCount - a.componentCount || a.spdxId.localeCompare(b.spdxId));
}

/** Each place the runs' own licences were found in files (merged runs: each distinct place once). */
async function readLicenceFindings(db: Kysely<Database>, runs: RunInfo[], filter: LicenceFilter): Promise<ReportLicenceFinding[]> {
  const out: ReportLicenceFinding[] = [];
  const seen = new Set<string>();
  for (const run of runs) {
    for (const f of await licenceFindings(db, run.id, filter)) {
      const key = `${f.spdxId}\u0000${f.file}\u0000${f.startLine}\u0000${f.endLine}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({
        spdxId: f.spdxId, file: f.file, startLine: f.startLine, endLine: f.endLine, kind: f.source as ReportLicenceFinding['kind'], score: scoreOf(f.score),
        evidence: parseJson<unknown[]>(f.evidence, []).map(String), nearest: f.nearest ?? nearestOfId(f.spdxId),
      });
    }
  }
  return out;
}

/** The conflict endpoint's verdicts (conflictOf), listing what is not compatible. */
function conflictsOf(merge: Merge): { rows: ReportConflict[]; incompatible: number } {
  const rows: ReportConflict[] = [];
  let incompatible = 0;
  for (const c of merge.components) {
    const outbound = merge.outboundOf.get(c.ref) ?? null;
    // Without an outbound licence every verdict is unknown; the section says so once instead.
    if (!outbound) continue;
    const verdict = conflictOf(outbound, c.license);
    if (verdict.verdict === 'compatible') continue;
    if (verdict.verdict === 'incompatible') incompatible++;
    rows.push({
      componentRef: c.ref, componentName: c.name, componentVersion: c.version, license: c.license ?? '--',
      verdict: verdict.verdict, explanation: verdict.explanation, source: verdict.source,
    });
  }
  const order = { incompatible: 0, check: 1, unknown: 2 };
  rows.sort((a, b) => order[a.verdict] - order[b.verdict] || a.componentName.localeCompare(b.componentName));
  return { rows, incompatible };
}

async function readMarkLogs(db: Kysely<Database>, runs: RunInfo[]): Promise<ReportMarkLog[]> {
  // Marks carry from run to run within a project, so a report shows the project's whole record.
  const projectIds = [...new Set(runs.map((r) => r.projectId))];
  const out: ReportMarkLog[] = (await markLogRows(db, projectIds)).map((r) => ({
    kind: r.kind, target: r.target, oldValue: markValueLabel(r.kind, r.old_value), newValue: markValueLabel(r.kind, r.new_value), remark: r.remark, user: r.user ?? '--', at: r.created_at,
  }));
  return out.sort((a, b) => a.at.localeCompare(b.at));
}

/** The report model of the request's runs (read from the database, then plain data). */
export async function buildReportModel(db: Kysely<Database>, request: ModelRequest): Promise<ReportModel> {
  const runs = await runsOf(db, request.runIds);
  if (!runs.length && (request.kind === 'task' || request.kind === 'license')) throw new UserError('报告对应的检测任务已被删除', 'not-found');
  const merge = await readComponents(db, runs, request.kind === 'task' || request.kind === 'license');
  const edges = await readEdges(db, runs, merge.refOf);
  const full = request.kind !== 'license';
  const filter = request.licenceFilter ?? {};
  const [vulnerabilities, licenses, licenceFindingRows, markLogs] = await Promise.all([
    readVulnerabilities(db, runs, merge),
    readLicenses(db, runs, merge.refOf, filter),
    readLicenceFindings(db, runs, filter),
    full ? readMarkLogs(db, runs) : Promise.resolve([]),
  ]);
  const conflicts = conflictsOf(merge);

  // The counts as every screen shows them (taskLevelCounts); the sections list every row with its mark.
  const counts = await taskLevelCounts(db, runs.map((r) => r.id));
  const ecosystems = new Map<string, number>();
  for (const c of merge.components) ecosystems.set(c.ecosystem, (ecosystems.get(c.ecosystem) ?? 0) + 1);

  const single = request.kind === 'task' || request.kind === 'license' ? runs[0]! : null;
  const subject = await subjectOf(db, request, single);
  const outbounds = [...new Set(runs.map((r) => r.outbound).filter((o): o is string => !!o))];
  const codeTypes = [...new Set(runs.map((r) => r.codeType))];
  const times = (pick: (r: RunInfo) => string | null) => runs.map(pick).filter((t): t is string => !!t).sort();
  return {
    title: REPORT_TITLES[request.kind],
    scope: request.kind === 'license' ? 'license' : 'full',
    generatedAt: request.generatedAt ?? new Date().toISOString(),
    tool: request.tool,
    author: request.author,
    subject,
    project: single
      ? { id: single.projectId, name: single.projectName, codeType: single.codeType, codeTypeLabel: labelOf(CODE_TYPE_LABEL, single.codeType), outboundLicense: single.outbound }
      : {
        id: 0,
        name: `共 ${new Set(runs.map((r) => r.projectId)).size} 个项目`,
        codeType: codeTypes.length === 1 ? codeTypes[0]! : -1,
        codeTypeLabel: codeTypes.length === 1 ? labelOf(CODE_TYPE_LABEL, codeTypes[0]) : codeTypes.length ? '多种检测对象' : '--',
        outboundLicense: outbounds.length ? outbounds.join(', ') : null,
      },
    task: single
      ? { id: single.id, seq: single.seq, startedAt: single.startedAt, finishedAt: single.finishedAt, analysisModes: single.analysisModes }
      : { id: 0, seq: 0, startedAt: times((r) => r.startedAt)[0] ?? null, finishedAt: times((r) => r.finishedAt).at(-1) ?? null, analysisModes: [...new Set(runs.map((r) => r.analysisModes))].join(';') },
    summary: {
      components: counts.components,
      directComponents: counts.directComponents,
      vulnerabilities: counts.vulnerabilities,
      vulnerabilityLevels: counts.byLevel,
      componentRisks: Object.fromEntries(Object.entries(counts.byRisk).filter(([, n]) => n > 0)),
      licenses: counts.licenses,
      licenseLevels: counts.licensesByLevel,
      conflicts: conflicts.incompatible,
      ecosystems: [...ecosystems].map(([name, count]) => ({ name, count })).sort((a, b) => b.count - a.count || a.name.localeCompare(b.name)),
    },
    coverage: coverageOf(runs, merge.components),
    image: single?.image ?? null,
    components: merge.components,
    edges,
    vulnerabilities: full ? vulnerabilities : [],
    licenses,
    licenceFindings: licenceFindingRows,
    licenceFilter: unfiltered(filter) ? null : { kinds: filter.kinds?.length ? [...filter.kinds] : null, minScore: filter.minScore ?? 0 },
    conflicts: conflicts.rows,
    osadlVersion: OSADL_VERSION,
    markLogs,
  };
}

/** The runs' coverage in words; a merged report names the project of each reason. */
function coverageOf(runs: RunInfo[], components: ReportComponent[]): ReportModel['coverage'] {
  const incomplete = runs.filter((r) => isIncomplete(r.coverage));
  if (!incomplete.length) return { complete: true, headline: null, reasons: [], uncoveredComponents: 0 };
  const reasons = runs.length === 1
    ? incomplete[0]!.coverage!.reasons
    : incomplete.flatMap((r) => r.coverage!.reasons.map((reason) => `${r.projectName}：${reason}`));
  return {
    complete: false,
    headline: `${COVERAGE_INCOMPLETE}：${[...new Set(reasons)].join('；')}`,
    reasons: [...new Set(reasons)],
    uncoveredComponents: components.filter((c) => !c.covered).length,
  };
}

async function subjectOf(db: Kysely<Database>, request: ModelRequest, single: RunInfo | null): Promise<ReportModel['subject']> {
  if (request.kind === 'statistic') return { id: 0, name: '全部应用', version: null };
  const subjectId = single?.subjectId ?? request.subjectId ?? null;
  if (subjectId === null) return { id: 0, name: '--', version: null };
  const names = await coverNames(db, subjectId, single?.versionId ?? null);
  return { id: subjectId, name: names.subject ?? '--', version: names.version };
}
