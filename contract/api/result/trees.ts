// Result area, trees (spec doc 1 §7 "Task"): a run's file tree and dependency tree, loaded one
// paged level at a time, and the search that finds a node and the path to expand to it.
import { Type, type Static, type TSchema } from 'typebox';
import { defineCall } from '../define.ts';
import { Id, Nullable, PackageFields, PageSchema } from '../kit.ts';
import { RiskLevelSchema } from '../vulnerability.ts';
import {
  ComponentMarkSchema, ComponentRiskFields, PathStepSchema, ProjectIdParams, ProjectParams, RESULT_PERMISSION,
  ScopeSchema, TaskPagingQuery,
} from './common.ts';

const L = Type.Literal;

/** A tree level is paged: a directory or component may have thousands of children. Default size 200. */
const TreeQuery = Type.Object({ ...TaskPagingQuery.properties });

export const FileNodeSchema = Type.Object({
  /** Path relative to the scan root, `/`-separated: the `pathId` of list/file. */
  pathId: Type.String(),
  name: Type.String(),
  isDir: Type.Boolean(),
  /** Bytes; 0 for directories. */
  size: Type.Number(),
  /** Components declared in this file or below this directory. */
  componentCount: Type.Integer(),
  hasChildren: Type.Boolean(),
});
export type FileNode = Static<typeof FileNodeSchema>;

/** Dot-joined component ids from a root to the node (`12.57.301`): one occurrence in the tree. */
const DependencyPathId = Type.String({ minLength: 1, maxLength: 4000, pattern: '^\\d+(\\.\\d+)*$' });
const FilePathId = Type.String({ minLength: 1, maxLength: 4096 });

export const DependencyNodeSchema = Type.Object({
  /** This occurrence: the parent's pathId + '.' + id. */
  pathId: Type.String(),
  /** The component row id (detail drawer, marks). */
  id: Type.Integer(),
  ...PackageFields,
  direct: Type.Boolean(),
  scope: ScopeSchema,
  ...ComponentRiskFields,
  licenseExpression: Nullable(Type.String()),
  mark: ComponentMarkSchema,
  /** Distinct direct children. */
  childCount: Type.Integer(),
  /** The component already appears earlier on its own path: shown, never expanded. */
  cycle: Type.Boolean(),
});
export type DependencyNode = Static<typeof DependencyNodeSchema>;

export const TreeLevelSchema = <T extends TSchema>(node: T) => Type.Object({
  /** The run the tree belongs to; null when the project has no succeeded run. */
  taskId: Nullable(Type.Integer()),
  ...PageSchema(node).properties,
});

export const TreeSearchHitSchema = Type.Object({
  pathId: Type.String(),
  name: Type.String(),
  version: Nullable(Type.String()),
  /** Component row id (dependence), null for files. */
  componentId: Nullable(Type.Integer()),
  riskLevel: Nullable(RiskLevelSchema),
  isDir: Type.Boolean(),
  /** From the root down to the hit's parent: the nodes to expand. */
  ancestors: Type.Array(PathStepSchema),
});
export type TreeSearchHit = Static<typeof TreeSearchHitSchema>;

export const fileTree = defineCall({
  name: 'result.fileTree',
  method: 'GET',
  path: '/api/resultTree/file/{id}',
  summary: '文件树根层级（{id} 为项目 ID）',
  params: ProjectIdParams,
  query: TreeQuery,
  response: TreeLevelSchema(FileNodeSchema),
  permission: RESULT_PERMISSION,
});

export const binaryTree = defineCall({
  name: 'result.binaryTree',
  method: 'GET',
  path: '/api/binary/tree/{id}',
  summary: '二进制产品的文件树根层级（{id} 为项目 ID）',
  params: ProjectIdParams,
  query: TreeQuery,
  response: TreeLevelSchema(FileNodeSchema),
  permission: RESULT_PERMISSION,
});

export const dependenceTree = defineCall({
  name: 'result.dependenceTree',
  method: 'GET',
  path: '/api/resultTree/dependence/{id}',
  summary: '依赖树根层级（{id} 为项目 ID；根为项目直接依赖）',
  params: ProjectIdParams,
  query: TreeQuery,
  response: TreeLevelSchema(DependencyNodeSchema),
  permission: RESULT_PERMISSION,
});

export const dependenceChildren = defineCall({
  name: 'result.dependenceChildren',
  method: 'GET',
  path: '/api/resultTree/list/dependence/{projectId}',
  summary: '依赖树节点的子节点（按需加载）',
  params: ProjectParams,
  query: Type.Object({ ...TreeQuery.properties, pathId: DependencyPathId }),
  response: TreeLevelSchema(DependencyNodeSchema),
  permission: RESULT_PERMISSION,
});

export const fileChildren = defineCall({
  name: 'result.fileChildren',
  method: 'GET',
  path: '/api/resultTree/list/file/{projectId}',
  summary: '文件树目录的子节点（按需加载）',
  params: ProjectParams,
  query: Type.Object({ ...TreeQuery.properties, pathId: FilePathId }),
  response: TreeLevelSchema(FileNodeSchema),
  permission: RESULT_PERMISSION,
});

export const treeSearch = defineCall({
  name: 'result.treeSearch',
  method: 'POST',
  path: '/api/resultTree/search/{projectId}',
  summary: '在依赖树或文件树中搜索，返回命中节点及其路径',
  params: ProjectParams,
  body: Type.Object({
    keyword: Type.String({ minLength: 1, maxLength: 200 }),
    kind: Type.Union([L('dependence'), L('file')]),
    taskId: Type.Optional(Id()),
    /** Hits returned at most (default 200); a component on many paths counts once per path. */
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  }),
  response: Type.Object({
    /** `total` counts all hits, which may exceed `content`. */
    ...PageSchema(TreeSearchHitSchema).properties,
    capped: Type.Boolean(),
  }),
  permission: RESULT_PERMISSION,
});

/** The tree calls (server/routes/result/trees.ts answers them). */
export const resultTreeCalls = { fileTree, binaryTree, dependenceTree, dependenceChildren, fileChildren, treeSearch };
