// The active server profile with a quick switch (and a way to the profile manager).
import { Button, Menu, MenuDivider, MenuItem, PopoverNext } from '@blueprintjs/core';
import { useNavigate } from 'react-router';
import { activeProfile, useProfilesQuery } from '../../api/desktopApi.ts';
import { useAppDispatch } from '../hooks.ts';
import { switchProfile } from '../sessionFlows.ts';
import { desktopErrorMessage } from '../../platform/desktop.ts';
import { toastNotifier as notify } from '../toaster.ts';
import { zh } from '../../i18n/zh-CN.ts';

export function ProfileSwitcher() {
  const { data } = useProfilesQuery();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const active = activeProfile(data);

  const choose = async (id: string, name: string) => {
    try {
      await dispatch(switchProfile(id));
      notify.success(zh.profiles.activated(name));
    } catch (e) {
      notify.error(desktopErrorMessage(e, zh.messages.requestFailed));
    }
  };

  const menu = (
    <Menu>
      <MenuDivider title={zh.shell.switchProfile} />
      {(data?.profiles ?? []).map((p) => (
        <MenuItem
          key={p.id}
          icon={p.kind === 'local' ? 'desktop' : 'cloud'}
          text={p.name}
          label={p.kind === 'local' ? zh.login.local : p.url}
          roleStructure="listoption"
          selected={p.id === data?.activeId}
          onClick={() => (p.id === data?.activeId ? undefined : void choose(p.id, p.name))}
        />
      ))}
      <MenuDivider />
      <MenuItem icon="cog" text={zh.shell.manageProfiles} onClick={() => navigate('/desktop/profiles')} />
    </Menu>
  );

  return (
    <PopoverNext content={menu} placement="bottom-end">
      <Button variant="minimal" icon={active?.kind === 'remote' ? 'cloud' : 'desktop'} endIcon="caret-down" text={active ? active.name : zh.shell.profile} title={zh.shell.switchProfile} />
    </PopoverNext>
  );
}
