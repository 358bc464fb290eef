// The page of a parent route visited on its own (e.g. /subassembly): the screens of that area
// the user may open, as cards. Areas of the menu list their visible menu entries; other parents
// (e.g. /project/projectSettings) their direct child screens. A screen not built yet is a
// disabled card marked 暂未提供 (app/router/screens.ts decides).
import { Card, Icon, Tag } from '@blueprintjs/core';
import { NotYetTag } from '../../common/NotYetTag.tsx';
import { useNavigate } from 'react-router';
import { MENU, menuPaths, routeInfo, visibleMenu } from '../../../contract/routes.ts';
import { Page } from '../../common/PageHeader.tsx';
import { EmptyState } from '../../common/states.tsx';
import { useAppSelector, usePermissions, selectProduct } from '../hooks.ts';
import { descendantScreens, type RouteNode } from './routeTable.ts';
import { isBuilt } from './screens.ts';
import { zh } from '../../i18n/zh-CN.ts';

export function SectionIndex({ node }: { node: RouteNode }) {
  const navigate = useNavigate();
  const has = usePermissions();
  const product = useAppSelector(selectProduct);
  const base = node.info.path;
  const group = MENU.find((m) => `/${m.key}` === base);
  const paths = group
    ? menuPaths(visibleMenu([group], has, product))
    : descendantScreens(node)
        // detail screens need an id from their list: only the area's own screens are offered
        .filter((s) => !s.info.path.slice(base.length + 1).includes('/') && (!s.info.permission || has(s.info.permission)))
        .map((s) => s.info.path);

  return (
    <Page title={node.info.title} subtitle={paths.length ? zh.section.intro : undefined}>
      {paths.length === 0 ? (
        <EmptyState icon="lock" title={zh.section.noneTitle} description={zh.section.noneBody} />
      ) : (
        <div className="cairn-card-grid">
          {paths.map((path) => {
            const built = isBuilt(path);
            return (
              <Card
                key={path}
                interactive={built}
                className={built ? 'cairn-section-card' : 'cairn-section-card cairn-section-card-disabled'}
                aria-disabled={!built}
                onClick={built ? () => navigate(path) : undefined}
              >
                <div className="cairn-section-card-title">
                  <span>{routeInfo(path)?.title ?? path}</span>
                  {built ? <Icon icon="chevron-right" /> : null}
                </div>
                <div className="cairn-section-card-meta">
                  <code>{path}</code>
                  {built ? (
                    <Tag minimal intent="success">
                      {zh.section.built}
                    </Tag>
                  ) : (
                    <NotYetTag />
                  )}
                </div>
              </Card>
            );
          })}
        </div>
      )}
    </Page>
  );
}
