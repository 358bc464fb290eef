// Task area (spec doc 1 §7 "Tasks"): new project and launch, edit, task list, progress, stop,
// delete, batch launch / re-analysis / settings, batch import, and the administrators' task queue.
// Every handler of contract/api/task.ts; the commands are services/projects.ts's.
import { LAUNCH_SUCCESS, RUN_STAGE_LABEL, taskCalls, type BatchResult, type RunStage, type Timing } from '../../../contract/api/task.ts';
import { ok, ResultCode } from '../../../contract/envelope.ts';
import { TASK_STATUS } from '../../../contract/enums.ts';
import { SUCCESS_MESSAGES } from '../../../contract/errors.ts';
import type { ServerContext } from '../../context.ts';
import { countProjects, findProjects, listTasks, publicSource, subjectProjects } from '../../db/repositories/projects.ts';
import { CLAIMABLE, countRunsByStatus, findRuns, queuePositions } from '../../db/repositories/runs.ts';
import { canAccessSubject, visibleSubjectIds } from '../../db/repositories/subject-access.ts';
import { findUpload } from '../../db/repositories/uploads.ts';
import { UserError } from '../../errors.ts';
import {
  branchEach, changeCreators, createProject, deleteProjects, editAndLaunch, editProject, forEachProject, importProjects, launchEach, projectFor,
  recheckEach, stopProject, timingEach,
} from '../../services/projects.ts';
import { checkImageAccess, uploadedImagePlatforms } from '../../services/image-check.ts';
import { TASK_MSG } from '../../services/task-messages.ts';
import { indexHandlers, signedIn, type AreaHandlers, type HandlerIndex } from '../register.ts';
import { pagingOf, parseIds, productOf, visibleSubjectsOf } from '../shared.ts';
import { queueHandlers } from './queue.ts';

const batchMessage = (r: BatchResult) => `批量任务发起完成，成功：${r.successNum}个， 失败：${r.failNum}个`;
const importMessage = (r: BatchResult) => `批量导入项目完成，成功：${r.successNum}个， 失败：${r.failNum}个`;

type TaskQuerySort = 'projectName' | 'createdAt' | 'finishedAt' | 'status';

function taskAreaHandlers(ctx: ServerContext): AreaHandlers<typeof taskCalls> {
  const { db } = ctx;

  /** Launches each project of a batch (batch check and batch re-analysis alike). */
  const launchBatch: AreaHandlers<typeof taskCalls>['batchCheck'] = async ({ request, body }) => {
    const { userId } = signedIn(request);
    const result = await forEachProject(ctx, userId, body.projectIds, launchEach(ctx, userId));
    return ok(result, batchMessage(result));
  };

  return {
    async launch({ request, body }) {
      const { userId } = signedIn(request);
      const { launch = true, ...form } = body;
      const { project, taskId } = await createProject(ctx, form, userId, launch);
      return ok({ projectId: project.id, taskId }, launch ? LAUNCH_SUCCESS : SUCCESS_MESSAGES.saved);
    },

    async relaunch({ request, body }) {
      const { userId } = signedIn(request);
      const { taskId, ...form } = body;
      const project = await projectFor(db, userId, taskId);
      return ok({ projectId: project.id, taskId: await editAndLaunch(ctx, project, form, userId, 'manual') }, LAUNCH_SUCCESS);
    },

    async updateProject({ request, params, body }) {
      const { userId } = signedIn(request);
      const edited = await editProject(ctx, await projectFor(db, userId, params.projectId), body, userId);
      return ok({ projectId: edited.id }, '保存成功！');
    },

    async imageCheck({ request, body }) {
      const { message, ...found } = await checkImageAccess(db, ctx.dataDir, signedIn(request).userId, body);
      return ok(found, message);
    },

    async imageUploadPlatforms({ request, body }) {
      const { message, ...found } = await uploadedImagePlatforms(db, ctx.dataDir, signedIn(request).userId, body);
      return ok(found, message);
    },

    async projectForm({ request, params }) {
      const project = await projectFor(db, signedIn(request).userId, params.projectId);
      const upload = project.upload_id ? await findUpload(db, project.upload_id) : null;
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
        upload: upload ? { uploadId: upload.id, fileName: upload.fileName, size: upload.size } : null,
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
      if (!(await canAccessSubject(db, signedIn(request).userId, body.subjectId))) throw UserError.denied();
      return ok((await subjectProjects(db, body.subjectId)).map((p) => ({
        projectId: p.id, projectName: p.name, getCodeType: p.getCodeType, status: p.status as never, resultTaskId: p.resultRunId,
      })));
    },

    async progress({ request, query }) {
      const { userId } = signedIn(request);
      const visible = await visibleSubjectIds(db, userId);
      const projects = (await findProjects(db, parseIds(query.projectIds).slice(0, 500)))
        .filter((p) => visible === 'all' || visible.includes(p.subject_id));
      const runs = await findRuns(db, projects.map((p) => p.last_run_id).filter((id): id is number => id !== null));
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
      return ok({ deleted: await deleteProjects(ctx, signedIn(request).userId, parseIds(query.projectIds)) }, '删除成功！');
    },

    async stop({ request, params }) {
      return ok(await stopProject(ctx, signedIn(request).userId, params.projectId), '操作成功！');
    },

    async availableNum({ request }) {
      // This platform sets no project quota. Administrators count every project, others their data scope's.
      return ok({ used: await countProjects(db, await visibleSubjectsOf(db, request)), limit: null, available: null });
    },

    async ifCanCheck({ request }) {
      // Administrators see the whole queue, others the runs of their data scope's projects.
      const scope = await visibleSubjectsOf(db, request);
      const counts = await countRunsByStatus(db, [TASK_STATUS.RESEND, TASK_STATUS.QUEUED, TASK_STATUS.ANALYSING], scope);
      const count = (s: number[]) => s.reduce((n, status) => n + (counts.get(status) ?? 0), 0);
      // Launching always works: runs wait in the queue for a free worker.
      return ok({ canCheck: true, running: count([TASK_STATUS.ANALYSING]), queued: count([TASK_STATUS.RESEND, TASK_STATUS.QUEUED]), concurrency: ctx.runs.concurrency, reason: null });
    },

    batchCheck: launchBatch,
    batchRecheck: launchBatch,

    async batchRecheckSetup({ request, body }) {
      const { userId } = signedIn(request);
      const settings = { analysisModes: body.analysisModes, retentionAudit: body.retentionAudit };
      const result = await forEachProject(ctx, userId, body.projectIds, recheckEach(ctx, userId, settings));
      return ok(result, batchMessage(result));
    },

    async batchFtpCheck({ request, body }) {
      const result = await forEachProject(ctx, signedIn(request).userId, body.projectIds, async () => {
        throw new UserError(TASK_MSG.ftpUnsupported, 'unavailable');
      });
      return { code: ResultCode.FAILURE, message: TASK_MSG.ftpUnsupported, data: result };
    },

    async batchUpdateUser({ request, body }) {
      return ok(await changeCreators(ctx, signedIn(request).userId, body.projectIds, body.userId), '操作成功！');
    },

    async batchRepoBranch({ request, body }) {
      const { userId } = signedIn(request);
      return ok(await forEachProject(ctx, userId, body.projectIds, branchEach(ctx, userId, body.gitBranchName)), '操作成功！');
    },

    async batchCron({ request, body }) {
      const { userId } = signedIn(request);
      const { projectIds, ...timing } = body;
      return ok(await forEachProject(ctx, userId, projectIds, timingEach(ctx, userId, timing)), '保存成功！');
    },

    async checkAndCreateProject({ request, body }) {
      const result = await importProjects(ctx, signedIn(request).userId, body.subjectId, body.projects);
      return ok(result, importMessage(result));
    },

    async ftpListDir() {
      throw new UserError(TASK_MSG.ftpUnsupported, 'unavailable');
    },

    ...queueHandlers(ctx),
  };
}

export const taskHandlers = (ctx: ServerContext): HandlerIndex => indexHandlers(taskCalls, taskAreaHandlers(ctx));
