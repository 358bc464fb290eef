// The frame of a knowledge-base detail page (vulnerability, licence): the back button, the
// missing-id, loading and error states, and the route's tabs with the tab kept in the URL
// (`tab=`), and the heading under the title (level, id, name, a warning tag). Shared so the
// detail pages behave alike; each supplies its heading's facts and its panels.
import { Button, Tab, Tabs, Tag, type TabId } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { routeInfo, routeTitle } from '../../contract/routes.ts';
import { LevelTag } from './levels.tsx';
import { Page } from './PageHeader.tsx';
import { EmptyState, ErrorState, LoadingState } from './states.tsx';

/** The `id=` of the detail page's URL, trimmed ('' when absent). */
export function useDetailId(): string {
  const [params] = useSearchParams();
  return (params.get('id') ?? '').trim();
}

/** The heading of a detail page: its level, its id, its name and, when set, a warning (撤回, 已废弃). */
/** `levelTag` replaces the plain level tag (a vulnerability no source rates reads 未评级). */
export function DetailHeading({ level, levelTag, id, name, warning }: { level: number; levelTag?: ReactNode; id: string; name: string; warning: string | null }) {
  return (
    <span className="cairn-detail-heading">
      {levelTag ?? <LevelTag level={level} />}
      <span className="cairn-vul-id-text">{id}</span>
      <span className="cairn-detail-name">{name}</span>
      {warning ? (
        <Tag minimal intent="warning">
          {warning}
        </Tag>
      ) : null}
    </span>
  );
}

export function DetailPage<D>(props: {
  /** The detail route (its title and tabs). */
  path: string;
  /** Where 返回 goes when there is no history to go back to. */
  listPath: string;
  tabsId: string;
  id: string;
  texts: { back: string; detailMissingId: string; detailMissingIdBody: string; detailLoadFailed: string };
  query: { isLoading: boolean; isError: boolean; error?: { message?: string | undefined } | undefined; data?: D | undefined; refetch: () => unknown };
  heading: (data: D) => ReactNode;
  panels: (data: D) => Record<string, ReactNode>;
}) {
  const { path, listPath, tabsId, id, texts: t, query: q, heading, panels } = props;
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const tabs = routeInfo(path)?.tabs.filter((x) => !x.aliasOf) ?? [];
  const tabKeys = tabs.map((x) => x.key);
  const rawTab = params.get('tab') ?? '';
  const tab = tabKeys.includes(rawTab) ? rawTab : (tabKeys[0] ?? 'overview');
  // Back returns to wherever the user came from (the list with its filters, the kanban, the admin list).
  const back = <Button icon="arrow-left" text={t.back} onClick={() => (window.history.length > 1 ? navigate(-1) : navigate(listPath))} />;

  if (!id) {
    return (
      <Page title={routeTitle(path)} actions={back}>
        <EmptyState title={t.detailMissingId} description={t.detailMissingIdBody} icon="search" />
      </Page>
    );
  }
  let body: ReactNode;
  let subtitle: ReactNode;
  if (q.isLoading) body = <LoadingState />;
  else if (q.isError) body = <ErrorState title={t.detailLoadFailed} message={q.error?.message} onRetry={() => void q.refetch()} />;
  else if (!q.data) body = <EmptyState />;
  else {
    subtitle = heading(q.data);
    const byKey = panels(q.data);
    body = (
      <Tabs
        id={tabsId}
        selectedTabId={tab}
        large
        renderActiveTabPanelOnly
        onChange={(next: TabId) =>
          setParams(
            (old) => {
              const out = new URLSearchParams(old);
              out.set('tab', String(next));
              return out;
            },
            { replace: true },
          )
        }
      >
        {tabs.map((x) => (
          <Tab key={x.key} id={x.key} title={x.label} panel={<div className="cairn-tab-panel">{byKey[x.key]}</div>} />
        ))}
      </Tabs>
    );
  }
  return (
    <Page title={routeTitle(path)} subtitle={subtitle} actions={back}>
      {body}
    </Page>
  );
}
