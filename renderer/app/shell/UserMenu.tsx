// The personal menu: 个人设置, 服务器配置, 修改密码, 退出登录 (contract/routes.ts USER_MENU,
// filtered by permission and product), and 报告库 (the reports downloaded to this machine, a
// desktop screen needing no permission).
import { Fragment, useMemo } from 'react';
import { Button, Menu, MenuDivider, MenuItem, PopoverNext } from '@blueprintjs/core';
import type { IconName } from '@blueprintjs/icons';
import { useNavigate } from 'react-router';
import { USER_MENU, visibleMenu } from '../../../contract/routes.ts';
import { useAppSelector, usePermissions, selectProduct, selectUser } from '../hooks.ts';
import { isMenuBuilt } from '../router/screens.ts';
import { NotYetTag } from '../../common/NotYetTag.tsx';
import { zh } from '../../i18n/zh-CN.ts';

const ICONS: Record<string, IconName> = {
  '/desktop/personal': 'person',
  '/desktop/profiles': 'globe-network',
  '/ssh': 'key',
  '/tokenManagement': 'id-number',
  '/download/resource': 'download',
  '/changePassword': 'lock',
  '/logout': 'log-out',
};

export function UserMenu({ restricted = false }: { restricted?: boolean }) {
  const user = useAppSelector(selectUser);
  const product = useAppSelector(selectProduct);
  const has = usePermissions();
  const navigate = useNavigate();
  const items = useMemo(() => visibleMenu(USER_MENU, has, product), [has, product]);
  if (!user) return null;

  // While the password must be changed only logging out is offered (spec §2 guard).
  const shown = restricted ? items.filter((i) => i.path === '/logout') : items;
  const logout = shown.find((i) => i.path === '/logout');
  const others = shown.filter((i) => i.path !== '/logout');

  const menu = (
    <Menu>
      <li className="cairn-user-menu-header">
        <div className="cairn-user-menu-name">{user.name || user.username}</div>
        <div className="cairn-muted">
          {user.username}
          {user.roleName ? ` · ${user.roleName}` : ''}
        </div>
      </li>
      <MenuDivider />
      {others.map((i) => (
        <Fragment key={i.key}>
          {isMenuBuilt(i) ? (
            <MenuItem icon={ICONS[i.path ?? ''] ?? 'dot'} text={i.title} onClick={() => i.path && navigate(i.path)} />
          ) : (
            <MenuItem icon={ICONS[i.path ?? ''] ?? 'dot'} text={i.title} disabled shouldDismissPopover={false} labelElement={<NotYetTag />} />
          )}
          {/* 报告库 sits with the other desktop screens, after 服务器配置. */}
          {i.path === '/desktop/profiles' ? <MenuItem icon="archive" text={zh.library.title} onClick={() => navigate('/desktop/library')} data-testid="user-menu-library" /> : null}
        </Fragment>
      ))}
      {logout ? (
        <>
          {others.length ? <MenuDivider /> : null}
          <MenuItem icon="log-out" intent="danger" text={logout.title} onClick={() => navigate('/logout')} />
        </>
      ) : null}
    </Menu>
  );

  return (
    <PopoverNext content={menu} placement="bottom-end">
      <Button variant="minimal" icon="user" endIcon="caret-down" text={user.name || user.username} aria-label={zh.shell.userMenu} />
    </PopoverNext>
  );
}
