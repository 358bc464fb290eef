// The /license/* screens (spec area `license`): the licence knowledge base. Path -> lazy loader.
import type { ScreenLoader } from '../../app/router/screens.ts';

export const licenseScreens: Readonly<Record<string, ScreenLoader>> = {
  '/license': () => import('./LicenseListScreen.tsx'),
  '/license/details': () => import('./LicenseDetailsScreen.tsx'),
};
