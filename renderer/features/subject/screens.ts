// Subject screens (project list, group view, subject setup, the user's repository sources): path -> lazy loader.
import type { ScreenLoader } from '../../app/router/screens.ts';

const SETTINGS = '/project/projectSettings';

export const subjectScreens: Record<string, ScreenLoader> = {
  '/project/projectList': () => import('./SubjectListScreen.tsx'),
  '/project/repositorySource': () => import('./RepositorySourceScreen.tsx'),
  [`${SETTINGS}/basicSetup`]: () => import('./BasicSetupScreen.tsx'),
  [`${SETTINGS}/memberManagement`]: () => import('./MemberScreen.tsx'),
  [`${SETTINGS}/version`]: () => import('./VersionScreen.tsx'),
  [`${SETTINGS}/noticeSetup`]: () => import('./NoticeScreen.tsx'),
  [`${SETTINGS}/defectManagement`]: () => import('./DefectScreen.tsx'),
  [`${SETTINGS}/projectPrivateServiceConf`]: () => import('./PrivateServiceScreen.tsx'),
  [`${SETTINGS}/dataTransfer`]: () => import('./DataTransferScreen.tsx'),
};
