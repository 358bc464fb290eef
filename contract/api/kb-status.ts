// Knowledge-base status (issue 14 item 1): what the knowledge base holds — by source, by ecosystem —
// when it was last updated and whether that is too long ago; and the coverage a run was analysed
// with, so no screen or report says 无漏洞 where the knowledge base simply knew nothing.
import { Type, type Static } from 'typebox';
import { defineCall } from './define.ts';
import { Nullable } from './kit.ts';

/** Default of the stale threshold when neither the setting nor CAIRN_KB_STALE_DAYS says otherwise. */
export const KB_STALE_DAYS_DEFAULT = 30;
export const KB_STALE_DAYS_MAX = 3650;

/** osv | nvd | trivy | id-map (CNNVD/CNVD 编号对照) | sync (镜像同步) | custom (系统漏洞). */
export const KbSourceKindSchema = Type.Union([
  Type.Literal('osv'), Type.Literal('nvd'), Type.Literal('trivy'), Type.Literal('id-map'), Type.Literal('sync'), Type.Literal('custom'),
]);
export type KbSourceKind = Static<typeof KbSourceKindSchema>;

export const KbSourceSchema = Type.Object({
  kind: KbSourceKindSchema,
  label: Type.String(),
  /** Advisories filed under the source (id-map: mappings; sync: advisories the mirror's imports brought, counted under OSV too). */
  count: Type.Integer(),
  /** What `count` counts: 条漏洞 / 条对照 / 个生态. */
  unit: Type.String(),
  /** Last successful import of the source (custom: last edit); null when never. */
  lastImportAt: Nullable(Type.String()),
});
export type KbSource = Static<typeof KbSourceSchema>;

export const KbEcosystemSchema = Type.Object({
  /** purl type: npm, maven, pypi, golang, deb … */
  ecosystem: Type.String(),
  advisories: Type.Integer(),
});

export const KbStatusSchema = Type.Object({
  /** Advisories in the knowledge base, every source. */
  total: Type.Integer(),
  empty: Type.Boolean(),
  sources: Type.Array(KbSourceSchema),
  /** Most advisories first. */
  ecosystems: Type.Array(KbEcosystemSchema),
  /** Last import that succeeded, or the newest advisory row written by an importer; null when never. */
  lastUpdate: Nullable(Type.String()),
  /** Whole days since lastUpdate; null when never. */
  ageDays: Nullable(Type.Integer()),
  /** Older than staleDays (an empty knowledge base is `empty`, not stale). */
  stale: Type.Boolean(),
  staleDays: Type.Integer(),
  /** Where staleDays comes from: the administrators' setting, CAIRN_KB_STALE_DAYS or the default. */
  staleDaysSource: Type.Union([Type.Literal('setting'), Type.Literal('env'), Type.Literal('default')]),
  /** The status in one sentence (知识库为空… / 知识库已 45 天未更新… / 知识库正常). */
  message: Type.String(),
});
export type KbStatus = Static<typeof KbStatusSchema>;

/**
 * What the knowledge base covered when a run was analysed, kept on the run. `complete` false means
 * its vulnerability results are incomplete: reasons say why in words. Runs analysed before this
 * record existed have none (null where it is carried).
 */
export const KbCoverageSchema = Type.Object({
  complete: Type.Boolean(),
  /** The knowledge base had no advisories at all. */
  empty: Type.Boolean(),
  stale: Type.Boolean(),
  staleDays: Type.Integer(),
  lastUpdate: Nullable(Type.String()),
  ageDays: Nullable(Type.Integer()),
  /** Ecosystems of the run's components with no advisory in the knowledge base, and how many components each has. */
  uncovered: Type.Array(Type.Object({ ecosystem: Type.String(), components: Type.Integer() })),
  /** Components of those ecosystems (shown 未覆盖, never 无漏洞). */
  uncoveredComponents: Type.Integer(),
  /** Of those, the ones with a known version (risk 32 无漏洞 in the spec's codes): the figure charts show as 未覆盖 instead. */
  uncoveredNoVulnerability: Type.Integer(),
  /** Sentences: 知识库中没有 npm 生态的漏洞数据（12 个组件未覆盖）; 知识库已 45 天未更新（超过 30 天）. */
  reasons: Type.Array(Type.String()),
  checkedAt: Type.String(),
});
export type KbCoverage = Static<typeof KbCoverageSchema>;

export const kbStatus = defineCall({
  name: 'knowledge.status',
  method: 'GET',
  path: '/api/vulnerability/system/kb/status',
  summary: '漏洞知识库状态（来源、各生态漏洞数、最近更新、是否过期）',
  response: KbStatusSchema,
});

export const kbSettings = defineCall({
  name: 'knowledge.settings',
  method: 'POST',
  path: '/api/vulnerability/system/kb/settings',
  summary: '设置漏洞知识库过期天数',
  body: Type.Object({ staleDays: Type.Integer({ minimum: 1, maximum: KB_STALE_DAYS_MAX }) }),
  response: KbStatusSchema,
  permission: 'setup:knowledge:vul',
});

export const kbStatusCalls = { kbStatus, kbSettings };
