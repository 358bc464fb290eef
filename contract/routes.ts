// The renderer's route table data: every route of the spec (contract/spec/routes.ts) with its
// Chinese title, tab labels and gating permission, the desktop-only screens, and the menu the app
// shell filters by permission and product. Terminology: a subject (application) is 项目, a
// project/analysis of it is 任务.
import { specRoutes } from './spec/routes.ts';
import type { PermissionCode } from './permissions.ts';
import type { Product } from './enums.ts';

export interface TabInfo {
  key: string;
  label: string;
  /** Another identifier of the same tab (the task detail's bugInfo is its bug tab). */
  aliasOf?: string;
}

export interface RouteInfo {
  /** Hash path, e.g. /project/analysis/details. */
  path: string;
  title: string;
  area: string;
  tabs: TabInfo[];
  query: string[];
  /** An area prefix that only holds children. */
  parent: boolean;
  /** The permission that gates the screen; undefined: any signed-in user. */
  permission?: PermissionCode;
  /** Reachable without a session (the guard lets it through). */
  public?: boolean;
  /** A screen of the desktop client only, not of the spec. */
  desktopOnly?: boolean;
}

/** Chinese title of every spec route. */
export const ROUTE_TITLES: Readonly<Record<string, string>> = {
  // session
  '/admin/manage-lic': '授权管理',
  '/changePassword': '修改密码',
  '/handleLogin': '登录处理',
  '/login': '登录',
  '/logout': '退出登录',
  // home and top level
  '/home': '首页',
  '/home/result': '首页概览',
  '/analysisSystem/home': '分析系统首页',
  '/detectionQueue': '检测队列',
  // project
  '/project': '项目',
  '/project/analysis': '任务分析',
  '/project/analysis/batchLaunch': '批量发起任务',
  '/project/analysis/batchReanalysis': '批量重新分析',
  '/project/analysis/details': '任务详情',
  '/project/analysis/launch': '发起任务',
  '/project/component': '项目组件',
  '/project/import': '批量导入项目',
  '/project/newProject': '新建项目',
  '/project/projectList': '项目列表',
  '/project/projectSettings': '项目设置',
  '/project/projectSettings/basicSetup': '基本设置',
  '/project/projectSettings/dataTransfer': '数据转移',
  '/project/projectSettings/defectManagement': '缺陷管理',
  '/project/projectSettings/memberManagement': '成员管理',
  '/project/projectSettings/noticeSetup': '通知设置',
  '/project/projectSettings/projectPrivateServiceConf': '私服配置',
  '/project/projectSettings/version': '版本管理',
  '/project/report': '报告管理',
  '/project/statistics': '项目统计',
  '/project/taskList': '任务列表',
  '/project/taskList/batchReanalysis': '批量重新分析',
  // components
  '/subassembly': '组件',
  '/subassembly/componentList': '组件列表',
  '/subassembly/componentList/subassemblyDetails': '组件详情',
  '/subassembly/componentList/versionDetails': '版本详情',
  '/subassembly/ea': '白名单审批',
  '/subassembly/ea/details': '审批详情',
  '/subassembly/knowledge': '组件查询',
  '/subassembly/log': '变更日志',
  '/subassembly/log/details': '变更日志详情',
  '/subassembly/offlineList': '离线变更影响记录',
  '/subassembly/privateComponent': '私有组件',
  '/subassembly/privateComponent/addPrivateComponent': '添加私有组件',
  '/subassembly/privateComponent/addPrivateComponent/result': '添加结果',
  '/subassembly/privateComponent/details': '私有组件详情',
  // white list
  '/subassembly/whiteList': '白名单',
  '/subassembly/whiteList/add': '添加白名单',
  '/subassembly/whiteList/details': '白名单详情',
  '/subassembly/whiteList/importResult': '导入结果',
  '/subassembly/whiteList/list': '白名单列表',
  '/subassembly/whiteList/list/histtoryVersion': '历史版本',
  '/subassembly/whiteList/waitingImport': '待导入',
  // vulnerabilities
  '/bug': '漏洞',
  '/bug/bugKanban': '漏洞看板',
  '/bug/bugList': '漏洞列表',
  '/bug/bugList/details': '漏洞详情',
  // licences
  '/license': '许可证',
  '/license/details': '许可证详情',
  // knowledge base
  '/knowledge': '知识库',
  '/knowledge/bug/details': '漏洞详情',
  '/knowledge/componentDetails': '组件详情',
  '/knowledge/license/details': '许可证详情',
  '/knowledge/versionDetails': '版本详情',
  '/knowledge/versionDetails/bugDetails': '漏洞详情',
  // statistics
  '/statistics': '统计分析',
  // private service
  '/privateService': '私服安全',
  '/privateService/bugInfo/details': '漏洞详情',
  '/privateService/component': '私服组件',
  '/privateService/component/details': '组件详情',
  '/privateService/intercept': '入库拦截',
  '/privateService/intercept/details': '拦截详情',
  '/privateService/statistics': '私服统计',
  '/privateService/warehouse': '仓库管理',
  '/privateService/warehouse/add': '添加仓库',
  // clone detection
  '/cloneDetection': '克隆检测',
  '/cloneDetection/homologyDetection': '同源检测',
  '/cloneDetection/homologyDetection/details': '同源检测详情',
  '/cloneDetection/homologyDetection/launch': '发起同源检测',
  '/cloneDetection/openSourceDetection': '开源检测',
  '/cloneDetection/openSourceDetection/details': '开源检测详情',
  '/cloneDetection/openSourceDetection/launch': '发起开源检测',
  '/cloneDetection/report': '检测报告',
  // system
  '/system': '系统管理',
  '/system/accountIntegration/ldap': 'LDAP集成',
  '/system/customer': '授权信息',
  '/system/group': '组织管理',
  '/system/group/details': '组织详情',
  '/system/knowledgeBase/protocol': '许可证知识库',
  '/system/knowledgeBase/vul': '漏洞知识库',
  '/system/knowledgeBase/vul/batch': '漏洞导入批次',
  '/system/log/openApi': '开放接口日志',
  '/system/log/operation': '操作日志',
  '/system/log/scan': '扫描日志',
  '/system/log/system': '系统日志',
  '/system/notice/email': '邮件通知',
  '/system/notice/im': '即时通讯通知',
  '/system/notice/rongxintong': '融信通通知',
  '/system/projectType': '项目类型',
  '/system/queueManagement/taskQueue': '任务队列',
  '/system/securityControl': '安全管控',
  '/system/sensitive': '敏感信息规则',
  '/system/strategy/activityStrategy': '活跃度策略',
  '/system/strategy/controlStrategy': '管控策略',
  '/system/strategy/controlStrategy/details': '管控策略详情',
  '/system/strategy/controlStrategy/details/addRule': '添加规则',
  '/system/strategy/controlStrategy/details/ruleDetails': '规则详情',
  '/system/strategy/ratingStrategy': '评级策略',
  '/system/strategy/ratingStrategy/details': '评级策略详情',
  '/system/systemSettings/customFields': '自定义字段',
  '/system/systemSettings/downloadConfig': '下载配置',
  '/system/systemSettings/scanConfig': '扫描配置',
  '/system/systemSettings/service': '服务管理',
  '/system/systemSettings/serviceDetails': '服务详情',
  '/system/systemSettings/taskCleanup': '任务清理',
  '/system/systemState': '系统状态',
  '/system/user/import': '导入用户',
  '/system/user/record': '导入记录',
  '/system/user/role': '角色管理',
  '/system/user/user': '用户管理',
  // other
  '/download/resource': '下载中心',
  '/ssh': 'SSH密钥',
  '/tokenManagement': '令牌管理',
  '/remind': '漏洞提醒',
  '/remind/control': '管控提醒',
  '/remind/ea': '审批提醒',
  '/remind/openSource': '开源情报提醒',
};

/** Tab labels by tab key. Per-route overrides are in ROUTE_TAB_OVERRIDES. */
const TAB_LABELS: Readonly<Record<string, string>> = {
  overview: '概览',
  component: '组件',
  source: '文件树',
  bug: '漏洞',
  bugInfo: '漏洞信息',
  license: '许可证',
  sensitiveInfo: '敏感信息',
  historyComponent: '历史组件',
  codeSnippetComponent: '代码片段',
  info: '组件信息',
  config: '自定义字段',
  activity: '活跃度',
  versionOverview: '版本概览',
  versionVulnerability: '版本漏洞',
  controlLog: '管控日志',
  versionList: '版本列表',
  versionDetails: '版本详情',
  associationVul: '关联漏洞',
  impactItem: '影响项目',
  lifeCycle: '生命周期',
  referenceInformation: '参考信息',
  componentInfo: '组件信息',
  subject: '项目',
  member: '成员',
  child: '子组织',
};

/** Tabs whose label differs on one route, and aliases. */
const ROUTE_TAB_OVERRIDES: Readonly<Record<string, Readonly<Record<string, Partial<Omit<TabInfo, 'key'>>>>>> = {
  // 'bug (also bugInfo)': one tab with two identifiers.
  '/project/analysis/details': { bugInfo: { label: '漏洞', aliasOf: 'bug' } },
  // A group's 应用 (the glossary's word for subject) and the groups below it.
  '/system/group/details': { subject: { label: '应用' }, child: { label: '子分组' } },
};

/**
 * The gating permission of a screen where it is obvious from the spec's codes. Child screens
 * (details, launch, settings pages) inherit their nearest listed ancestor's code through
 * `permissionOf`; null stops the inheritance (the screen is open to any signed-in user).
 * Choices the spec leaves open: the home dashboard is the projects' summary (project-summary);
 * the component-area screens use the area's code (component), the component query its component
 * information code (cominfo), the private components the remote-repository code (remote); the
 * governance licence list uses the licence-list code of the project area; /statistics is the
 * system-wide statistics (stastistic-system:see) and /project/statistics a subject's (statistic).
 */
export const ROUTE_PERMISSIONS: Readonly<Record<string, PermissionCode | null>> = {
  '/home/result': 'project-summary',
  '/project/projectList': 'project:list',
  '/project/newProject': 'project:list',
  '/project/import': 'project:list',
  '/project/taskList': 'analysis:task:list',
  '/project/analysis': 'analysis:task:list',
  '/project/report': 'report:list',
  '/project/component': 'component',
  '/project/statistics': 'statistic',
  '/project/projectSettings': 'project:setup',
  '/project/projectSettings/basicSetup': 'project:setup:base',
  '/project/projectSettings/memberManagement': 'project:setup:member:list',
  '/project/projectSettings/version': 'project:setup:version:list',
  '/project/projectSettings/dataTransfer': 'project:setup:move',
  '/project/projectSettings/noticeSetup': 'project:setup:information',
  '/project/projectSettings/defectManagement': 'project:setup:bug',
  '/project/projectSettings/projectPrivateServiceConf': 'repository-security:manager',
  '/subassembly/componentList': 'component',
  '/subassembly/offlineList': 'component',
  '/subassembly/whiteList': 'component',
  '/subassembly/ea': 'component',
  '/subassembly/log': 'component',
  '/subassembly/knowledge': 'cominfo',
  '/subassembly/privateComponent': 'remote',
  '/bug': 'vul',
  '/license': 'statistic-project:license:list',
  '/statistics': 'stastistic-system:see',
  '/privateService': 'repository-security:manager',
  '/system/user/user': 'setup:user:user:list',
  '/system/user/import': 'setup:user:user:list',
  '/system/user/record': 'setup:user:user:list',
  '/system/user/role': 'setup:user:role:list',
  '/system/group': 'setup:group:list',
  '/system/strategy/controlStrategy': 'setup:strategy:list',
  '/system/strategy/ratingStrategy': 'set:strategy:score',
  '/system/strategy/activityStrategy': 'set:strategy:activity',
  '/system/knowledgeBase/protocol': 'setup:knowledge:license',
  '/system/knowledgeBase/vul': 'setup:knowledge:vul',
  '/system/customer': 'setup:authinfo',
  '/system/notice/email': 'setup:notice:mail',
  '/system/notice/rongxintong': 'setup:notice:rxt',
  '/system/notice/im': 'setup:notice:im',
  '/system/projectType': 'setup:projectType',
  '/system/log': 'setup:log',
  '/system/log/operation': 'setup:log:op',
  '/system/log/system': 'setup:log:system',
  '/system/queueManagement/taskQueue': 'setup:queue:task',
  '/system/accountIntegration/ldap': 'setup:integration:ldap',
  '/system/systemSettings': 'setup:sys',
  '/system/systemSettings/taskCleanup': 'setup:sys:clean',
  '/system/systemSettings/downloadConfig': 'setup:sys:download',
  '/system/systemSettings/customFields': 'setup:sys:custom',
  '/system/sensitive': 'setup:sys',
  '/system/securityControl': 'setup:sys',
  '/system/systemState': 'setup:sys',
  // the bug-remind screen; the other reminders are open to every signed-in user
  '/remind': 'risk:vul:list',
  '/remind/control': null,
  '/remind/openSource': null,
  '/remind/ea': null,
};

/** The code of the path or of its nearest listed ancestor (/bug/bugList/details -> 'vul'). */
export function permissionOf(path: string): PermissionCode | undefined {
  const parts = cleanPath(path).split('/');
  for (let n = parts.length; n > 1; n -= 1) {
    const key = parts.slice(0, n).join('/');
    if (Object.prototype.hasOwnProperty.call(ROUTE_PERMISSIONS, key)) return ROUTE_PERMISSIONS[key] ?? undefined;
  }
  return undefined;
}

/** Screens the guard lets through without a session. */
const PUBLIC_ROUTES = [
  '/login',
  // single sign-on callback: it is how a session starts
  '/handleLogin',
  '/logout',
  // licence upload when the platform is not yet licensed: reached before anyone can sign in
  '/admin/manage-lic',
] as const;

/** Desktop-only screens. */
export const DESKTOP_ROUTES: readonly RouteInfo[] = [
  { path: '/desktop/profiles', title: '服务器配置', area: 'desktop', tabs: [], query: [], parent: false, desktopOnly: true, public: true },
  { path: '/desktop/personal', title: '个人设置', area: 'desktop', tabs: [], query: [], parent: false, desktopOnly: true },
  // Task vs task and subject vs subject comparison: the spec has the calls but names no screen.
  { path: '/project/analysis/compare', title: '任务对比', area: 'project', tabs: [], query: ['projectId', 'base', 'compare', 'subjects', 'view'], parent: false, desktopOnly: true, permission: 'analysis:task:list' },
  { path: '/project/repositorySource', title: '代码仓库源', area: 'project', tabs: [], query: [], parent: false, desktopOnly: true, permission: 'project:list' },
  // Issue 7: the downloaded reports of every server profile, and opening them with no platform.
  // Public: both are reachable from the login screen, offline.
  { path: '/desktop/library', title: '报告库', area: 'desktop', tabs: [], query: [], parent: false, desktopOnly: true, public: true },
  { path: '/desktop/review', title: '离线查看', area: 'desktop', tabs: [], query: ['id'], parent: false, desktopOnly: true, public: true },
];

/** Strips query and hash: '/project/projectList?product=1' -> '/project/projectList'. */
export function cleanPath(path: string): string {
  const p = path.replace(/^#/, '').split(/[?#]/)[0] ?? '';
  return p.length > 1 ? p.replace(/\/+$/, '') : p;
}

function tabsOf(path: string, keys: readonly string[]): TabInfo[] {
  const overrides = ROUTE_TAB_OVERRIDES[path] ?? {};
  return keys.map((key) => ({ key, label: TAB_LABELS[key] ?? key, ...overrides[key] }));
}

export const ROUTES: readonly RouteInfo[] = [
  ...specRoutes.map((r): RouteInfo => {
    const info: RouteInfo = {
      path: r.path,
      title: ROUTE_TITLES[r.path] ?? r.path,
      area: r.area,
      tabs: tabsOf(r.path, r.tabs),
      query: [...r.query],
      parent: r.parent,
    };
    const permission = permissionOf(r.path);
    if (permission) info.permission = permission;
    if ((PUBLIC_ROUTES as readonly string[]).includes(r.path)) info.public = true;
    return info;
  }),
  ...DESKTOP_ROUTES,
];

const BY_PATH = new Map(ROUTES.map((r) => [r.path, r]));

/** The route of a path (query and hash ignored), or undefined. */
export const routeInfo = (path: string): RouteInfo | undefined => BY_PATH.get(cleanPath(path));

/** The title of a path, or '' for an unknown path. */
export const routeTitle = (path: string): string => routeInfo(path)?.title ?? '';

// ---------------------------------------------------------------------------------------------
// Menu

export interface MenuItem {
  key: string;
  title: string;
  /** Target route; a group without one opens its first visible child. */
  path?: string;
  /** Shown only when the user holds this code. */
  permission?: PermissionCode;
  /** Shown only in these products (default: all). */
  products?: readonly Product[];
  children?: readonly MenuItem[];
}

const SOURCE_AND_BINARY: readonly Product[] = [1, 2];

const leaf = (path: string, title = ROUTE_TITLES[path] ?? path): MenuItem => {
  const item: MenuItem = { key: path, title, path };
  const permission = permissionOf(path);
  if (permission) item.permission = permission;
  return item;
};

/** The side menu: top-level groups and their entries. */
export const MENU: readonly MenuItem[] = [
  { key: 'home', title: '首页', products: SOURCE_AND_BINARY, children: [leaf('/home/result')] },
  {
    key: 'project',
    title: '项目',
    products: SOURCE_AND_BINARY,
    children: [leaf('/project/projectList'), leaf('/project/taskList'), leaf('/project/component'), leaf('/project/statistics'), leaf('/project/report')],
  },
  {
    key: 'subassembly',
    title: '组件',
    products: SOURCE_AND_BINARY,
    children: [
      leaf('/subassembly/componentList'),
      leaf('/subassembly/knowledge'),
      leaf('/subassembly/privateComponent'),
      leaf('/subassembly/whiteList/list'),
      leaf('/subassembly/ea'),
      leaf('/subassembly/log'),
      leaf('/subassembly/offlineList'),
    ],
  },
  { key: 'bug', title: '漏洞', products: SOURCE_AND_BINARY, children: [leaf('/bug/bugKanban'), leaf('/bug/bugList')] },
  { key: 'license', title: '许可证', products: SOURCE_AND_BINARY, children: [leaf('/license', '许可证列表')] },
  { key: 'knowledge', title: '知识库', children: [leaf('/knowledge', '知识库检索')] },
  { key: 'statistics', title: '统计', products: SOURCE_AND_BINARY, children: [leaf('/statistics')] },
  {
    key: 'privateService',
    title: '私服安全',
    products: [3],
    children: [
      leaf('/privateService/warehouse'),
      leaf('/privateService/component'),
      leaf('/privateService/statistics'),
      leaf('/privateService/intercept'),
    ],
  },
  {
    key: 'cloneDetection',
    title: '克隆检测',
    products: SOURCE_AND_BINARY,
    children: [leaf('/cloneDetection/openSourceDetection'), leaf('/cloneDetection/homologyDetection'), leaf('/cloneDetection/report')],
  },
  {
    key: 'system',
    title: '系统管理',
    children: [
      { key: 'system/user', title: '用户管理', children: [leaf('/system/user/user', '用户列表'), leaf('/system/user/role'), leaf('/system/user/record')] },
      leaf('/system/group'),
      {
        key: 'system/strategy',
        title: '策略管理',
        children: [leaf('/system/strategy/controlStrategy'), leaf('/system/strategy/ratingStrategy'), leaf('/system/strategy/activityStrategy')],
      },
      { key: 'system/knowledgeBase', title: '知识库管理', children: [leaf('/system/knowledgeBase/protocol'), leaf('/system/knowledgeBase/vul')] },
      leaf('/system/customer'),
      {
        key: 'system/notice',
        title: '通知管理',
        children: [leaf('/system/notice/email'), leaf('/system/notice/rongxintong'), leaf('/system/notice/im')],
      },
      leaf('/system/projectType'),
      {
        key: 'system/log',
        title: '日志管理',
        children: [leaf('/system/log/operation'), leaf('/system/log/system'), leaf('/system/log/scan'), leaf('/system/log/openApi')],
      },
      leaf('/system/queueManagement/taskQueue'),
      leaf('/system/accountIntegration/ldap'),
      {
        key: 'system/systemSettings',
        title: '系统设置',
        children: [
          leaf('/system/systemSettings/taskCleanup'),
          leaf('/system/systemSettings/downloadConfig'),
          leaf('/system/systemSettings/scanConfig'),
          leaf('/system/systemSettings/customFields'),
          leaf('/system/systemSettings/service'),
        ],
      },
      leaf('/system/sensitive'),
      leaf('/system/securityControl'),
      leaf('/system/systemState'),
    ],
  },
];

/** The header's personal menu. */
export const USER_MENU: readonly MenuItem[] = [
  leaf('/desktop/personal', '个人设置'),
  leaf('/desktop/profiles', '服务器配置'),
  leaf('/ssh'),
  leaf('/tokenManagement'),
  leaf('/download/resource'),
  leaf('/changePassword'),
  leaf('/logout'),
];

/** The reminder bell's entries. */
export const REMIND_MENU: readonly MenuItem[] = [
  leaf('/remind'),
  leaf('/remind/control'),
  leaf('/remind/openSource'),
  leaf('/remind/ea'),
];

/**
 * The menu as one user sees it: entries whose permission is held and whose products include the
 * current one; groups without a visible entry are dropped, and a group without its own path takes
 * its first visible entry's.
 */
export function visibleMenu(menu: readonly MenuItem[], has: (code: string) => boolean, product: Product): MenuItem[] {
  const out: MenuItem[] = [];
  for (const item of menu) {
    if (item.permission && !has(item.permission)) continue;
    if (item.products && !item.products.includes(product)) continue;
    if (item.children) {
      const children = visibleMenu(item.children, has, product);
      if (children.length === 0) continue;
      out.push({ ...item, children, path: item.path ?? children[0]!.path! });
    } else {
      out.push(item);
    }
  }
  return out;
}

/** Every leaf path of a menu, depth first. */
export function menuPaths(menu: readonly MenuItem[]): string[] {
  return menu.flatMap((item) => (item.children ? menuPaths(item.children) : item.path ? [item.path] : []));
}
