// Projects and their analyses (contract/api/task.ts): the task list, progress, a stored project's
// form, launch and re-launch, saving without launching (a type the platform cannot analyse yet),
// stop, delete, the batch calls and the batch import; and the owner selector's user list
// (contract/api/session.ts).
//
// Launch answers carry their meaning in the envelope's message (spec: 任务发起成功！ only when it
// is SUCCESS), which these endpoints keep (`withMessage`); a project saved but not launched comes
// back as an answer that still names the project.
import type { CallBody, CallQuery } from '../../contract/api/define.ts';
import { allUsers } from '../../contract/api/session.ts';
import {
  availableNum, batchCheck, batchCron, batchRecheck, batchRecheckSetup, batchUpdateUser, checkAndCreateProject,
  deleteProjects, ifCanCheck, imageCheck, imageUploadPlatforms, launch, progress, projectForm, relaunch, stop, taskList, updateProject,
} from '../../contract/api/task.ts';
import { defineEndpoints, mutation, query } from './endpoints.ts';
import { platformApi } from './platformApi.ts';

export interface TaskListArgs {
  paging: NonNullable<CallQuery<typeof taskList>>;
  filter: CallBody<typeof taskList>;
}

export const taskApi = platformApi.enhanceEndpoints({ addTagTypes: ['Task', 'Run', 'Result'] }).injectEndpoints({
  endpoints: (build) =>
    defineEndpoints(build, 'task', {
      provides: ['Task'],
      invalidates: ['Task', 'Run'],
      endpoints: {
        // Its counts move with marks and custom levels (`Result`, which every mark invalidates).
        projectTaskRows: query(taskList, { read: true, tags: ['Task', 'Result'], args: ({ paging, filter }: TaskListArgs) => ({ query: paging, body: filter }) }),
        /** A stored project as the edit form reads it (source fields, timing, upload; no passwords). */
        projectForm: query(projectForm, { args: (projectId: number) => ({ params: { projectId } }) }),
        /** Progress of projects (a comma list of ids), polled by the lists (2 s) and the analysis details (1.5 s). */
        projectProgress: query(progress, { tags: [], args: (projectIds: string) => ({ query: { projectIds } }) }),
        projectQuota: query(availableNum),
        projectQueueState: query(ifCanCheck),
        projectLaunch: mutation(launch, { withMessage: true }),
        projectRelaunch: mutation(relaunch, { withMessage: true }),
        projectUpdate: mutation(updateProject, { args: ({ projectId, body }: { projectId: number; body: CallBody<typeof updateProject> }) => ({ params: { projectId }, body }) }),
        projectStop: mutation(stop, { args: (projectId: number) => ({ params: { projectId } }) }),
        projectDelete: mutation(deleteProjects, { args: (ids: number[]) => ({ query: { projectIds: ids.join(',') } }) }),
        projectBatchCheck: mutation(batchCheck),
        projectBatchRecheck: mutation(batchRecheck),
        projectBatchRecheckSetup: mutation(batchRecheckSetup),
        projectBatchCron: mutation(batchCron, { tags: ['Task'] }),
        projectBatchOwner: mutation(batchUpdateUser, { tags: ['Task'] }),
        projectImport: mutation(checkAndCreateProject),
        /** 校验 of a container registry form: reference, credentials and options tried against the registry. */
        projectImageCheck: mutation(imageCheck, { withMessage: true, tags: [] }),
        /** The platforms an uploaded image (本地镜像文件) holds, for the form's 平台 select. */
        projectImageUploadPlatforms: query(imageUploadPlatforms, { read: true, tags: [] }),
        projectOwnerOptions: query(allUsers, { tags: [] }),
      },
    }),
});

export const {
  useProjectTaskRowsQuery,
  useProjectFormQuery,
  useProjectProgressQuery,
  useProjectQuotaQuery,
  useProjectQueueStateQuery,
  useProjectLaunchMutation,
  useProjectRelaunchMutation,
  useProjectUpdateMutation,
  useProjectStopMutation,
  useProjectDeleteMutation,
  useProjectBatchCheckMutation,
  useProjectBatchRecheckMutation,
  useProjectBatchRecheckSetupMutation,
  useProjectBatchCronMutation,
  useProjectBatchOwnerMutation,
  useProjectImportMutation,
  useProjectImageCheckMutation,
  useProjectImageUploadPlatformsQuery,
  useProjectOwnerOptionsQuery,
} = taskApi;
