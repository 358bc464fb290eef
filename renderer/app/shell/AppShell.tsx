// The app shell: a Blueprint Navbar (brand, product selector, server profile, local platform
// status, reminders, user menu), the side menu and the screen. Three modes:
//   full        signed in
//   restricted  signed in but the password must be changed first (no menu, logout only)
//   public      no session (server profiles, licence screen): brand and a way back to login
import { Alignment, Button, Navbar, NavbarDivider, NavbarGroup, NavbarHeading } from '@blueprintjs/core';
import { Outlet, useNavigate } from 'react-router';
import { useAppSelector, selectUser } from '../hooks.ts';
import { BrandMark } from '../../common/AuthLayout.tsx';
import { ProductSelector } from './ProductSelector.tsx';
import { ProfileSwitcher } from './ProfileSwitcher.tsx';
import { PlatformStatusTag } from './PlatformStatusTag.tsx';
import { ReminderBell } from './ReminderBell.tsx';
import { SideNav } from './SideNav.tsx';
import { UserMenu } from './UserMenu.tsx';
import { zh } from '../../i18n/zh-CN.ts';

export type ShellMode = 'full' | 'restricted' | 'public';

function Brand() {
  const navigate = useNavigate();
  return (
    <NavbarHeading className="cairn-brand" onClick={() => navigate('/')} role="link" tabIndex={0} title={zh.shell.home}>
      <BrandMark size={26} />
      <span className="cairn-brand-name">{zh.app.name}</span>
    </NavbarHeading>
  );
}

export function AppShell() {
  const user = useAppSelector(selectUser);
  const navigate = useNavigate();
  const mode: ShellMode = !user ? 'public' : user.updatedPwd ? 'full' : 'restricted';

  return (
    <div className={`cairn-shell cairn-shell-${mode}`}>
      <Navbar className="cairn-navbar">
        <NavbarGroup align={Alignment.START}>
          <Brand />
          {mode === 'full' ? (
            <>
              <NavbarDivider />
              <ProductSelector />
            </>
          ) : null}
        </NavbarGroup>
        <NavbarGroup align={Alignment.END}>
          <PlatformStatusTag />
          <NavbarDivider />
          {mode === 'public' ? (
            <Button variant="minimal" icon="log-in" text={zh.profiles.back} onClick={() => navigate('/login')} />
          ) : (
            <>
              {mode === 'full' ? <ProfileSwitcher /> : null}
              {mode === 'full' ? <ReminderBell /> : null}
              <UserMenu restricted={mode === 'restricted'} />
            </>
          )}
        </NavbarGroup>
      </Navbar>
      <div className="cairn-body">
        {mode === 'full' ? <SideNav /> : null}
        <main className="cairn-content">
          <Outlet />
        </main>
      </div>
    </div>
  );
}
