// Subject area (spec doc 1 §7 "Subjects", doc 2 "Project settings"): subjects (the spec's
// 应用/项目) with their groups, members, versions, setup (notice, defect management, private
// service), repository sources and the repository facts of their projects. The spec names the
// calls but gives no payloads; these are the ones the screens under /project need.
import { Type, type Static } from 'typebox';
import { DESCRIPTION_MAX_LENGTH, NAME_MAX_LENGTH } from '../validation.ts';
import { defineCall } from './define.ts';
import { DeletedSchema, Id, IdCsv, IdParams, Nullable, PageSchema, PagingQuerySchema } from './kit.ts';
import { LevelSchema } from './vulnerability.ts';

const L = Type.Literal;
const IdList = Type.Array(Id(), { maxItems: 1000 });

/** 1 very important .. 5 very unimportant (PROJECT_IMPORTANCE_LABEL). */
export const ImportanceSchema = Type.Integer({ minimum: 1, maximum: 5 });
/** Names and descriptions are checked against contract/validation.ts in the handler, for its message. */
const NameText = Type.String({ maxLength: NAME_MAX_LENGTH * 2 });
const DescriptionText = Type.String({ maxLength: DESCRIPTION_MAX_LENGTH * 2 });
const SubjectTypeText = Type.String({ maxLength: 100 });
/** Administrators' custom fields: { [fieldId]: value }. */
export const CustomFieldsSchema = Type.Record(Type.String({ maxLength: 64 }), Type.Union([
  Type.String({ maxLength: 2000 }), Type.Number(), Type.Boolean(), Type.Null(),
  Type.Array(Type.Union([Type.String({ maxLength: 500 }), Type.Number()]), { maxItems: 100 }),
]), { maxProperties: 200 });

/** `{subjectId}` of a path, or `?subjectId=` of a query. */
const SubjectIdParams = Type.Object({ subjectId: Id() });

// ---- list, groups ---------------------------------------------------------------------------

export const SUBJECT_SORTS = ['name', 'createdAt', 'updatedAt'] as const;

export const SubjectListQuerySchema = Type.Object({
  ...PagingQuerySchema.properties,
  /** `name,asc`, `createdAt,desc`, `updatedAt,desc` (default `createdAt,desc`). */
  sort: Type.Optional(Type.String({ maxLength: 40, pattern: '^(name|createdAt|updatedAt)(,(asc|desc))?$' })),
});

export const SubjectFilterSchema = Type.Object({
  /** Part of the name, case-insensitive. */
  name: Type.Optional(Type.String({ maxLength: 200 })),
  /** One scope is kept (spec doc 1 §3): versionIds, else subjectIds, else groupIds. */
  groupIds: Type.Optional(IdList),
  subjectIds: Type.Optional(IdList),
  versionIds: Type.Optional(IdList),
  importance: Type.Optional(Type.Array(ImportanceSchema, { maxItems: 5 })),
  subjectType: Type.Optional(SubjectTypeText),
});
export type SubjectFilter = Static<typeof SubjectFilterSchema>;

export const SubjectCountsSchema = Type.Object({
  components: Type.Integer(),
  vulnerabilities: Type.Integer(),
  /** Vulnerabilities per level (keys 1, 2, 4, 8, 16). */
  byLevel: Type.Record(Type.String(), Type.Integer()),
});

export const SubjectRowSchema = Type.Object({
  id: Type.Integer(),
  uuid: Type.String(),
  name: Type.String(),
  description: Type.String(),
  importance: Type.Integer(),
  subjectType: Nullable(Type.String()),
  groupId: Nullable(Type.Integer()),
  groupName: Nullable(Type.String()),
  ownerId: Nullable(Type.Integer()),
  ownerName: Nullable(Type.String()),
  memberCount: Type.Integer(),
  projectCount: Type.Integer(),
  /** Status of the most recent run over the subject's projects (-1..4), null before any. */
  lastStatus: Nullable(Type.Integer()),
  lastAnalysisAt: Nullable(Type.String()),
  /** Summed over the latest run of each project. */
  counts: SubjectCountsSchema,
  /** The caller may change settings and delete it (administrator or owner). */
  canManage: Type.Boolean(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
export type SubjectRow = Static<typeof SubjectRowSchema>;

export const list = defineCall({
  name: 'subject.list',
  method: 'POST',
  path: '/api/subject/list',
  binaryVariant: true,
  summary: '应用列表',
  query: SubjectListQuerySchema,
  body: SubjectFilterSchema,
  response: PageSchema(SubjectRowSchema),
  permission: 'project:list',
});

export const SubjectRefSchema = Type.Object({ id: Type.Integer(), name: Type.String(), product: Type.Integer() });

export const allList = defineCall({
  name: 'subject.allList',
  method: 'GET',
  path: '/api/subject/all/list',
  summary: '可见的全部应用（id 与名称）',
  response: Type.Array(SubjectRefSchema),
});

export const GroupRowSchema = Type.Object({
  id: Type.Integer(),
  pid: Nullable(Type.Integer()),
  name: Type.String(),
  /** Visible subjects in the group and all its descendants. */
  subjectCount: Type.Integer(),
  childCount: Type.Integer(),
});
export type GroupRow = Static<typeof GroupRowSchema>;

export const GroupCrumbSchema = Type.Object({ id: Type.Integer(), name: Type.String() });

export const groupSubjectList = defineCall({
  name: 'subject.groupSubjectList',
  method: 'GET',
  path: '/api/group/groupSubjectList',
  binaryVariant: true,
  summary: '分组视图：子分组与分组内的应用',
  query: Type.Object({
    /** Absent or 0: the root (top-level groups and subjects without a group). */
    pid: Type.Optional(Type.Integer({ minimum: 0 })),
    ...PagingQuerySchema.properties,
  }),
  response: Type.Object({
    /** Root first, the group itself last (empty at the root). */
    path: Type.Array(GroupCrumbSchema),
    groups: Type.Array(GroupRowSchema),
    /** Subjects directly in the group, paged. */
    content: Type.Array(SubjectRowSchema),
    total: Type.Integer(),
  }),
  permission: 'project:list',
});

export const searchGroupSubjectList = defineCall({
  name: 'subject.searchGroupSubjectList',
  method: 'GET',
  path: '/api/group/searchGroupSubjectList',
  binaryVariant: true,
  summary: '按名称搜索分组与应用',
  query: Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }) }),
  response: Type.Object({
    groups: Type.Array(Type.Object({ ...GroupRowSchema.properties, path: Type.Array(GroupCrumbSchema) })),
    subjects: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), groupId: Nullable(Type.Integer()), path: Type.Array(GroupCrumbSchema) })),
  }),
  permission: 'project:list',
});

// ---- create, details, setup, delete, transfer -------------------------------------------------

export const SubjectCreateSchema = Type.Object({
  name: NameText,
  description: Type.Optional(DescriptionText),
  importance: Type.Optional(ImportanceSchema),
  groupId: Type.Optional(Nullable(Id())),
  subjectType: Type.Optional(Nullable(SubjectTypeText)),
  /** Users added as members besides the creator (who becomes the owner). */
  memberIds: Type.Optional(Type.Array(Id(), { maxItems: 500 })),
  customFields: Type.Optional(CustomFieldsSchema),
});
export type SubjectCreate = Static<typeof SubjectCreateSchema>;

export const create = defineCall({
  name: 'subject.create',
  method: 'POST',
  path: '/api/subject/create',
  binaryVariant: true,
  summary: '新建应用',
  body: SubjectCreateSchema,
  response: Type.Object({ id: Type.Integer(), uuid: Type.String() }),
  permission: 'project:list',
});

export const NOTICE_EVENTS = ['onTaskFinish', 'onTaskFail', 'onNewVulnerability'] as const;

export const NoticeConfigSchema = Type.Object({
  /** Vulnerability levels that trigger a notice. */
  levels: Type.Array(LevelSchema, { maxItems: 5 }),
  /** Users told (members of the subject). */
  userIds: Type.Array(Id(), { maxItems: 500 }),
  onTaskFinish: Type.Boolean(),
  onTaskFail: Type.Boolean(),
  onNewVulnerability: Type.Boolean(),
});
export type NoticeConfig = Static<typeof NoticeConfigSchema>;

export const TRACKER_TYPES = ['jira', 'zentao', 'gitlab'] as const;
export const TrackerTypeSchema = Type.Union([L('jira'), L('zentao'), L('gitlab')]);

/** What the server answers about the defect tracker: never the password itself. */
export const BugConfigSchema = Type.Object({
  enabled: Type.Boolean(),
  type: Nullable(TrackerTypeSchema),
  url: Type.String(),
  projectKey: Type.String(),
  username: Type.String(),
  hasPassword: Type.Boolean(),
});
export type BugConfig = Static<typeof BugConfigSchema>;

export const PRIVATE_SERVICE_KINDS = ['maven', 'npm', 'pypi', 'nuget', 'go', 'docker', 'generic'] as const;
export const PrivateServiceRepoSchema = Type.Object({
  kind: Type.Union([L('maven'), L('npm'), L('pypi'), L('nuget'), L('go'), L('docker'), L('generic')]),
  /** http(s) address of the repository the subject publishes to. */
  url: Type.String({ minLength: 1, maxLength: 1000 }),
  /** Repository name / path inside the service (optional). */
  repository: Type.Optional(Type.String({ maxLength: 200 })),
});
export const PrivateServiceConfigSchema = Type.Object({
  repositories: Type.Array(PrivateServiceRepoSchema, { maxItems: 50 }),
});
export type PrivateServiceConfig = Static<typeof PrivateServiceConfigSchema>;

export const VersionRowSchema = Type.Object({
  id: Type.Integer(),
  subjectId: Type.Integer(),
  name: Type.String(),
  remark: Type.String(),
  /** Projects labelled with this version. */
  projectCount: Type.Integer(),
  createdAt: Type.String(),
});
export type VersionRow = Static<typeof VersionRowSchema>;

export const SubjectDetailSchema = Type.Object({
  ...SubjectRowSchema.properties,
  product: Type.Integer(),
  codeSource: Type.Integer(),
  customFields: CustomFieldsSchema,
  versions: Type.Array(VersionRowSchema),
  settings: Type.Object({
    notice: NoticeConfigSchema,
    bug: BugConfigSchema,
    privateService: PrivateServiceConfigSchema,
  }),
});
export type SubjectDetail = Static<typeof SubjectDetailSchema>;

export const detail = defineCall({
  name: 'subject.detail',
  method: 'GET',
  path: '/api/subject/{id}',
  summary: '应用详情',
  params: IdParams,
  response: SubjectDetailSchema,
});

export const remove = defineCall({
  name: 'subject.remove',
  method: 'DELETE',
  path: '/api/subject/{id}',
  binaryVariant: true,
  summary: '删除应用（连同其项目与结果）',
  params: IdParams,
  response: Type.Null(),
  permission: 'project:list',
});

export const removeBatch = defineCall({
  name: 'subject.removeBatch',
  method: 'DELETE',
  path: '/api/subject/list',
  binaryVariant: true,
  summary: '批量删除应用',
  /** Comma list, as the spec writes `?ids=`. */
  query: Type.Object({ ids: IdCsv(10000, { minLength: 1 }) }),
  response: DeletedSchema,
  permission: 'project:list',
});

export const setup = defineCall({
  name: 'subject.setup',
  method: 'POST',
  path: '/api/subject/setup',
  summary: '应用基本设置',
  body: Type.Object({
    id: Id(),
    name: NameText,
    description: Type.Optional(DescriptionText),
    importance: ImportanceSchema,
    subjectType: Type.Optional(Nullable(SubjectTypeText)),
    groupId: Type.Optional(Nullable(Id())),
    customFields: Type.Optional(CustomFieldsSchema),
  }),
  response: Type.Null(),
  permission: 'project:setup:base',
});

export const transfer = defineCall({
  name: 'subject.transfer',
  method: 'POST',
  path: '/api/subject/transfer',
  summary: '转移应用给其他用户（新负责人）',
  body: Type.Object({ subjectId: Id(), userId: Id() }),
  response: Type.Null(),
  permission: 'project:setup:move',
});

export const updateCustomFields = defineCall({
  name: 'subject.updateCustomFields',
  method: 'POST',
  path: '/api/system/customField/update/customField//subject/{id}',
  summary: '修改应用的自定义字段',
  params: IdParams,
  body: CustomFieldsSchema,
  response: CustomFieldsSchema,
  permission: 'project:setup:base',
});

// ---- members --------------------------------------------------------------------------------

export const UserRefSchema = Type.Object({ userId: Type.Integer(), username: Type.String(), name: Type.String() });
export type UserRef = Static<typeof UserRefSchema>;

export const memberListForAdd = defineCall({
  name: 'subject.memberListForAdd',
  method: 'GET',
  path: '/api/member/listForAdd',
  summary: '可添加为成员的用户',
  query: Type.Object({
    /** Absent: every user (the new-subject dialog, before the subject exists). */
    subjectId: Type.Optional(Id()),
    name: Type.Optional(Type.String({ maxLength: 100 })),
  }),
  response: Type.Array(UserRefSchema),
  permission: 'project:list',
});

export const memberAdd = defineCall({
  name: 'subject.memberAdd',
  method: 'POST',
  path: '/api/subject/member/add',
  summary: '添加成员',
  body: Type.Object({ subjectId: Id(), userIds: Type.Array(Id(), { minItems: 1, maxItems: 500 }) }),
  response: Type.Object({ added: Type.Integer() }),
  permission: 'project:setup:member:list',
});

export const MemberRowSchema = Type.Object({
  ...UserRefSchema.properties,
  /** 1 owner, 2 member. */
  role: Type.Integer(),
  email: Nullable(Type.String()),
  createdAt: Type.String(),
});
export type MemberRow = Static<typeof MemberRowSchema>;

export const memberList = defineCall({
  name: 'subject.memberList',
  method: 'GET',
  path: '/api/subject/{subjectId}/member',
  summary: '成员列表',
  params: SubjectIdParams,
  query: Type.Object({ ...PagingQuerySchema.properties, name: Type.Optional(Type.String({ maxLength: 100 })) }),
  response: PageSchema(MemberRowSchema),
  permission: 'project:setup:member:list',
});

export const memberRemove = defineCall({
  name: 'subject.memberRemove',
  method: 'DELETE',
  path: '/api/subject/{subjectId}/member',
  summary: '移除成员',
  params: SubjectIdParams,
  /** The user ids, comma list, when no body is sent. */
  query: Type.Object({ ids: Type.Optional(IdCsv(10000)) }),
  /** Or the ids in a body; null stands for "no body" (Fastify validates a missing body as null). */
  body: Nullable(Type.Object({ ids: Type.Array(Id(), { minItems: 1, maxItems: 500 }) })),
  response: Type.Object({ removed: Type.Integer() }),
  permission: 'project:setup:member:list',
});

// ---- versions -------------------------------------------------------------------------------

export const versionList = defineCall({
  name: 'subject.versionList',
  method: 'GET',
  path: '/api/version/list',
  summary: '应用的版本',
  query: SubjectIdParams,
  response: Type.Array(VersionRowSchema),
});

const VersionName = Type.String({ maxLength: NAME_MAX_LENGTH * 2 });
const Remark = Type.Optional(Type.String({ maxLength: DESCRIPTION_MAX_LENGTH * 2 }));

export const versionCreate = defineCall({
  name: 'subject.versionCreate',
  method: 'POST',
  path: '/api/version/create',
  summary: '新建版本',
  body: Type.Object({ subjectId: Id(), name: VersionName, remark: Remark }),
  response: VersionRowSchema,
  permission: 'project:setup:version:list',
});

export const versionUpdate = defineCall({
  name: 'subject.versionUpdate',
  method: 'POST',
  path: '/api/version/update',
  summary: '修改版本',
  body: Type.Object({ id: Id(), name: VersionName, remark: Remark }),
  response: VersionRowSchema,
  permission: 'project:setup:version:list',
});

export const versionDelete = defineCall({
  name: 'subject.versionDelete',
  method: 'POST',
  path: '/api/version/delete',
  summary: '删除版本（使用它的项目不再标注版本）',
  body: Type.Object({ id: Id() }),
  response: Type.Object({ detachedProjects: Type.Integer() }),
  permission: 'project:setup:version:list',
});

// ---- notice setup ---------------------------------------------------------------------------

/** A member as the notice setup lists them: with the address the notices go to. */
export const NoticeUserSchema = Type.Object({ ...UserRefSchema.properties, email: Nullable(Type.String()) });

export const noticeUserList = defineCall({
  name: 'subject.noticeUserList',
  method: 'GET',
  path: '/api/subject/vulInform/queryUserList',
  summary: '接收漏洞通知的成员',
  query: SubjectIdParams,
  response: Type.Array(NoticeUserSchema),
  permission: 'project:setup:information',
});

export const noticeCandidates = defineCall({
  name: 'subject.noticeCandidates',
  method: 'GET',
  path: '/api/subject/vulInform/queryHasNoUserList',
  summary: '尚未接收通知的成员',
  query: SubjectIdParams,
  response: Type.Array(NoticeUserSchema),
  permission: 'project:setup:information',
});

export const noticeSave = defineCall({
  name: 'subject.noticeSave',
  method: 'POST',
  path: '/api/subject/vulInform/saveConfig',
  summary: '保存通知设置',
  body: Type.Object({ subjectId: Id(), ...NoticeConfigSchema.properties }),
  response: NoticeConfigSchema,
  permission: 'project:setup:information',
});

export const noticeConfig = defineCall({
  name: 'subject.noticeConfig',
  method: 'GET',
  path: '/api/subject/notice/{id}',
  summary: '通知设置',
  params: IdParams,
  response: NoticeConfigSchema,
  permission: 'project:setup:information',
});

// ---- defect management ----------------------------------------------------------------------

export const enableBug = defineCall({
  name: 'subject.enableBug',
  method: 'PATCH',
  path: '/api/subject/{subjectId}/enableBug',
  summary: '启用或停用缺陷管理',
  params: SubjectIdParams,
  body: Type.Object({ enabled: Type.Boolean() }),
  response: BugConfigSchema,
  permission: 'project:setup:bug',
});

export const BugConfigBodySchema = Type.Object({
  type: TrackerTypeSchema,
  url: Type.String({ minLength: 1, maxLength: 1000 }),
  projectKey: Type.String({ minLength: 1, maxLength: 200 }),
  username: Type.String({ maxLength: 200 }),
  /** Absent on update: keep the stored one. Empty string: clear it. */
  password: Type.Optional(Type.String({ maxLength: 1000 })),
});

export const bugConfigCreate = defineCall({
  name: 'subject.bugConfigCreate',
  method: 'POST',
  path: '/api/subject/{subjectId}/bugManageConfig',
  summary: '保存缺陷管理配置',
  params: SubjectIdParams,
  body: BugConfigBodySchema,
  response: BugConfigSchema,
  permission: 'project:setup:bug',
});

export const bugConfigUpdate = defineCall({
  name: 'subject.bugConfigUpdate',
  method: 'PATCH',
  path: '/api/subject/{subjectId}/bugManageConfig',
  summary: '修改缺陷管理配置',
  params: SubjectIdParams,
  body: BugConfigBodySchema,
  response: BugConfigSchema,
  permission: 'project:setup:bug',
});

// ---- private service config (not in the spec's call list: the screen needs one) --------------

export const privateServiceConfig = defineCall({
  name: 'subject.privateServiceConfig',
  method: 'GET',
  path: '/api/subject/{subjectId}/privateServiceConf',
  summary: '私服配置',
  params: SubjectIdParams,
  response: PrivateServiceConfigSchema,
  // The route table gates the tab with the private-service code: the calls follow it.
  permission: 'repository-security:manager',
});

export const privateServiceSave = defineCall({
  name: 'subject.privateServiceSave',
  method: 'POST',
  path: '/api/subject/{subjectId}/privateServiceConf',
  summary: '保存私服配置',
  params: SubjectIdParams,
  body: PrivateServiceConfigSchema,
  response: PrivateServiceConfigSchema,
  // The route table gates the tab with the private-service code: the calls follow it.
  permission: 'repository-security:manager',
});

// ---- repository sources (per user: addresses and credentials picked in the new-project form) -

export const REPOSITORY_SOURCE_TYPES = [2, 1, 39, 19] as const;

export const RepositorySourceSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  /** getCodeType: 2 Git, 1 SVN, 39 Mercurial, 19 FTP. */
  getCodeType: Type.Integer(),
  url: Type.String(),
  username: Nullable(Type.String()),
  hasPassword: Type.Boolean(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
export type RepositorySource = Static<typeof RepositorySourceSchema>;

export const RepositorySourceBodySchema = Type.Object({
  /** Present: update that source; absent: add one. */
  id: Type.Optional(Id()),
  name: NameText,
  getCodeType: Type.Integer(),
  url: Type.String({ minLength: 1, maxLength: 1000 }),
  username: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  /** Absent on update: keep the stored one. */
  password: Type.Optional(Type.String({ maxLength: 1000 })),
});

export const repositorySourceList = defineCall({
  name: 'subject.repositorySourceList',
  method: 'GET',
  path: '/api/subject/repositorySource/list',
  summary: '我的仓库源',
  query: Type.Object({ getCodeType: Type.Optional(Type.Integer()) }),
  response: Type.Array(RepositorySourceSchema),
  permission: 'project:list',
});

export const repositorySourceCheck = defineCall({
  name: 'subject.repositorySourceCheck',
  method: 'POST',
  path: '/api/subject/repositorySource/check',
  summary: '检查仓库源地址格式（连通性在发起任务时检查）',
  body: Type.Object({ getCodeType: Type.Integer(), url: Type.String({ minLength: 1, maxLength: 1000 }) }),
  response: Type.Object({ valid: Type.Boolean(), normalizedUrl: Type.String() }),
  permission: 'project:list',
});

export const repositorySourceSave = defineCall({
  name: 'subject.repositorySourceSave',
  method: 'PUT',
  path: '/api/subject/repositorySource',
  summary: '新增或修改仓库源',
  body: RepositorySourceBodySchema,
  response: RepositorySourceSchema,
  permission: 'project:list',
});

export const repositorySourceDelete = defineCall({
  name: 'subject.repositorySourceDelete',
  method: 'DELETE',
  path: '/api/subject/repositorySource',
  summary: '删除仓库源',
  query: Type.Object({ ids: IdCsv(10000, { minLength: 1 }) }),
  response: DeletedSchema,
  permission: 'project:list',
});

// ---- repository facts of the subject's projects ----------------------------------------------

export const gitInfoList = defineCall({
  name: 'subject.gitInfoList',
  method: 'GET',
  path: '/api/subject/queryGitInfoList/{id}',
  binaryVariant: true,
  summary: '应用下项目使用的 Git/SVN 仓库',
  params: IdParams,
  response: Type.Array(Type.Object({ getCodeType: Type.Integer(), svnGitUri: Type.String(), gitBranchName: Nullable(Type.String()), svnGitUserName: Nullable(Type.String()), projectCount: Type.Integer() })),
});

export const ftpInfoList = defineCall({
  name: 'subject.ftpInfoList',
  method: 'GET',
  path: '/api/subject/queryFtpInfoList/{id}',
  binaryVariant: true,
  summary: '应用下项目使用的 FTP 地址',
  params: IdParams,
  response: Type.Array(Type.Object({ getCodeType: Type.Integer(), ftpIp: Type.String(), ftpFilePath: Nullable(Type.String()), ftpUserName: Nullable(Type.String()), projectCount: Type.Integer() })),
});

export const groupList = defineCall({
  name: 'subject.groupList',
  method: 'GET',
  path: '/api/subject/queryGroupList/{id}',
  summary: '应用下项目的仓库分组（主机与命名空间）',
  params: IdParams,
  response: Type.Array(Type.Object({ host: Type.String(), namespace: Type.String(), projectCount: Type.Integer() })),
});

export const branchList = defineCall({
  name: 'subject.branchList',
  method: 'GET',
  path: '/api/subject/queryBranchList/{id}',
  summary: '应用下项目分析的分支',
  params: IdParams,
  response: Type.Array(Type.Object({ svnGitUri: Type.String(), gitBranchName: Type.String(), projectCount: Type.Integer() })),
});

export const subjectCalls = {
  list, allList, groupSubjectList, searchGroupSubjectList, create, detail, remove, removeBatch, setup, transfer,
  updateCustomFields, memberListForAdd, memberAdd, memberList, memberRemove,
  versionList, versionCreate, versionUpdate, versionDelete,
  noticeUserList, noticeCandidates, noticeSave, noticeConfig,
  enableBug, bugConfigCreate, bugConfigUpdate, privateServiceConfig, privateServiceSave,
  repositorySourceList, repositorySourceCheck, repositorySourceSave, repositorySourceDelete,
  gitInfoList, ftpInfoList, groupList, branchList,
};
