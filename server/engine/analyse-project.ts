// The engine's one entry for analysing a project's input: extraction and the file analyzers in a
// worker thread (analyse-thread.ts → analyse.ts), then the component analyzers over the inventory
// with the knowledge the caller supplies (analyzers/). Platform concerns stay with the caller: the
// database, where the knowledge comes from, how progress is stored, and saving the results.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { makePrivateTempDir } from '../files/private.ts';
import type { AnalyseProgress, AnalyseRequest, AnalyseResult } from './analyse.ts';
import { analyseInWorker } from './analyse-thread.ts';
import { analyseComponents } from './analyzers/index.ts';
import type { AnalysedComponent, AnalysisKnowledge, KnowledgeRequest } from './analyzers/model.ts';
import { expressionIds } from './matchers/licenses/expression.ts';

export interface ProjectAnalysisRequest extends Omit<AnalyseRequest, 'workDir'> {
  /** Folder under which the analysis makes (and afterwards removes) its own work folder. */
  workParent: string;
}

/** The stages of a project analysis: the analysis thread's, then matching against the knowledge. */
export type ProjectStage = AnalyseProgress['stage'] | 'matching';

export interface ProjectProgress {
  stage: ProjectStage;
  /** 0..1 within the stage. */
  fraction: number;
  detail?: string;
  /**
   * A stage boundary (an analysis starting, matching starting): the caller should record it at
   * once rather than throttle it. The analysis waits for the promise onProgress answers to these.
   */
  milestone?: boolean;
}

/** Supplies the knowledge once the inventory is known, so it is as fresh as the matching. */
export type KnowledgeSource = (request: KnowledgeRequest) => Promise<AnalysisKnowledge>;

export interface ProjectAnalysisOptions {
  signal?: AbortSignal;
  onProgress?: (progress: ProjectProgress) => void | Promise<void>;
  /** Heap cap of the analysis thread in MiB. */
  maxHeapMb?: number;
}

export interface ProjectAnalysis {
  analysis: AnalyseResult;
  /** The inventory with every component analyzer's verdict, in inventory order. */
  components: AnalysedComponent[];
}

export async function analyseProject(request: ProjectAnalysisRequest, knowledge: KnowledgeSource, options: ProjectAnalysisOptions = {}): Promise<ProjectAnalysis> {
  const { workParent, ...rest } = request;
  const { signal, onProgress } = options;
  const workDir = await makeWorkDir(workParent);
  try {
    await onProgress?.({ stage: 'preparing', fraction: 0, milestone: true });
    const analysis = await analyseInWorker(
      { ...rest, workDir },
      { signal, maxHeapMb: options.maxHeapMb, onProgress: (p: AnalyseProgress) => void onProgress?.(p) },
    );
    await onProgress?.({ stage: 'matching', fraction: 0, milestone: true });
    const components = await analyseComponents(analysis.components, request.modes, await knowledge(knowledgeRequestOf(analysis)));
    signal?.throwIfAborted();
    return { analysis, components };
  } finally {
    await removeWorkDir(workDir);
  }
}

/** What the component analyzers need looked up: the licence ids the declared expressions name. */
function knowledgeRequestOf(analysis: AnalyseResult): KnowledgeRequest {
  const licenseIds = new Set<string>();
  for (const c of analysis.components) if (c.licenseExpression) for (const id of expressionIds(c.licenseExpression)) licenseIds.add(id);
  return { licenseIds: [...licenseIds] };
}

/** A private work folder (0700) under `parent`, which is created private when missing. */
const makeWorkDir = (parent: string) => makePrivateTempDir(path.join(parent, 'analysis-'));
/** Removes a work folder, whatever state it is in. */
const removeWorkDir = (dir: string) => rm(dir, { recursive: true, force: true, maxRetries: 3 });
