// Small pages of the router: no permission, not found, screen error, parent index redirects.
import { Button, Code, NonIdealState } from '@blueprintjs/core';
import type { IconName } from '@blueprintjs/icons';
import { Navigate, useLocation, useNavigate, useRouteError } from 'react-router';
import type { ReactNode } from 'react';
import type { RouteInfo } from '../../../contract/routes.ts';
import { subjectListRedirect } from '../../../contract/navigation.ts';
import { PERMISSIONS } from '../../../contract/permissions.ts';
import { useAppSelector, usePermissions, selectUser } from '../hooks.ts';
import { homeOf } from './guard.ts';
import { zh } from '../../i18n/zh-CN.ts';
import { SectionIndex } from './SectionIndex.tsx';
import type { RouteNode } from './routeTable.ts';

/** A whole page that is only a state: an icon, a title, what happened and what to do. */
function StatePage({ icon, title, description, action, fullscreen = false }: { icon: IconName; title: string; description: ReactNode; action: React.JSX.Element; fullscreen?: boolean }) {
  return (
    <div className={fullscreen ? 'cairn-fullscreen' : 'cairn-state'}>
      <NonIdealState icon={icon} iconSize={48} title={title} description={description} action={action} />
    </div>
  );
}

export function RequirePermission({ info, children }: { info: RouteInfo; children: ReactNode }) {
  const user = useAppSelector(selectUser);
  const has = usePermissions();
  const navigate = useNavigate();
  if (user && info.permission && !has(info.permission)) {
    const label = (PERMISSIONS as Record<string, string>)[info.permission] ?? info.permission;
    return (
      <StatePage
        icon="lock"
        title={zh.app.noPermissionTitle}
        description={<>{zh.app.noPermissionBody(info.title, label)} <Code>{info.permission}</Code></>}
        action={<Button icon="home" text={zh.app.backHome} onClick={() => navigate('/')} />}
      />
    );
  }
  return <>{children}</>;
}

export function NotFound() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  return (
    <StatePage
      icon="search"
      title={zh.app.notFoundTitle}
      description={zh.app.notFoundBody(pathname)}
      action={<Button icon="home" text={zh.app.backHome} onClick={() => navigate('/')} />}
    />
  );
}

export function ScreenError({ inline = false }: { inline?: boolean }) {
  const error = useRouteError();
  const detail = error instanceof Error ? error.message : null;
  return (
    <StatePage
      fullscreen={!inline}
      icon="error"
      title={zh.app.screenErrorTitle}
      description={
        <>
          <p>{zh.app.screenErrorBody}</p>
          {detail ? <Code className="cairn-error-detail">{detail}</Code> : null}
        </>
      }
      action={
        <div className="cairn-button-row">
          <Button icon="home" text={zh.app.backHome} onClick={() => window.location.assign('#/')} />
          <Button icon="refresh" intent="primary" text={zh.app.reload} onClick={() => window.location.reload()} />
        </div>
      }
    />
  );
}

/** The index of a parent route: /home -> home redirect, /project -> subject list redirect, others list their screens. */
export function ParentIndex({ node }: { node: RouteNode }) {
  const session = useAppSelector((s) => s.session);
  const has = usePermissions();
  if (node.info.path === '/home') return <Navigate to={homeOf(session)} replace />;
  if (node.info.path === '/project') {
    const target = subjectListRedirect(has);
    if (target) return <Navigate to={target} replace />;
  }
  return <SectionIndex node={node} />;
}
