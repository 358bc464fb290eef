// 敏感信息 (sensitive information, analysis mode 9; spec doc 1 §4 "Binary leaks", doc 2 system
// settings "sensitive leak rule", screens /system/sensitive and the task details tab
// sensitiveInfo): what a run found in the strings of the upload's binaries and text files, and the
// rules it looks with — built-in ones (not deletable, can be turned off) and the administrators'.
// The spec names the calls only; the payloads are the ones the screens need. A found value is never
// returned: its secret part is masked when the run stores it.
import { Type, type Static } from 'typebox';
import { NAME_MAX_LENGTH } from '../validation.ts';
import { defineCall } from './define.ts';
import { filteredList, Id, Keyword, Nullable, PageSchema, PagingQuerySchema } from './kit.ts';
import { RESULT_PERMISSION } from './result/common.ts';

const L = Type.Literal;

/** LEAK_TYPE_LABEL codes (contract/leak-types.ts; a unit test keeps the two in step). */
export const LeakTypeSchema = Type.Union([L('ip'), L('host'), L('path'), L('credential'), L('private-key'), L('token'), L('email')]);

/** The permission of the rule calls (system settings, /system/sensitive). */
export const LEAK_RULE_PERMISSION = 'setup:sys' as const;

// ---- what a run found ------------------------------------------------------------------------------

const RunQuery = {
  /** The project (task) whose results are read. */
  projectId: Id(),
  /** A run of it other than its latest succeeded one. */
  taskId: Type.Optional(Id()),
};

export const LeakTypeCountSchema = Type.Object({ type: LeakTypeSchema, count: Type.Integer() });

export const LeakTypesSchema = Type.Object({
  /** Whether the run looked (analysis mode 9 ticked); false for runs without it, or before it existed. */
  analysed: Type.Boolean(),
  total: Type.Integer(),
  /** Files with at least one finding. */
  files: Type.Integer(),
  /** Every type, in LEAK_TYPE_LABEL order, with its count (0 included). */
  types: Type.Array(LeakTypeCountSchema),
});
export type LeakTypes = Static<typeof LeakTypesSchema>;

export const LeakRowSchema = Type.Object({
  id: Type.Integer(),
  /** Root-relative path of the file. */
  file: Type.String(),
  /** Byte offset of the match in the file. */
  offset: Type.Integer(),
  type: LeakTypeSchema,
  /** The rule's key: builtin:<name> or user:<id>. */
  rule: Type.String(),
  ruleName: Type.String(),
  /** The match, its secret part masked (********, with the last four characters of a long secret). */
  text: Type.String(),
});
export type LeakRow = Static<typeof LeakRowSchema>;

export const types = defineCall({
  name: 'leak.types',
  method: 'GET',
  path: '/api/binary/leakinfo/type',
  summary: '敏感信息类型统计',
  query: Type.Object(RunQuery),
  response: LeakTypesSchema,
  permission: RESULT_PERMISSION,
});

export const list = defineCall({
  name: 'leak.list',
  method: 'GET',
  path: '/api/binary/leakinfo/list',
  summary: '敏感信息列表',
  query: Type.Object({
    ...PagingQuerySchema.properties,
    ...RunQuery,
    type: Type.Optional(LeakTypeSchema),
    /** Part of the file path, case-insensitive. */
    file: Type.Optional(Type.String({ maxLength: 1000 })),
    /** Part of the (masked) text or the rule's name, case-insensitive. */
    keyword: Keyword,
  }),
  response: PageSchema(LeakRowSchema),
  permission: RESULT_PERMISSION,
});

// ---- rules -----------------------------------------------------------------------------------------

export const LeakRuleRowSchema = Type.Object({
  /** The administrator's rule's id; null for a built-in rule. */
  id: Nullable(Type.Integer()),
  /** builtin:<name> or user:<id>: what findings name. */
  key: Type.String(),
  builtin: Type.Boolean(),
  name: Type.String(),
  type: LeakTypeSchema,
  pattern: Type.String(),
  ignoreCase: Type.Boolean(),
  enabled: Type.Boolean(),
  /** Who added it (null for built-in rules, or when the account is gone). */
  createdBy: Nullable(Type.String()),
  createdAt: Nullable(Type.String()),
});
export type LeakRuleRow = Static<typeof LeakRuleRowSchema>;

export const LeakRuleFilterSchema = Type.Object({
  /** Part of the name or the pattern, case-insensitive. */
  keyword: Keyword,
  type: Type.Optional(LeakTypeSchema),
  /** true: built-in rules only; false: the administrators' only. */
  builtin: Type.Optional(Type.Boolean()),
});
export type LeakRuleFilter = Static<typeof LeakRuleFilterSchema>;

export const LeakRuleFormSchema = Type.Object({
  /** Checked against contract/validation.ts in the service, for its message. */
  name: Type.String({ maxLength: NAME_MAX_LENGTH * 2 }),
  type: LeakTypeSchema,
  /**
   * A JavaScript regular expression; a named group `secret` is the part masked. Refused when it
   * cannot be compiled, matches the empty string, uses back-references or nested quantifiers, or
   * runs too long over the probe inputs. Length checked in the service (at most 300), for its message.
   */
  pattern: Type.String({ maxLength: 2000 }),
  ignoreCase: Type.Optional(Type.Boolean()),
  enabled: Type.Optional(Type.Boolean()),
});
export type LeakRuleForm = Static<typeof LeakRuleFormSchema>;

export const ruleList = defineCall({
  name: 'leak.ruleList',
  method: 'POST',
  path: '/api/binary/leakinfo/rule/list',
  summary: '敏感信息规则列表',
  ...filteredList(LeakRuleFilterSchema, LeakRuleRowSchema),
  permission: LEAK_RULE_PERMISSION,
});

export const ruleAdd = defineCall({
  name: 'leak.ruleAdd',
  method: 'POST',
  path: '/api/binary/leakinfo/rule/add',
  summary: '添加敏感信息规则',
  body: LeakRuleFormSchema,
  response: LeakRuleRowSchema,
  permission: LEAK_RULE_PERMISSION,
});

/** Built-in rules cannot be deleted (turn them off instead). */
export const ruleDelete = defineCall({
  name: 'leak.ruleDelete',
  method: 'DELETE',
  path: '/api/binary/leakinfo/rule/delete',
  summary: '删除敏感信息规则',
  query: Type.Object({ id: Id() }),
  response: Type.Null(),
  permission: LEAK_RULE_PERMISSION,
});

/** Turns a rule, built-in or an administrator's, on or off for the analyses started from now on. */
export const ruleEnable = defineCall({
  name: 'leak.ruleEnable',
  method: 'POST',
  path: '/api/binary/leakinfo/rule/enable',
  summary: '启用或停用敏感信息规则',
  body: Type.Object({ key: Type.String({ maxLength: 120 }), enabled: Type.Boolean() }),
  response: LeakRuleRowSchema,
  permission: LEAK_RULE_PERMISSION,
});

export const leakCalls = { types, list, ruleList, ruleAdd, ruleDelete, ruleEnable };
