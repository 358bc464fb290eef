// Task result screens (analysis details and its tabs, comparison, home dashboard): path -> lazy loader.
import type { ScreenLoader } from '../../app/router/screens.ts';

export const taskScreens: Record<string, ScreenLoader> = {};
