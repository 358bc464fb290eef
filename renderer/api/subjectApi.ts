// Subjects (applications) and their setup through RTK Query. Endpoints are typed from
// contract/api/subject.ts; binary-variant calls follow the product selector (request.ts).
import type { CallBody, CallData, CallQuery } from '../../contract/api/define.ts';
import {
  allList, bugConfigCreate, bugConfigUpdate, create, detail, enableBug, groupSubjectList, list, memberAdd, memberList, memberListForAdd,
  memberRemove, noticeCandidates, noticeSave, noticeUserList, privateServiceConfig, privateServiceSave, remove, removeBatch,
  repositorySourceCheck, repositorySourceDelete, repositorySourceList, repositorySourceSave, setup, transfer, versionCreate, versionDelete, versionList, versionUpdate,
} from '../../contract/api/subject.ts';
import { platformApi } from './platformApi.ts';
import { call } from './request.ts';

export interface SubjectListArgs {
  query: NonNullable<CallQuery<typeof list>>;
  filter: CallBody<typeof list>;
}

const api = platformApi.enhanceEndpoints({ addTagTypes: ['Subject', 'SubjectMember', 'SubjectVersion', 'RepositorySource'] }).injectEndpoints({
  endpoints: (build) => ({
    subjectList: build.query<CallData<typeof list>, SubjectListArgs>({
      query: ({ query, filter }) => call(list, { query, body: filter }),
      providesTags: ['Subject', 'Product'],
      extraOptions: { quiet: true },
    }),
    subjectAll: build.query<CallData<typeof allList>, void>({
      query: () => call(allList),
      providesTags: ['Subject'],
      extraOptions: { quiet: true },
    }),
    groupSubjects: build.query<CallData<typeof groupSubjectList>, NonNullable<CallQuery<typeof groupSubjectList>>>({
      query: (query) => call(groupSubjectList, { query }),
      providesTags: ['Subject', 'Product'],
      extraOptions: { quiet: true },
    }),
    subjectDetail: build.query<CallData<typeof detail>, number>({
      query: (id) => call(detail, { params: { id } }),
      providesTags: ['Subject', 'SubjectVersion'],
      extraOptions: { quiet: true },
    }),
    createSubject: build.mutation<CallData<typeof create>, CallBody<typeof create>>({
      query: (body) => call(create, { body }),
      invalidatesTags: ['Subject'],
      extraOptions: { quiet: true },
    }),
    removeSubject: build.mutation<CallData<typeof remove>, number>({
      query: (id) => call(remove, { params: { id } }),
      invalidatesTags: ['Subject'],
      extraOptions: { quiet: true },
    }),
    removeSubjects: build.mutation<CallData<typeof removeBatch>, number[]>({
      query: (ids) => call(removeBatch, { query: { ids: ids.join(',') } }),
      invalidatesTags: ['Subject'],
      extraOptions: { quiet: true },
    }),
    setupSubject: build.mutation<CallData<typeof setup>, CallBody<typeof setup>>({
      query: (body) => call(setup, { body }),
      invalidatesTags: ['Subject'],
      extraOptions: { quiet: true },
    }),
    transferSubject: build.mutation<CallData<typeof transfer>, CallBody<typeof transfer>>({
      query: (body) => call(transfer, { body }),
      invalidatesTags: ['Subject', 'SubjectMember'],
      extraOptions: { quiet: true },
    }),
    usersForAdd: build.query<CallData<typeof memberListForAdd>, NonNullable<CallQuery<typeof memberListForAdd>>>({
      query: (query) => call(memberListForAdd, { query }),
      providesTags: ['SubjectMember'],
      extraOptions: { quiet: true },
    }),
    members: build.query<CallData<typeof memberList>, { subjectId: number; page: number; size: number; name?: string }>({
      query: ({ subjectId, ...query }) => call(memberList, { params: { subjectId }, query }),
      providesTags: ['SubjectMember'],
      extraOptions: { quiet: true },
    }),
    addMembers: build.mutation<CallData<typeof memberAdd>, CallBody<typeof memberAdd>>({
      query: (body) => call(memberAdd, { body }),
      invalidatesTags: ['SubjectMember', 'Subject'],
      extraOptions: { quiet: true },
    }),
    removeMembers: build.mutation<CallData<typeof memberRemove>, { subjectId: number; ids: number[] }>({
      query: ({ subjectId, ids }) => call(memberRemove, { params: { subjectId }, body: { ids } }),
      invalidatesTags: ['SubjectMember', 'Subject'],
      extraOptions: { quiet: true },
    }),
    versions: build.query<CallData<typeof versionList>, number>({
      query: (subjectId) => call(versionList, { query: { subjectId } }),
      providesTags: ['SubjectVersion'],
      extraOptions: { quiet: true },
    }),
    createVersion: build.mutation<CallData<typeof versionCreate>, CallBody<typeof versionCreate>>({
      query: (body) => call(versionCreate, { body }),
      invalidatesTags: ['SubjectVersion'],
      extraOptions: { quiet: true },
    }),
    updateVersion: build.mutation<CallData<typeof versionUpdate>, CallBody<typeof versionUpdate>>({
      query: (body) => call(versionUpdate, { body }),
      invalidatesTags: ['SubjectVersion'],
      extraOptions: { quiet: true },
    }),
    deleteVersion: build.mutation<CallData<typeof versionDelete>, CallBody<typeof versionDelete>>({
      query: (body) => call(versionDelete, { body }),
      invalidatesTags: ['SubjectVersion'],
      extraOptions: { quiet: true },
    }),
    noticeUsers: build.query<CallData<typeof noticeUserList>, number>({
      query: (subjectId) => call(noticeUserList, { query: { subjectId } }),
      providesTags: ['Subject'],
      extraOptions: { quiet: true },
    }),
    noticeCandidates: build.query<CallData<typeof noticeCandidates>, number>({
      query: (subjectId) => call(noticeCandidates, { query: { subjectId } }),
      providesTags: ['Subject'],
      extraOptions: { quiet: true },
    }),
    saveNotice: build.mutation<CallData<typeof noticeSave>, CallBody<typeof noticeSave>>({
      query: (body) => call(noticeSave, { body }),
      invalidatesTags: ['Subject'],
      extraOptions: { quiet: true },
    }),
    enableBug: build.mutation<CallData<typeof enableBug>, { subjectId: number; enabled: boolean }>({
      query: ({ subjectId, enabled }) => call(enableBug, { params: { subjectId }, body: { enabled } }),
      invalidatesTags: ['Subject'],
      extraOptions: { quiet: true },
    }),
    saveBugConfig: build.mutation<CallData<typeof bugConfigCreate>, { subjectId: number; update: boolean; body: CallBody<typeof bugConfigCreate> }>({
      query: ({ subjectId, update, body }) => call(update ? bugConfigUpdate : bugConfigCreate, { params: { subjectId }, body }),
      invalidatesTags: ['Subject'],
      extraOptions: { quiet: true },
    }),
    privateService: build.query<CallData<typeof privateServiceConfig>, number>({
      query: (subjectId) => call(privateServiceConfig, { params: { subjectId } }),
      providesTags: ['Subject'],
      extraOptions: { quiet: true },
    }),
    savePrivateService: build.mutation<CallData<typeof privateServiceSave>, { subjectId: number; body: CallBody<typeof privateServiceSave> }>({
      query: ({ subjectId, body }) => call(privateServiceSave, { params: { subjectId }, body }),
      invalidatesTags: ['Subject'],
      extraOptions: { quiet: true },
    }),
    // The caller's own repository sources (per user, not per subject).
    repositorySources: build.query<CallData<typeof repositorySourceList>, NonNullable<CallQuery<typeof repositorySourceList>> | void>({
      query: (query) => call(repositorySourceList, { query: query ?? {} }),
      providesTags: ['RepositorySource'],
      extraOptions: { quiet: true },
    }),
    checkRepositorySource: build.mutation<CallData<typeof repositorySourceCheck>, CallBody<typeof repositorySourceCheck>>({
      query: (body) => call(repositorySourceCheck, { body }),
      extraOptions: { quiet: true },
    }),
    saveRepositorySource: build.mutation<CallData<typeof repositorySourceSave>, CallBody<typeof repositorySourceSave>>({
      query: (body) => call(repositorySourceSave, { body }),
      invalidatesTags: ['RepositorySource'],
      extraOptions: { quiet: true },
    }),
    deleteRepositorySources: build.mutation<CallData<typeof repositorySourceDelete>, number[]>({
      query: (ids) => call(repositorySourceDelete, { query: { ids: ids.join(',') } }),
      invalidatesTags: ['RepositorySource'],
      extraOptions: { quiet: true },
    }),
  }),
});

export const subjectApi = api;

export const {
  useSubjectListQuery, useSubjectAllQuery, useGroupSubjectsQuery, useSubjectDetailQuery, useCreateSubjectMutation,
  useRemoveSubjectMutation, useRemoveSubjectsMutation, useSetupSubjectMutation, useTransferSubjectMutation, useUsersForAddQuery,
  useMembersQuery, useAddMembersMutation, useRemoveMembersMutation, useVersionsQuery, useCreateVersionMutation,
  useUpdateVersionMutation, useDeleteVersionMutation, useNoticeUsersQuery, useNoticeCandidatesQuery, useSaveNoticeMutation,
  useEnableBugMutation, useSaveBugConfigMutation, usePrivateServiceQuery, useSavePrivateServiceMutation, useRepositorySourcesQuery,
  useCheckRepositorySourceMutation, useSaveRepositorySourceMutation, useDeleteRepositorySourcesMutation,
} = api;
