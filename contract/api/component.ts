// Component area (spec doc 1/2 §7 "Component"): the recommended versions. A run's component
// lists and details are result calls (contract/api/result/components.ts).
import { Type } from 'typebox';
import { defineCall } from './define.ts';
import { Nullable, PackageFields } from './kit.ts';

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

export const componentCalls = { recommendVersion, bulkGetRecommendVersion };
