// 扫描配置 (spec doc 2 "System settings": /api/system/scan/maven (list, POST, PUT, DELETE /{id}),
// /scan/npm, /scan/pypi; /api/subject/scan/maven (list, POST, PUT, DELETE); screen
// /system/systemSettings/scanConfig, permission setup:sys): the repositories online resolution asks
// when an analysis resolves the dependencies of a manifest without a lockfile (a Maven pom.xml, a
// package.json, unpinned requirements) — system-wide per ecosystem, plus an 应用's own Maven
// repositories, asked first for its analyses. The spec names the calls only; the fields are the
// ones a repository manager needs. A password is write-only: stored encrypted, answered as
// `hasPassword`. Online resolution itself is switched on in the settings call (off by default).
import { Type, type Static } from 'typebox';
import { defineCall } from './define.ts';
import { Id, IdParams, Nullable } from './kit.ts';

const L = Type.Literal;

export const SCAN_ECOSYSTEMS = ['maven', 'npm', 'pypi'] as const;
export type ScanEcosystem = (typeof SCAN_ECOSYSTEMS)[number];

/** How the screen names each ecosystem's repositories. */
export const SCAN_ECOSYSTEM_LABEL: Readonly<Record<ScanEcosystem, string>> = {
  maven: 'Maven 仓库',
  npm: 'npm 注册表',
  pypi: 'PyPI 索引',
};

/** An example address per ecosystem, shown as the form's placeholder. */
export const SCAN_URL_EXAMPLE: Readonly<Record<ScanEcosystem, string>> = {
  maven: 'https://nexus.example.com/repository/maven-public/',
  npm: 'https://nexus.example.com/repository/npm-group/',
  pypi: 'https://nexus.example.com/repository/pypi-group/simple/',
};

export const SCAN_NAME_MAX = 100;
export const SCAN_URL_MAX = 2000;
export const SCAN_USERNAME_MAX = 200;
export const SCAN_PASSWORD_MAX = 500;
export const SCAN_REMARK_MAX = 200;

export const ScanRepositoryRowSchema = Type.Object({
  id: Type.Integer(),
  ecosystem: Type.Union([L('maven'), L('npm'), L('pypi')]),
  /** The 应用 whose own repository this is; null for a system-wide one. */
  subjectId: Nullable(Type.Integer()),
  name: Type.String(),
  url: Type.String(),
  username: Type.String(),
  /** Whether a password is stored (it is never answered). */
  hasPassword: Type.Boolean(),
  enabled: Type.Boolean(),
  /** Asked in ascending order. */
  priority: Type.Integer(),
  remark: Type.String(),
  createdBy: Nullable(Type.String()),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
export type ScanRepositoryRow = Static<typeof ScanRepositoryRowSchema>;

const formFields = {
  name: Type.String({ minLength: 1, maxLength: SCAN_NAME_MAX }),
  url: Type.String({ minLength: 1, maxLength: SCAN_URL_MAX }),
  username: Type.Optional(Type.String({ maxLength: SCAN_USERNAME_MAX })),
  /** A new password; omitted (or '') keeps the stored one on update. */
  password: Type.Optional(Type.String({ maxLength: SCAN_PASSWORD_MAX })),
  /** Removes the stored password (update). */
  clearPassword: Type.Optional(Type.Boolean()),
  enabled: Type.Boolean(),
  priority: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000 })),
  remark: Type.Optional(Type.String({ maxLength: SCAN_REMARK_MAX })),
};

export const ScanRepositoryFormSchema = Type.Object(formFields);
export type ScanRepositoryForm = Static<typeof ScanRepositoryFormSchema>;
const UpdateSchema = Type.Object({ id: Id(), ...formFields });
export type ScanRepositoryUpdate = Static<typeof UpdateSchema>;

/** The four calls of one ecosystem's system-wide repositories. */
function systemCalls<E extends ScanEcosystem>(ecosystem: E) {
  const base = `/api/system/scan/${ecosystem}`;
  const label = SCAN_ECOSYSTEM_LABEL[ecosystem];
  return {
    list: defineCall({ name: `scanConfig.${ecosystem}List`, method: 'GET', path: `${base}/list`, summary: `${label}列表`, response: Type.Array(ScanRepositoryRowSchema), permission: 'setup:sys' }),
    add: defineCall({ name: `scanConfig.${ecosystem}Add`, method: 'POST', path: base, summary: `添加${label}`, body: ScanRepositoryFormSchema, response: ScanRepositoryRowSchema, permission: 'setup:sys' }),
    update: defineCall({ name: `scanConfig.${ecosystem}Update`, method: 'PUT', path: base, summary: `修改${label}`, body: UpdateSchema, response: ScanRepositoryRowSchema, permission: 'setup:sys' }),
    remove: defineCall({ name: `scanConfig.${ecosystem}Remove`, method: 'DELETE', path: `${base}/{id}`, summary: `删除${label}`, params: IdParams, response: Type.Null(), permission: 'setup:sys' }),
  };
}

const maven = systemCalls('maven');
const npm = systemCalls('npm');
const pypi = systemCalls('pypi');

export const SubjectScanQuerySchema = Type.Object({ subjectId: Id() });
const SubjectFormSchema = Type.Object({ subjectId: Id(), ...formFields });
export type SubjectScanForm = Static<typeof SubjectFormSchema>;
const SubjectUpdateSchema = Type.Object({ id: Id(), subjectId: Id(), ...formFields });

/** An 应用's own Maven repositories: its members see them, its managers change them (基本设置). */
export const subjectMavenList = defineCall({
  name: 'scanConfig.subjectMavenList', method: 'GET', path: '/api/subject/scan/maven/list', summary: '应用的 Maven 仓库列表',
  query: SubjectScanQuerySchema, response: Type.Array(ScanRepositoryRowSchema), permission: 'project:setup:base',
});
export const subjectMavenAdd = defineCall({
  name: 'scanConfig.subjectMavenAdd', method: 'POST', path: '/api/subject/scan/maven', summary: '添加应用的 Maven 仓库',
  body: SubjectFormSchema, response: ScanRepositoryRowSchema, permission: 'project:setup:base',
});
export const subjectMavenUpdate = defineCall({
  name: 'scanConfig.subjectMavenUpdate', method: 'PUT', path: '/api/subject/scan/maven', summary: '修改应用的 Maven 仓库',
  body: SubjectUpdateSchema, response: ScanRepositoryRowSchema, permission: 'project:setup:base',
});
export const subjectMavenRemove = defineCall({
  name: 'scanConfig.subjectMavenRemove', method: 'DELETE', path: '/api/subject/scan/maven', summary: '删除应用的 Maven 仓库',
  query: Type.Object({ id: Id(), subjectId: Id() }), response: Type.Null(), permission: 'project:setup:base',
});

/** Online resolution: off by default; the bounds each analysis resolves within. */
export const ScanSettingsSchema = Type.Object({
  online: Type.Boolean(),
  /** Per request, seconds. */
  timeoutSeconds: Type.Integer({ minimum: 1, maximum: 300 }),
  /** Components resolved per manifest at most. */
  maxPackages: Type.Integer({ minimum: 1, maximum: 20_000 }),
  /** Depth of the dependency tree below the manifest. */
  maxDepth: Type.Integer({ minimum: 1, maximum: 100 }),
});
export type ScanSettings = Static<typeof ScanSettingsSchema>;

export const DEFAULT_SCAN_SETTINGS: ScanSettings = { online: false, timeoutSeconds: 15, maxPackages: 2000, maxDepth: 30 };

export const settings = defineCall({
  name: 'scanConfig.settings', method: 'GET', path: '/api/system/scan/settings', summary: '在线解析设置', response: ScanSettingsSchema, permission: 'setup:sys',
});
export const saveSettings = defineCall({
  name: 'scanConfig.saveSettings', method: 'PUT', path: '/api/system/scan/settings', summary: '保存在线解析设置', body: ScanSettingsSchema, response: ScanSettingsSchema, permission: 'setup:sys',
});

export const scanConfigCalls = {
  mavenList: maven.list, mavenAdd: maven.add, mavenUpdate: maven.update, mavenRemove: maven.remove,
  npmList: npm.list, npmAdd: npm.add, npmUpdate: npm.update, npmRemove: npm.remove,
  pypiList: pypi.list, pypiAdd: pypi.add, pypiUpdate: pypi.update, pypiRemove: pypi.remove,
  subjectMavenList, subjectMavenAdd, subjectMavenUpdate, subjectMavenRemove,
  settings, saveSettings,
};
