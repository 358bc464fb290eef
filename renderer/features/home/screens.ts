// The /home/* screens (spec area `home`): the dashboard. Path -> lazy loader.
import type { ScreenLoader } from '../../app/router/screens.ts';

export const homeScreens: Readonly<Record<string, ScreenLoader>> = {
  '/home/result': () => import('./HomeResultScreen.tsx'),
};
