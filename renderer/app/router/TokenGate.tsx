// A visit with ?key= (or ?token=) to a key-passthrough screen signs in with the personal token
// (POST /api/token/login?key=) before the screen shows (spec §2 guard; contract tokenLogin).
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Button } from '@blueprintjs/core';
import { useNavigate } from 'react-router';
import { useTokenLoginMutation } from '../../api/platformApi.ts';
import { apiErrorMessage } from '../../api/baseQuery.ts';
import { useAppDispatch } from '../hooks.ts';
import { sessionActions } from '../sessionSlice.ts';
import { ErrorState, FullScreenLoading } from '../../common/states.tsx';
import { zh } from '../../i18n/zh-CN.ts';

/** Runs the token login once for `key`; `onDone(ok)` after it answered. */
export function useTokenSignIn(key: string | null) {
  const [tokenLogin] = useTokenLoginMutation();
  const dispatch = useAppDispatch();
  const [state, setState] = useState<{ status: 'idle' | 'working' | 'failed'; message: string | null }>({ status: key ? 'working' : 'idle', message: null });
  const started = useRef<string | null>(null);
  useEffect(() => {
    if (!key || started.current === key) return;
    started.current = key;
    setState({ status: 'working', message: null });
    tokenLogin({ key })
      .unwrap()
      .then((user) => {
        dispatch(sessionActions.loggedIn(user));
        setState({ status: 'idle', message: null });
      })
      .catch((e: unknown) => setState({ status: 'failed', message: apiErrorMessage(e) }));
  }, [key, tokenLogin, dispatch]);
  return state;
}

export function TokenGate({ tokenKey, children }: { tokenKey: string; children: ReactNode }) {
  const state = useTokenSignIn(tokenKey);
  const navigate = useNavigate();
  if (state.status === 'failed') {
    return (
      <div className="cairn-fullscreen">
        <ErrorState title={zh.handleLogin.failed} message={state.message ?? undefined} />
        <Button intent="primary" icon="log-in" text={zh.handleLogin.toLogin} onClick={() => navigate('/login', { replace: true })} />
      </div>
    );
  }
  if (state.status === 'working') return <FullScreenLoading label={zh.handleLogin.working} />;
  return <>{children}</>;
}
