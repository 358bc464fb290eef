// 组织 (contract/api/group.ts): the organisation tree, a group's details, its 应用 and members with
// the pickers of those it has not, and the commands that change them. A change to a group's 应用
// changes what the subject lists show, so those commands also invalidate 'Subject'.
import type { CallQuery } from '../../contract/api/define.ts';
import {
  addChild, addRoot, addSubjects, addUsers, detail, filterAllList, filterList, hasNotSubjects, hasNotUsers, hasSubjects, hasUsers, list, move,
  remove, removeSubjects, removeUsers, rename, type GroupTreeNode,
} from '../../contract/api/group.ts';
import { defineEndpoints, mutation, query } from './endpoints.ts';
import { platformApi } from './platformApi.ts';

export type GroupPickerArgs = NonNullable<CallQuery<typeof hasSubjects>>;

const groupApi = platformApi.enhanceEndpoints({ addTagTypes: ['Group', 'Subject'] }).injectEndpoints({
  endpoints: (build) =>
    defineEndpoints(build, 'group', {
      provides: ['Group'],
      invalidates: ['Group'],
      endpoints: {
        groupTree: query(list, { transform: (data) => data as GroupTreeNode[] }),
        allGroups: query(filterAllList),
        // The groups the caller may place an 应用 in (their data scope), by path.
        groupChoices: query(filterList),
        groupDetail: query(detail, { args: (id: number) => ({ params: { id } }) }),
        subjectsInGroup: query(hasSubjects, { tags: ['Group', 'Subject'] }),
        groupSubjectsToAdd: query(hasNotSubjects, { tags: ['Group', 'Subject'] }),
        groupUsers: query(hasUsers),
        groupUsersToAdd: query(hasNotUsers),
        addRootGroup: mutation(addRoot),
        addChildGroup: mutation(addChild),
        renameGroup: mutation(rename),
        moveGroup: mutation(move),
        removeGroup: mutation(remove, { args: (id: number) => ({ params: { id } }) }),
        addGroupSubjects: mutation(addSubjects, { tags: ['Group', 'Subject'] }),
        removeGroupSubjects: mutation(removeSubjects, { tags: ['Group', 'Subject'] }),
        addGroupUsers: mutation(addUsers),
        removeGroupUsers: mutation(removeUsers),
      },
    }),
});

export const {
  useGroupTreeQuery, useAllGroupsQuery, useGroupChoicesQuery, useGroupDetailQuery, useSubjectsInGroupQuery, useGroupSubjectsToAddQuery, useGroupUsersQuery,
  useGroupUsersToAddQuery, useAddRootGroupMutation, useAddChildGroupMutation, useRenameGroupMutation, useMoveGroupMutation,
  useRemoveGroupMutation, useAddGroupSubjectsMutation, useRemoveGroupSubjectsMutation, useAddGroupUsersMutation, useRemoveGroupUsersMutation,
} = groupApi;
