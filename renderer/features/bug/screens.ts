// The /bug/* screens (spec area `bug`): the vulnerability knowledge base. Path -> lazy loader.
import type { ScreenLoader } from '../../app/router/screens.ts';

export const bugScreens: Readonly<Record<string, ScreenLoader>> = {
  '/bug/bugKanban': () => import('./BugKanbanScreen.tsx'),
  '/bug/bugList': () => import('./BugListScreen.tsx'),
  '/bug/bugList/details': () => import('./BugDetailsScreen.tsx'),
  // The knowledge base's link to a vulnerability (spec area knowledge) opens the same page.
  '/knowledge/bug/details': () => import('./BugDetailsScreen.tsx'),
};
