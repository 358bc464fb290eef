// /logout: ends the session in main (desktop.session.logout), clears local state, back to /login.
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { useAppDispatch } from '../../app/hooks.ts';
import { signOut } from '../../app/sessionFlows.ts';
import { FullScreenLoading } from '../../common/states.tsx';
import { zh } from '../../i18n/zh-CN.ts';

export default function LogoutScreen() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void dispatch(signOut()).then(() => navigate('/login', { replace: true }));
  }, [dispatch, navigate]);
  return <FullScreenLoading label={zh.logout.working} />;
}
