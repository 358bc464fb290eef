// Component area (spec doc 1/2 §7 "Component"): the recommended versions, and which projects use a
// component version (组件影响; the binary product's at /api/binary/influence/version/{id}). A run's component
// lists and details are result calls (contract/api/result/components.ts).
import { Type } from 'typebox';
import { defineCall } from './define.ts';
import { Nullable, PackageFields, pagedList, ProjectRefFields, SubjectRefFields } from './kit.ts';

export const RecommendVersionSchema = Type.Object({
  /** purl: as asked. */
  ...PackageFields,
  /** The nearest higher version no known advisory affects; the current one when it is clean; null when none. */
  recommendVersion: Nullable(Type.String()),
  reason: Type.String(),
  /** Known vulnerabilities of the current version. */
  findings: Type.Integer(),
});

export const recommendVersion = defineCall({
  name: 'component.recommendVersion',
  method: 'GET',
  path: '/api/component/recommendVersion/{id}',
  summary: '组件推荐版本（{id} 为 URL 编码的 purl）',
  params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 1000 }) }),
  response: RecommendVersionSchema,
  permission: 'component',
});

export const bulkGetRecommendVersion = defineCall({
  name: 'component.bulkGetRecommendVersion',
  method: 'POST',
  path: '/api/component/bulkGetRecommendVersion',
  summary: '批量获取组件推荐版本',
  body: Type.Object({ purls: Type.Array(Type.String({ minLength: 1, maxLength: 1000 }), { minItems: 1, maxItems: 500 }) }),
  response: Type.Array(RecommendVersionSchema),
  permission: 'component',
});

/** A project whose latest results hold the component, with the run and the component's row there. */
export const ComponentInfluenceRowSchema = Type.Object({
  ...SubjectRefFields,
  ...ProjectRefFields,
  /** The run (task) the row is from: the project's latest successful one. */
  taskId: Type.Integer(),
  /** The component's row in that run (its detail drawer). */
  componentId: Type.Integer(),
  component: Type.String(),
  version: Type.String(),
});

/** `{id}`: a URL-encoded purl (without a version: every version of it), or a component row id of a task result the user may see. */
const InfluenceParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 1000 }) });

export const influence = defineCall({
  name: 'component.influence',
  method: 'POST',
  path: '/api/component/influence/{id}',
  summary: '组件影响的项目（源码检测的应用中，最近一次成功分析含该组件版本的项目）',
  params: InfluenceParams,
  ...pagedList(ComponentInfluenceRowSchema),
  permission: 'component',
});

export const binaryInfluence = defineCall({
  name: 'component.binaryInfluence',
  method: 'POST',
  path: '/api/binary/influence/version/{id}',
  summary: '组件影响的项目（二进制检测的应用中，最近一次成功分析含该组件版本的项目）',
  params: InfluenceParams,
  ...pagedList(ComponentInfluenceRowSchema),
  permission: 'component',
});

export const componentCalls = { influence, binaryInfluence, recommendVersion, bulkGetRecommendVersion };
