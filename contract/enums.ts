// Domain enumerations of both spec documents (§3 entities, §4 states, §9 constants), each as an
// `as const` object mapping code -> Chinese label, with the groupings and small rules attached to
// them. Where the spec gives a code but no wording, the label is ours; a comment says so.

/** A code -> label table. Numeric codes are written as numeric keys. */
export type LabelTable = Readonly<Record<string | number, string>>;

/** Code type of a label table (numeric keys come back as numbers). */
export type CodeOf<T extends LabelTable> = keyof T extends infer K
  ? K extends `${infer N extends number}` ? N : K
  : never;

export const DASH = '--';

/** The label of `code` in `table`, or '--' when the code is absent or unknown. */
export function labelOf(table: LabelTable, code: string | number | null | undefined): string {
  if (code === null || code === undefined || code === '') return DASH;
  const key = String(code);
  return Object.prototype.hasOwnProperty.call(table, key) ? table[key]! : DASH;
}

export interface Option<V extends string | number = string | number> {
  value: V;
  label: string;
}

/**
 * Select options of a table. Integer-looking keys become numbers. Without `order` the table's own
 * key order is used (JavaScript lists non-negative integer keys first, ascending).
 */
export function optionsOf(table: LabelTable, order?: readonly (string | number)[]): Option[] {
  const keys = order ? order.map(String) : Object.keys(table);
  return keys
    .filter((k) => Object.prototype.hasOwnProperty.call(table, k))
    .map((k) => ({ value: /^-?\d+$/.test(k) ? Number(k) : k, label: table[k]! }));
}

// ---------------------------------------------------------------------------------------------
// Product selector (doc 1 §1, §9; doc 2 §1)

export const PRODUCT = { SOURCE: 1, BINARY: 2, PRIVATE_SERVICE: 3 } as const;
export type Product = (typeof PRODUCT)[keyof typeof PRODUCT];
export const PRODUCT_LABEL = {
  1: '源码检测',
  2: '二进制检测',
  3: '私服安全',
} as const;
/** Any value other than 1 makes (B) calls use the /binary variant. */
export const usesBinaryVariant = (product: number): boolean => product !== PRODUCT.SOURCE;
export const isProduct = (value: unknown): value is Product => value === 1 || value === 2 || value === 3;

// ---------------------------------------------------------------------------------------------
// Code source types, getCodeType (doc 1 §3). Repositories "A" and "B" are anonymised in the spec;
// the labels keep them as 制品仓库A / 制品仓库B.

export const CODE_TYPE_LABEL = {
  0: '源码-本地上传',
  1: '源码-SVN',
  2: '源码-Git',
  3: '源码-SVN',
  4: '源码-Git',
  5: '源码-TFVC',
  7: '源码-Git',
  8: '源码-SVN',
  9: '特征文件-本地',
  10: '源码-Git',
  11: '源码-版本控制服务器',
  12: '容器镜像-本地',
  13: '容器镜像-公共仓库',
  14: '容器镜像-制品仓库A',
  15: '容器镜像-制品仓库B',
  16: '二进制制品-本地',
  17: '二进制制品-制品仓库A',
  18: '二进制制品-制品仓库B',
  19: '源码-FTP',
  30: 'SBOM',
  31: '容器镜像-私有仓库',
  32: '容器镜像-特征文件',
  33: '源码-配置管理服务器',
  34: 'Excel清单',
  35: '源码-制品仓库A',
  36: '二进制制品-SVN',
  37: '二进制制品-SVN',
  38: '二进制制品-FTP',
  39: '源码-Mercurial',
  40: '源码-Mercurial',
} as const;
export type CodeType = CodeOf<typeof CODE_TYPE_LABEL>;
export const ALL_CODE_TYPES = Object.keys(CODE_TYPE_LABEL).map(Number) as CodeType[];
export const isCodeType = (value: unknown): value is CodeType =>
  typeof value === 'number' && Object.prototype.hasOwnProperty.call(CODE_TYPE_LABEL, String(value));

/** Local upload types: 0, 9, 12, 16, 30, 32, 34. */
export const LOCAL_UPLOAD_CODE_TYPES = [0, 9, 12, 16, 30, 32, 34] as const;
/** Remote SVN/Git (version-control) types. */
export const REMOTE_VCS_CODE_TYPES = [1, 2, 3, 4, 5, 7, 8, 10, 36, 37, 39, 40] as const;
export const GIT_CODE_TYPES = [2, 4, 7, 10] as const;
export const SVN_CODE_TYPES = [1, 3, 8, 36, 37] as const;
/** Not a named grouping of the spec: the two Mercurial codes of the table. */
const MERCURIAL_CODE_TYPES = [39, 40] as const;
/** Image and repository types that carry imageNameTag, imageUsername, imagePassword. */
export const IMAGE_REPOSITORY_CODE_TYPES = [13, 14, 15, 17, 18, 31, 35] as const;
/** FTP types, carrying ftpIp, ftpFilePath, ftpUserName, ftpPassWord, ftpSsl. */
export const FTP_CODE_TYPES = [19, 38] as const;
/** Version-control server (type 11, the fireFly* fields). */
export const VCS_SERVER_CODE_TYPE = 11;
/** Configuration-management server (type 33: stream, pvob, vob). */
export const CONFIG_MANAGEMENT_CODE_TYPE = 33;
/** Binary tasks. */
export const BINARY_CODE_TYPES = [16, 17, 18, 36, 37, 38] as const;

const inList = (list: readonly number[], code: number | null | undefined): boolean =>
  typeof code === 'number' && list.includes(code);
export const isLocalUploadType = (code: number | null | undefined): boolean => inList(LOCAL_UPLOAD_CODE_TYPES, code);
export const isRemoteVcsType = (code: number | null | undefined): boolean => inList(REMOTE_VCS_CODE_TYPES, code);
export const isGitType = (code: number | null | undefined): boolean => inList(GIT_CODE_TYPES, code);
export const isSvnType = (code: number | null | undefined): boolean => inList(SVN_CODE_TYPES, code);
export const isMercurialType = (code: number | null | undefined): boolean => inList(MERCURIAL_CODE_TYPES, code);
export const isImageRepositoryType = (code: number | null | undefined): boolean => inList(IMAGE_REPOSITORY_CODE_TYPES, code);
export const isFtpType = (code: number | null | undefined): boolean => inList(FTP_CODE_TYPES, code);
export const isBinaryTask = (code: number | null | undefined): boolean => inList(BINARY_CODE_TYPES, code);

export const IMAGE_FIELDS = ['imageNameTag', 'imageUsername', 'imagePassword'] as const;
/** Container registries (公共仓库 13, 私有仓库 31, 制品仓库A/B 14/15): images pulled over the OCI distribution API. */
export const CONTAINER_REGISTRY_CODE_TYPES = [13, 14, 15, 31] as const;
export const isContainerRegistryType = (code: number | null | undefined): boolean => inList(CONTAINER_REGISTRY_CODE_TYPES, code);
/**
 * Cairn's own fields of a container registry project (the spec names only IMAGE_FIELDS): a CA
 * certificate the registry's TLS is checked against (PEM text, not secret), plain HTTP allowed
 * (允许 HTTP, never chosen silently) and the platform pulled from a multi-platform image.
 * Checked by contract/validation.ts (validateImagePlatform, validateCaPemText).
 */
export const REGISTRY_OPTION_FIELDS = ['imageCaPem', 'imageInsecure', 'imagePlatform'] as const;
/** The platform pulled when the form names none. */
export const DEFAULT_IMAGE_PLATFORM = 'linux/amd64';
/**
 * Local image uploads (本地镜像文件 12): a multi-platform archive (an OCI layout's index, a docker
 * save of several platforms) is analysed for the platform the form names (imagePlatform).
 */
export const IMAGE_UPLOAD_CODE_TYPES = [12] as const;
export const isImageUploadType = (code: number | null | undefined): boolean => inList(IMAGE_UPLOAD_CODE_TYPES, code);
/** The fields of an image upload project: the platform analysed. */
export const IMAGE_UPLOAD_FIELDS = ['imagePlatform'] as const;
/** Types whose form names the image's platform: the container registries and the image uploads. */
export const takesImagePlatform = (code: number | null | undefined): boolean => isContainerRegistryType(code) || isImageUploadType(code);
/**
 * The platform analysed of an image offering `platforms` when the form names none: linux/amd64,
 * else the image's only platform; null when one must be chosen.
 */
export function defaultImagePlatform(platforms: readonly string[]): string | null {
  if (platforms.includes(DEFAULT_IMAGE_PLATFORM)) return DEFAULT_IMAGE_PLATFORM;
  return platforms.length === 1 ? platforms[0]! : null;
}
/** The platforms the form's select offers (free text takes any other os/arch[/variant]). */
export const COMMON_IMAGE_PLATFORMS = ['linux/amd64', 'linux/arm64', 'linux/arm/v7', 'linux/arm/v6', 'linux/386', 'linux/ppc64le', 'linux/s390x', 'linux/riscv64', 'windows/amd64'] as const;
const VCS_SERVER_FIELDS = [
  'fireFlyIp',
  'fireFlyPort',
  'fireFlyProj',
  'fireFlyLabel',
  'fireFlyBranchName',
  'fireFlyUserName',
  'fireFlyPassWord',
  'fireFlySsl',
] as const;
export const FTP_FIELDS = ['ftpIp', 'ftpFilePath', 'ftpUserName', 'ftpPassWord', 'ftpSsl'] as const;
const CONFIG_MANAGEMENT_FIELDS = ['stream', 'pvob', 'vob'] as const;
/** Repository fields of the remote SVN/Git types (doc 1 §3 subject fields). */
const VCS_FIELDS = ['svnGitUri', 'gitBranchName', 'svnGitUserName', 'svnGitPwd', 'sshType', 'sshId'] as const;

/** The source-specific fields a subject of this getCodeType carries (for local uploads only an image's platform). */
export function extraFieldsOf(code: number | null | undefined): readonly string[] {
  if (isContainerRegistryType(code)) return [...IMAGE_FIELDS, ...REGISTRY_OPTION_FIELDS];
  if (isImageUploadType(code)) return IMAGE_UPLOAD_FIELDS;
  if (isImageRepositoryType(code)) return IMAGE_FIELDS;
  if (code === VCS_SERVER_CODE_TYPE) return VCS_SERVER_FIELDS;
  if (isFtpType(code)) return FTP_FIELDS;
  if (code === CONFIG_MANAGEMENT_CODE_TYPE) return CONFIG_MANAGEMENT_FIELDS;
  if (isRemoteVcsType(code)) return VCS_FIELDS;
  return [];
}

/** Detect types (clone detection sources). */
export const DETECT_TYPE_LABEL = {
  100: '本地源码',
  200: 'Git',
  300: 'SVN',
} as const;

/** Project type by source. */
export const PROJECT_TYPE_LABEL = {
  1: '特征文件',
  2: '源码',
  3: '容器镜像',
  4: '二进制制品',
  5: 'SBOM',
  6: 'Excel清单',
} as const;
export type ProjectType = CodeOf<typeof PROJECT_TYPE_LABEL>;

/**
 * Project type of a getCodeType. Ours, read from the table's wording: the thing analysed decides,
 * so 32 (container image, feature file) is a container image and 9 is a feature file.
 */
export function projectTypeOfCodeType(code: number | null | undefined): ProjectType | null {
  if (code === 9) return 1;
  if (code === 30) return 5;
  if (code === 34) return 6;
  if (code === 12 || code === 13 || code === 14 || code === 15 || code === 31 || code === 32) return 3;
  if (isBinaryTask(code)) return 4;
  if (isCodeType(code)) return 2;
  return null;
}

/** When editing, sshType becomes 2 for getCodeType 7 and 8 and 1 for 3, 4 and 11; else unchanged. */
export function sshTypeWhenEditing(code: number | null | undefined, current?: SshAuthType | null): SshAuthType | null {
  if (code === 7 || code === 8) return 2;
  if (code === 3 || code === 4 || code === 11) return 1;
  return current ?? null;
}

/** Timing (scheduled scans) is disabled for local-upload types. */
export const isTimingDisabled = (code: number | null | undefined): boolean => isLocalUploadType(code);

/** sshType of a subject: 1 key, 2 password. */
export const SSH_AUTH_TYPE_LABEL = {
  1: '密钥',
  2: '密码',
} as const;
export type SshAuthType = CodeOf<typeof SSH_AUTH_TYPE_LABEL>;

/** Ssh types of the SSH-key data lookup: 1 SVN, 2 Git, 3 Mercurial. */
export const SSH_TYPE_LABEL = {
  1: 'SVN',
  2: 'Git',
  3: 'Mercurial',
} as const;

// ---------------------------------------------------------------------------------------------
// New project defaults (doc 1 §4)

const DEFAULT_CODE_TYPE = 9;
export const NEW_PROJECT_DEFAULTS = {
  retentionAudit: true,
  enableTiming: false,
  cronType: 2,
  week: 1,
  getCodeType: DEFAULT_CODE_TYPE,
  gitBranchName: 'master',
  artifactoryAuthType: 1,
} as const;

/** getCodeType of a new project: the last stored choice when it is a known type, else 9. */
export function defaultCodeType(lastStored?: number | string | null): number {
  const n = typeof lastStored === 'string' && lastStored.trim() !== '' ? Number(lastStored) : lastStored;
  return isCodeType(n) ? n : DEFAULT_CODE_TYPE;
}

// ---------------------------------------------------------------------------------------------
// Timing (doc 1 §3)

export const CRON_TYPE_LABEL = {
  1: '每月（按日）',
  2: '每周',
  3: '每天',
  4: '每N个月（按日或第几个星期几）',
  5: '每N周（按星期）',
  6: '每N天',
} as const;
/** @public the table's codes, kept for the screens still to be built */
export type CronType = CodeOf<typeof CRON_TYPE_LABEL>;

/** weekDays 1 to 7; 7 is Sunday. */
export const WEEK_DAY_LABEL = {
  1: '星期一',
  2: '星期二',
  3: '星期三',
  4: '星期四',
  5: '星期五',
  6: '星期六',
  7: '星期日',
} as const;

// ---------------------------------------------------------------------------------------------
// Levels (doc 1 §3, doc 2 §3; design §5)

export const VULNERABILITY_LEVEL_LABEL = {
  1: '超危',
  2: '高危',
  4: '中危',
  8: '低危',
  16: '未知',
} as const;
export type VulnerabilityLevel = CodeOf<typeof VULNERABILITY_LEVEL_LABEL>;
/**
 * Licence levels use the same codes and wording.
 * @alias of VULNERABILITY_LEVEL_LABEL
 */
export const LICENSE_LEVEL_LABEL = VULNERABILITY_LEVEL_LABEL;
/**
 * Who decided a licence-conflict verdict (shown as 依据：…): the OSADL compatibility matrix
 * (resources/osadl), or Cairn's own rules for pairs the matrix does not decide.
 */
export const VERDICT_SOURCE_LABEL = { osadl: 'OSADL 兼容性矩阵', cairn: 'Cairn 规则' } as const;
export type VerdictSource = keyof typeof VERDICT_SOURCE_LABEL;
/**
 * A licence-conflict verdict (ConflictVerdictSchema): `check` is the OSADL matrix's "Check
 * dependency" — compatible or not depending on how the component is combined with the project
 * (static or dynamic linking, a separate program, …); its explanation says what to check.
 */
export const CONFLICT_VERDICT_LABEL = { compatible: '兼容', incompatible: '不兼容', check: '需核查依赖方式', unknown: '未知' } as const;
export type ConflictVerdict = keyof typeof CONFLICT_VERDICT_LABEL;
/**
 * How a licence was recognised (识别方式, LicenseSourceSchema): the full licence text, a licence
 * notice or file header, a reference by name or link, an SPDX tag, the package metadata's declaration.
 */
export const LICENSE_KIND_LABEL = { text: '全文', header: '声明头', reference: '引用', tag: 'SPDX 标签', declared: '包元数据声明' } as const;
export type LicenseKind = keyof typeof LICENSE_KIND_LABEL;
/** The kinds in the order the filters list them: the strongest evidence of a text first. */
export const LICENSE_KINDS = ['text', 'header', 'reference', 'tag', 'declared'] as const satisfies readonly LicenseKind[];
export type LicenseLevel = VulnerabilityLevel;
/** Most to least severe. */
export const LEVEL_CODES = [1, 2, 4, 8, 16] as const;
/**
 * A finding no knowledge-base source rates (no CVSS vector, no stated severity): its level stays
 * 16 (the spec's code) but it is shown as 未评级 with the reason, not 未知 alone.
 */
export const UNRATED_FINDING = { label: '未评级', reason: '知识库中该漏洞没有 CVSS 评分或评级' } as const;

export const COMPONENT_RISK_LABEL = {
  1: '超危',
  2: '高危',
  4: '中危',
  8: '低危',
  16: '未知风险',
  32: '无漏洞',
  64: '未知版本',
} as const;
/** @public the table's codes, kept for the screens still to be built */
export type ComponentRisk = CodeOf<typeof COMPONENT_RISK_LABEL>;
export const COMPONENT_RISK_CODES = [1, 2, 4, 8, 16, 32, 64] as const;

export const EXPLOIT_DIFFICULTY_LABEL = {
  1: '容易',
  2: '一般',
  4: '困难',
  16: '未知',
} as const;

// ---------------------------------------------------------------------------------------------
// Marks (doc 1 §3)

export const COMPONENT_MARK_LABEL = {
  N: '未标记',
  F: '误报',
  L: '遗留',
  W: '白名单',
  Y: '其他',
} as const;
export type ComponentMark = keyof typeof COMPONENT_MARK_LABEL;

export const VULNERABILITY_MARK_LABEL = {
  0: '待审核',
  1: '需修复',
  2: '无需修复',
  3: '已缓解',
  4: '延期修复',
  5: '已修复',
  6: '厂商已修复',
  7: '其他',
} as const;
export type VulnerabilityMark = CodeOf<typeof VULNERABILITY_MARK_LABEL>;

/** Vulnerability exploitability statements (VEX). */
export const VEX_LABEL = {
  0: '待定',
  1: '不受影响',
  2: '受影响',
  3: '已修复',
  4: '调查中',
} as const;
export type VexCode = CodeOf<typeof VEX_LABEL>;

/**
 * A distribution's statement about one source package in one release (issue 16 item 6), as its
 * security tracker gives it: fixed (with the fixed-in version), affected (no fix yet), and the
 * states that say no fix is coming or is known (trivy's Status; Debian, Ubuntu, Red Hat, SUSE
 * trackers). Stored per affected entry (kb_affected.fix_state) and per finding
 * (run_vulnerabilities.fix_state); not_affected entries never produce a finding.
 */
export const FIX_STATE_LABEL = {
  fixed: '已修复',
  affected: '受影响',
  will_not_fix: '不修复',
  fix_deferred: '延期修复',
  end_of_life: '已停止支持',
  under_investigation: '调查中',
  not_affected: '不受影响',
} as const;
export type FixState = keyof typeof FIX_STATE_LABEL;
export const isFixState = (value: unknown): value is FixState => typeof value === 'string' && Object.hasOwn(FIX_STATE_LABEL, value);

/** What a finding's 修复版本 reads when it has none: why (发行版不修复 …) or 暂无修复版本. */
export const NO_FIX_LABEL = {
  fixed: '暂无修复版本',
  affected: '暂无修复版本',
  will_not_fix: '发行版不修复',
  fix_deferred: '发行版延期修复',
  end_of_life: '发行版已停止支持',
  under_investigation: '发行版调查中',
  not_affected: '发行版声明不受影响',
} as const satisfies Record<FixState, string>;

/**
 * A finding's 修复版本 as one text, for every screen and report: its fixed versions joined by
 * `separator`, else why there is none (发行版不修复 …), else `empty` (暂无修复版本, or the reports' dash).
 */
export function fixedInText(fixedVersions: readonly string[], fixState: FixState | null | undefined, separator = ', ', empty?: string): string {
  if (fixedVersions.length > 0) return fixedVersions.join(separator);
  const state = fixState ?? 'affected';
  if (state === 'affected' || state === 'fixed') return empty ?? NO_FIX_LABEL.affected;
  return NO_FIX_LABEL[state];
}

// ---------------------------------------------------------------------------------------------
// Strategy, component, project (doc 1 §3, doc 2 §3, §9)

export const STRATEGY_STATUS_LABEL = {
  0: '待审核',
  1: '推荐',
  2: '可用',
  3: '提示',
  4: '警告',
  5: '禁用',
  6: '白名单',
} as const;
/** @public the table's codes, kept for the screens still to be built */
export type StrategyStatus = CodeOf<typeof STRATEGY_STATUS_LABEL>;
/** Display order as document 2 lists it. */
export const STRATEGY_STATUS_ORDER = [0, 6, 1, 2, 3, 4, 5] as const;

/**
 * Control and rating strategies are opened or closed.
 * @public spec data kept for the screens still to be built (no caller yet)
 */
export const OPEN_CLOSE_LABEL = {
  open: '开启',
  close: '关闭',
} as const;

export const COMPONENT_TYPE_LABEL = {
  0: '开源组件',
  1: '私有组件',
  '-1': '未知',
} as const;
export const COMPONENT_TYPE_ORDER = [0, 1, -1] as const;

export const PROJECT_IMPORTANCE_LABEL = {
  1: '非常重要',
  2: '重要',
  3: '一般',
  4: '不重要',
  5: '非常不重要',
} as const;

/** Rating labels of the rating strategy. The spec gives no codes, so the keys are names. */
export const RATING_LABEL = {
  EXCELLENT: '优秀',
  GOOD: '良好',
  AVERAGE: '一般',
  POOR: '较差',
  UNKNOWN: '未知',
} as const;

/** White-list change types. */
export const CHANGE_TYPE_LABEL = {
  1: '新增',
  2: '变更',
  3: '删除',
} as const;

/** Control-strategy rule conditions 1–16 (doc 2 §9). */
export const RULE_CONDITION_LABEL = {
  1: '等级高于',
  2: '等级低于',
  3: '名称包含',
  4: '版本发布日期晚于',
  5: '许可证在列表中',
  6: '许可证不在列表中',
  7: '许可证未知',
  8: '指定组件版本',
  9: '组件坐标',
  10: 'CVE列表',
  11: '漏洞利用难度',
  12: '排除版本',
  13: '排除坐标',
  14: '恶意组件',
  15: 'CVSS最低分',
  16: '许可证等级',
} as const;
/** @public the table's codes, kept for the screens still to be built */
export type RuleCondition = CodeOf<typeof RULE_CONDITION_LABEL>;

// ---------------------------------------------------------------------------------------------
// Users and subjects (doc 1 §3, doc 2 §3)

export const USER_TYPE_LABEL = {
  0: '平台用户',
  2: 'LDAP用户',
  3: '开放接口用户',
  6: '外部同步用户',
  7: '外部同步用户',
  8: '外部同步用户',
  9: '外部同步用户',
  10: '外部同步用户',
} as const;
/** @public the table's codes, kept for the screens still to be built */
export type UserType = CodeOf<typeof USER_TYPE_LABEL>;
export const isSyncedUserType = (type: number | null | undefined): boolean =>
  typeof type === 'number' && type >= 6 && type <= 10;

/**
 * isLock of a user.
 * @public spec data kept for the screens still to be built (no caller yet)
 */
export const USER_LOCK_LABEL = {
  Y: '已锁定',
  N: '正常',
} as const;

/** Code source of a subject: 0 platform, 1 OpenAPI, 2–7 IDE and CI plug-ins (not told apart). */
export const SUBJECT_CODE_SOURCE_LABEL = {
  0: '平台',
  1: 'OpenAPI',
  2: 'IDE/CI插件',
  3: 'IDE/CI插件',
  4: 'IDE/CI插件',
  5: 'IDE/CI插件',
  6: 'IDE/CI插件',
  7: 'IDE/CI插件',
} as const;

export const ANALYSIS_MODE_LABEL = {
  1: '依赖分析',
  3: '代码片段漏洞检测',
  4: '文本许可证识别',
  5: '文件签名检测',
  6: '代码片段组件检测',
  7: '许可证版权检测',
  8: '二进制检测',
  9: '敏感信息检测',
} as const;
export type AnalysisMode = CodeOf<typeof ANALYSIS_MODE_LABEL>;
/** Display order as document 2 lists it. */
export const ANALYSIS_MODE_ORDER = [1, 3, 4, 7, 5, 6, 8, 9] as const;

/** analysisModes travels as a comma list: '1,3,9' <-> [1, 3, 9] (unknown codes dropped). */
export function parseAnalysisModes(value: string | null | undefined): AnalysisMode[] {
  if (!value) return [];
  const out: AnalysisMode[] = [];
  for (const part of value.split(',')) {
    const n = Number(part.trim());
    if (part.trim() !== '' && Object.prototype.hasOwnProperty.call(ANALYSIS_MODE_LABEL, String(n)) && !out.includes(n as AnalysisMode)) {
      out.push(n as AnalysisMode);
    }
  }
  return out;
}
export const joinAnalysisModes = (modes: readonly number[]): string => modes.join(',');

/**
 * The analysis modes this version's engine has no analyzer for (server/engine/analyzers): code
 * snippets (vulnerabilities and components) and file signatures. Forms show them disabled with
 * 暂未提供; the platform drops them from what it stores and runs. Binary detection (8) runs the
 * extractors of executables and libraries on a source input (images and binary uploads always
 * run them: server/engine/extractors/selection.ts); sensitive information (9) is
 * server/engine/analyzers/leaks.ts.
 */
const PENDING_ANALYSIS_MODES: readonly AnalysisMode[] = [3, 5, 6];
export const isAnalysisModeOffered = (mode: number): boolean => !(PENDING_ANALYSIS_MODES as readonly number[]).includes(mode);
/** The offered modes of a comma list, as a comma list ('1,3,4' -> '1,4'). */
export const offeredAnalysisModes = (value: string | null | undefined): string =>
  joinAnalysisModes(parseAnalysisModes(value).filter(isAnalysisModeOffered));

export const CUSTOM_FIELD_TYPE_LABEL = {
  1: '单行文本',
  2: '多行文本',
  3: '日期',
  4: '单选',
  5: '多选',
  6: '下拉选择',
  7: '级联选择',
} as const;

/**
 * Owner of custom fields ({moduleType} of the update call): 3 component, 4 version info.
 * @public spec data kept for the screens still to be built (no caller yet)
 */
export const CUSTOM_FIELD_MODULE_TYPE_LABEL = {
  3: '组件',
  4: '版本信息',
} as const;

// ---------------------------------------------------------------------------------------------
// States (doc 1 §4, doc 2 §4)

export const TASK_STATUS_LABEL = {
  0: '排队中',
  1: '分析中',
  2: '分析成功',
  3: '分析失败',
  4: '已暂停',
  '-1': '重新发送',
} as const;
/** @public the table's codes, kept for the screens still to be built */
export type TaskStatus = CodeOf<typeof TASK_STATUS_LABEL>;
export const TASK_STATUS = { RESEND: -1, QUEUED: 0, ANALYSING: 1, SUCCEEDED: 2, FAILED: 3, PAUSED: 4 } as const;
export const TASK_STATUS_ORDER = [-1, 0, 1, 2, 3, 4] as const;
/** Queued or analysing: progress is still polled. */
export const isTaskRunning = (status: number | null | undefined): boolean =>
  status === TASK_STATUS.QUEUED || status === TASK_STATUS.ANALYSING;

export const EXPORT_STATUS_LABEL = {
  0: '等待中',
  1: '生成中',
  2: '生成成功',
  3: '已删除',
  4: '生成失败',
} as const;
/** @public the table's codes, kept for the screens still to be built */
export type ExportStatus = CodeOf<typeof EXPORT_STATUS_LABEL>;
export const EXPORT_STATUS = { WAITING: 0, GENERATING: 1, SUCCEEDED: 2, DELETED: 3, FAILED: 4 } as const;

export const SCAN_STATUS_LABEL = {
  1: '扫描成功',
  2: '扫描中',
  3: '扫描失败',
  4: '未扫描',
  5: '排队中',
} as const;

export const DETECT_STATUS_LABEL = {
  WAITING: '等待检测',
  DETECTING: '检测中',
  SUCCESS: '检测成功',
  FAILED: '检测失败',
} as const;
/** @public the table's codes, kept for the screens still to be built */
export type DetectStatus = keyof typeof DETECT_STATUS_LABEL;

export const IMPORT_RECORD_STATUS_LABEL = {
  1: '导入中',
  2: '导入成功',
  3: '导入失败',
  4: '排队中',
  5: '已取消',
} as const;

export const IMPORT_FILE_OUTCOME_LABEL = {
  1: '已导入',
  2: '已跳过',
  3: '已拒绝',
} as const;

/**
 * Online status of a service or project type: 0 online; any other value offline (ours: 1).
 * @public spec data kept for the screens still to be built (no caller yet)
 */
export const ONLINE_STATUS_LABEL = {
  0: '已上线',
  1: '已下线',
} as const;

// ---------------------------------------------------------------------------------------------
// Code snippets (doc 1 §4)

const SNIPPET_MATCHED = { IGNORED: 2, CONFIRMED: 3 } as const;
/** 2 已忽略, 3 已确认, anything else 已取消. */
export function snippetMatchedLabel(matched: number | string | null | undefined): '已忽略' | '已确认' | '已取消' {
  const n = Number(matched);
  if (matched !== null && matched !== '' && n === SNIPPET_MATCHED.IGNORED) return '已忽略';
  if (matched !== null && matched !== '' && n === SNIPPET_MATCHED.CONFIRMED) return '已确认';
  return '已取消';
}

export const MATCHED_TYPE_LABEL = {
  TO_BE_CONFIRMED: '待确认',
  AUTO_CONFIRMATION: '自动确认',
  MANUAL_CONFIRMATION: '人工确认',
  NOT_MATCHED: '未匹配',
} as const;
/** @public the table's codes, kept for the screens still to be built */
export type MatchedType = keyof typeof MATCHED_TYPE_LABEL;

// ---------------------------------------------------------------------------------------------
// Task queue, clone detection, private service (doc 2 §4, §9)

export const TASK_QUEUE_OPTION = { SUSPEND: 1, RECOVER: 2 } as const;
/**
 * Labels of TASK_QUEUE_OPTION.
 * @public spec data kept for the screens still to be built (no caller yet)
 */
export const TASK_QUEUE_OPTION_LABEL = {
  1: '暂停',
  2: '恢复',
} as const;

/**
 * Clone job types. The spec writes OPEN_SOURCE_DETECT and "homology"; the homology constant is
 * ours, named the same way.
 * @public spec data kept for the screens still to be built (no caller yet)
 */
export const CLONE_JOB_TYPE_LABEL = {
  OPEN_SOURCE_DETECT: '开源检测',
  HOMOLOGY_DETECT: '同源检测',
} as const;
/** @public the table's codes, kept for the screens still to be built */
export type CloneJobType = keyof typeof CLONE_JOB_TYPE_LABEL;

export const CLONE_REPORT_TYPE_LABEL = {
  7: 'Word',
  8: 'Excel',
  9: 'PDF',
} as const;
export const CLONE_REPORT_EXTENSION = {
  7: '.doc',
  8: '.xls',
  9: '.pdf',
} as const;

/**
 * The code-info service (/codeApi) answers success with this string code.
 * @public spec data kept for the calls still to be built (no caller yet)
 */
export const CODE_INFO_SUCCESS_CODE = '000';

/**
 * Repository manager types 1–7. The spec names only type 5 (package-cloud project source); the
 * other names are our choice of the managers a private-service user meets.
 */
export const REPOSITORY_MANAGER_TYPE_LABEL = {
  1: 'Nexus 2',
  2: 'Nexus 3',
  3: 'JFrog Artifactory',
  4: 'Harbor',
  5: '制品云',
  6: 'CODING 制品库',
  7: '其他',
} as const;
const PACKAGE_CLOUD_REPOSITORY_MANAGER_TYPE = 5;
/** Type 5 queries package-cloud projects; every other type queries coding projects. */
export const repositoryManagerProjectSource = (type: number): 'packageCloud' | 'coding' =>
  type === PACKAGE_CLOUD_REPOSITORY_MANAGER_TYPE ? 'packageCloud' : 'coding';

// ---------------------------------------------------------------------------------------------
// Exports (doc 1 §9, doc 2 §9)

export const EXPORT_FORMAT_LABEL = {
  word: 'Word',
  excel: 'Excel',
  pdf: 'PDF',
  spdx: 'SPDX',
  cyclonedx: 'CycloneDX',
  swid: 'SWID',
} as const;
export type ExportFormat = keyof typeof EXPORT_FORMAT_LABEL;
export const EXPORT_FORMATS = Object.keys(EXPORT_FORMAT_LABEL) as ExportFormat[];
/**
 * The spec lists Word .doc and Excel .xls; issue 7 asks for Office Open XML files that Office and
 * WPS open without a warning, which a .doc name on .docx content would raise. So .docx / .xlsx.
 */
export const EXPORT_EXTENSION = {
  word: '.docx',
  excel: '.xlsx',
  pdf: '.pdf',
  spdx: '.spdx.json',
  cyclonedx: '.CycloneDX.json',
  swid: '.zip',
} as const satisfies Record<ExportFormat, string>;
/**
 * reportType codes on the wire, in the spec's order of export extensions (Word, Excel, PDF, SPDX,
 * CycloneDX, SWID); clone reports continue it with 7 Word, 8 Excel, 9 PDF.
 */
export const REPORT_TYPE = { word: 1, excel: 2, pdf: 3, spdx: 4, cyclonedx: 5, swid: 6 } as const satisfies Record<ExportFormat, number>;
export const formatOfReportType = (code: number): ExportFormat | null =>
  EXPORT_FORMATS.find((f) => REPORT_TYPE[f] === code) ?? null;

/** VEX export formats (POST /api/vex/export). */
export const VEX_FORMAT_LABEL = { 1: 'CycloneDX VEX', 2: 'OpenVEX' } as const;
export type VexFormat = CodeOf<typeof VEX_FORMAT_LABEL>;
export const VEX_EXTENSION = { 1: '.vex.cdx.json', 2: '.openvex.json' } as const satisfies Record<VexFormat, string>;

/** `name` with the format's extension, unless it already ends with it. */
export function withExportExtension(name: string, format: ExportFormat): string {
  const ext = EXPORT_EXTENSION[format];
  return name.toLowerCase().endsWith(ext.toLowerCase()) ? name : `${name}${ext}`;
}
