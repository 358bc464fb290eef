// Project screens (new project, task list, launch, batch, import): path -> lazy loader.
import type { ScreenLoader } from '../../app/router/screens.ts';

export const projectScreens: Record<string, ScreenLoader> = {
  '/project/newProject': () => import('./NewProjectScreen.tsx'),
  '/project/taskList': () => import('./TaskListScreen.tsx'),
  '/project/analysis': () => import('./AnalysisScreen.tsx'),
  '/project/analysis/launch': () => import('./LaunchScreen.tsx'),
  '/project/analysis/batchLaunch': () => import('./BatchScreen.tsx').then((m) => ({ default: m.BatchLaunchScreen })),
  '/project/taskList/batchReanalysis': () => import('./BatchScreen.tsx').then((m) => ({ default: m.TaskListBatchReanalysisScreen })),
  '/project/analysis/batchReanalysis': () => import('./BatchScreen.tsx').then((m) => ({ default: m.AnalysisBatchReanalysisScreen })),
  '/project/import': () => import('./ImportScreen.tsx'),
};
