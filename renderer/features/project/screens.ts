// Project screens (new project, task list, launch, batch, import): path -> lazy loader.
import type { ScreenLoader } from '../../app/router/screens.ts';

export const projectScreens: Record<string, ScreenLoader> = {};
