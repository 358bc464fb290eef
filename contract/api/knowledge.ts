// Knowledge-base checks (spec doc 2 §7 "Knowledge base"): does the knowledge base know these
// vulnerability ids, and what does it say about these components. The licence check belongs to
// the licence knowledge base and is declared with it.
import { Type, type Static } from 'typebox';
import { defineCall } from './define.ts';
import { Nullable, PackageFields } from './kit.ts';
import { FixStateSchema, LevelSchema, RiskLevelSchema } from './vulnerability.ts';

export const VulnerabilityCheckRowSchema = Type.Object({
  /** The id as asked. */
  id: Type.String(),
  known: Type.Boolean(),
  /** Row id for the detail page, and the advisory id it is filed under (null when unknown). */
  vulnerabilityId: Nullable(Type.Integer()),
  primaryId: Nullable(Type.String()),
  level: Nullable(LevelSchema),
  name: Nullable(Type.String()),
});

export const vulnerabilityCheck = defineCall({
  name: 'knowledge.vulnerabilityCheck',
  method: 'POST',
  path: '/api/knowledgeBase/vulnerability/check',
  summary: '检查漏洞编号是否收录于知识库',
  body: Type.Object({ ids: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 1000 }) }),
  response: Type.Array(VulnerabilityCheckRowSchema),
  permission: 'vul',
});

export const ComponentRefSchema = Type.Object({
  /** purl type (npm, maven, pypi, golang, …); OSV names (Go, PyPI, crates.io) are accepted too. */
  ecosystem: Type.String({ minLength: 1, maxLength: 30 }),
  /** As the ecosystem writes it: `@babel/core`, `org.slf4j:slf4j-api`, `github.com/x/y`. */
  name: Type.String({ minLength: 1, maxLength: 400 }),
  /** Blank: unknown version (risk 64). */
  version: Type.Optional(Type.String({ maxLength: 200 })),
});

export const ComponentCheckRowSchema = Type.Object({
  /** purl: as asked, or the one built from ecosystem/name/version. */
  ...PackageFields,
  /** Whether any advisory in the knowledge base names the package at all. */
  known: Type.Boolean(),
  findings: Type.Integer(),
  risk: RiskLevelSchema,
  /** fixState: the distribution's fix status (FIX_STATE_LABEL); fixedInText shows both. */
  vulnerabilities: Type.Array(Type.Object({ id: Type.String(), level: LevelSchema, fixedVersions: Type.Array(Type.String()), fixState: FixStateSchema })),
});
export type ComponentCheckRow = Static<typeof ComponentCheckRowSchema>;

export const componentCheck = defineCall({
  name: 'knowledge.componentCheck',
  method: 'POST',
  path: '/api/knowledgeBase/component/check',
  summary: '检查组件在知识库中的漏洞情况',
  body: Type.Object({
    components: Type.Optional(Type.Array(ComponentRefSchema, { maxItems: 1000 })),
    purls: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 1000 }), { maxItems: 1000 })),
  }),
  response: Type.Array(ComponentCheckRowSchema),
  permission: 'component',
});

export const knowledgeCalls = { vulnerabilityCheck, componentCheck };
