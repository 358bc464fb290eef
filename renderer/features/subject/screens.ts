// Subject screens (project list, group view, subject setup): path -> lazy loader.
import type { ScreenLoader } from '../../app/router/screens.ts';

export const subjectScreens: Record<string, ScreenLoader> = {};
