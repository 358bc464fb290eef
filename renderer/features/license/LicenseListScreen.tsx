// /license 许可证列表: the licence knowledge base, filtered and paged on the platform; the filters
// live in the URL query. A row opens /license/details?id=….
import { useNavigate } from 'react-router';
import type { LicenseRow } from '../../../contract/api/license.ts';
import { routeTitle } from '../../../contract/routes.ts';
import { useLicenseListQuery } from '../../api/licenseApi.ts';
import { Page } from '../../common/PageHeader.tsx';
import { EmptyState } from '../../common/states.tsx';
import { levelColor, levelLabel } from '../../common/levels.tsx';
import { UrlFilterBar, type FilterControls } from '../../common/list/FilterBar.tsx';
import { PagedListBody } from '../../common/list/PagedListBody.tsx';
import { useListState } from '../../common/list/useListState.ts';
import { changed, type FieldValues } from '../../common/list/urlState.ts';
import { LicenseTable } from '../../common/license/LicenseTable.tsx';
import { COPYLEFT_CODES, LICENSE_FIELDS, OSI_FILTERS, hasLicenseFilters, licenseFilterOf, readLicenseState, writeLicenseState } from './licenseQuery.ts';
import { LEVEL_CODES } from '../../../contract/enums.ts';
import { zh } from '../../i18n/zh-CN.ts';
import './styles.ts';

const t = zh.license;

/** Keyword, level tags in the level colours, copyleft strength, OSI approval. */
const FILTERS: FilterControls<FieldValues<typeof LICENSE_FIELDS>> = {
  keyword: { field: 'keyword', label: t.keyword, placeholder: t.keywordPlaceholder },
  rows: [
    [
      { kind: 'tags', field: 'levels', label: t.level, codes: LEVEL_CODES, labelOf: levelLabel, color: levelColor },
      { kind: 'tags', field: 'copyleft', label: t.copyleft, codes: COPYLEFT_CODES, labelOf: (code: (typeof COPYLEFT_CODES)[number]) => t.copyleftLabels[code] },
      { kind: 'select', field: 'osi', label: t.osi, options: OSI_FILTERS.map((v) => ({ value: v, label: t.osiOptions[v] })) },
    ],
  ],
};

export default function LicenseListScreen() {
  const [state, setState] = useListState(readLicenseState, writeLicenseState);
  const navigate = useNavigate();
  const list = useLicenseListQuery({ paging: { page: state.page, size: state.size }, filter: licenseFilterOf(state) });
  const open = (row: LicenseRow) => navigate(`/license/details?id=${row.id}`);

  const body = (
    <PagedListBody
      list={list}
      texts={t}
      filtered={hasLicenseFilters(state)}
      emptyAll={<EmptyState title={t.emptyAll} icon="manual" />}
      page={state.page}
      size={state.size}
      onPage={(page) => setState(changed(state, { page }))}
      onSize={(size) => setState(changed(state, { size }))}
      table={(rows) => <LicenseTable rows={rows} onOpen={open} />}
    />
  );

  return (
    <Page title={routeTitle('/license')} subtitle={t.listSubtitle}>
      <UrlFilterBar fields={LICENSE_FIELDS} controls={FILTERS} state={state} onChange={setState} />
      {body}
    </Page>
  );
}
