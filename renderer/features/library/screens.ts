// The desktop report library and offline review (no spec route): path -> lazy loader.
import type { ScreenLoader } from '../../app/router/screens.ts';

export const libraryScreens: Readonly<Record<string, ScreenLoader>> = {
  '/desktop/library': () => import('./LibraryScreen.tsx'),
  '/desktop/review': () => import('./ReviewScreen.tsx'),
};
