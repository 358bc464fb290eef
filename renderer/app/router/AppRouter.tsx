// The hash router (spec §2: hash navigation, lazy screens). Every route of the spec and the
// desktop-only screens are registered from contract/routes.ts; built screens load from
// screens.ts, the others show the 建设中 page.
import { Outlet, createHashRouter, type RouteObject } from 'react-router';
import { RootLayout } from './RootLayout.tsx';
import { AppShell } from '../shell/AppShell.tsx';
import { FullScreenLoading } from '../../common/states.tsx';
import { BARE_PATHS, buildRouteTree, type RouteNode } from './routeTable.ts';
import { builtScreens } from './screens.ts';
import { NotFound, ParentIndex, RequirePermission, ScreenError } from './pages.tsx';

function screenRoute(node: RouteNode): RouteObject {
  const { info } = node;
  const loader = builtScreens[info.path];
  return {
    path: info.path,
    errorElement: <ScreenError inline />,
    lazy: loader
      ? async () => {
          const Screen = (await loader()).default;
          return { element: <RequirePermission info={info}><Screen /></RequirePermission> };
        }
      : async () => {
          const { UnderConstruction } = await import('./UnderConstruction.tsx');
          return { element: <RequirePermission info={info}><UnderConstruction info={info} /></RequirePermission> };
        },
  };
}

function toRoute(node: RouteNode): RouteObject {
  if (!node.info.parent) return screenRoute(node);
  return {
    path: node.info.path,
    element: <Outlet />,
    children: [{ index: true, element: <ParentIndex node={node} /> }, ...node.children.map(toRoute)],
  };
}

function buildRoutes(): RouteObject[] {
  const roots = buildRouteTree();
  const bare = roots.filter((n) => BARE_PATHS.includes(n.info.path));
  const framed = roots.filter((n) => !BARE_PATHS.includes(n.info.path));
  return [
    {
      path: '/',
      element: <RootLayout />,
      errorElement: <ScreenError />,
      hydrateFallbackElement: <FullScreenLoading />,
      children: [
        { index: true, element: <FullScreenLoading /> },
        ...bare.map(toRoute),
        {
          element: <AppShell />,
          errorElement: <ScreenError />,
          children: [...framed.map(toRoute), { path: '*', element: <NotFound /> }],
        },
      ],
    },
  ];
}

export const createAppRouter = () => createHashRouter(buildRoutes());
