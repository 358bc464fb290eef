// The side menu: contract/routes.ts MENU as this user sees it (permission and product filtered).
// An entry whose screen is not built yet (app/router/screens.ts) is shown disabled with 暂未提供;
// a group none of whose entries is built is one disabled entry.
import { useMemo, useState } from 'react';
import { Collapse, Icon, Menu, MenuItem } from '@blueprintjs/core';
import type { IconName } from '@blueprintjs/icons';
import { useLocation, useNavigate } from 'react-router';
import { MENU, visibleMenu, type MenuItem as MenuEntry } from '../../../contract/routes.ts';
import { useAppSelector, usePermissions, selectProduct } from '../hooks.ts';
import { isMenuBuilt } from '../router/screens.ts';
import { NotYetTag } from '../../common/NotYetTag.tsx';
import { zh } from '../../i18n/zh-CN.ts';

const GROUP_ICONS: Record<string, IconName> = {
  home: 'home',
  project: 'projects',
  subassembly: 'cube',
  bug: 'shield',
  license: 'document',
  knowledge: 'book',
  statistics: 'timeline-bar-chart',
  privateService: 'database',
  cloneDetection: 'duplicate',
  system: 'cog',
};

const isActive = (pathname: string, item: MenuEntry): boolean =>
  !!item.path && (pathname === item.path || pathname.startsWith(`${item.path}/`));

const containsActive = (pathname: string, item: MenuEntry): boolean =>
  isActive(pathname, item) || (item.children ?? []).some((c) => containsActive(pathname, c));

/** A menu entry: opens its screen, or is disabled with 暂未提供 while the screen is not built. */
function Leaf({ item, pathname, go, icon, className }: { item: MenuEntry; pathname: string; go: (path: string) => void; icon?: IconName; className?: string }) {
  const target = item.children ? item.children[0]!.path : item.path;
  const built = isMenuBuilt(item);
  return (
    <MenuItem
      className={className}
      icon={icon}
      text={item.title}
      active={built && isActive(pathname, item.children ? item.children[0]! : item)}
      disabled={!built}
      labelElement={built ? undefined : <NotYetTag />}
      aria-disabled={!built}
      onClick={() => built && target && go(target)}
    />
  );
}

function Group({ item, depth, pathname, go }: { item: MenuEntry; depth: number; pathname: string; go: (path: string) => void }) {
  const [open, setOpen] = useState(() => depth > 0 || containsActive(pathname, item));
  const expanded = open || containsActive(pathname, item);
  return (
    <li className={`cairn-nav-group cairn-nav-depth-${depth}`}>
      <button type="button" className="cairn-nav-group-header" aria-expanded={expanded} onClick={() => setOpen(!expanded)}>
        {depth === 0 ? <Icon icon={GROUP_ICONS[item.key] ?? 'folder-close'} className="cairn-nav-icon" /> : null}
        <span className="cairn-nav-label">{item.title}</span>
        <Icon icon={expanded ? 'chevron-down' : 'chevron-right'} size={12} className="cairn-nav-caret" />
      </button>
      <Collapse isOpen={expanded} keepChildrenMounted>
        <Menu className="cairn-nav-children">
          {(item.children ?? []).map((child) =>
            child.children && isMenuBuilt(child) ? (
              <Group key={child.key} item={child} depth={depth + 1} pathname={pathname} go={go} />
            ) : (
              <Leaf key={child.key} item={child} pathname={pathname} go={go} />
            ),
          )}
        </Menu>
      </Collapse>
    </li>
  );
}

export function SideNav() {
  const has = usePermissions();
  const product = useAppSelector(selectProduct);
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const items = useMemo(() => visibleMenu(MENU, has, product), [has, product]);
  const go = (path: string) => navigate(path);

  return (
    <nav className="cairn-sidenav" aria-label={zh.app.mainMenu}>
      <Menu className="cairn-nav-list">
        {items.map((item) =>
          (item.children && item.children.length === 1 && !item.children[0]!.children) || !item.children || !isMenuBuilt(item) ? (
            <Leaf key={item.key} item={item} pathname={pathname} go={go} icon={GROUP_ICONS[item.key] ?? 'document'} className="cairn-nav-single" />
          ) : (
            <Group key={item.key} item={item} depth={0} pathname={pathname} go={go} />
          ),
        )}
      </Menu>
    </nav>
  );
}
