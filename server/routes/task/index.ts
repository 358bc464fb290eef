// Task area (spec doc 1 §7 "Tasks"): new project and launch, edit, task list, progress, stop,
// delete, batch launch / re-analysis / settings, batch import, and the administrators' task queue.
// Every handler of contract/api/task.ts.
import { LAUNCH_SUCCESS, RUN_STAGE_LABEL, taskCalls, type BatchResult, type ProjectForm, type RunStage, type Timing } from '../../../contract/api/task.ts';
import { fail, ok, ResultCode, type Envelope } from '../../../contract/envelope.ts';
import { displayServerMessage } from '../../../contract/errors.ts';
import { isGitType, isLocalUploadType, TASK_STATUS } from '../../../contract/enums.ts';
import { unsupportedSource } from '../../../contract/sources.ts';
import type { ServerContext } from '../../context.ts';
import { audit } from '../../db/repositories/audit-log.ts';
import { findProject, findProjects, insertProject, listTasks, publicSource, sourceOf, timingOf, type ProjectRow } from '../../db/repositories/projects.ts';
import { ACTIVE, CLAIMABLE, findRun, queuePositions, queueRun, setRunStatus } from '../../db/repositories/runs.ts';
import { canAccessSubject, canManageSubject, visibleSubjectIds } from '../../db/repositories/subject-access.ts';
import { nowIso } from '../../db/time.ts';
import { nextRunAt } from '../../jobs/timing.ts';
import { removeFiles } from '../../uploads/receive.ts';
import { indexHandlers, signedIn, type AreaHandlers, type HandlerIndex } from '../register.ts';
import { pagingOf, parseIds, productOf } from '../shared.ts';
import { checkForm, TASK_MSG } from './form.ts';
import { queueHandlers } from './queue.ts';

const batchMessage = (r: BatchResult) => `批量任务发起完成，成功：${r.successNum}个， 失败：${r.failNum}个`;
const importMessage = (r: BatchResult) => `批量导入项目完成，成功：${r.successNum}个， 失败：${r.failNum}个`;

export function taskAreaHandlers(ctx: ServerContext): AreaHandlers<typeof taskCalls> {
  const { db, dataDir } = ctx;

  /** Queues a run of a saved project; a message when it cannot be launched. */
  async function launchProject(project: ProjectRow, userId: number, trigger: string): Promise<{ taskId: number } | string> {
    const unsupported = unsupportedSource(project.get_code_type);
    if (unsupported) return unsupported;
    if (isLocalUploadType(project.get_code_type) && !project.upload_id) return TASK_MSG.uploadRequired;
    const run = await queueRun(db, { projectId: project.id, analysisModes: project.analysis_modes, trigger, userId, outboundLicense: project.outbound_license });
    if (!run) return TASK_MSG.busy;
    ctx.runs.wake();
    return { taskId: run.id };
  }

  /** Creates a project from a full form; a message when the form is refused. */
  async function createProject(form: ProjectForm, userId: number): Promise<ProjectRow | string> {
    const checked = await checkForm(db, dataDir, userId, form, { subjectId: form.subjectId, getCodeType: form.getCodeType, full: true });
    if (typeof checked === 'string') return checked;
    const timing = timingOf(form, form.getCodeType);
    return insertProject(db, {
      subjectId: form.subjectId,
      versionId: form.versionId ?? null,
      name: form.projectName,
      getCodeType: form.getCodeType,
      source: sourceOf(form, dataDir),
      uploadId: isLocalUploadType(form.getCodeType) ? form.uploadId ?? null : null,
      projectTags: form.projectTags?.trim() ?? '',
      analysisModes: checked.analysisModes!,
      retentionAudit: form.retentionAudit ?? true,
      timing,
      nextRunAt: nextRunAt(timing, new Date())?.toISOString() ?? null,
      outboundLicense: checked.outboundLicense ?? null,
      userId,
    });
  }

  /** Applies a partial form to a stored project; a message when refused. */
  async function editProject(project: ProjectRow, form: Partial<ProjectForm>, userId: number): Promise<ProjectRow | string> {
    const getCodeType = form.getCodeType ?? project.get_code_type;
    const stored = JSON.parse(project.source) as Record<string, unknown>;
    const checked = await checkForm(db, dataDir, userId, form, {
      subjectId: project.subject_id, getCodeType, projectId: project.id, full: false, stored, hasUpload: Boolean(project.upload_id) && getCodeType === project.get_code_type,
    });
    if (typeof checked === 'string') return checked;
    const timing = timingOf(form, getCodeType, JSON.parse(project.timing) as Partial<Timing>);
    const changedTiming = JSON.stringify(timing) !== project.timing;
    return db.updateTable('projects').set({
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
    }).where('id', '=', project.id).returningAll().executeTakeFirstOrThrow();
  }

  /** A project the user may work on, or the message why not. */
  async function ownProject(projectId: number, userId: number, manage = false): Promise<ProjectRow | string> {
    const project = await findProject(db, projectId);
    if (!project) return TASK_MSG.projectMissing;
    const allowed = manage ? await canManageSubject(db, userId, project.subject_id) : await canAccessSubject(db, userId, project.subject_id);
    return allowed ? project : TASK_MSG.denied;
  }

  /** Runs `each` over the projects of a batch, collecting successes and reasons. */
  async function batch(projectIds: number[], userId: number, each: (p: ProjectRow) => Promise<string | null>): Promise<BatchResult> {
    const result: BatchResult = { successNum: 0, failNum: 0, failures: [] };
    const found = new Map((await findProjects(db, projectIds)).map((p) => [p.id, p]));
    for (const id of projectIds) {
      const project = found.get(id);
      let problem: string | null;
      if (!project) problem = TASK_MSG.projectMissing;
      else if (!(await canAccessSubject(db, userId, project.subject_id))) problem = TASK_MSG.denied;
      else problem = await each(project);
      if (problem) {
        result.failNum++;
        // Failures are listed as text, not envelopes: say the refusal as the user reads it.
        result.failures.push({ projectId: id, projectName: project?.name ?? `#${id}`, message: displayServerMessage(problem) });
      } else result.successNum++;
    }
    return result;
  }

  const launchEach = (userId: number, trigger: string) => async (project: ProjectRow) => {
    const launched = await launchProject(project, userId, trigger);
    return typeof launched === 'string' ? launched : null;
  };

  const launchAnswer = (projectId: number, launched: { taskId: number } | string): Envelope<{ projectId: number; taskId: number | null }> =>
    typeof launched === 'string'
      // The project is saved either way; the client shows the message and can find it in the list.
      ? { code: ResultCode.FAILURE, message: launched, data: { projectId, taskId: null } }
      : ok({ projectId, taskId: launched.taskId }, LAUNCH_SUCCESS);

  return {
    async launch({ request, body }) {
      const { userId } = signedIn(request);
      const project = await createProject(body, userId);
      if (typeof project === 'string') return fail(project);
      await audit(db, { userId, action: 'project.created', detail: { projectId: project.id, name: project.name, getCodeType: project.get_code_type } });
      return launchAnswer(project.id, await launchProject(project, userId, 'manual'));
    },

    async relaunch({ request, body }) {
      const { userId } = signedIn(request);
      const { taskId, ...form } = body;
      const project = await ownProject(taskId, userId);
      if (typeof project === 'string') return fail(project);
      const edited = await editProject(project, form, userId);
      if (typeof edited === 'string') return fail(edited);
      return launchAnswer(edited.id, await launchProject(edited, userId, 'manual'));
    },

    async updateProject({ request, params, body }) {
      const { userId } = signedIn(request);
      const project = await ownProject(params.projectId, userId);
      if (typeof project === 'string') return fail(project);
      const edited = await editProject(project, body, userId);
      if (typeof edited === 'string') return fail(edited);
      return ok({ projectId: edited.id }, '保存成功！');
    },

    async projectForm({ request, params }) {
      const { userId } = signedIn(request);
      const project = await ownProject(params.projectId, userId);
      if (typeof project === 'string') return fail(project);
      const upload = project.upload_id
        ? await db.selectFrom('uploads').select(['id', 'file_name', 'size']).where('id', '=', project.upload_id).executeTakeFirst()
        : undefined;
      return ok({
        projectId: project.id,
        subjectId: project.subject_id,
        versionId: project.version_id,
        projectName: project.name,
        getCodeType: project.get_code_type,
        analysisModes: project.analysis_modes,
        projectTags: project.project_tags,
        retentionAudit: Boolean(project.retention_audit),
        outboundLicense: project.outbound_license,
        source: publicSource(JSON.parse(project.source) as Record<string, unknown>),
        timing: JSON.parse(project.timing) as Timing,
        nextRunAt: project.next_run_at,
        upload: upload ? { uploadId: upload.id, fileName: upload.file_name, size: Number(upload.size) } : null,
      });
    },

    async taskList({ request, query, body }) {
      const { userId } = signedIn(request);
      const { page, size } = pagingOf(query);
      const [field, direction] = (query?.sort ?? 'createdAt,desc').split(',') as [TaskQuerySort, string | undefined];
      return ok(await listTasks(db, {
        visible: await visibleSubjectIds(db, userId),
        product: productOf(request),
        subjectIds: body.subjectId ? [body.subjectId] : body.subjectIds,
        versionIds: body.versionIds,
        groupIds: body.groupIds,
        keyword: body.keyword,
        statuses: body.statuses,
        neverRun: body.neverRun,
        getCodeTypes: body.getCodeTypes,
        page,
        size,
        sort: { field, desc: direction !== 'asc' },
      }));
    },

    async projectList({ request, body }) {
      const { userId } = signedIn(request);
      if (!(await canAccessSubject(db, userId, body.subjectId))) return fail(TASK_MSG.denied);
      const rows = await db.selectFrom('projects as p').select(['p.id', 'p.name', 'p.get_code_type', 'p.status'])
        .select((eb) => eb.selectFrom('runs as r').select((e) => e.fn.max('r.id').as('m')).whereRef('r.project_id', '=', 'p.id').where('r.status', '=', TASK_STATUS.SUCCEEDED).as('result_run_id'))
        .where('p.subject_id', '=', body.subjectId).orderBy('p.name').execute();
      return ok(rows.map((r) => ({
        projectId: r.id, projectName: r.name, getCodeType: r.get_code_type, status: r.status as never,
        resultTaskId: r.result_run_id === null || r.result_run_id === undefined ? null : Number(r.result_run_id),
      })));
    },

    async progress({ request, query }) {
      const { userId } = signedIn(request);
      const visible = await visibleSubjectIds(db, userId);
      const projects = (await findProjects(db, parseIds(query.projectIds).slice(0, 500)))
        .filter((p) => visible === 'all' || visible.includes(p.subject_id));
      const runIds = projects.map((p) => p.last_run_id).filter((id): id is number => id !== null);
      const runs = runIds.length ? await db.selectFrom('runs').selectAll().where('id', 'in', runIds).execute() : [];
      const byId = new Map(runs.map((r) => [r.id, r]));
      const positions = runs.some((r) => (CLAIMABLE as readonly number[]).includes(r.status)) ? await queuePositions(db) : new Map<number, number>();
      return ok(projects.map((p) => {
        const run = p.last_run_id ? byId.get(p.last_run_id) : undefined;
        const stage = (run?.stage ?? null) as RunStage | null;
        return {
          projectId: p.id,
          taskId: run?.id ?? null,
          status: (run?.status ?? null) as never,
          stage,
          stageLabel: stage ? RUN_STAGE_LABEL[stage] ?? stage : '未分析',
          progress: run?.progress ?? 0,
          message: run?.message ?? '',
          queuePosition: run ? positions.get(run.id) ?? null : null,
          startedAt: run?.started_at ?? null,
          finishedAt: run?.finished_at ?? null,
        };
      }));
    },

    async deleteProjects({ request, query }) {
      const { userId } = signedIn(request);
      const ids = parseIds(query.projectIds);
      const projects = await findProjects(db, ids);
      if (projects.length !== ids.length) return fail(TASK_MSG.projectMissing);
      for (const p of projects) if (!(await canManageSubject(db, userId, p.subject_id))) return fail(TASK_MSG.denied);
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('projects').where('id', 'in', ids).execute();
      });
      for (const p of projects) {
        if (p.last_run_id) ctx.runs.abort(p.last_run_id);
        // The upload is this project's own input; nothing else refers to it.
        if (p.upload_id) {
          const others = await db.selectFrom('projects').select('id').where('upload_id', '=', p.upload_id).executeTakeFirst();
          if (!others) {
            await db.deleteFrom('uploads').where('id', '=', p.upload_id).execute();
            await removeFiles(dataDir, p.upload_id).catch(() => {});
          }
        }
      }
      await audit(db, { userId, action: 'project.deleted', detail: { projectIds: ids } });
      return ok({ deleted: projects.length }, '删除成功！');
    },

    async stop({ request, params }) {
      const { userId } = signedIn(request);
      const project = await ownProject(params.projectId, userId);
      if (typeof project === 'string') return fail(project);
      const run = project.last_run_id ? await findRun(db, project.last_run_id) : undefined;
      if (!run || !(await setRunStatus(db, run, ACTIVE, TASK_STATUS.FAILED, TASK_MSG.stopped))) return fail(TASK_MSG.nothingToStop);
      ctx.runs.abort(run.id);
      return ok({ projectId: project.id, taskId: run.id }, '操作成功！');
    },

    async availableNum() {
      const used = await db.selectFrom('projects').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
      // This platform sets no project quota.
      return ok({ used: Number(used?.n ?? 0), limit: null, available: null });
    },

    async ifCanCheck() {
      const rows = await db.selectFrom('runs').select(['status', (eb) => eb.fn.countAll<number>().as('n')])
        .where('status', 'in', [TASK_STATUS.RESEND, TASK_STATUS.QUEUED, TASK_STATUS.ANALYSING]).groupBy('status').execute();
      const count = (s: number[]) => rows.filter((r) => s.includes(r.status)).reduce((n, r) => n + Number(r.n), 0);
      // Launching always works: runs wait in the queue for a free worker.
      return ok({ canCheck: true, running: count([TASK_STATUS.ANALYSING]), queued: count([TASK_STATUS.RESEND, TASK_STATUS.QUEUED]), concurrency: ctx.runs.concurrency, reason: null });
    },

    async batchCheck({ request, body }) {
      const { userId } = signedIn(request);
      const result = await batch(body.projectIds, userId, launchEach(userId, 'batch'));
      return ok(result, batchMessage(result));
    },

    async batchRecheck({ request, body }) {
      const { userId } = signedIn(request);
      const result = await batch(body.projectIds, userId, launchEach(userId, 'batch'));
      return ok(result, batchMessage(result));
    },

    async batchRecheckSetup({ request, body }) {
      const { userId } = signedIn(request);
      const result = await batch(body.projectIds, userId, async (project) => {
        const edited = await editProject(project, { analysisModes: body.analysisModes, retentionAudit: body.retentionAudit }, userId);
        return typeof edited === 'string' ? edited : launchEach(userId, 'batch')(edited);
      });
      return ok(result, batchMessage(result));
    },

    async batchFtpCheck({ request, body }) {
      const { userId } = signedIn(request);
      const result = await batch(body.projectIds, userId, async () => TASK_MSG.ftpUnsupported);
      return { code: ResultCode.FAILURE, message: TASK_MSG.ftpUnsupported, data: result };
    },

    async batchUpdateUser({ request, body }) {
      const { userId } = signedIn(request);
      const user = await db.selectFrom('users').select('id').where('id', '=', body.userId).executeTakeFirst();
      if (!user) return fail(TASK_MSG.userMissing);
      const result = await batch(body.projectIds, userId, async (project) => {
        await db.updateTable('projects').set({ created_by: body.userId, updated_at: nowIso() }).where('id', '=', project.id).execute();
        return null;
      });
      return ok(result, '操作成功！');
    },

    async batchRepoBranch({ request, body }) {
      const { userId } = signedIn(request);
      const result = await batch(body.projectIds, userId, async (project) => {
        if (!isGitType(project.get_code_type)) return TASK_MSG.notGit;
        const edited = await editProject(project, { gitBranchName: body.gitBranchName.trim() }, userId);
        return typeof edited === 'string' ? edited : null;
      });
      return ok(result, '操作成功！');
    },

    async batchCron({ request, body }) {
      const { userId } = signedIn(request);
      const { projectIds: _ids, ...timing } = body;
      const result = await batch(body.projectIds, userId, async (project) => {
        if (timing.enableTiming && isLocalUploadType(project.get_code_type)) return TASK_MSG.timingLocal;
        const edited = await editProject(project, timing, userId);
        return typeof edited === 'string' ? edited : null;
      });
      return ok(result, '保存成功！');
    },

    async checkAndCreateProject({ request, body }) {
      const { userId } = signedIn(request);
      const result: BatchResult = { successNum: 0, failNum: 0, failures: [] };
      for (const row of body.projects) {
        const { launch = true, ...form } = row;
        const project = await createProject({ ...form, subjectId: body.subjectId }, userId);
        let problem = typeof project === 'string' ? project : null;
        if (typeof project !== 'string' && launch) {
          const launched = await launchProject(project, userId, 'import');
          if (typeof launched === 'string') problem = `项目已创建，但未能发起分析：${launched}`;
        }
        if (problem) {
          result.failNum++;
          result.failures.push({ projectId: typeof project === 'string' ? null : project.id, projectName: form.projectName, message: displayServerMessage(problem) });
        } else result.successNum++;
      }
      if (result.successNum) await audit(db, { userId, action: 'project.imported', detail: { subjectId: body.subjectId, created: result.successNum } });
      return ok(result, importMessage(result));
    },

    async ftpListDir() {
      return fail(TASK_MSG.ftpUnsupported);
    },

    ...queueHandlers(ctx),
  };
}

type TaskQuerySort = 'projectName' | 'createdAt' | 'finishedAt' | 'status';

export const taskHandlers = (ctx: ServerContext): HandlerIndex => indexHandlers(taskCalls, taskAreaHandlers(ctx));
