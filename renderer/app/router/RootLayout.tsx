// The root of the route tree: applies the guard on every location (login, forced password
// change, key/token passthrough, home redirect), clears batch selections when leaving the
// batch-reanalysis screens, and keeps the window title in step with the screen.
import { useEffect, useRef } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { routeTitle } from '../../../contract/routes.ts';
import { useAppSelector } from '../hooks.ts';
import { clearBatchSelections } from '../store.ts';
import { FullScreenLoading } from '../../common/states.tsx';
import { clearsBatchSelections, decideRoute, passthroughToken } from './guard.ts';
import { TokenGate } from './TokenGate.tsx';
import { zh } from '../../i18n/zh-CN.ts';

export function RootLayout() {
  const location = useLocation();
  const session = useAppSelector((s) => s.session);
  const previous = useRef<string | null>(null);

  useEffect(() => {
    if (clearsBatchSelections(previous.current, location.pathname)) clearBatchSelections();
    previous.current = location.pathname;
    const title = routeTitle(location.pathname);
    document.title = title ? `${title} - ${zh.app.name}` : zh.app.name;
  }, [location.pathname]);

  const decision = decideRoute(location, session);
  if (decision.kind === 'wait') return <FullScreenLoading />;
  if (decision.kind === 'redirect') return <Navigate to={decision.to} replace />;
  const token = session.status === 'authenticated' ? null : passthroughToken(location);
  if (token) return <TokenGate tokenKey={token}><Outlet /></TokenGate>;
  return <Outlet />;
}
