// Projects and their analyses (spec doc 1 §7 "Tasks", issue 6): the new-project form and launch
// (POST/PUT /api/analysis), the task list, progress, stop, delete, batch launch and re-analysis,
// batch project import, timing, and the administrators' task queue (doc 2 §7 "System settings").
// A project is one analysed source; each analysis of it is a run (the spec's task/batch).
import { Type, type Static, type TSchema } from 'typebox';
import { defineCall } from './define.ts';
import {
  DeletedSchema, Id, IdCsv, IdsQuery, Nullable, pagedList, PageSchema, PagingQuerySchema, ProjectContextFields, ProjectRefFields,
} from './kit.ts';
import { CA_PEM_MAX_LENGTH, PROJECT_NAME_MAX_LENGTH } from '../validation.ts';
import { LevelCountsSchema } from './vulnerability.ts';
import { KbCoverageSchema } from './kb-status.ts';
import { RunImageSchema } from './image.ts';

const L = <T extends string | number>(v: T) => Type.Literal(v);
const Opt = <T extends TSchema>(t: T) => Type.Optional(t);
const Str = (max: number) => Type.String({ maxLength: max });
/** `{projectId}` of a path. */
const ProjectParams = Type.Object({ projectId: Id() });
/** `?checkId=` of the queue calls: a run id. */
const CheckIdQuery = Type.Object({ checkId: Id() });

/** TASK_STATUS_LABEL: -1 重新发送 (re-queued after an interrupted worker), 0 排队中, 1 分析中, 2 分析成功, 3 分析失败, 4 已暂停. */
export const TaskStatusSchema = Type.Union([L(-1), L(0), L(1), L(2), L(3), L(4)]);
/** The stages an analysis reports progress in, in order. */
export const RUN_STAGES = ['queued', 'preparing', 'scanning', 'licenses', 'matching', 'saving', 'done'] as const;
export const RunStageSchema = Type.Union([L('queued'), L('preparing'), L('scanning'), L('licenses'), L('matching'), L('saving'), L('done')]);
export type RunStage = (typeof RUN_STAGES)[number];
export const RUN_STAGE_LABEL: Record<RunStage, string> = {
  queued: '排队中',
  preparing: '准备输入',
  scanning: '识别组件',
  licenses: '识别许可证与版权',
  matching: '匹配漏洞',
  saving: '保存结果',
  done: '已完成',
};

/** The timing fields (spec doc 1 §3 "Timing"), shared by the project form and batch timing. */
const TIMING_FIELDS = {
  cronType: Opt(Type.Integer({ minimum: 1, maximum: 6 })),
  /** cronType 2: day of week 1..7 (7 Sunday). */
  week: Opt(Type.Integer({ minimum: 1, maximum: 7 })),
  /** cronType 1: day of month 1..31. */
  month: Opt(Type.Integer({ minimum: 1, maximum: 31 })),
  /** HH:mm */
  time: Opt(Type.String({ pattern: '^([01]\\d|2[0-3]):[0-5]\\d$' })),
  /** cronType 4, 5, 6: every N months / weeks / days. */
  interval: Opt(Type.Integer({ minimum: 1, maximum: 366 })),
  /** cronType 4: 1 by day of month (`days`), 2 by nth weekday (`weekFlag` + weekDays[0]). */
  weekFlag: Opt(Type.Integer({ minimum: 0, maximum: 5 })),
  days: Opt(Type.Array(Type.Integer({ minimum: 1, maximum: 31 }), { maxItems: 31 })),
  weekDays: Opt(Type.Array(Type.Integer({ minimum: 1, maximum: 7 }), { maxItems: 7 })),
};

/**
 * Every field of the new-project form (spec doc 1 §3 "Subject and project/task fields"), flat as
 * the spec writes them. Which ones apply depends on getCodeType (contract/enums.ts extraFieldsOf).
 * Passwords are write-only: answers say `hasPassword` instead.
 */
export const ProjectFormSchema = Type.Object({
  subjectId: Id(),
  versionId: Opt(Nullable(Id())),
  projectName: Type.String({ minLength: 1, maxLength: PROJECT_NAME_MAX_LENGTH }),
  getCodeType: Type.Integer(),
  /** Comma list of analysis modes (1 dependency analysis, 4 licence text, 7 copyright, ...). */
  analysisModes: Opt(Str(50)),
  projectTags: Opt(Str(500)),
  retentionAudit: Opt(Type.Boolean()),
  /** Local upload types: the completed upload (POST /api/upload) that holds the input. */
  uploadId: Opt(Str(36)),
  /** The product's own licence (SPDX expression) for licence conflicts; empty: read from its manifest. */
  outboundLicense: Opt(Str(300)),
  // ---- remote sources (stored; fetched by a later issue)
  codeName: Opt(Str(200)),
  svnGitUri: Opt(Str(1000)),
  gitBranchName: Opt(Str(200)),
  svnGitUserName: Opt(Str(200)),
  svnGitPwd: Opt(Str(500)),
  /** 1 key, 2 password. */
  sshType: Opt(Type.Integer({ minimum: 1, maximum: 2 })),
  sshId: Opt(Nullable(Type.Integer())),
  token: Opt(Str(500)),
  imageNameTag: Opt(Str(500)),
  imageUsername: Opt(Str(200)),
  imagePassword: Opt(Str(500)),
  // Cairn's registry options (contract/enums.ts REGISTRY_OPTION_FIELDS; container registries only)
  /** PEM text of the CA the registry's certificate is checked against (besides the system's); empty: none. */
  imageCaPem: Opt(Str(CA_PEM_MAX_LENGTH)),
  /** 允许 HTTP: speak plain HTTP to the registry. */
  imageInsecure: Opt(Type.Boolean()),
  /** `os/arch[/variant]` pulled from a multi-platform image; empty: linux/amd64. */
  imagePlatform: Opt(Str(100)),
  artifactoryAuthType: Opt(Type.Integer()),
  fireFlyIp: Opt(Str(200)),
  fireFlyPort: Opt(Str(10)),
  fireFlyProj: Opt(Str(200)),
  fireFlyLabel: Opt(Str(200)),
  fireFlyBranchName: Opt(Str(200)),
  fireFlyUserName: Opt(Str(200)),
  fireFlyPassWord: Opt(Str(500)),
  fireFlySsl: Opt(Type.Boolean()),
  ftpIp: Opt(Str(200)),
  ftpFilePath: Opt(Str(1000)),
  ftpUserName: Opt(Str(200)),
  ftpPassWord: Opt(Str(500)),
  ftpSsl: Opt(Type.Boolean()),
  stream: Opt(Str(200)),
  pvob: Opt(Str(200)),
  vob: Opt(Str(200)),
  incrementalEnable: Opt(Type.Boolean()),
  scanAdvancedOption: Opt(Str(200)),
  infoleakDetectMode: Opt(Type.Integer()),
  // ---- timing (spec doc 1 §3 "Timing"; disabled for local-upload types)
  enableTiming: Opt(Type.Boolean()),
  ...TIMING_FIELDS,
});
export type ProjectForm = Static<typeof ProjectFormSchema>;

export const LaunchResultSchema = Type.Object({
  projectId: Type.Integer(),
  /** The run just queued; null when the project was saved without launching. */
  taskId: Nullable(Type.Integer()),
});

/** Message of a successful launch (spec: the client shows 任务发起成功！ only on SUCCESS). */
export const LAUNCH_SUCCESS = 'SUCCESS';

/**
 * Whether a new project is launched as well as saved (default true). `false` only saves it (仅保存项目,
 * the way a source type the platform cannot analyse yet is kept): the answer's taskId is null.
 * With a launch, a refused launch (a source type not analysed yet, no upload, …) saves nothing.
 */
const LaunchFlag = { launch: Opt(Type.Boolean()) };

export const launch = defineCall({
  name: 'task.launch',
  method: 'POST',
  path: '/api/analysis',
  summary: '新建项目并发起分析（成功时 message 为 SUCCESS；launch 为 false 时仅保存项目；发起被拒绝时不保存任何内容）',
  body: Type.Object({ ...ProjectFormSchema.properties, ...LaunchFlag }),
  response: LaunchResultSchema,
  permission: 'analysis:task:list',
});

export const relaunch = defineCall({
  name: 'task.relaunch',
  method: 'PUT',
  path: '/api/analysis',
  summary: '修改项目设置并重新发起分析（taskId 为项目 id；成功时 message 为 SUCCESS；发起被拒绝时设置不变）',
  body: Type.Intersect([Type.Partial(ProjectFormSchema), Type.Object({ taskId: Id() })]),
  response: LaunchResultSchema,
  permission: 'analysis:task:list',
});

export const updateProject = defineCall({
  name: 'task.updateProject',
  method: 'PATCH',
  path: '/api/project/{projectId}',
  summary: '修改项目设置（不发起分析）',
  params: ProjectParams,
  body: Type.Partial(ProjectFormSchema),
  response: Type.Object({ projectId: Type.Integer() }),
  permission: 'analysis:task:list',
});

export const TimingSchema = Type.Object({ enableTiming: Type.Boolean(), ...TIMING_FIELDS });
export type Timing = Static<typeof TimingSchema>;

/** A stored project as the edit form reads it: the form's fields, passwords replaced by `has…` flags. */
export const StoredProjectSchema = Type.Object({
  projectId: Type.Integer(),
  subjectId: Type.Integer(),
  versionId: Nullable(Type.Integer()),
  projectName: Type.String(),
  getCodeType: Type.Integer(),
  analysisModes: Type.String(),
  projectTags: Type.String(),
  retentionAudit: Type.Boolean(),
  outboundLicense: Nullable(Type.String()),
  /** Type-specific fields (svnGitUri, gitBranchName, imageNameTag, ...) and hasSvnGitPwd-style flags. */
  source: Type.Record(Type.String(), Type.Unknown()),
  timing: TimingSchema,
  nextRunAt: Nullable(Type.String()),
  /** The input of a local-upload project. */
  upload: Nullable(Type.Object({ uploadId: Type.String(), fileName: Type.String(), size: Type.Integer() })),
});

export const projectForm = defineCall({
  name: 'task.projectForm',
  method: 'GET',
  path: '/api/project/{projectId}',
  summary: '读取项目设置（编辑表单用；密码不返回）',
  params: ProjectParams,
  response: StoredProjectSchema,
  permission: 'analysis:task:list',
});

/**
 * The 校验 of a container registry project's form: the image reference, credentials and options
 * as the form holds them. `projectId` (editing): an empty password uses the stored one.
 */
export const ImageCheckBodySchema = Type.Object({
  getCodeType: Type.Integer(),
  projectId: Opt(Id()),
  imageNameTag: Type.String({ minLength: 1, maxLength: 500 }),
  imageUsername: Opt(Str(200)),
  imagePassword: Opt(Str(500)),
  imageCaPem: Opt(Str(CA_PEM_MAX_LENGTH)),
  imageInsecure: Opt(Type.Boolean()),
  imagePlatform: Opt(Str(100)),
});

export const imageCheck = defineCall({
  name: 'task.imageCheck',
  method: 'POST',
  path: '/api/analysis/imageCheck',
  summary: '校验镜像仓库：镜像地址、凭据与连接选项是否可用（答复清单摘要与可选平台；失败时 message 为原因）',
  body: ImageCheckBodySchema,
  response: Type.Object({
    /** The reference as it will be pulled (registry, repository, tag or digest). */
    reference: Type.String(),
    manifestDigest: Type.String(),
    /** Every platform the image offers (one for a single-platform image). */
    platforms: Type.Array(Type.String()),
    /** The platform a run pulls (the form's, else linux/amd64, else the image's only one); null: the image lacks linux/amd64, one must be chosen. */
    platform: Nullable(Type.String()),
  }),
  permission: 'analysis:task:list',
});

/**
 * The platforms of an uploaded image (本地镜像文件), for the form's 平台 select: read from the
 * upload's index and manifests only. `projectId` (editing): the project's stored upload may be
 * read by whoever may see the project; otherwise only its uploader (or a domain admin) may.
 */
export const imageUploadPlatforms = defineCall({
  name: 'task.imageUploadPlatforms',
  method: 'POST',
  path: '/api/analysis/imageUploadPlatforms',
  summary: '读取上传的镜像文件包含的平台（只读索引与清单；不是镜像时 message 为原因）',
  body: Type.Object({ getCodeType: Type.Integer(), uploadId: Type.String({ minLength: 1, maxLength: 36 }), projectId: Opt(Id()) }),
  response: Type.Object({
    /** Every platform the image offers (one for a single-platform image). */
    platforms: Type.Array(Type.String()),
    /** The platform analysed when the form names none (linux/amd64, else the only one); null: one must be chosen. */
    platform: Nullable(Type.String()),
  }),
  permission: 'analysis:task:list',
});

/** A run's result counts, kept on the run when it finishes. */
export const RunSummarySchema = Type.Object({
  files: Opt(Type.Integer()),
  components: Opt(Type.Integer()),
  directComponents: Opt(Type.Integer()),
  vulnerableComponents: Opt(Type.Integer()),
  vulnerabilities: Opt(Type.Integer()),
  /** Findings by vulnerability level. */
  byLevel: Opt(LevelCountsSchema),
  /** Components by risk level 1..64. */
  byRisk: Opt(Type.Record(Type.String(), Type.Integer())),
  licenses: Opt(Type.Integer()),
  /** Distinct licences by the licence's level. */
  licensesByLevel: Opt(LevelCountsSchema),
  /** Components marked 误报, left out of every count. */
  falsePositiveComponents: Opt(Type.Integer()),
  copyrights: Opt(Type.Integer()),
  /** Sensitive information found (mode 9 runs only; absent when it was not looked for). */
  leaks: Opt(Type.Integer()),
  problems: Opt(Type.Integer()),
  ms: Opt(Type.Integer()),
  /** What the knowledge base covered when the run was analysed (absent on runs analysed before it was recorded). */
  coverage: Opt(KbCoverageSchema),
  /** The container image analysed (image runs only). */
  image: Opt(RunImageSchema),
});
export type RunSummary = Static<typeof RunSummarySchema>;

/** A project with its latest run: one row of the task list. */
export const TaskRowSchema = Type.Object({
  ...ProjectContextFields,
  analysisModes: Type.String(),
  projectTags: Type.String(),
  /** Latest run; null before the first launch. */
  taskId: Nullable(Type.Integer()),
  seq: Nullable(Type.Integer()),
  status: Nullable(TaskStatusSchema),
  stage: Nullable(RunStageSchema),
  progress: Type.Integer(),
  message: Type.String(),
  summary: RunSummarySchema,
  /** Latest succeeded run (the results the details screen shows); may be older than taskId. */
  resultTaskId: Nullable(Type.Integer()),
  /**
   * Summary of the resultTaskId run — the counts and knowledge-base coverage of the results the row
   * shows, which `summary` (the latest run's, perhaps failed or still running) may not have; {} without one.
   */
  resultSummary: RunSummarySchema,
  startedAt: Nullable(Type.String()),
  finishedAt: Nullable(Type.String()),
  enableTiming: Type.Boolean(),
  nextRunAt: Nullable(Type.String()),
  retentionAudit: Type.Boolean(),
  creatorName: Nullable(Type.String()),
  createdAt: Type.String(),
});
export type TaskRow = Static<typeof TaskRowSchema>;

export const TaskFilterSchema = Type.Object({
  subjectId: Opt(Type.Integer()),
  /** Spec common body: only one scope is kept — versionIds, else subjectIds, else groupIds. */
  versionIds: Opt(Type.Array(Type.Integer())),
  subjectIds: Opt(Type.Array(Type.Integer())),
  groupIds: Opt(Type.Array(Type.Integer())),
  keyword: Opt(Str(400)),
  statuses: Opt(Type.Array(TaskStatusSchema)),
  /** true: only projects never analysed. */
  neverRun: Opt(Type.Boolean()),
  getCodeTypes: Opt(Type.Array(Type.Integer())),
});

export const TaskListQuerySchema = Type.Intersect([
  PagingQuerySchema,
  Type.Object({ sort: Opt(Type.String({ pattern: '^(projectName|createdAt|finishedAt|status)(,(asc|desc))?$' })) }),
]);

export const taskList = defineCall({
  name: 'task.list',
  method: 'POST',
  path: '/api/project-task-view/list',
  binaryVariant: true,
  summary: '任务列表：项目及其最近一次分析',
  query: TaskListQuerySchema,
  body: TaskFilterSchema,
  response: PageSchema(TaskRowSchema),
  permission: 'analysis:task:list',
});

export const projectList = defineCall({
  name: 'task.projectList',
  method: 'POST',
  path: '/api/project/list',
  summary: '应用下的全部项目（选择器、对比用）',
  body: Type.Object({ subjectId: Id() }),
  response: Type.Array(Type.Object({
    ...ProjectRefFields,
    getCodeType: Type.Integer(),
    status: Nullable(TaskStatusSchema),
    resultTaskId: Nullable(Type.Integer()),
  })),
  permission: 'analysis:task:list',
});

/** Where a project's latest run is, for the progress poll. */
export const ProgressSchema = Type.Object({
  projectId: Type.Integer(),
  taskId: Nullable(Type.Integer()),
  status: Nullable(TaskStatusSchema),
  stage: Nullable(RunStageSchema),
  stageLabel: Type.String(),
  /** 0..100 */
  progress: Type.Integer(),
  message: Type.String(),
  /** Place in the queue (1 = next), when queued. */
  queuePosition: Nullable(Type.Integer()),
  startedAt: Nullable(Type.String()),
  finishedAt: Nullable(Type.String()),
});
export type Progress = Static<typeof ProgressSchema>;

export const progress = defineCall({
  name: 'task.progress',
  method: 'GET',
  path: '/api/project-task-view/progress',
  summary: '分析进度（projectIds 为逗号分隔的项目 id）',
  query: Type.Object({ projectIds: IdCsv(2000) }),
  response: Type.Array(ProgressSchema),
  permission: 'analysis:task:list',
});

export const deleteProjects = defineCall({
  name: 'task.deleteProjects',
  method: 'DELETE',
  path: '/api/project-task-view/projects',
  summary: '删除项目及其全部分析结果',
  query: IdsQuery('projectIds'),
  response: DeletedSchema,
  permission: 'analysis:task:list',
});

export const stop = defineCall({
  name: 'task.stop',
  method: 'PATCH',
  path: '/api/code/notcheck/{projectId}',
  summary: '停止项目排队中或分析中的任务',
  params: ProjectParams,
  response: Type.Object({ projectId: Type.Integer(), taskId: Nullable(Type.Integer()) }),
  permission: 'analysis:task:list',
});

/**
 * The project count the new-project form shows (已创建 N 个项目). A domain administrator reads the
 * platform's: every project. Anyone else reads only the projects of the 应用 in their own data
 * scope (owned or joined), never the platform-wide figure: what others create does not change it.
 * This platform sets no project quota, so `limit` and `available` are null for everyone (were
 * there one, an ordinary user would be told only whether room is left, not the platform's count).
 */
export const availableNum = defineCall({
  name: 'task.availableNum',
  method: 'GET',
  path: '/api/project/available-num',
  summary: '项目数量：已用与上限（null 为不限）；管理员为全平台，其他用户仅为自己数据范围内的应用',
  response: Type.Object({ used: Type.Integer(), limit: Nullable(Type.Integer()), available: Nullable(Type.Integer()) }),
  permission: 'analysis:task:list',
});

/**
 * Whether an analysis can be launched now, and where the queue stands (the task list's 分析中 N ·
 * 排队 M · 并发上限 C). `running` and `queued` count, for a domain administrator, every run on
 * the platform; for anyone else only the runs of projects in their own data scope, so other
 * users' work is not disclosed. `concurrency` is the platform's setting, the same for everyone.
 * (A queued run's own place in line is the progress call's `queuePosition`.)
 */
export const ifCanCheck = defineCall({
  name: 'task.ifCanCheck',
  method: 'GET',
  path: '/api/project/ifCanCheck',
  summary: '当前能否发起分析，以及队列情况（管理员为全平台，其他用户仅为自己数据范围内的任务）',
  response: Type.Object({ canCheck: Type.Boolean(), running: Type.Integer(), queued: Type.Integer(), concurrency: Type.Integer(), reason: Nullable(Type.String()) }),
  permission: 'analysis:task:list',
});

/**
 * What a batch did. A failure names its project by name only when the caller may see it: an id
 * that does not exist and one outside the caller's data scope both fail as `#<id>` with
 * 项目不存在或无权访问, counted alike. An import row that failed has no projectId (nothing was created).
 */
export const BatchResultSchema = Type.Object({
  successNum: Type.Integer(),
  failNum: Type.Integer(),
  failures: Type.Array(Type.Object({ projectId: Nullable(Type.Integer()), projectName: Type.String(), message: Type.String() })),
});
export type BatchResult = Static<typeof BatchResultSchema>;

const ProjectIdsBody = Type.Object({ projectIds: Type.Array(Id(), { minItems: 1, maxItems: 1000 }) });

export const batchCheck = defineCall({
  name: 'task.batchCheck',
  method: 'POST',
  path: '/api/project/batch/check',
  summary: '批量发起分析',
  body: ProjectIdsBody,
  response: BatchResultSchema,
  permission: 'analysis:task:list',
});

export const batchRecheck = defineCall({
  name: 'task.batchRecheck',
  method: 'POST',
  path: '/api/project/batch/recheck',
  summary: '批量重新分析',
  body: ProjectIdsBody,
  response: BatchResultSchema,
  permission: 'analysis:task:list',
});

export const batchRecheckSetup = defineCall({
  name: 'task.batchRecheckSetup',
  method: 'POST',
  path: '/api/project/batch/recheck/setup',
  summary: '批量修改分析设置并重新分析',
  body: Type.Intersect([ProjectIdsBody, Type.Object({ analysisModes: Opt(Str(50)), retentionAudit: Opt(Type.Boolean()) })]),
  response: BatchResultSchema,
  permission: 'analysis:task:list',
});

export const batchFtpCheck = defineCall({
  name: 'task.batchFtpCheck',
  method: 'POST',
  path: '/api/project/batch/ftp/check',
  summary: '批量发起 FTP 来源的分析',
  body: ProjectIdsBody,
  response: BatchResultSchema,
  permission: 'analysis:task:list',
});

export const batchUpdateUser = defineCall({
  name: 'task.batchUpdateUser',
  method: 'POST',
  path: '/api/project/batch/update/user',
  summary: '批量修改项目负责人',
  body: Type.Intersect([ProjectIdsBody, Type.Object({ userId: Id() })]),
  response: BatchResultSchema,
  permission: 'analysis:task:list',
});

export const batchRepoBranch = defineCall({
  name: 'task.batchRepoBranch',
  method: 'POST',
  path: '/api/project/batch/repo-branch',
  summary: '批量修改代码仓库分支',
  body: Type.Intersect([ProjectIdsBody, Type.Object({ gitBranchName: Type.String({ minLength: 1, maxLength: 200 }) })]),
  response: BatchResultSchema,
  permission: 'analysis:task:list',
});


export const batchCron = defineCall({
  name: 'task.batchCron',
  method: 'PATCH',
  path: '/api/project/batch/cron',
  summary: '批量设置定时分析',
  body: Type.Intersect([ProjectIdsBody, TimingSchema]),
  response: BatchResultSchema,
  permission: 'analysis:task:list',
});

/** One row of the batch project import: a project to create in the subject (launched too unless `launch` is false). */
export const ImportRowSchema = Type.Intersect([
  Type.Omit(ProjectFormSchema, ['subjectId']),
  Type.Object(LaunchFlag),
]);

export const checkAndCreateProject = defineCall({
  name: 'task.checkAndCreateProject',
  method: 'POST',
  path: '/api/project/batch/checkAndCreateProject',
  binaryVariant: true,
  summary: '批量导入项目（逐行校验并创建，可同时发起分析；发起被拒绝的行不创建）',
  body: Type.Object({ subjectId: Id(), projects: Type.Array(ImportRowSchema, { minItems: 1, maxItems: 500 }) }),
  response: BatchResultSchema,
  permission: 'analysis:task:list',
});

export const ftpListDir = defineCall({
  name: 'task.ftpListDir',
  method: 'POST',
  path: '/api/subject/ftp/list/dir',
  binaryVariant: true,
  summary: '列出 FTP 目录',
  body: Type.Object({ ftpIp: Str(200), ftpFilePath: Opt(Str(1000)), ftpUserName: Opt(Str(200)), ftpPassWord: Opt(Str(500)), ftpSsl: Opt(Type.Boolean()) }),
  response: Type.Array(Type.Object({ name: Type.String(), isDir: Type.Boolean(), size: Type.Integer() })),
  permission: 'analysis:task:list',
});

// ---- administrators' task queue (doc 2 §7: GET /api/task-queue/list, state, top, delete)

export const QueueRowSchema = Type.Object({
  /** The run id (the spec's checkId). */
  checkId: Type.Integer(),
  ...ProjectRefFields,
  subjectName: Type.String(),
  seq: Type.Integer(),
  status: TaskStatusSchema,
  stage: RunStageSchema,
  progress: Type.Integer(),
  trigger: Type.String(),
  worker: Nullable(Type.String()),
  queuedAt: Type.String(),
  startedAt: Nullable(Type.String()),
  creatorName: Nullable(Type.String()),
});

export const queueList = defineCall({
  name: 'task.queueList',
  method: 'GET',
  path: '/api/task-queue/list',
  summary: '任务队列：排队中、分析中和已暂停的任务',
  ...pagedList(QueueRowSchema),
  permission: 'setup:queue:task',
});

export const queueState = defineCall({
  name: 'task.queueState',
  method: 'POST',
  path: '/api/task-queue/state',
  summary: '暂停（option 1）或恢复（option 2）任务',
  query: Type.Object({ ...CheckIdQuery.properties, option: Type.Union([L(1), L(2)]) }),
  response: Type.Object({ checkId: Type.Integer(), status: TaskStatusSchema }),
  permission: 'setup:queue:task',
});

export const queueTop = defineCall({
  name: 'task.queueTop',
  method: 'POST',
  path: '/api/task-queue/top',
  summary: '把排队中的任务移到队首',
  query: CheckIdQuery,
  response: Type.Object({ checkId: Type.Integer() }),
  permission: 'setup:queue:task',
});

export const queueDelete = defineCall({
  name: 'task.queueDelete',
  method: 'DELETE',
  path: '/api/task-queue',
  summary: '从队列中移除任务（排队中或已暂停的任务结束为失败）',
  query: CheckIdQuery,
  response: Type.Object({ checkId: Type.Integer() }),
  permission: 'setup:queue:task',
});

export const taskCalls = {
  launch, relaunch, updateProject, projectForm, taskList, projectList, progress, deleteProjects, stop, availableNum, ifCanCheck,
  batchCheck, batchRecheck, batchRecheckSetup, batchFtpCheck, batchUpdateUser, batchRepoBranch, batchCron,
  checkAndCreateProject, ftpListDir, imageCheck, imageUploadPlatforms, queueList, queueState, queueTop, queueDelete,
};
