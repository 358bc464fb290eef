// The desktop client's own screens (no spec route): personal settings and server profiles. Path ->
// lazy loader.
import type { ScreenLoader } from '../../app/router/screens.ts';

export const desktopScreens: Readonly<Record<string, ScreenLoader>> = {
  '/desktop/personal': () => import('./PersonalSettingsScreen.tsx'),
  '/desktop/profiles': () => import('./ProfilesScreen.tsx'),
};
