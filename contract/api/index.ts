// Every call the platform implements, by area. The server registers exactly these; the rest of
// spec/calls.json answers 服务未实现 (HTTP 501) until its area is built.
import { sessionCalls } from './session.ts';
import { vulnerabilityCalls } from './vulnerability.ts';
import { knowledgeCalls } from './knowledge.ts';
import { kbStatusCalls } from './kb-status.ts';
import { componentCalls } from './component.ts';
import { licenseCalls } from './license.ts';
import { uploadCalls } from './upload.ts';
import { subjectCalls } from './subject.ts';
import { taskCalls } from './task.ts';
import { resultCalls } from './result/index.ts';
import { reportCalls } from './report.ts';
import { projectTypeCalls } from './project-type.ts';
import { userCalls } from './user.ts';
import { scanConfigCalls } from './scan-config.ts';
import { leakCalls } from './leak.ts';
import { ldapCalls } from './ldap.ts';
import { accessCalls } from './access.ts';
import { tokenCalls } from './token.ts';
import { openApiLogCalls } from './open-api-log.ts';
import { roleCalls } from './role.ts';
import { statisticCalls } from './statistic.ts';
import { groupCalls } from './group.ts';
import type { CallSpec } from './define.ts';

/**
 * Keyed by each call's unique `area.action` name, not by the areas' own short keys: two areas
 * may both call something `list`, and spreading them into one object would silently drop one.
 */
export const implementedCalls: Record<string, CallSpec> = byName([
  sessionCalls,
  vulnerabilityCalls,
  knowledgeCalls,
  kbStatusCalls,
  componentCalls,
  licenseCalls,
  uploadCalls,
  subjectCalls,
  taskCalls,
  resultCalls,
  reportCalls,
  projectTypeCalls,
  userCalls,
  scanConfigCalls,
  leakCalls,
  ldapCalls,
  accessCalls,
  tokenCalls,
  openApiLogCalls,
  roleCalls,
  statisticCalls,
  groupCalls,
]);

function byName(areas: Record<string, CallSpec>[]): Record<string, CallSpec> {
  const calls: Record<string, CallSpec> = {};
  for (const area of areas) {
    for (const call of Object.values(area)) {
      if (calls[call.name]) throw new Error(`接口名称重复：${call.name}`);
      calls[call.name] = call;
    }
  }
  return calls;
}

export * from './define.ts';
export * as session from './session.ts';
export * as vulnerability from './vulnerability.ts';
export * as knowledge from './knowledge.ts';
export * as kbStatus from './kb-status.ts';
export * as component from './component.ts';
export * as license from './license.ts';
export * as upload from './upload.ts';
export * as subject from './subject.ts';
export * as task from './task.ts';
export * as result from './result/index.ts';
export * as report from './report.ts';
export * as projectType from './project-type.ts';
export * as user from './user.ts';
export * as scanConfig from './scan-config.ts';
export * as leak from './leak.ts';
export * as ldap from './ldap.ts';
export * as access from './access.ts';
export * as token from './token.ts';
export * as openApiLog from './open-api-log.ts';
export * as role from './role.ts';
export * as statistic from './statistic.ts';
export * as group from './group.ts';
