// 项目类型 (contract/api/project-type.ts): the administrators' list of the types an 应用 may be
// given, and the online names the 应用 forms offer.
import type { CallBody, CallQuery } from '../../contract/api/define.ts';
import { add, list, names, remove, setStatus, update } from '../../contract/api/project-type.ts';
import { defineEndpoints, mutation, query } from './endpoints.ts';
import { platformApi } from './platformApi.ts';

export interface ProjectTypeListArgs {
  paging: NonNullable<CallQuery<typeof list>>;
  filter: CallBody<typeof list>;
}

const projectTypeApi = platformApi.enhanceEndpoints({ addTagTypes: ['ProjectType', 'Subject'] }).injectEndpoints({
  endpoints: (build) =>
    defineEndpoints(build, 'projectType', {
      provides: ['ProjectType'],
      invalidates: ['ProjectType'],
      endpoints: {
        // Each row counts the 应用 of its type: a change to an 应用 reads the list again.
        projectTypeList: query(list, { read: true, tags: ['ProjectType', 'Subject'], args: ({ paging, filter }: ProjectTypeListArgs) => ({ query: paging, body: filter }) }),
        projectTypeNames: query(names),
        addProjectType: mutation(add),
        // A rename follows onto the 应用 that have the type: their screens read it again.
        updateProjectType: mutation(update, { tags: ['ProjectType', 'Subject'] }),
        setProjectTypeStatus: mutation(setStatus),
        removeProjectType: mutation(remove, { args: (id: number) => ({ params: { id } }) }),
      },
    }),
});

export const {
  useProjectTypeListQuery, useProjectTypeNamesQuery, useAddProjectTypeMutation, useUpdateProjectTypeMutation,
  useSetProjectTypeStatusMutation, useRemoveProjectTypeMutation,
} = projectTypeApi;
