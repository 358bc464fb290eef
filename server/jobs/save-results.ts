// Turns a finished analysis into the rows of its run (db/repositories/run-results.ts writes them in
// one transaction): either the whole result is there and the run says 成功, or nothing is and the run
// says 失败. Marks of the previous run are carried over in the same transaction when the project
// keeps its audit (retention audit).
import type { Kysely } from 'kysely';
import type { KbCoverage } from '../../contract/api/kb-status.ts';
import type { RunSummary } from '../../contract/api/task.ts';
import type { Database } from '../db/schema.ts';
import { writeRunResults, type RunResultRows } from '../db/repositories/run-results.ts';
import { expressionIds, licenseScopeOf, type AnalysedComponent, type AnalyseResult } from '../engine/index.ts';

/** The outbound licence a run is judged against, and where it came from (jobs/execute-run.ts). */
export interface RunOutbound {
  license: string;
  /** project: the user's setting; manifest / license-file: read from the analysed tree. */
  source: 'project' | 'manifest' | 'license-file';
  /** The file it was read from (manifest, license-file). */
  file: string | null;
}

export interface RunResults {
  analysis: AnalyseResult;
  components: AnalysedComponent[];
  outbound: RunOutbound | null;
  /** The knowledge base's coverage of the components, as matched (kb/status.ts runCoverage). */
  coverage?: KbCoverage;
}

const idOf = (ids: string[], prefix: string) => ids.find((id) => id.toUpperCase().startsWith(prefix)) ?? null;

/** Saves the results of a run `worker` is analysing; null when the run is no longer its (paused, stopped). */
export async function saveRunResults(db: Kysely<Database>, run: { id: number; project_id: number }, worker: string, results: RunResults, retention: boolean): Promise<RunSummary | null> {
  const rows: RunResultRows = {
    components: componentRows(results.components),
    edges: edgeRows(results),
    findings: findingRows(results.components),
    files: fileRows(results),
    licences: licenceRows(results),
    copyrights: copyrightRows(results.analysis),
    leaks: leakRows(results.analysis),
  };
  // The project's licences only: texts in test fixtures, licence databases and data files are kept apart.
  const summary = summarise(results, rows.findings.length, new Set(rows.licences.filter((r) => r.scope === 'project').map((r) => r.spdx_id)).size, rows.copyrights.length, rows.leaks.length);
  const { problems } = results.analysis;
  const saved = await writeRunResults(db, run, worker, rows, {
    message: runMessage(results.analysis),
    summary,
    problems: problems.slice(0, 1000),
    outboundLicense: results.outbound?.license ?? null,
    outboundSource: results.outbound?.source ?? null,
    outboundFile: results.outbound?.file ?? null,
  }, retention);
  return saved ? summary : null;
}

/** The run's closing line: nothing to read (analyse.ts lists it first among the problems), and the files that could not be parsed. */
function runMessage(analysis: RunResults['analysis']): string {
  const nothing = analysis.targets.length === 0;
  const unparsed = analysis.problems.length - (nothing ? 1 : 0);
  const parts = ['分析完成', ...(nothing ? ['未识别到可分析的组件清单'] : []), ...(unparsed > 0 ? [`${unparsed} 个文件无法解析`] : [])];
  return parts.join('，');
}

function componentRows(components: AnalysedComponent[]): RunResultRows['components'] {
  return components.map((c) => {
    const levels: Record<number, number> = {};
    for (const f of c.findings) levels[f.level] = (levels[f.level] ?? 0) + 1;
    return {
      purl: c.purl,
      ecosystem: c.ecosystem,
      name: c.name,
      version: c.version,
      direct: c.direct ? 1 : 0,
      scope: c.scope,
      // Everything an extractor or SBOM names is an open-source package; private components
      // are recognised by the private component library (a later issue).
      component_type: 0,
      license_expression: c.licenseExpression,
      license_level: c.licenseLevel,
      risk_level: c.risk,
      vul_count: c.findings.length,
      vul_levels: JSON.stringify(levels),
      recommend_version: c.recommendVersion,
      locations: JSON.stringify(c.locations.slice(0, 50)),
      layer: c.layer ?? null,
      version_constraint: c.constraint ?? null,
      evidence: c.evidence?.length ? JSON.stringify(c.evidence) : null,
      confidence: c.confidence ?? null,
    };
  });
}

/** Roots and dependencies among the components found; a component depending on itself is no edge. */
function edgeRows(results: RunResults): RunResultRows['edges'] {
  const found = new Set(results.components.map((c) => c.purl));
  const edges: RunResultRows['edges'] = [];
  for (const purl of results.analysis.roots) {
    if (found.has(purl)) edges.push({ parent: null, child: purl });
  }
  for (const c of results.components) {
    for (const dep of c.dependsOn) {
      if (found.has(dep) && dep !== c.purl) edges.push({ parent: c.purl, child: dep });
    }
  }
  return edges;
}

function findingRows(components: AnalysedComponent[]): RunResultRows['findings'] {
  return components.flatMap((c) => c.findings.map((f) => {
    const all = [f.id, ...f.aliases];
    return {
      purl: c.purl,
      vul_id: f.id,
      cve: idOf(all, 'CVE-'),
      cnnvd: idOf(all, 'CNNVD-'),
      cnvd: idOf(all, 'CNVD-'),
      aliases: JSON.stringify(f.aliases),
      summary: f.summary ?? '',
      level: f.level,
      original_level: f.level,
      score: f.score ?? null,
      severity_source: f.severitySource ?? '',
      exploit: f.exploit,
      fixed_versions: JSON.stringify(f.fixedVersions),
      fix_state: f.fixState ?? '',
      published: f.published ?? null,
    };
  }));
}

/** Every file, then every folder above one, with how many components each declares. */
function fileRows(results: RunResults): RunResultRows['files'] {
  const declared = new Map<string, number>();
  for (const c of results.components) {
    for (const file of new Set(c.locations.map((l) => l.file))) declared.set(file, (declared.get(file) ?? 0) + 1);
  }
  const dirs = new Map<string, number>();
  const rows: RunResultRows['files'] = [];
  for (const f of results.analysis.files) {
    const parts = f.path.split('/');
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join('/');
      dirs.set(dir, (dirs.get(dir) ?? 0) + (declared.get(f.path) ?? 0));
    }
    rows.push({ path: f.path, parent: parts.slice(0, -1).join('/'), name: parts.at(-1)!, is_dir: 0, size: f.size, component_count: declared.get(f.path) ?? 0 });
  }
  for (const [dir, count] of dirs) {
    const parts = dir.split('/');
    rows.push({ path: dir, parent: parts.slice(0, -1).join('/'), name: parts.at(-1)!, is_dir: 1, size: 0, component_count: count });
  }
  return rows;
}

/**
 * Licences declared by components (one row per licence of the expression), then those found in
 * files, each with its scope: found in test fixtures, licence databases or data files, it is not
 * one of the project's licences (engine/analyzers/license-scope.ts).
 */
function licenceRows(results: RunResults): RunResultRows['licences'] {
  const rows: RunResultRows['licences'] = [];
  for (const c of results.components) {
    if (!c.licenseExpression) continue;
    for (const spdx of expressionIds(c.licenseExpression)) {
      // Every row names every column: a multi-row INSERT fills a missing one with NULL on SQLite, not its default.
      rows.push({ purl: c.purl, file: c.locations[0]?.file ?? null, spdx_id: spdx, source: 'declared', score: null, start_line: null, end_line: null, scope: 'project', evidence: '[]', nearest: null });
    }
  }
  for (const f of results.analysis.findings) {
    for (const l of f.licenses) {
      rows.push({
        purl: null, file: f.path, spdx_id: l.spdx, source: l.kind, score: Math.round(l.score * 1000) / 1000, start_line: l.startLine, end_line: l.endLine,
        scope: licenseScopeOf(f.path, l.kind, results.analysis.projectRoot),
        // The lines that decided it and, for a modified text, the standard licence it is nearest to.
        evidence: JSON.stringify(l.evidence ?? []), nearest: l.nearest ?? null,
      });
    }
  }
  return rows;
}

function copyrightRows(analysis: AnalyseResult): RunResultRows['copyrights'] {
  return analysis.findings.flatMap((f) => [
    ...f.copyrights.map((c) => ({ file: f.path, statement: c.statement, holder: c.holder, author: null, line: c.line })),
    ...f.authors.map((a) => ({ file: f.path, statement: a.value, holder: null, author: a.value, line: a.line })),
  ]);
}

/** Sensitive information found per run at most (each file keeps at most the engine's MAX_PER_FILE). */
const MAX_RUN_LEAKS = 10_000;

function leakRows(analysis: AnalyseResult): RunResultRows['leaks'] {
  const rows: RunResultRows['leaks'] = [];
  for (const f of analysis.findings) {
    for (const l of f.leaks ?? []) {
      if (rows.length >= MAX_RUN_LEAKS) return rows;
      rows.push({ file: f.path, offset: l.offset, type: l.type, rule: l.rule, rule_name: l.ruleName.slice(0, 100), text: l.text });
    }
  }
  return rows;
}

function summarise(results: RunResults, findings: number, licences: number, copyrights: number, leaks: number): RunSummary {
  const byLevel = { 1: 0, 2: 0, 4: 0, 8: 0, 16: 0 };
  const byRisk: Record<string, number> = {};
  let vulnerable = 0;
  for (const c of results.components) {
    byRisk[c.risk] = (byRisk[c.risk] ?? 0) + 1;
    if (c.findings.length) vulnerable++;
    for (const f of c.findings) byLevel[f.level]++;
  }
  return {
    files: results.analysis.stats.files,
    components: results.components.length,
    directComponents: results.components.filter((c) => c.direct).length,
    vulnerableComponents: vulnerable,
    vulnerabilities: findings,
    byLevel,
    byRisk,
    licenses: licences,
    copyrights,
    ...(results.analysis.leakDetection ? { leaks } : {}),
    problems: results.analysis.problems.length,
    ms: results.analysis.stats.ms,
    ...(results.coverage ? { coverage: results.coverage } : {}),
    ...(results.analysis.image ? { image: results.analysis.image } : {}),
  };
}
