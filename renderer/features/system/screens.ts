// The /system/* screens (spec area `system`): administration. Path -> lazy loader.
import type { ScreenLoader } from '../../app/router/screens.ts';

const KNOWLEDGE_BASE = '/system/knowledgeBase';

export const systemScreens: Readonly<Record<string, ScreenLoader>> = {
  [`${KNOWLEDGE_BASE}/protocol`]: () => import('./knowledgeBase/SystemLicenseScreen.tsx'),
  [`${KNOWLEDGE_BASE}/vul`]: () => import('./knowledgeBase/SystemVulScreen.tsx'),
  [`${KNOWLEDGE_BASE}/vul/batch`]: () => import('./knowledgeBase/ImportRecordsScreen.tsx'),
  '/system/projectType': () => import('./projectType/ProjectTypeScreen.tsx'),
  '/system/systemSettings/scanConfig': () => import('./scanConfig/ScanConfigScreen.tsx'),
  '/system/sensitive': () => import('./sensitive/SensitiveRuleScreen.tsx'),
  '/system/accountIntegration/ldap': () => import('./ldap/LdapScreen.tsx'),
  '/system/securityControl': () => import('./securityControl/SecurityControlScreen.tsx'),
  '/system/log/openApi': () => import('./openApiLog/OpenApiLogScreen.tsx'),
  '/system/user/role': () => import('./role/RoleScreen.tsx'),
  '/system/user/user': () => import('./user/UserScreen.tsx'),
  '/system/user/import': () => import('./user/UserImportScreen.tsx'),
  '/system/user/record': () => import('./user/UserRecordScreen.tsx'),
  '/system/group': () => import('./group/GroupScreen.tsx'),
  '/system/group/details': () => import('./group/GroupDetailsScreen.tsx'),
};
