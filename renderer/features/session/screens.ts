// The session screens (spec area `session`): login, token login, logout, password change. Path ->
// lazy loader.
import type { ScreenLoader } from '../../app/router/screens.ts';

export const sessionScreens: Readonly<Record<string, ScreenLoader>> = {
  '/login': () => import('./LoginScreen.tsx'),
  '/changePassword': () => import('./ChangePasswordScreen.tsx'),
  '/logout': () => import('./LogoutScreen.tsx'),
  '/handleLogin': () => import('./HandleLoginScreen.tsx'),
};
