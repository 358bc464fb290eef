// The /project/* screens (spec area `project`): applications and their settings (subjects/), the
// projects, their analyses and the batch screens (tasks/), analysis details and comparison
// (analysis/), 报告管理 (reports/), 项目统计 (statistics/). Path -> lazy loader.
import type { ScreenLoader } from '../../app/router/screens.ts';

const SETTINGS = '/project/projectSettings';

export const projectScreens: Readonly<Record<string, ScreenLoader>> = {
  '/project/projectList': () => import('./subjects/SubjectListScreen.tsx'),
  '/project/repositorySource': () => import('./subjects/RepositorySourceScreen.tsx'),
  [`${SETTINGS}/basicSetup`]: () => import('./subjects/BasicSetupScreen.tsx'),
  [`${SETTINGS}/memberManagement`]: () => import('./subjects/MemberScreen.tsx'),
  [`${SETTINGS}/version`]: () => import('./subjects/VersionScreen.tsx'),
  [`${SETTINGS}/noticeSetup`]: () => import('./subjects/NoticeScreen.tsx'),
  [`${SETTINGS}/defectManagement`]: () => import('./subjects/DefectScreen.tsx'),
  [`${SETTINGS}/projectPrivateServiceConf`]: () => import('./subjects/PrivateServiceScreen.tsx'),
  [`${SETTINGS}/dataTransfer`]: () => import('./subjects/DataTransferScreen.tsx'),
  '/project/newProject': () => import('./tasks/NewProjectScreen.tsx'),
  '/project/taskList': () => import('./tasks/TaskListScreen.tsx'),
  '/project/analysis': () => import('./tasks/AnalysisScreen.tsx'),
  '/project/analysis/launch': () => import('./tasks/LaunchScreen.tsx'),
  '/project/analysis/batchLaunch': () => import('./tasks/BatchScreen.tsx').then((m) => ({ default: m.BatchLaunchScreen })),
  '/project/taskList/batchReanalysis': () => import('./tasks/BatchScreen.tsx').then((m) => ({ default: m.TaskListBatchReanalysisScreen })),
  '/project/analysis/batchReanalysis': () => import('./tasks/BatchScreen.tsx').then((m) => ({ default: m.AnalysisBatchReanalysisScreen })),
  '/project/import': () => import('./tasks/ImportScreen.tsx'),
  '/project/analysis/details': () => import('./analysis/TaskDetailsScreen.tsx'),
  // The comparison is a desktop screen (the spec lists no comparison route).
  '/project/analysis/compare': () => import('./analysis/CompareScreen.tsx'),
  '/project/report': () => import('./reports/ReportManagementScreen.tsx'),
  '/project/statistics': () => import('./statistics/ProjectStatisticsScreen.tsx'),
};
