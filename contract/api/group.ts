// 组织 area (spec doc 2 §7 "Groups", screens /system/group and /system/group/details, permission
// setup:group:list): the organisation groups, a tree by parent (pid). An 应用 belongs to at most
// one group (subjects.group_id); a user to any number (user_groups). A role with the GROUP data
// permission shows its holders the 应用 of their groups and of every group below them.
//
// groupPath is the names from the root down joined by '/' (总部/研发部/平台组). It is computed
// from the tree whenever it is read, so a rename or a move changes the path of every group below
// at once; for that reason a group name may not contain '/', and names are unique among siblings
// (so a path names one group).
//
// What each read is for:
//   GET /api/group/list             the group screen's tree: every group, nested, with its counts;
//                                   `keyword` keeps the matching groups and the groups above them.
//   GET /api/group/filter/tree      the tree of the groups the caller may choose (their data scope:
//                                   every group for ALL, else their own groups and those below),
//                                   for tree pickers such as an 应用's group;
//   GET /api/group/filter/list      the same groups, flat, with their paths, for select filters;
//   GET /api/group/filter/all/list  every group, flat, with its path (the organisation chart is
//                                   not scoped data: the user list filters by any group).
// Deleting a group is refused while it still has child groups, 应用 or members: they are moved
// or removed first, so nobody's data scope changes as a side effect of a delete.
import { Type, type Static, type TProperties } from 'typebox';
import { NAME_MAX_LENGTH } from '../validation.ts';
import { defineCall } from './define.ts';
import { Id, IdParams, Keyword, Nullable, pagedList, PagingQuerySchema } from './kit.ts';

/** Separates the names of a groupPath; a group name may not contain it. */
export const GROUP_PATH_SEPARATOR = '/';
/** The answer's message of a move. */
export const GROUP_MOVED_MESSAGE = '移动成功';
/** The most ids one add/remove call takes. */
export const GROUP_BATCH_MAX = 500;

/** Checked in the service (validateName plus the separator) for its message. */
const NameText = Type.String({ maxLength: NAME_MAX_LENGTH * 2 });
const IdArray = Type.Array(Id(), { minItems: 1, maxItems: GROUP_BATCH_MAX });

/** A group as pickers and filters name it. */
export const GroupRefSchema = Type.Object({
  id: Type.Integer(),
  pid: Nullable(Type.Integer()),
  name: Type.String(),
  /** Names from the root down, joined by '/'. */
  groupPath: Type.String(),
});
export type GroupRef = Static<typeof GroupRefSchema>;

/** What a group holds directly (not counting the groups below it). */
const GroupCountFields = {
  childCount: Type.Integer({ minimum: 0 }),
  subjectCount: Type.Integer({ minimum: 0 }),
  userCount: Type.Integer({ minimum: 0 }),
};

export const GroupDetailSchema = Type.Object({
  ...GroupRefSchema.properties,
  ...GroupCountFields,
  /** Root first, the group itself last. */
  path: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String() })),
  createdAt: Type.String(),
});
export type GroupDetail = Static<typeof GroupDetailSchema>;

/**
 * A tree node: the group and its children, each a node of the same shape. The schema leaves the
 * children unchecked (one level of recursion the serialiser would have to resolve per node); the
 * interfaces give their type.
 */
const treeOf = <P extends TProperties>(properties: P) => Type.Array(Type.Object({ ...properties, children: Type.Array(Type.Unknown()) }));

export interface GroupTreeNode extends GroupDetail {
  children: GroupTreeNode[];
}
export const GroupTreeSchema = treeOf(GroupDetailSchema.properties);

export interface GroupRefNode extends GroupRef {
  children: GroupRefNode[];
}
export const GroupRefTreeSchema = treeOf(GroupRefSchema.properties);

export const GroupNameSchema = Type.Object({ name: NameText });
export const GroupChildSchema = Type.Object({ pid: Id(), name: NameText });
/** pid null (or absent): to the top level. */
export const GroupMoveSchema = Type.Object({ id: Id(), pid: Type.Optional(Nullable(Id())) });
export const GroupSubjectsSchema = Type.Object({ groupId: Id(), subjectIds: IdArray });
export const GroupUsersSchema = Type.Object({ groupId: Id(), userIds: IdArray });

/** The pickers' query: the group, a keyword and the page. */
export const GroupPickerQuerySchema = Type.Object({
  groupId: Id(),
  keyword: Keyword,
  ...PagingQuerySchema.properties,
});

export const GroupSubjectRowSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  /** 1 source-code product, 2 binary product. */
  product: Type.Integer(),
  ownerName: Nullable(Type.String()),
  /** The group the 应用 is in now (hasNotSubjects: adding it moves it from there). */
  groupId: Nullable(Type.Integer()),
  groupPath: Nullable(Type.String()),
});
export type GroupSubjectRow = Static<typeof GroupSubjectRowSchema>;

export const GroupUserRowSchema = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  name: Type.String(),
  email: Nullable(Type.String()),
  userType: Type.Integer(),
  isLock: Type.Union([Type.Literal('Y'), Type.Literal('N')]),
  /** Every group the user is in, by path. */
  groupPaths: Type.Array(Type.String()),
});
export type GroupUserRow = Static<typeof GroupUserRowSchema>;

/** What an add or remove changed: rows that were not in the state asked for. */
export const GroupChangedSchema = Type.Object({ changed: Type.Integer({ minimum: 0 }) });

const P = 'setup:group:list' as const;

export const list = defineCall({
  name: 'group.list',
  method: 'GET',
  path: '/api/group/list',
  summary: '组织树（含各组的子组、应用与成员数）',
  query: Type.Object({ keyword: Keyword }),
  response: GroupTreeSchema,
  permission: P,
});

export const filterList = defineCall({
  name: 'group.filterList',
  method: 'GET',
  path: '/api/group/filter/list',
  summary: '可选的分组（本人数据范围内）',
  response: Type.Array(GroupRefSchema),
});

export const filterAllList = defineCall({
  name: 'group.filterAllList',
  method: 'GET',
  path: '/api/group/filter/all/list',
  summary: '全部分组',
  response: Type.Array(GroupRefSchema),
});

export const filterTree = defineCall({
  name: 'group.filterTree',
  method: 'GET',
  path: '/api/group/filter/tree',
  summary: '可选的分组树（本人数据范围内）',
  response: GroupRefTreeSchema,
});

export const detail = defineCall({
  name: 'group.detail',
  method: 'GET',
  path: '/api/group/{id}',
  summary: '分组详情',
  params: IdParams,
  response: GroupDetailSchema,
  permission: P,
});

export const rename = defineCall({
  name: 'group.rename',
  method: 'PUT',
  path: '/api/group/{id}',
  summary: '重命名分组',
  params: IdParams,
  body: GroupNameSchema,
  response: GroupDetailSchema,
  permission: P,
});

export const remove = defineCall({
  name: 'group.remove',
  method: 'DELETE',
  path: '/api/group/{id}',
  summary: '删除分组（须先移走其子组、应用与成员）',
  params: IdParams,
  response: Type.Null(),
  permission: P,
});

export const addRoot = defineCall({
  name: 'group.addRoot',
  method: 'POST',
  path: '/api/group',
  summary: '新建顶级分组',
  body: GroupNameSchema,
  response: GroupDetailSchema,
  permission: P,
});

export const addChild = defineCall({
  name: 'group.addChild',
  method: 'POST',
  path: '/api/group/child',
  summary: '新建子组',
  body: GroupChildSchema,
  response: GroupDetailSchema,
  permission: P,
});

export const move = defineCall({
  name: 'group.move',
  method: 'POST',
  path: '/api/group/moveGroup',
  summary: '移动分组（连同其下级）',
  body: GroupMoveSchema,
  response: GroupDetailSchema,
  permission: P,
});

/** Puts the 应用 into the group, taking each out of the group it was in. */
export const addSubjects = defineCall({
  name: 'group.addSubjects',
  method: 'POST',
  path: '/api/group/addSubjects',
  summary: '向分组添加应用',
  body: GroupSubjectsSchema,
  response: GroupChangedSchema,
  permission: P,
});

export const removeSubjects = defineCall({
  name: 'group.removeSubjects',
  method: 'POST',
  path: '/api/group/removeSubjects',
  summary: '从分组移除应用',
  body: GroupSubjectsSchema,
  response: GroupChangedSchema,
  permission: P,
});

export const addUsers = defineCall({
  name: 'group.addUsers',
  method: 'POST',
  path: '/api/group/addUsers',
  summary: '向分组添加成员',
  body: GroupUsersSchema,
  response: GroupChangedSchema,
  permission: P,
});

export const removeUsers = defineCall({
  name: 'group.removeUsers',
  method: 'POST',
  path: '/api/group/removeUsers',
  summary: '从分组移除成员',
  body: GroupUsersSchema,
  response: GroupChangedSchema,
  permission: P,
});

export const hasSubjects = defineCall({
  name: 'group.hasSubjects',
  method: 'GET',
  path: '/api/group/hasSubjects',
  summary: '分组内的应用',
  ...pagedList(GroupSubjectRowSchema),
  query: GroupPickerQuerySchema,
  permission: P,
});

export const hasNotSubjects = defineCall({
  name: 'group.hasNotSubjects',
  method: 'GET',
  path: '/api/group/hasNotSubjects',
  summary: '不在分组内的应用（可添加）',
  ...pagedList(GroupSubjectRowSchema),
  query: GroupPickerQuerySchema,
  permission: P,
});

export const hasUsers = defineCall({
  name: 'group.hasUsers',
  method: 'GET',
  path: '/api/group/hasUsers',
  summary: '分组成员',
  ...pagedList(GroupUserRowSchema),
  query: GroupPickerQuerySchema,
  permission: P,
});

export const hasNotUsers = defineCall({
  name: 'group.hasNotUsers',
  method: 'GET',
  path: '/api/group/hasNotUsers',
  summary: '不在分组内的用户（可添加）',
  ...pagedList(GroupUserRowSchema),
  query: GroupPickerQuerySchema,
  permission: P,
});

export const getByGroupPath = defineCall({
  name: 'group.getByGroupPath',
  method: 'GET',
  path: '/api/group/getByGroupPath',
  summary: '按分组路径查找分组',
  query: Type.Object({ groupPath: Type.String({ minLength: 1, maxLength: 4000 }) }),
  response: GroupDetailSchema,
  permission: P,
});

export const groupCalls = {
  list, filterList, filterAllList, filterTree, detail, rename, remove, addRoot, addChild, move,
  addSubjects, removeSubjects, addUsers, removeUsers, hasSubjects, hasNotSubjects, hasUsers, hasNotUsers, getByGroupPath,
};
