// Desktop report library and offline review screens (issue 7): path -> lazy import.
import type { ScreenLoader } from '../../app/router/screens.ts';

export const libraryScreens: Readonly<Record<string, ScreenLoader>> = {
  '/desktop/library': () => import('./LibraryScreen.tsx'),
  '/desktop/review': () => import('./ReviewScreen.tsx'),
};
