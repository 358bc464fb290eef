// Project commands of the task area: create, edit, launch, stop, delete, the batch operations and
// the batch import. Each takes what it needs (ProjectDeps) and refuses with a UserError; a
// command and its audit row are one transaction. A launch that is refused leaves nothing behind:
// creating (or editing) a project and queueing its run commit together, and saving a project
// without launching it is asked for as such (`launch: false`, 仅保存项目). A batch names only the
// projects the caller may see: an id that does not exist and one outside the caller's data scope
// get the same answer (#id, 项目不存在或无权访问).
import type { BatchResult, ProjectForm, Timing } from '../../contract/api/task.ts';
import { displayServerMessage } from '../../contract/errors.ts';
import { isGitType, isLocalUploadType, TASK_STATUS } from '../../contract/enums.ts';
import { unsupportedSource } from '../../contract/sources.ts';
import type { ServerContext } from '../context.ts';
import { audit } from '../db/repositories/audit-log.ts';
import { deleteProjectRows, findProject, findProjects, insertProject, sourceOf, timingOf, updateProject, type ProjectRow } from '../db/repositories/projects.ts';
import { ACTIVE, findRun, queueRun, setRunStatus } from '../db/repositories/runs.ts';
import { canAccessSubject, canManageSubject, visibleSubjectIds } from '../db/repositories/subject-access.ts';
import { deleteUnusedUploads } from '../db/repositories/uploads.ts';
import { findUserById } from '../db/repositories/users.ts';
import { nowIso } from '../db/time.ts';
import { inTransaction, type Db } from '../db/transaction.ts';
import { isUserError, UserError } from '../errors.ts';
import { nextRunAt } from '../jobs/timing.ts';
import { removeFiles } from '../uploads/receive.ts';
import { checkForm } from './project-form.ts';
import { checkUploadInput } from './upload-check.ts';
import { TASK_MSG } from './task-messages.ts';
import { projectFormWithoutUrlCredentials } from './url-credentials.ts';

/** What project commands need: the database (or the transaction they join), the data folder, this process's run queue. */
export interface ProjectDeps {
  db: Db;
  dataDir: string;
  runs: ServerContext['runs'];
}

/** A project the user may work on (`manage`: may change its subject); else 项目不存在 or the data-scope refusal. */
export async function projectFor(db: Db, userId: number, projectId: number, manage = false): Promise<ProjectRow> {
  const project = await findProject(db, projectId);
  if (!project) throw new UserError(TASK_MSG.projectMissing, 'not-found');
  const allowed = manage ? await canManageSubject(db, userId, project.subject_id) : await canAccessSubject(db, userId, project.subject_id);
  if (!allowed) throw UserError.denied();
  return project;
}

/** Refuses to launch a project of this source type and upload: a type the platform cannot analyse yet, a local upload without its file. */
function checkLaunchable(getCodeType: number, uploadId: string | null): void {
  const unsupported = unsupportedSource(getCodeType);
  if (unsupported) throw new UserError(unsupported, 'unavailable');
  if (isLocalUploadType(getCodeType) && !uploadId) throw new UserError(TASK_MSG.uploadRequired, 'invalid', { field: 'uploadId' });
}

/** The image platform a project's stored source (or a new project's) names, if any. */
function platformOf(source: Record<string, unknown>): string | undefined {
  return typeof source.imagePlatform === 'string' && source.imagePlatform.trim() ? source.imagePlatform.trim() : undefined;
}

/** Queues a run of a saved project (without waking the queue); the run's id. Joins the caller's transaction when handed one. */
async function queueLaunch(db: Db, project: ProjectRow, userId: number, trigger: string): Promise<number> {
  checkLaunchable(project.get_code_type, project.upload_id);
  const run = await queueRun(db, { projectId: project.id, analysisModes: project.analysis_modes, trigger, userId, outboundLicense: project.outbound_license });
  if (!run) throw new UserError(TASK_MSG.busy, 'conflict');
  return run.id;
}

/** Queues a run of a saved project and wakes the queue; the run's id (its taskId). */
async function launchProject(deps: ProjectDeps, project: ProjectRow, userId: number, trigger: string): Promise<number> {
  checkLaunchable(project.get_code_type, project.upload_id);
  await checkUploadInput(deps.db, deps.dataDir, project.get_code_type, project.upload_id, platformOf(JSON.parse(project.source) as Record<string, unknown>));
  const taskId = await queueLaunch(deps.db, project, userId, trigger);
  deps.runs.wake();
  return taskId;
}

/** The row a full form makes, checked; credentials typed into an address go to their own fields. */
async function newProject(deps: ProjectDeps, typed: ProjectForm, userId: number) {
  const form = projectFormWithoutUrlCredentials(typed);
  const checked = await checkForm(deps.db, deps.dataDir, userId, form, { subjectId: form.subjectId, getCodeType: form.getCodeType, full: true });
  const timing = timingOf(form, form.getCodeType);
  return {
    subjectId: form.subjectId,
    versionId: form.versionId ?? null,
    name: form.projectName,
    getCodeType: form.getCodeType,
    source: sourceOf(form, deps.dataDir),
    uploadId: isLocalUploadType(form.getCodeType) ? form.uploadId ?? null : null,
    projectTags: form.projectTags?.trim() ?? '',
    analysisModes: checked.analysisModes!,
    retentionAudit: form.retentionAudit ?? true,
    timing,
    nextRunAt: nextRunAt(timing, new Date())?.toISOString() ?? null,
    outboundLicense: checked.outboundLicense ?? null,
    userId,
  };
}

/**
 * Creates a project from a full form with its audit row and, when `launch`, queues its first run
 * in the same transaction: a refused launch (a source type not analysed yet, no upload, any
 * other refusal) creates nothing. The run's id is null when the project was only saved.
 */
export async function createProject(deps: ProjectDeps, form: ProjectForm, userId: number, launch: boolean): Promise<{ project: ProjectRow; taskId: number | null }> {
  const values = await newProject(deps, form, userId);
  if (launch) {
    checkLaunchable(values.getCodeType, values.uploadId);
    // Read through before the transaction: a large archive takes a while, and holds no lock meanwhile.
    await checkUploadInput(deps.db, deps.dataDir, values.getCodeType, values.uploadId, platformOf(values.source));
  }
  const created = await inTransaction(deps.db, async (trx) => {
    const project = await insertProject(trx, values);
    await audit(trx, { userId, action: 'project.created', detail: { projectId: project.id, name: project.name, getCodeType: project.get_code_type, launch } });
    return { project, taskId: launch ? await queueLaunch(trx, project, userId, 'manual') : null };
  });
  if (created.taskId !== null) deps.runs.wake();
  return created;
}

/**
 * Applies a partial form to a stored project and queues a run of it, in one transaction: when
 * the launch is refused the settings stay as they were. The run's id.
 */
export async function editAndLaunch(deps: ProjectDeps, project: ProjectRow, form: Partial<ProjectForm>, userId: number, trigger: string): Promise<number> {
  // The upload the launch will read (a new one from the form, else the project's), checked outside the transaction.
  const getCodeType = form.getCodeType ?? project.get_code_type;
  const uploadId = form.uploadId ?? (getCodeType === project.get_code_type ? project.upload_id : null);
  const platform = form.imagePlatform ?? platformOf(JSON.parse(project.source) as Record<string, unknown>);
  if (isLocalUploadType(getCodeType) && uploadId) await checkUploadInput(deps.db, deps.dataDir, getCodeType, uploadId, platform);
  const taskId = await inTransaction(deps.db, async (trx) => {
    const within = { ...deps, db: trx };
    return queueLaunch(trx, await editProject(within, project, form, userId), userId, trigger);
  });
  deps.runs.wake();
  return taskId;
}

/** Applies a partial form to a stored project (credentials typed into an address go to their own fields); the row as written. */
export async function editProject(deps: ProjectDeps, project: ProjectRow, typed: Partial<ProjectForm>, userId: number): Promise<ProjectRow> {
  const { db, dataDir } = deps;
  const form = projectFormWithoutUrlCredentials(typed);
  const getCodeType = form.getCodeType ?? project.get_code_type;
  const stored = JSON.parse(project.source) as Record<string, unknown>;
  const checked = await checkForm(db, dataDir, userId, form, {
    subjectId: project.subject_id, getCodeType, projectId: project.id, full: false, stored, hasUpload: Boolean(project.upload_id) && getCodeType === project.get_code_type,
  });
  const timing = timingOf(form, getCodeType, JSON.parse(project.timing) as Partial<Timing>);
  const changedTiming = JSON.stringify(timing) !== project.timing;
  return updateProject(db, project.id, {
    ...(form.projectName !== undefined && { name: form.projectName }),
    ...(form.versionId !== undefined && { version_id: form.versionId }),
    get_code_type: getCodeType,
    source: JSON.stringify(sourceOf(form, dataDir, stored)),
    ...(form.uploadId !== undefined && { upload_id: form.uploadId }),
    ...(!isLocalUploadType(getCodeType) && { upload_id: null }),
    ...(form.projectTags !== undefined && { project_tags: form.projectTags.trim() }),
    ...(checked.analysisModes !== undefined && { analysis_modes: checked.analysisModes }),
    ...(form.retentionAudit !== undefined && { retention_audit: form.retentionAudit ? 1 : 0 }),
    ...(checked.outboundLicense !== undefined && { outbound_license: checked.outboundLicense }),
    enable_timing: timing.enableTiming ? 1 : 0,
    timing: JSON.stringify(timing),
    ...(changedTiming && { next_run_at: nextRunAt(timing, new Date())?.toISOString() ?? null }),
    updated_at: nowIso(),
  });
}

/** Stops the project's queued or running run; the run stopped. */
export async function stopProject(deps: ProjectDeps, userId: number, projectId: number): Promise<{ projectId: number; taskId: number }> {
  const project = await projectFor(deps.db, userId, projectId);
  const run = project.last_run_id ? await findRun(deps.db, project.last_run_id) : undefined;
  if (!run || !(await setRunStatus(deps.db, run, ACTIVE, TASK_STATUS.FAILED, TASK_MSG.stopped))) throw new UserError(TASK_MSG.nothingToStop);
  deps.runs.abort(run.id);
  return { projectId: project.id, taskId: run.id };
}

/** The projects of these ids that the user may see (the others, missing or not, are left out). */
async function visibleProjects(db: Db, userId: number, ids: number[]): Promise<ProjectRow[]> {
  const visible = await visibleSubjectIds(db, userId);
  return (await findProjects(db, ids)).filter((p) => visible === 'all' || visible.includes(p.subject_id));
}

/**
 * Deletes projects the user manages, all or none, with the audit row; their runs stop, and an
 * upload that was a deleted project's own input goes with it. How many were deleted. An id that
 * does not exist and one the user may not see are refused alike (项目不存在或无权访问); a project
 * the user sees but does not manage is refused with the data-scope answer (HTTP 403).
 */
export async function deleteProjects(deps: ProjectDeps, userId: number, ids: number[]): Promise<number> {
  const projects = await visibleProjects(deps.db, userId, ids);
  if (projects.length !== new Set(ids).size) throw new UserError(TASK_MSG.projectUnavailable, 'not-found');
  for (const p of projects) if (!(await canManageSubject(deps.db, userId, p.subject_id))) throw UserError.denied();
  const unused = await inTransaction(deps.db, async (trx) => {
    await deleteProjectRows(trx, ids);
    // The upload is its project's own input; nothing else refers to it.
    const uploads = await deleteUnusedUploads(trx, projects.flatMap((p) => (p.upload_id ? [p.upload_id] : [])));
    await audit(trx, { userId, action: 'project.deleted', detail: { projectIds: ids } });
    return uploads;
  });
  for (const p of projects) if (p.last_run_id) deps.runs.abort(p.last_run_id);
  for (const id of unused) await removeFiles(deps.dataDir, id).catch(() => {});
  return projects.length;
}

/** What a batch does to one project: throws a UserError to count it failed with that reason. */
type EachProject = (project: ProjectRow) => Promise<unknown>;

const emptyBatch = (): BatchResult => ({ successNum: 0, failNum: 0, failures: [] });

/** Counts a refused item of a batch; failures are listed as text, not envelopes: the refusal as the user reads it. */
function refused(result: BatchResult, projectId: number | null, projectName: string, error: unknown): void {
  if (!isUserError(error)) throw error;
  result.failNum++;
  result.failures.push({ projectId, projectName, message: displayServerMessage(error.message) });
}

/**
 * Runs `each` over the projects of a batch the user may access, collecting successes and reasons.
 * A project that does not exist and one outside the user's data scope fail alike, named by id
 * only (`#id`, 项目不存在或无权访问), and `each` never sees them.
 */
export async function forEachProject(deps: ProjectDeps, userId: number, projectIds: number[], each: EachProject): Promise<BatchResult> {
  const result = emptyBatch();
  const found = new Map((await visibleProjects(deps.db, userId, projectIds)).map((p) => [p.id, p]));
  for (const id of projectIds) {
    const project = found.get(id);
    if (!project) {
      refused(result, id, `#${id}`, new UserError(TASK_MSG.projectUnavailable, 'not-found'));
      continue;
    }
    try {
      await each(project);
      result.successNum++;
    } catch (error) {
      refused(result, id, project.name, error);
    }
  }
  return result;
}

/** Launches each project of the batch. */
export const launchEach = (deps: ProjectDeps, userId: number): EachProject => (project) => launchProject(deps, project, userId, 'batch');

/** Re-analysis with new settings (analysis modes and result retention) and a launch; a refused launch keeps the old settings. */
export const recheckEach = (deps: ProjectDeps, userId: number, settings: Pick<ProjectForm, 'analysisModes' | 'retentionAudit'>): EachProject =>
  (project) => editAndLaunch(deps, project, settings, userId, 'batch');

/** Hands each project to another creator; refused when that user does not exist. */
export async function changeCreators(deps: ProjectDeps, userId: number, projectIds: number[], creatorId: number): Promise<BatchResult> {
  if (!(await findUserById(deps.db, creatorId))) throw new UserError(TASK_MSG.userMissing, 'not-found', { field: 'userId' });
  return forEachProject(deps, userId, projectIds, (project) => updateProject(deps.db, project.id, { created_by: creatorId, updated_at: nowIso() }));
}

/** Sets the branch of each Git project. */
export const branchEach = (deps: ProjectDeps, userId: number, branch: string): EachProject => async (project) => {
  if (!isGitType(project.get_code_type)) throw new UserError(TASK_MSG.notGit);
  await editProject(deps, project, { gitBranchName: branch.trim() }, userId);
};

/** Sets the timing of each project; local uploads cannot be timed. */
export const timingEach = (deps: ProjectDeps, userId: number, timing: Partial<ProjectForm>): EachProject => async (project) => {
  if (timing.enableTiming && isLocalUploadType(project.get_code_type)) throw new UserError(TASK_MSG.timingLocal);
  await editProject(deps, project, timing, userId);
};

/**
 * The batch import: each row is a project created in the subject (and launched unless it says
 * not to); a refused row is listed, leaves nothing behind (a row whose launch is refused is not
 * created either) and the rest go on. One transaction with its audit row; the queue is woken once
 * it has committed. A subject that does not exist and one outside the caller's data scope are
 * refused alike, before any row.
 */
export async function importProjects(
  deps: ProjectDeps, userId: number, subjectId: number, rows: Array<Omit<ProjectForm, 'subjectId'> & { launch?: boolean }>,
): Promise<BatchResult> {
  if (!(await canAccessSubject(deps.db, userId, subjectId))) throw new UserError(TASK_MSG.subjectUnavailable, 'not-found', { field: 'subjectId' });
  const result = emptyBatch();
  // The uploads rows launch from are read through first, outside the import's transaction.
  const unreadable = new Map<number, unknown>();
  for (const [index, row] of rows.entries()) {
    if (row.launch === false || !isLocalUploadType(row.getCodeType) || !row.uploadId) continue;
    await checkUploadInput(deps.db, deps.dataDir, row.getCodeType, row.uploadId, row.imagePlatform).catch((error: unknown) => {
      if (!isUserError(error)) throw error;
      unreadable.set(index, error);
    });
  }
  await inTransaction(deps.db, async (trx) => {
    const within = { ...deps, db: trx };
    for (const [index, row] of rows.entries()) {
      const { launch = true, ...form } = row;
      try {
        if (unreadable.has(index)) throw unreadable.get(index);
        const values = await newProject(within, { ...form, subjectId }, userId);
        if (launch) checkLaunchable(values.getCodeType, values.uploadId);
        const project = await insertProject(trx, values);
        if (launch) {
          try {
            await queueLaunch(trx, project, userId, 'import');
          } catch (error) {
            // Not launched, so not created: the row is taken back within the import's transaction.
            await deleteProjectRows(trx, [project.id]);
            throw error;
          }
        }
        result.successNum++;
      } catch (error) {
        refused(result, null, form.projectName, error);
      }
    }
    if (result.successNum) await audit(trx, { userId, action: 'project.imported', detail: { subjectId, created: result.successNum } });
  });
  if (result.successNum) deps.runs.wake();
  return result;
}
