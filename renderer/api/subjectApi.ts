// Subjects (applications) and their setup (contract/api/subject.ts); binary-variant calls follow
// the product selector (request.ts).
import type { CallBody, CallQuery } from '../../contract/api/define.ts';
import {
  allList, bugConfigCreate, bugConfigUpdate, create, detail, enableBug, groupSubjectList, list, memberAdd, memberList, memberListForAdd,
  memberRemove, noticeSave, privateServiceSave, remove, removeBatch,
  repositorySourceCheck, repositorySourceDelete, repositorySourceList, repositorySourceSave, setup, transfer, versionCreate, versionDelete, versionList, versionUpdate,
} from '../../contract/api/subject.ts';
import { defineEndpoints, mutation, mutationOver, query } from './endpoints.ts';
import { platformApi } from './platformApi.ts';

export interface SubjectListArgs {
  query: NonNullable<CallQuery<typeof list>>;
  filter: CallBody<typeof list>;
}

const subjectApi = platformApi.enhanceEndpoints({ addTagTypes: ['Subject', 'SubjectMember', 'SubjectVersion', 'RepositorySource'] }).injectEndpoints({
  endpoints: (build) =>
    defineEndpoints(build, 'subject', {
      provides: ['Subject'],
      invalidates: ['Subject'],
      endpoints: {
        subjectList: query(list, { read: true, tags: ['Subject', 'Product'], args: ({ query, filter }: SubjectListArgs) => ({ query, body: filter }) }),
        subjectAll: query(allList),
        groupSubjects: query(groupSubjectList, { tags: ['Subject', 'Product'] }),
        subjectDetail: query(detail, { tags: ['Subject', 'SubjectVersion'], args: (id: number) => ({ params: { id } }) }),
        createSubject: mutation(create),
        removeSubject: mutation(remove, { args: (id: number) => ({ params: { id } }) }),
        removeSubjects: mutation(removeBatch, { args: (ids: number[]) => ({ query: { ids: ids.join(',') } }) }),
        setupSubject: mutation(setup),
        transferSubject: mutation(transfer, { tags: ['Subject', 'SubjectMember'] }),
        usersForAdd: query(memberListForAdd, { tags: ['SubjectMember'] }),
        members: query(memberList, {
          tags: ['SubjectMember'],
          args: ({ subjectId, ...paging }: { subjectId: number; page: number; size: number; name?: string }) => ({ params: { subjectId }, query: paging }),
        }),
        addMembers: mutation(memberAdd, { tags: ['SubjectMember', 'Subject'] }),
        removeMembers: mutation(memberRemove, { tags: ['SubjectMember', 'Subject'], args: ({ subjectId, ids }: { subjectId: number; ids: number[] }) => ({ params: { subjectId }, query: {}, body: { ids } }) }),
        versions: query(versionList, { tags: ['SubjectVersion'], args: (subjectId: number) => ({ query: { subjectId } }) }),
        createVersion: mutation(versionCreate, { tags: ['SubjectVersion'] }),
        updateVersion: mutation(versionUpdate, { tags: ['SubjectVersion'] }),
        deleteVersion: mutation(versionDelete, { tags: ['SubjectVersion'] }),
        saveNotice: mutation(noticeSave),
        enableBug: mutation(enableBug, { args: ({ subjectId, enabled }: { subjectId: number; enabled: boolean }) => ({ params: { subjectId }, body: { enabled } }) }),
        /** The defect tracker's settings: created the first time, updated after. */
        saveBugConfig: mutationOver(
          { create: bugConfigCreate, update: bugConfigUpdate },
          {
            requests: ({ subjectId, update, body }: { subjectId: number; update: boolean; body: CallBody<typeof bugConfigCreate> }, to) => [(update ? to.update : to.create)({ params: { subjectId }, body })],
            combine: ([answer]) => answer,
          },
        ),
        savePrivateService: mutation(privateServiceSave, { args: ({ subjectId, body }: { subjectId: number; body: CallBody<typeof privateServiceSave> }) => ({ params: { subjectId }, body }) }),
        // The caller's own repository sources (per user, not per subject).
        repositorySources: query(repositorySourceList, { tags: ['RepositorySource'], args: (paging: NonNullable<CallQuery<typeof repositorySourceList>> | void) => ({ query: paging ?? {} }) }),
        checkRepositorySource: mutation(repositorySourceCheck, { tags: [] }),
        saveRepositorySource: mutation(repositorySourceSave, { tags: ['RepositorySource'] }),
        deleteRepositorySources: mutation(repositorySourceDelete, { tags: ['RepositorySource'], args: (ids: number[]) => ({ query: { ids: ids.join(',') } }) }),
      },
    }),
});

export const {
  useSubjectListQuery, useSubjectAllQuery, useGroupSubjectsQuery, useSubjectDetailQuery, useCreateSubjectMutation,
  useRemoveSubjectMutation, useRemoveSubjectsMutation, useSetupSubjectMutation, useTransferSubjectMutation, useUsersForAddQuery,
  useMembersQuery, useAddMembersMutation, useRemoveMembersMutation, useVersionsQuery, useCreateVersionMutation,
  useUpdateVersionMutation, useDeleteVersionMutation, useSaveNoticeMutation,
  useEnableBugMutation, useSaveBugConfigMutation, useSavePrivateServiceMutation, useRepositorySourcesQuery,
  useCheckRepositorySourceMutation, useSaveRepositorySourceMutation, useDeleteRepositorySourcesMutation,
} = subjectApi;
