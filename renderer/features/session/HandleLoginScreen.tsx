// /handleLogin: the token-login passthrough. With ?key= (or ?token=) it signs in through
// POST /api/token/login (contract tokenLogin) and goes to the home screen; without, to /login.
import { Button, Card, Callout, H3 } from '@blueprintjs/core';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { parseQuery } from '../../../contract/navigation.ts';
import { useAppSelector } from '../../app/hooks.ts';
import { homeOf } from '../../app/router/guard.ts';
import { useTokenSignIn } from '../../app/router/TokenGate.tsx';
import { FullScreenLoading } from '../../common/states.tsx';
import { zh } from '../../i18n/zh-CN.ts';

export default function HandleLoginScreen() {
  const location = useLocation();
  const navigate = useNavigate();
  const session = useAppSelector((s) => s.session);
  const query = parseQuery(location.search);
  const key = (query.key ?? query.token ?? '').trim() || null;
  const state = useTokenSignIn(session.status === 'authenticated' ? null : key);

  if (session.status === 'authenticated' && session.user) {
    return <Navigate to={session.user.updatedPwd ? homeOf(session) : '/changePassword'} replace />;
  }
  if (!key) return <Navigate to="/login" replace />;
  if (state.status === 'failed') {
    return (
      <div className="cairn-fullscreen">
        <Card elevation={2} className="cairn-missing-card">
          <H3>{zh.handleLogin.failed}</H3>
          <Callout intent="danger" icon="error">
            {state.message}
          </Callout>
          <div className="cairn-form-actions">
            <Button intent="primary" icon="log-in" text={zh.handleLogin.toLogin} onClick={() => navigate('/login', { replace: true })} />
          </div>
        </Card>
      </div>
    );
  }
  return <FullScreenLoading label={zh.handleLogin.working} />;
}
