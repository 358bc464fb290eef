// One claimed run from start to finish: the engine analyses the project's input in a worker
// thread, then the platform matches the components against the knowledge base, rates their
// licences and saves everything in one transaction. Progress is written to the run as it goes; a
// run paused or stopped from elsewhere is noticed at the next progress write and abandoned.
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { RunStage } from '../../contract/api/task.ts';
import { parseAnalysisModes } from '../../contract/enums.ts';
import { inputKindOf, unsupportedSource } from '../../contract/sources.ts';
import type { Database } from '../db/schema.ts';
import { levelsOf } from '../db/repositories/licenses.ts';
import { reportProgress, type RunRow } from '../db/repositories/runs.ts';
import { makeWorkDir, removeWorkDir, type AnalyseProgress } from '../engine/analyse.ts';
import { analyseInWorker } from '../engine/analyse-thread.ts';
import type { Level } from '../engine/matchers/advisory.ts';
import { expressionIds, expressionLevel } from '../engine/matchers/licenses/expression.ts';
import { LEVEL_UNKNOWN } from '../engine/matchers/licenses/knowledge.ts';
import { matchComponents, recommendVersion, withDistribution } from '../engine/matchers/vulnerabilities.ts';
import { getAdvisoryIndex } from '../kb/index-cache.ts';
import { findCompleteUpload } from '../uploads/store.ts';
import { saveRunResults, type MatchedComponent } from './save-results.ts';

/** A failure the user can act on: its message is shown as the run's message. */
export class RunError extends Error {}

/** Overall percentage of each stage's start and end. */
const SPAN: Record<'preparing' | 'scanning' | 'licenses' | 'matching' | 'saving', [number, number]> = {
  preparing: [1, 15],
  scanning: [15, 50],
  licenses: [50, 80],
  matching: [80, 90],
  saving: [90, 99],
};

export interface ExecuteContext {
  db: Kysely<Database>;
  dataDir: string;
  worker: string;
  /** Heap cap of the analysis thread in MiB. */
  maxHeapMb?: number;
}

export async function executeRun(ctx: ExecuteContext, run: RunRow, signal: AbortSignal): Promise<void> {
  const project = await ctx.db.selectFrom('projects').selectAll().where('id', '=', run.project_id).executeTakeFirst();
  if (!project) throw new RunError('项目已被删除');
  const kind = inputKindOf(project.get_code_type);
  if (!kind) throw new RunError(unsupportedSource(project.get_code_type)!);
  if (!project.upload_id) throw new RunError('项目没有上传文件，请编辑项目并重新上传');
  const upload = await findCompleteUpload(ctx.db, ctx.dataDir, project.upload_id);
  if (!upload) throw new RunError('项目的上传文件不存在或未上传完成，请编辑项目并重新上传');

  // Progress writes are throttled: the poller reads once a second at most anyway.
  let lastWrite = 0;
  let lost = false;
  const controller = new AbortController();
  const abort = () => controller.abort(signal.reason);
  signal.addEventListener('abort', abort, { once: true });
  const progress = async (stage: RunStage & keyof typeof SPAN, fraction: number, force = false) => {
    const now = Date.now();
    if (!force && now - lastWrite < 500) return;
    lastWrite = now;
    const [from, to] = SPAN[stage];
    const stillOurs = await reportProgress(ctx.db, run.id, ctx.worker, stage, from + (to - from) * fraction);
    if (!stillOurs && !lost) { lost = true; controller.abort(new RunError('任务已被暂停或停止')); }
  };

  const workDir = await makeWorkDir(path.join(ctx.dataDir, 'work'));
  try {
    await progress('preparing', 0, true);
    const analysis = await analyseInWorker(
      { file: upload.path, fileName: upload.fileName, kind, modes: parseAnalysisModes(run.analysis_modes), workDir },
      { signal: controller.signal, maxHeapMb: ctx.maxHeapMb, onProgress: (p: AnalyseProgress) => void progress(p.stage, p.fraction) },
    );
    await progress('matching', 0, true);
    const components = await matchAndRate(ctx.db, analysis.components);
    controller.signal.throwIfAborted();
    await progress('saving', 0, true);
    const outbound = project.outbound_license?.trim() || analysis.projectLicense;
    const saved = await saveRunResults(ctx.db, run, ctx.worker, { analysis, components, outboundLicense: outbound }, Boolean(project.retention_audit));
    if (!saved) throw new RunError('任务已被暂停或停止');
  } finally {
    signal.removeEventListener('abort', abort);
    await removeWorkDir(workDir);
  }
}

async function matchAndRate(db: Kysely<Database>, components: import('../engine/output/inventory.ts').InventoryEntry[]): Promise<MatchedComponent[]> {
  const index = await getAdvisoryIndex(db, { fresh: true });
  const refs = components.map(withDistribution);
  const matched = matchComponents(index, refs);
  const licenceIds = new Set<string>();
  for (const c of components) if (c.licenseExpression) for (const id of expressionIds(c.licenseExpression)) licenceIds.add(id);
  const levels = await levelsOf(db, [...licenceIds]);
  return matched.map(({ component, findings, risk }) => {
    const { distribution: _distribution, ...entry } = component;
    // AND takes the strictest licence, OR the freest the user may choose, each at the
    // administrators' level; unknown licences alone leave it 未知 (16).
    const licenseLevel: Level = entry.licenseExpression ? expressionLevel(entry.licenseExpression, (id) => levels.get(id) ?? LEVEL_UNKNOWN) : LEVEL_UNKNOWN;
    return {
      ...entry,
      risk,
      findings,
      recommendVersion: findings.length ? recommendVersion(index, component).version : null,
      licenseLevel,
    };
  });
}
