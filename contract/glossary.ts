// The product's nouns: one concept, one word in the interface, one in the code, one table (design
// §9). Each entry gives the UI word (zh-CN, the preferred one first), the spec's word (documents 1
// and 2 in spec/), the names the code uses, the tables that hold it and what it means. When a
// screen needs a new noun, add it here first. README.md "Glossary" shows the main rows.
//
// Watch the spec's own words: it calls a subject's list "projectList" (/project/projectList,
// 项目列表) and a project "task" (/project/taskList, 任务列表), while its `taskId` is one analysis
// of a project, a run. The code keeps the spec's paths and field names and uses subject, project
// and run everywhere else.

export interface GlossaryEntry {
  /** Words the interface shows (zh-CN), the preferred one first. */
  ui: readonly string[];
  /** The spec's word(s) for it, with the field names it uses. */
  spec: string;
  /** Names in the code: the noun, its ids and fields, its types and tables of codes. */
  code: readonly string[];
  /** Database tables (or `table.column`) holding it; empty when it is not stored. */
  tables: readonly string[];
  /** What it is, in one line. */
  meaning: string;
}

export const GLOSSARY = {
  subject: {
    ui: ['应用'],
    spec: 'subject (application); its list is the spec\'s projectList (项目列表)',
    code: ['subject', 'subjectId', 'SubjectRow', 'contract/api/subject.ts'],
    tables: ['subjects'],
    meaning: 'What users create and govern: a product or system, with its members, versions, settings and projects.',
  },
  project: {
    ui: ['项目'],
    spec: 'project, also "task" (an analysis project; taskList, 任务列表, lists them); projectId, projectName',
    code: ['project', 'projectId', 'ProjectForm', 'TaskRow'],
    tables: ['projects'],
    meaning: 'One analysed source of a subject (an upload, a repository, an image, …) with its analysis settings; analysed once per run.',
  },
  run: {
    ui: ['分析', '任务', '检测记录', '检测批次'],
    spec: 'task / batch: one analysis of a project; its id is the spec\'s taskId (checkId in the task queue), its number in the project seq',
    code: ['run', 'taskId', 'RunRow', 'seq', 'TASK_STATUS'],
    tables: ['runs'],
    meaning: 'One analysis of a project: queued, analysed, then succeeded or failed; every result row belongs to exactly one run.',
  },
  component: {
    ui: ['组件'],
    spec: 'component, also module (moduleId); componentType',
    code: ['component', 'purl', 'componentId', 'ComponentRow'],
    tables: ['run_components'],
    meaning: 'A third-party package found by a run, named by its purl (type, name, version), with its risk level.',
  },
  vulnerability: {
    ui: ['漏洞'],
    spec: 'vulnerability, also bug (/bug screens); identify, cve, cnnvd',
    code: ['vulnerability', 'advisory', 'finding', 'FindingRow', 'VulnerabilityRow'],
    tables: ['kb_advisories', 'run_vulnerabilities'],
    meaning: 'A known flaw from the knowledge base (an advisory); in a run, a finding is one vulnerability of one component.',
  },
  license: {
    ui: ['许可证'],
    spec: 'licence (license in paths), protocol in the knowledge-base settings',
    code: ['license', 'spdxId', 'LicenseRow', 'LicenseUsageRow'],
    tables: ['licenses', 'run_licenses'],
    meaning: 'An SPDX licence with its risk level from the licence knowledge base; in a run, the licences recognised in it.',
  },
  outboundLicense: {
    ui: ['出站许可证'],
    spec: 'none: the reference of the spec\'s licence conflicts (ours)',
    code: ['outboundLicense'],
    tables: ['projects.outbound_license', 'runs.outbound_license', 'runs.outbound_source', 'runs.outbound_file'],
    meaning: 'The SPDX expression the project itself is distributed under; the licence-conflict tab checks component licences against it. The project\'s setting, else what the root project\'s manifests (else its root licence file) declare (server/engine/project-license.ts).',
  },
  verdictSource: {
    ui: ['依据'],
    spec: 'none (ours, issue 15)',
    code: ['source', 'VerdictSource', 'VERDICT_SOURCE_LABEL', 'resources/osadl'],
    tables: [],
    meaning: 'Who decided a licence-conflict verdict: the OSADL compatibility matrix (OSADL 兼容性矩阵) for the pairs it decides, else Cairn\'s own rules (Cairn 规则). Computed, not stored.',
  },
  licenseKind: {
    ui: ['识别方式', '全文', '声明头', '引用', 'SPDX 标签', '包元数据声明'],
    spec: 'none (ours, issue 15): the spec\'s licence list says only that licences are recognised',
    code: ['source', 'kinds', 'LicenseSourceSchema', 'LICENSE_KIND_LABEL', 'LICENSE_KINDS'],
    tables: ['run_licenses.source'],
    meaning: 'How a licence was recognised: its full text (text), a licence notice or file header (header), a reference by name or link (reference), an SPDX-License-Identifier tag (tag), or a package manifest\'s licence field (declared).',
  },
  licenseConfidence: {
    ui: ['可信度', '最低可信度', '识别依据'],
    spec: 'none (ours, issue 15)',
    code: ['score', 'minScore', 'maxScore', 'evidence', 'scoreOf'],
    tables: ['run_licenses.score', 'run_licenses.evidence'],
    meaning: 'How sure a licence finding is, 0–100: the similarity of a text or header to the standard one, a fixed value for a reference, 100 for an SPDX tag and a package\'s declaration (stored 0–1). Its 识别依据 (evidence) are the file\'s own lines that decided it.',
  },
  modifiedLicense: {
    ui: ['修改过的许可证文本', '最接近的标准许可证'],
    spec: 'none (ours, issue 15)',
    code: ['LicenseRef-Cairn-modified-<id>', 'nearest'],
    tables: ['run_licenses.nearest'],
    meaning: 'A licence text that is a standard one with changes: recognised as LicenseRef-Cairn-modified-<id>, with the standard licence it is nearest to named beside it.',
  },
  conflictVerdict: {
    ui: ['兼容', '不兼容', '需核查依赖方式', '未知'],
    spec: 'none: the spec\'s licence conflicts give no verdict codes (ours, issues 6 and 15)',
    code: ['verdict', 'ConflictVerdictSchema', 'CONFLICT_VERDICT_LABEL'],
    tables: [],
    meaning: 'A component licence against the outbound licence: compatible, incompatible, check (OSADL\'s "Check dependency": it depends on how the component is combined with the project — the explanation says what to check) or unknown (nothing decides it). Computed, not stored.',
  },
  licenseScope: {
    ui: ['项目许可证', '测试/数据文件中的许可证'],
    spec: 'none (ours, issue 14)',
    code: ['LicenseScope', 'licenseScopeOf', 'view=excluded'],
    tables: ['run_licenses.scope'],
    meaning: 'Whose a licence found in a file is: the project\'s own (project), or a text in test code and fixtures, a vendored licence database or a data file (test, licence-data, data: server/engine/analyzers/license-scope.ts), listed apart and never counted or judged.',
  },
  domainAdministrator: {
    ui: ['域管理员'],
    spec: 'domain administrator, role 2',
    code: ['ROLE.DOMAIN_ADMIN', 'roleCodes'],
    tables: ['roles', 'user_roles'],
    meaning: 'The role that holds every permission code and sees every subject.',
  },
  ordinaryUser: {
    ui: ['普通用户'],
    spec: 'ordinary user, role 3',
    code: ['ROLE.ORDINARY_USER', 'roleCodes'],
    tables: ['roles', 'user_roles'],
    meaning: 'The role of everyone else: works on the subjects they own or are a member of; no administration by default.',
  },
  systemAdministrator: {
    ui: ['系统管理员'],
    spec: 'none (the spec has two roles only)',
    code: ['ADMIN_USERNAME (admin)'],
    tables: ['users'],
    meaning: 'The display name of the initial user `admin` created at first start; a domain administrator, not a role of its own.',
  },
  group: {
    ui: ['分组', '用户组', '组织'],
    spec: 'group (/system/group); id, groupPath, child groups, subjects, users',
    code: ['group', 'groupId', 'pid', 'groupPath', 'GroupRow', 'GroupDetail'],
    tables: ['subject_groups', 'user_groups'],
    meaning: 'An organisation group, nested by its parent (pid), its groupPath the names from the root joined by \'/\': an 应用 is in at most one, a user in any number; the GROUP data permission shows a user the 应用 of their groups and those below. Also the subject list\'s group view and the request scope groupIds.',
  },
  version: {
    ui: ['版本'],
    spec: 'version of a subject; versionId, versionName, versionIds',
    code: ['version', 'versionId', 'VersionRow'],
    tables: ['subject_versions'],
    meaning: 'A named release of a subject that its projects are labelled with; not a component\'s version string.',
  },
  member: {
    ui: ['成员', '负责人'],
    spec: 'member (memberManagement); userIds',
    code: ['member', 'MemberRow', 'MEMBER_ROLE'],
    tables: ['subject_members'],
    meaning: 'A user who may work on a subject: role 1 is its owner (负责人), role 2 a member.',
  },
  mark: {
    ui: ['标记'],
    spec: 'mark: component marks N/F/L/W/Y, vulnerability marks 0–7',
    code: ['mark', 'markRemark', 'COMPONENT_MARK_LABEL', 'VULNERABILITY_MARK_LABEL'],
    tables: ['run_components.mark', 'run_vulnerabilities.mark', 'mark_logs'],
    meaning: 'An auditor\'s verdict on a component or a finding, with a remark; logged, and carried to later runs under retention audit.',
  },
  vex: {
    ui: ['VEX', 'VEX 状态'],
    spec: 'VEX, vulnerability exploitability statement: 0 pending … 4 investigating',
    code: ['vex', 'vexRemark', 'VEX_LABEL'],
    tables: ['run_vulnerabilities.vex', 'mark_logs', 'reports'],
    meaning: 'Whether a finding affects the product (待定, 不受影响, 受影响, 已修复, 调查中); exported as CycloneDX VEX or OpenVEX.',
  },
  upgrade: {
    ui: ['推荐升级'],
    spec: '— (issue 14: the recommended upgrade of a vulnerability detail)',
    code: ['upgrade', 'recommendedUpgrade', 'FindingRow.upgrade', 'ReportVulnerability.upgrade'],
    tables: [],
    meaning: 'For one finding: the smallest fixed version above the installed one, in the ecosystem\'s version order, or why none can be named; computed when read, not stored. Not 推荐版本 (recommendVersion): that is, per component, the nearest version no known advisory affects.',
  },
  fixState: {
    ui: ['发行版状态', '修复状态'],
    spec: '— (issue 16 item 6: a distribution\'s fix status per release)',
    code: ['fixState', 'FixState', 'FIX_STATE_LABEL', 'NO_FIX_LABEL', 'fixedInText', 'AffectedPackage.fixState', 'Finding.fixState'],
    tables: ['kb_affected.fix_state', 'run_vulnerabilities.fix_state'],
    meaning: 'What a distribution says of one source package in one release: 已修复 (with the fixed-in version), 受影响, 不修复, 延期修复, 已停止支持, 调查中 or 不受影响; a finding without a fixed-in version reads 发行版不修复 … instead of an empty 修复版本. Not VEX: that is the auditor\'s statement about the product.',
  },
  weakness: {
    ui: ['CWE'],
    spec: 'cwe (CWE ids of an advisory)',
    code: ['cwes', 'weaknesses', 'Weakness', 'weaknessesOf', 'resources/cwe/names.json'],
    tables: ['kb_advisories.cwes'],
    meaning: 'A weakness class of the Common Weakness Enumeration (CWE-79 …) an advisory names, shown with its MITRE name when the table holds it.',
  },
  report: {
    ui: ['报告'],
    spec: 'report; export status 0 waiting … 4 failed; reportType',
    code: ['report', 'reportId', 'ReportRow', 'kind'],
    tables: ['reports'],
    meaning: 'A file the platform generates as a job (document, SBOM, VEX or component export), downloaded later from 报告管理.',
  },
  knowledgeBase: {
    ui: ['知识库', '漏洞知识库', '许可证知识库'],
    spec: 'knowledge base (/knowledge, /system/knowledgeBase)',
    code: ['kb', 'knowledge'],
    tables: ['kb_advisories', 'kb_aliases', 'kb_affected', 'kb_id_map', 'kb_import_records', 'licenses'],
    meaning: 'The platform\'s own vulnerability and licence data that runs are matched against: imported, synced and extended by administrators.',
  },
  getCodeType: {
    ui: ['代码来源'],
    spec: 'code source type, getCodeType (0 local source upload … 40 Mercurial)',
    code: ['getCodeType', 'CODE_TYPE_LABEL'],
    tables: ['projects.get_code_type'],
    meaning: 'Where and how a project\'s input is fetched; decides the form\'s fields. Not a subject\'s codeSource (平台, OpenAPI, IDE/CI插件).',
  },
  analysisModes: {
    ui: ['分析方式'],
    spec: 'analysis modes, analysisModes (a comma list: 1 dependency analysis … 9 sensitive info)',
    code: ['analysisModes', 'ANALYSIS_MODE_LABEL'],
    tables: ['projects.analysis_modes', 'runs.analysis_modes'],
    meaning: 'The analyses a project\'s runs perform; a run keeps the modes it ran with.',
  },
  leak: {
    ui: ['敏感信息', '敏感信息规则'],
    spec: 'sensitive-information leaks (binary leaks /api/binary/leakinfo/*, sensitive leak rule, /system/sensitive, tab sensitiveInfo; analysis mode 9)',
    code: ['leak', 'LeakRule', 'LEAK_TYPE_LABEL'],
    tables: ['run_leaks', 'leak_rules'],
    meaning: 'A string in an analysed file (binaries included) that discloses an internal address or host, a build-machine path, a credential, a private key, a token or an e-mail address, found by a built-in or an administrator\'s rule; its secret part is stored masked.',
  },
  subjectType: {
    ui: ['项目类型', '应用类型'],
    spec: 'projectType (/system/projectType; calls /api/subjectType/*, subjectTypeName, remark)',
    code: ['subjectType', 'projectType (the contract area)', 'subjectTypeName'],
    tables: ['subject_types', 'subjects.subject_type'],
    meaning: 'An administrator-defined type of a subject (应用), online (offered by the 应用 forms) or offline; a subject keeps it by name. Not PROJECT_TYPE_LABEL, the type of a project by its source (源码, 容器镜像, …).',
  },
  personalToken: {
    ui: ['令牌', '个人令牌'],
    spec: 'personal token (/tokenManagement, /api/personalToken/*); key of POST /api/token/login',
    code: ['personal-tokens', 'tokenLogin', 'key'],
    tables: ['personal_tokens', 'sessions.personal_token_id'],
    meaning: 'A secret a user\'s scripts and CI pipelines sign in with instead of a password (its owner creates, names, switches off and deletes it); only its hash and last four characters are stored, and the session it opens remembers it.',
  },
  openApiLog: {
    ui: ['开放接口日志'],
    spec: 'open-API log (/system/log/openApi, GET /api/open/log/list)',
    code: ['openApiLog', 'OpenApiLogRecorder'],
    tables: ['open_api_log'],
    meaning: 'One row per call made in a session a personal token opened: caller, token, call, HTTP status and envelope code, duration and address; kept for a bounded time and count.',
  },
  taskQueue: {
    ui: ['任务队列', '队列'],
    spec: 'task queue (/system/queueManagement/taskQueue, /api/task-queue/*); checkId, option 1 suspend, 2 recover',
    code: ['queue', 'queueList', 'checkId', 'run-queue'],
    tables: ['runs'],
    meaning: 'The runs queued, analysing or paused; workers claim queued runs oldest first, administrators pause, resume, move up or remove them.',
  },
  accessRule: {
    ui: ['IP 访问规则', '安全管控'],
    spec: 'IP access rule (/system/securityControl, /api/system/access/*, GET /api/ip)',
    code: ['access', 'AccessRule', 'accessRefusal', 'decideAccess'],
    tables: ['access_rules', 'access_rule_users'],
    meaning: 'An address or CIDR range allowed or denied, for every user or named users, checked at every login and every call of a session; deny wins, and once an allow rule applies the address must match one. An administrator cannot save rules that shut out their own address.',
  },
} as const satisfies Readonly<Record<string, GlossaryEntry>>;

export type GlossaryNoun = keyof typeof GLOSSARY;
