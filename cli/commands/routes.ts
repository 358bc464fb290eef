// `cairn routes`: every screen route (the spec's and the desktop-only ones) with its tabs and
// whether the renderer has built its screen, as a JSON array of { path, tabs, built }.
//
// The renderer's list of built screens is renderer/app/router/screens.ts, a plain .ts file whose
// lazy loaders never run here. It is imported through a computed specifier so that the CLI's
// type-check does not pull the renderer's TSX and DOM types into its program.
import { ROUTES } from '../../contract/routes.ts';

export interface RouteRow {
  path: string;
  tabs: string[];
  built: boolean;
}

const screensUrl = new URL('../../renderer/app/router/screens.ts', import.meta.url).href;
const { builtScreens } = (await import(screensUrl)) as { builtScreens: Readonly<Record<string, unknown>> };

function routeRows(): RouteRow[] {
  return ROUTES.map((r) => ({
    path: r.path,
    tabs: r.tabs.map((t) => t.key),
    built: Object.prototype.hasOwnProperty.call(builtScreens, r.path),
  }));
}

export function routesCommand(): string {
  return JSON.stringify(routeRows(), null, 2);
}
