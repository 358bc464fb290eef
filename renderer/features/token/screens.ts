// The personal-token screen (spec route /tokenManagement, from the user menu). Path -> lazy loader.
import type { ScreenLoader } from '../../app/router/screens.ts';

export const tokenScreens: Readonly<Record<string, ScreenLoader>> = {
  '/tokenManagement': () => import('./TokenScreen.tsx'),
};
