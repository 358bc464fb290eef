// Permission codes (spec doc 1 §6, doc 2 §6). A check is true when the user's list holds the code.
// Later areas add their codes here; the server seeds its permission table from this list.

export const PERMISSIONS = {
  // project area (doc 1 §6)
  'project:list': '项目列表',
  'project-summary': '项目概览',
  'analysis:task:list': '任务列表',
  'report:list': '报告管理',
  'analysis:result:cominfo:list': '组件结果查看',
  'analysis:result:cominfo:check': '组件结果审核',
  'analysis:result:vul:list': '漏洞结果查看',
  'analysis:result:summary': '检测结果概览',
  'statistic-project:license:list': '项目许可证统计',
  'statistic-project:summary:report': '项目统计报告',
  'stastistic-system:see': '系统统计',
  'repository-security:manager': '私服安全管理',
  component: '组件',
  statistic: '统计',
  remote: '远程仓库',
  cominfo: '组件信息',
  source: '源码',
  vul: '漏洞',
  'project:setup': '项目设置',
  'project:setup:base': '基本设置',
  'project:setup:member:list': '成员管理',
  'project:setup:version:list': '版本管理',
  'project:setup:move': '数据转移',
  'project:setup:information': '通知设置',
  'project:setup:bug': '缺陷管理',
  // administration (doc 2 §6)
  'setup:user': '用户管理',
  'setup:user:user:list': '用户列表',
  'setup:user:role:list': '角色列表',
  'setup:group:list': '组织管理',
  'setup:strategy:list': '管控策略',
  'setup:license:list': '许可证设置',
  'set:strategy:score': '评级策略',
  'set:strategy:activity': '活跃度策略',
  'set:strategy:com': '组件策略',
  'setup:knowledge:license': '许可证知识库',
  'setup:knowledge:vul': '漏洞知识库',
  'setup:authinfo': '授权信息',
  'setup:notice:mail': '邮件通知',
  'setup:notice:rxt': '融信通通知',
  'setup:notice:im': '即时通讯通知',
  'setup:projectType': '项目类型',
  'setup:log': '日志',
  'setup:log:op': '操作日志',
  'setup:log:system': '系统日志',
  'setup:queue:task': '任务队列',
  'setup:integration:ldap': 'LDAP 集成',
  'setup:sys': '系统设置',
  'setup:sys:clean': '任务清理',
  'setup:sys:download': '下载配置',
  'setup:sys:custom': '自定义字段',
  'setup:sys:custom:list': '自定义字段列表',
  'risk:vul:list': '漏洞提醒',
} as const;

export type PermissionCode = keyof typeof PERMISSIONS;
export const ALL_PERMISSION_CODES = Object.keys(PERMISSIONS) as PermissionCode[];

/** True when the user's permission list holds `code` (spec doc 1 §6). */
export function hasPermission(codes: readonly string[] | null | undefined, code: string): boolean {
  return !!codes && codes.includes(code);
}

/** True when the list holds at least one of `wanted` (an empty `wanted` is true). */
export function hasAnyPermission(codes: readonly string[] | null | undefined, wanted: readonly string[]): boolean {
  return wanted.length === 0 || wanted.some((c) => hasPermission(codes, c));
}

/** A `has(code)` predicate over a permission list (or the session's permissionPOS entries). */
export function permissionChecker(codes: readonly string[] | readonly { code: string }[] | null | undefined): (code: string) => boolean {
  const set = new Set<string>((codes ?? []).map((c) => (typeof c === 'string' ? c : c.code)));
  return (code) => set.has(code);
}

/** Roles (spec doc 1 §6, doc 2 §6). The full matrix is not in the spec. */
export const ROLE = { DOMAIN_ADMIN: 2, ORDINARY_USER: 3 } as const;
export const ROLE_LABEL = {
  2: '域管理员',
  3: '普通用户',
} as const;

/**
 * A role's data permission (the SessionUser's dataPermissionEnum): which 应用 its holders see.
 * A user with several roles gets the widest. ALL: every 应用; GROUP: the 应用 of the organisation
 * groups the user belongs to and every group below them, plus their own; SELF: only the 应用 they
 * own or are a member of. Like permissions, it is taken at login (a change applies at the next one).
 */
export const DATA_PERMISSION = { ALL: 'ALL', GROUP: 'GROUP', SELF: 'SELF' } as const;
export type DataPermission = typeof DATA_PERMISSION[keyof typeof DATA_PERMISSION];
export const DATA_PERMISSION_LABEL: Readonly<Record<DataPermission, string>> = {
  ALL: '全部数据',
  GROUP: '本组及下级组数据',
  SELF: '仅本人参与的应用',
};
/** Widest first: the order in which several roles' data permissions combine. */
const DATA_PERMISSION_BREADTH: readonly DataPermission[] = [DATA_PERMISSION.ALL, DATA_PERMISSION.GROUP, DATA_PERMISSION.SELF];
export const isDataPermission = (v: unknown): v is DataPermission => DATA_PERMISSION_BREADTH.includes(v as DataPermission);
/** The widest of the roles' data permissions; SELF for a user without roles. */
export function widestDataPermission(values: readonly string[]): DataPermission {
  return DATA_PERMISSION_BREADTH.find((d) => values.includes(d)) ?? DATA_PERMISSION.SELF;
}

/** Role code -> authorised module (spec doc 1 §3 "Session user"). */
const ROLE_CODE_MODULE: Readonly<Record<number, number>> = {
  1: 1,
  3: 2,
  4: 3,
  5: 6,
  6: 7,
  7: 3,
  8: 5,
  9: 5,
};

/** Authorised modules of the role codes: mapped, unknown codes skipped, de-duplicated, first order kept. */
export function modulesForRoleCodes(codes: readonly number[]): number[] {
  const out: number[] = [];
  for (const code of codes) {
    const m = ROLE_CODE_MODULE[code];
    if (m !== undefined && !out.includes(m)) out.push(m);
  }
  return out;
}
