// Which routes have a built screen: path -> lazy loader, one map per feature folder. A plain .ts
// file (no JSX, no CSS, no import.meta.glob) so `cairn routes` can import it under plain Node; the
// loaders only run in the renderer. Every other route of the table shows the 建设中 page.
import type { ComponentType } from 'react';

export type ScreenModule = { default: ComponentType };
export type ScreenLoader = () => Promise<ScreenModule>;

import { sessionScreens } from '../../features/session/screens.ts';
import { homeScreens } from '../../features/home/screens.ts';
import { projectScreens } from '../../features/project/screens.ts';
import { bugScreens } from '../../features/bug/screens.ts';
import { licenseScreens } from '../../features/license/screens.ts';
import { systemScreens } from '../../features/system/screens.ts';
import { desktopScreens } from '../../features/desktop/screens.ts';
import { libraryScreens } from '../../features/library/screens.ts';
import { tokenScreens } from '../../features/token/screens.ts';

export const builtScreens: Readonly<Record<string, ScreenLoader>> = {
  ...sessionScreens,
  ...homeScreens,
  ...projectScreens,
  ...bugScreens,
  ...licenseScreens,
  ...systemScreens,
  ...desktopScreens,
  ...libraryScreens,
  ...tokenScreens,
};

export const isBuilt = (path: string): boolean => Object.prototype.hasOwnProperty.call(builtScreens, path);

/** The part of a menu entry (contract/routes.ts MenuItem) whether it leads anywhere depends on. */
interface MenuEntryShape {
  path?: string;
  children?: readonly MenuEntryShape[];
}

/**
 * Whether a menu entry leads to a built screen: a leaf when its path has one, a group when any of
 * its entries does. Menus, section pages and pickers mark the others 暂未提供 and do not open them.
 */
export const isMenuBuilt = (item: MenuEntryShape): boolean =>
  item.children ? item.children.some(isMenuBuilt) : !!item.path && isBuilt(item.path);
