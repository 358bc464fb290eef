// /bug/bugList 漏洞列表: the knowledge base's vulnerabilities, filtered, sorted and paged on the
// platform; the filters live in the URL query. A row opens /bug/bugList/details?id=….
import { Button, Card } from '@blueprintjs/core';
import { useNavigate } from 'react-router';
import type { VulnerabilityRow } from '../../../contract/api/vulnerability.ts';
import { routeTitle } from '../../../contract/routes.ts';
import { useVulnerabilityListQuery } from '../../api/vulnerabilityApi.ts';
import { Page } from '../../common/PageHeader.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../common/states.tsx';
import { FilterBar } from './FilterBar.tsx';
import { changed, filterOf, hasFilters, toggleSort } from './listQuery.ts';
import { Pager } from './Pager.tsx';
import { useListState } from './useListState.ts';
import { VulnerabilityTable } from './VulnerabilityTable.tsx';
import { zh } from '../../i18n/zh-CN.ts';
import './styles.ts';

const t = zh.vul;

export default function BugListScreen() {
  const [state, setState] = useListState();
  const navigate = useNavigate();
  const list = useVulnerabilityListQuery({ paging: { page: state.page, size: state.size }, filter: filterOf(state) });
  const open = (row: VulnerabilityRow) => navigate(`/bug/bugList/details?id=${row.id}`);

  let body: React.ReactNode;
  if (list.isLoading) body = <LoadingState />;
  else if (list.isError) body = <ErrorState title={t.loadFailed} message={list.error.message} onRetry={() => void list.refetch()} />;
  else if (!list.data || list.data.content.length === 0) {
    body =
      list.data && list.data.total > 0 ? (
        // A page past the end (the list shrank, or a hand-edited URL): offer the first page.
        <EmptyState title={t.emptyFiltered} icon="search" action={<Button icon="double-chevron-left" text={t.firstPage} onClick={() => setState(changed(state, { page: 1 }))} />} />
      ) : hasFilters(state) ? (
        <EmptyState title={t.emptyFiltered} description={t.emptyFilteredBody} icon="search" />
      ) : (
        <EmptyState title={t.emptyAll} description={t.emptyAllBody} icon="shield" />
      );
  } else {
    body = (
      <Card className={list.isFetching ? 'cairn-table-card cairn-refreshing' : 'cairn-table-card'}>
        <VulnerabilityTable rows={list.data.content} state={state} onSort={(key) => setState(toggleSort(state, key))} onOpen={open} />
        <Pager
          page={state.page}
          size={state.size}
          total={list.data.total}
          onPage={(page) => setState(changed(state, { page }))}
          onSize={(size) => setState(changed(state, { size }))}
        />
      </Card>
    );
  }

  return (
    <Page title={routeTitle('/bug/bugList')} subtitle={t.listSubtitle}>
      <FilterBar state={state} onChange={setState} />
      {body}
    </Page>
  );
}
