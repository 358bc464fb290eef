// Task result screens (analysis details and its tabs, comparison, home dashboard): path -> lazy loader.
import type { ScreenLoader } from '../../app/router/screens.ts';

/** The comparison is a desktop screen (the spec lists no comparison route). */
export const COMPARE_PATH = '/project/analysis/compare';

export const taskScreens: Record<string, ScreenLoader> = {
  '/project/analysis/details': () => import('./TaskDetailsScreen.tsx'),
  '/home/result': () => import('./HomeResultScreen.tsx'),
  [COMPARE_PATH]: () => import('./CompareScreen.tsx'),
};
