// Report screens (issue 7): path -> lazy import, merged into the app's route table.
import type { ScreenLoader } from '../../app/router/screens.ts';

export const reportScreens: Readonly<Record<string, ScreenLoader>> = {
  '/project/report': () => import('./ReportManagementScreen.tsx'),
};
