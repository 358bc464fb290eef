// /bug/bugList 漏洞列表: the knowledge base's vulnerabilities, filtered, sorted and paged on the
// platform; the filters live in the URL query. A row opens /bug/bugList/details?id=….
import { useNavigate } from 'react-router';
import type { VulnerabilityRow } from '../../../contract/api/vulnerability.ts';
import { formatVulnerabilityId } from '../../../contract/format.ts';
import { routeTitle } from '../../../contract/routes.ts';
import { useVulnerabilityListQuery } from '../../api/vulnerabilityApi.ts';
import { DataTable } from '../../common/list/DataTable.tsx';
import { UrlFilterBar, type FilterControls } from '../../common/list/FilterBar.tsx';
import { PagedListBody } from '../../common/list/PagedListBody.tsx';
import { useListState } from '../../common/list/useListState.ts';
import { changed, type FieldValues } from '../../common/list/urlState.ts';
import { Page } from '../../common/PageHeader.tsx';
import { EmptyState } from '../../common/states.tsx';
import { SOURCE_CODES, filterOf, toggleSort } from '../../common/vulnerability/fields.ts';
import { ecosystemFilter, keywordFilter, levelExploitFilters, publishedFilters } from '../../common/vulnerability/filters.ts';
import { vulnerabilityColumns, vulnerabilityDetailsPath } from '../../common/vulnerability/columns.tsx';
import { LIST_FIELDS, hasFilters, readListState, writeListState } from './listQuery.ts';
import { zh } from '../../i18n/zh-CN.ts';
import './styles.ts';

const t = zh.vul;

const FILTERS: FilterControls<FieldValues<typeof LIST_FIELDS>> = {
  keyword: keywordFilter,
  rows: [
    levelExploitFilters,
    [
      ecosystemFilter,
      { kind: 'select', field: 'source', label: t.source, options: [{ value: '', label: zh.list.all }, ...SOURCE_CODES.map((s) => ({ value: s, label: t.sources[s] ?? s }))] },
      ...publishedFilters,
    ],
  ],
};

export default function BugListScreen() {
  const [state, setState] = useListState(readListState, writeListState);
  const navigate = useNavigate();
  const list = useVulnerabilityListQuery({ paging: { page: state.page, size: state.size }, filter: filterOf(state) });
  const open = (row: VulnerabilityRow) => navigate(vulnerabilityDetailsPath(row));
  const columns = vulnerabilityColumns({ sort: state, onSort: (key) => setState(toggleSort(state, key)), onOpen: open });

  return (
    <Page title={routeTitle('/bug/bugList')} subtitle={t.listSubtitle}>
      <UrlFilterBar fields={LIST_FIELDS} controls={FILTERS} state={state} onChange={setState} />
      <PagedListBody
        list={list}
        texts={t}
        filtered={hasFilters(state)}
        emptyAll={<EmptyState title={t.emptyAll} description={t.emptyAllBody} icon="shield" />}
        page={state.page}
        size={state.size}
        onPage={(page) => setState(changed(state, { page }))}
        onSize={(size) => setState(changed(state, { size }))}
        table={(rows) => <DataTable rows={rows} columns={columns} rowKey={(row) => row.id} rowLabel={formatVulnerabilityId} onOpen={open} className="cairn-vul-table" />}
      />
    </Page>
  );
}
