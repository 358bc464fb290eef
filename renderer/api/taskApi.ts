// Projects and their analyses (contract/api/task.ts) through RTK Query: the task list, progress,
// a stored project's form, launch and re-launch, stop, delete, the batch calls and the batch
// import; plus the subject selector's two calls (contract/api/subject.ts) until a subject API
// module offers them.
//
// Launch answers carry their meaning in the envelope's message (spec: 任务发起成功！ only when it is
// SUCCESS), which the shared base query drops; those two endpoints keep it (`withMessage`).
import type { BaseQueryApi } from '@reduxjs/toolkit/query';
import type { CallBody, CallData, CallQuery } from '../../contract/api/define.ts';
import { allList, versionList } from '../../contract/api/subject.ts';
import { allUsers } from '../../contract/api/session.ts';
import {
  availableNum, batchCheck, batchCron, batchRecheck, batchRecheckSetup, batchUpdateUser, checkAndCreateProject,
  deleteProjects, ifCanCheck, launch, progress, projectForm, projectList, relaunch, stop, taskList, updateProject,
} from '../../contract/api/task.ts';
import type { IpcResult } from '../../contract/ipc/desktop-contract.ts';
import { desktop } from '../platform/desktop.ts';
import { createEnvelopeBaseQuery, type ApiError, type ApiExtraOptions } from './baseQuery.ts';
import { platformApi } from './platformApi.ts';
import { call, toApiRequest, type CallArgs } from './request.ts';

type Q<C> = NonNullable<CallQuery<C>>;
type B<C> = CallBody<C>;
type D<C> = CallData<C>;

export interface TaskListArgs {
  paging: Q<typeof taskList>;
  filter: B<typeof taskList>;
}

/** A launch's data with the envelope message it came with. */
export type LaunchOutcome = D<typeof launch> & { message: string };

const productOf = (state: unknown): number => {
  const p = (state as { session?: { product?: unknown } } | undefined)?.session?.product;
  return typeof p === 'number' ? p : 1;
};

/**
 * Runs a call over the bridge and keeps the envelope message of a success; failures go through
 * the shared base query, so they read (and end a session) exactly as every other call.
 */
async function withMessage<T>(args: CallArgs, api: BaseQueryApi, extra: ApiExtraOptions): Promise<{ data: T & { message: string } } | { error: ApiError }> {
  let result: IpcResult<unknown>;
  try {
    result = await desktop().api.call(toApiRequest(args, productOf(api.getState())));
  } catch (e) {
    result = { ok: false, error: { code: 'bridge-failed', message: e instanceof Error ? e.message : '' } };
  }
  if (result.ok) {
    const env = result.value as { code?: unknown; message?: unknown; data?: unknown };
    const message = typeof env?.message === 'string' ? env.message : '';
    if (env && env.code === 1 && typeof env.data === 'object' && env.data !== null) return { data: { ...(env.data as T), message } };
    // Saved but not launched (a remote type not fetched yet): a failure code whose data still
    // names the project. The caller shows the message and goes to the task list.
    if (env && env.code !== 3 && typeof env.data === 'object' && env.data !== null && typeof (env.data as { projectId?: unknown }).projectId === 'number') {
      return { data: { ...(env.data as T), message: message || ' ' } };
    }
  }
  const replay = createEnvelopeBaseQuery(() => Promise.resolve(result));
  const answer = await replay(args, api, extra);
  if ('error' in answer && answer.error) return { error: answer.error };
  return { data: { ...(answer.data as T), message: '' } };
}

const api = platformApi.enhanceEndpoints({ addTagTypes: ['Task', 'Run'] }).injectEndpoints({
  endpoints: (build) => ({
    projectTaskRows: build.query<D<typeof taskList>, TaskListArgs>({
      query: ({ paging, filter }) => call(taskList, { query: paging, body: filter }),
      providesTags: ['Task'],
      extraOptions: { quiet: true },
    }),
    /** A stored project as the edit form reads it (source fields, timing, upload; no passwords). */
    projectForm: build.query<D<typeof projectForm>, number>({
      query: (projectId) => call(projectForm, { params: { projectId } }),
      providesTags: ['Task'],
      extraOptions: { quiet: true },
    }),
    projectsOfSubject: build.query<D<typeof projectList>, number>({
      query: (subjectId) => call(projectList, { body: { subjectId } }),
      providesTags: ['Task'],
      extraOptions: { quiet: true },
    }),
    /** Progress of several projects (comma list of ids), polled every 2 s by the list. */
    projectProgress: build.query<D<typeof progress>, string>({
      query: (projectIds) => call(progress, { query: { projectIds } }),
      extraOptions: { quiet: true },
    }),
    projectQuota: build.query<D<typeof availableNum>, void>({
      query: () => call(availableNum),
      providesTags: ['Task'],
      extraOptions: { quiet: true },
    }),
    projectQueueState: build.query<D<typeof ifCanCheck>, void>({
      query: () => call(ifCanCheck),
      providesTags: ['Task'],
      extraOptions: { quiet: true },
    }),
    projectLaunch: build.mutation<LaunchOutcome, B<typeof launch>>({
      queryFn: (body, api) => withMessage<D<typeof launch>>(call(launch, { body }), api, { quiet: true }),
      invalidatesTags: ['Task', 'Run'],
    }),
    projectRelaunch: build.mutation<LaunchOutcome, B<typeof relaunch>>({
      queryFn: (body, api) => withMessage<D<typeof relaunch>>(call(relaunch, { body }), api, { quiet: true }),
      invalidatesTags: ['Task', 'Run'],
    }),
    projectUpdate: build.mutation<D<typeof updateProject>, { projectId: number; body: B<typeof updateProject> }>({
      query: ({ projectId, body }) => call(updateProject, { params: { projectId }, body }),
      invalidatesTags: ['Task', 'Run'],
      extraOptions: { quiet: true },
    }),
    projectStop: build.mutation<D<typeof stop>, number>({
      query: (projectId) => call(stop, { params: { projectId } }),
      invalidatesTags: ['Task', 'Run'],
      extraOptions: { quiet: true },
    }),
    projectDelete: build.mutation<D<typeof deleteProjects>, number[]>({
      query: (ids) => call(deleteProjects, { query: { projectIds: ids.join(',') } }),
      invalidatesTags: ['Task', 'Run'],
      extraOptions: { quiet: true },
    }),
    projectBatchCheck: build.mutation<D<typeof batchCheck>, B<typeof batchCheck>>({
      query: (body) => call(batchCheck, { body }),
      invalidatesTags: ['Task', 'Run'],
      extraOptions: { quiet: true },
    }),
    projectBatchRecheck: build.mutation<D<typeof batchRecheck>, B<typeof batchRecheck>>({
      query: (body) => call(batchRecheck, { body }),
      invalidatesTags: ['Task', 'Run'],
      extraOptions: { quiet: true },
    }),
    projectBatchRecheckSetup: build.mutation<D<typeof batchRecheckSetup>, B<typeof batchRecheckSetup>>({
      query: (body) => call(batchRecheckSetup, { body }),
      invalidatesTags: ['Task', 'Run'],
      extraOptions: { quiet: true },
    }),
    projectBatchCron: build.mutation<D<typeof batchCron>, B<typeof batchCron>>({
      query: (body) => call(batchCron, { body }),
      invalidatesTags: ['Task'],
      extraOptions: { quiet: true },
    }),
    projectBatchOwner: build.mutation<D<typeof batchUpdateUser>, B<typeof batchUpdateUser>>({
      query: (body) => call(batchUpdateUser, { body }),
      invalidatesTags: ['Task'],
      extraOptions: { quiet: true },
    }),
    projectImport: build.mutation<D<typeof checkAndCreateProject>, B<typeof checkAndCreateProject>>({
      query: (body) => call(checkAndCreateProject, { body }),
      invalidatesTags: ['Task', 'Run'],
      extraOptions: { quiet: true },
    }),
    // ---- the selectors' lookups (subject area, session area)
    projectSubjectOptions: build.query<D<typeof allList>, void>({
      query: () => call(allList),
      extraOptions: { quiet: true },
    }),
    projectVersionOptions: build.query<D<typeof versionList>, number>({
      query: (subjectId) => call(versionList, { query: { subjectId } }),
      extraOptions: { quiet: true },
    }),
    projectOwnerOptions: build.query<D<typeof allUsers>, void>({
      query: () => call(allUsers),
      extraOptions: { quiet: true },
    }),
  }),
});

export const taskApi = api;

export const {
  useProjectTaskRowsQuery,
  useProjectFormQuery,
  useProjectsOfSubjectQuery,
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
  useProjectSubjectOptionsQuery,
  useProjectVersionOptionsQuery,
  useProjectOwnerOptionsQuery,
} = api;
