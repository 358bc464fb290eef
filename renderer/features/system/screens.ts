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
  '/system/group': () => import('./group/GroupScreen.tsx'),
  '/system/group/details': () => import('./group/GroupDetailsScreen.tsx'),
};
