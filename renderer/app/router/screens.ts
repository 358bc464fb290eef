// Which routes have a built screen: path -> lazy loader. A plain .ts file (no JSX, no CSS, no
// import.meta.glob) so `cairn routes` can import it under plain Node; the loaders only run in the
// renderer. Every other route of the table shows the 建设中 page.
import type { ComponentType } from 'react';

export type ScreenModule = { default: ComponentType };
export type ScreenLoader = () => Promise<ScreenModule>;

import { subjectScreens } from '../../features/subject/screens.ts';
import { projectScreens } from '../../features/project/screens.ts';
import { taskScreens } from '../../features/task/screens.ts';
import { reportScreens } from '../../features/report/screens.ts';
import { libraryScreens } from '../../features/library/screens.ts';

export const builtScreens: Readonly<Record<string, ScreenLoader>> = {
  ...subjectScreens,
  ...projectScreens,
  ...taskScreens,
  ...reportScreens,
  ...libraryScreens,
  '/login': () => import('../../features/session/LoginScreen.tsx'),
  '/changePassword': () => import('../../features/session/ChangePasswordScreen.tsx'),
  '/logout': () => import('../../features/session/LogoutScreen.tsx'),
  '/handleLogin': () => import('../../features/session/HandleLoginScreen.tsx'),
  '/desktop/personal': () => import('../../features/desktop/PersonalSettingsScreen.tsx'),
  '/desktop/profiles': () => import('../../features/desktop/ProfilesScreen.tsx'),
  '/bug/bugKanban': () => import('../../features/bug/BugKanbanScreen.tsx'),
  '/bug/bugList': () => import('../../features/bug/BugListScreen.tsx'),
  '/bug/bugList/details': () => import('../../features/bug/BugDetailsScreen.tsx'),
  '/license': () => import('../../features/license/LicenseListScreen.tsx'),
  '/license/details': () => import('../../features/license/LicenseDetailsScreen.tsx'),
  '/system/knowledgeBase/protocol': () => import('../../features/license/SystemLicenseScreen.tsx'),
  '/system/knowledgeBase/vul': () => import('../../features/knowledge-admin/SystemVulScreen.tsx'),
  '/system/knowledgeBase/vul/batch': () => import('../../features/knowledge-admin/ImportRecordsScreen.tsx'),
};

export const isBuilt = (path: string): boolean => Object.prototype.hasOwnProperty.call(builtScreens, path);
