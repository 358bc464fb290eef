// /license 许可证列表: the licence knowledge base, filtered and paged on the platform; the filters
// live in the URL query. A row opens /license/details?id=….
import { useNavigate } from 'react-router';
import type { LicenseRow } from '../../../contract/api/license.ts';
import { routeTitle } from '../../../contract/routes.ts';
import { useLicenseListQuery } from '../../api/licenseApi.ts';
import { Page } from '../../common/PageHeader.tsx';
import { EmptyState } from '../../common/states.tsx';
import { PagedListBody } from '../../common/PagedListBody.tsx';
import { LicenseFilterBar } from './LicenseFilterBar.tsx';
import { LicenseTable } from './LicenseTable.tsx';
import { changedLicense, hasLicenseFilters, licenseFilterOf } from './licenseQuery.ts';
import { useLicenseListState } from './useLicenseListState.ts';
import { zh } from '../../i18n/zh-CN.ts';
import './styles.ts';

const t = zh.license;

export default function LicenseListScreen() {
  const [state, setState] = useLicenseListState();
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
      onPage={(page) => setState(changedLicense(state, { page }))}
      onSize={(size) => setState(changedLicense(state, { size }))}
      table={(rows) => <LicenseTable rows={rows} onOpen={open} />}
    />
  );

  return (
    <Page title={routeTitle('/license')} subtitle={t.listSubtitle}>
      <LicenseFilterBar state={state} onChange={setState} />
      {body}
    </Page>
  );
}
