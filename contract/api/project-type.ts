// 项目类型 area (spec doc 2 §7 "Project types", screen /system/projectType, permission
// setup:projectType): the administrators' list of the types an 应用 (subject) may be given,
// each online (offered when an 应用 is created or edited) or offline (kept on the 应用 that have
// it, offered to none). The spec names the calls and the fields subjectTypeName, remark and
// status; the rest of the payloads are the ones the screens need.
import { Type, type Static } from 'typebox';
import { DESCRIPTION_MAX_LENGTH, NAME_MAX_LENGTH } from '../validation.ts';
import { defineCall } from './define.ts';
import { filteredList, Id, IdParams, Keyword, Nullable } from './kit.ts';

const L = Type.Literal;

/** Spec doc 2 §4: a service or project type is online (status 0) or offline (1). */
export const SUBJECT_TYPE_STATUS = { ONLINE: 0, OFFLINE: 1 } as const;
export const SubjectTypeStatusSchema = Type.Union([L(SUBJECT_TYPE_STATUS.ONLINE), L(SUBJECT_TYPE_STATUS.OFFLINE)]);
export type SubjectTypeStatus = Static<typeof SubjectTypeStatusSchema>;

/** Checked against contract/validation.ts in the handler (validateName / validateDescription), for its message. */
const NameText = Type.String({ maxLength: NAME_MAX_LENGTH * 2 });
const RemarkText = Type.String({ maxLength: DESCRIPTION_MAX_LENGTH * 2 });

export const SubjectTypeRowSchema = Type.Object({
  id: Type.Integer(),
  subjectTypeName: Type.String(),
  remark: Type.String(),
  status: SubjectTypeStatusSchema,
  /** 应用 whose type this is. */
  subjects: Type.Integer({ minimum: 0 }),
  /** The display name of who added it (null when that account is gone). */
  createdBy: Nullable(Type.String()),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
export type SubjectTypeRow = Static<typeof SubjectTypeRowSchema>;

export const SubjectTypeFilterSchema = Type.Object({
  /** Part of the name or the remark, case-insensitive. */
  keyword: Keyword,
  status: Type.Optional(SubjectTypeStatusSchema),
});
export type SubjectTypeFilter = Static<typeof SubjectTypeFilterSchema>;

export const SubjectTypeFormSchema = Type.Object({
  subjectTypeName: NameText,
  remark: Type.Optional(RemarkText),
});
export type SubjectTypeForm = Static<typeof SubjectTypeFormSchema>;

export const list = defineCall({
  name: 'projectType.list',
  method: 'POST',
  path: '/api/subjectType/query',
  summary: '项目类型列表',
  ...filteredList(SubjectTypeFilterSchema, SubjectTypeRowSchema),
  permission: 'setup:projectType',
});

/** Online names, for the 应用 forms' type picker: any signed-in user. */
export const names = defineCall({
  name: 'projectType.names',
  method: 'GET',
  path: '/api/subjectType/querySubjectTypeNameList',
  summary: '已上线的项目类型名称',
  response: Type.Array(Type.String()),
});

export const add = defineCall({
  name: 'projectType.add',
  method: 'POST',
  path: '/api/subjectType/add',
  summary: '添加项目类型',
  body: SubjectTypeFormSchema,
  response: SubjectTypeRowSchema,
  permission: 'setup:projectType',
});

/** Renaming a type renames it on every 应用 that has it, in the same transaction. */
export const update = defineCall({
  name: 'projectType.update',
  method: 'PATCH',
  path: '/api/subjectType/update/{id}',
  summary: '修改项目类型',
  params: IdParams,
  body: SubjectTypeFormSchema,
  response: SubjectTypeRowSchema,
  permission: 'setup:projectType',
});

/** The spec's online/offline switch, at the path it writes (POST …/delete with status). */
export const setStatus = defineCall({
  name: 'projectType.setStatus',
  method: 'POST',
  path: '/api/subjectType/delete',
  summary: '上线或下线项目类型',
  body: Type.Object({ id: Id(), status: SubjectTypeStatusSchema }),
  response: SubjectTypeRowSchema,
  permission: 'setup:projectType',
});

/** Refused while any 应用 has the type (take it offline instead). */
export const remove = defineCall({
  name: 'projectType.remove',
  method: 'DELETE',
  path: '/api/subjectType/delete/{id}',
  summary: '删除项目类型',
  params: IdParams,
  response: Type.Null(),
  permission: 'setup:projectType',
});

export const projectTypeCalls = { list, names, add, update, setStatus, remove };
