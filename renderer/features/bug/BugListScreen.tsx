// /bug/bugList 漏洞列表: the knowledge base's vulnerabilities, filtered, sorted and paged on the
// platform; the filters live in the URL query. A row opens /bug/bugList/details?id=….
import { useNavigate } from 'react-router';
import type { VulnerabilityRow } from '../../../contract/api/vulnerability.ts';
import { routeTitle } from '../../../contract/routes.ts';
import { useVulnerabilityListQuery } from '../../api/vulnerabilityApi.ts';
import { Page } from '../../common/PageHeader.tsx';
import { EmptyState } from '../../common/states.tsx';
import { PagedListBody } from '../../common/PagedListBody.tsx';
import { FilterBar } from './FilterBar.tsx';
import { changed, filterOf, hasFilters, toggleSort } from './listQuery.ts';
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

  const body = (
    <PagedListBody
      list={list}
      texts={t}
      filtered={hasFilters(state)}
      emptyAll={<EmptyState title={t.emptyAll} description={t.emptyAllBody} icon="shield" />}
      page={state.page}
      size={state.size}
      onPage={(page) => setState(changed(state, { page }))}
      onSize={(size) => setState(changed(state, { size }))}
      table={(rows) => <VulnerabilityTable rows={rows} state={state} onSort={(key) => setState(toggleSort(state, key))} onOpen={open} />}
    />
  );

  return (
    <Page title={routeTitle('/bug/bugList')} subtitle={t.listSubtitle}>
      <FilterBar state={state} onChange={setState} />
      {body}
    </Page>
  );
}
