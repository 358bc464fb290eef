// /license 许可证列表: the licence knowledge base, filtered and paged on the platform; the filters
// live in the URL query. A row opens /license/details?id=….
import { Button, Card } from '@blueprintjs/core';
import { useNavigate } from 'react-router';
import type { LicenseRow } from '../../../contract/api/license.ts';
import { routeTitle } from '../../../contract/routes.ts';
import { useLicenseListQuery } from '../../api/licenseApi.ts';
import { Page } from '../../common/PageHeader.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../common/states.tsx';
import { Pager } from '../bug/Pager.tsx';
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

  let body: React.ReactNode;
  if (list.isLoading) body = <LoadingState />;
  else if (list.isError) body = <ErrorState title={t.loadFailed} message={list.error.message} onRetry={() => void list.refetch()} />;
  else if (!list.data || list.data.content.length === 0) {
    body =
      list.data && list.data.total > 0 ? (
        <EmptyState title={t.emptyFiltered} icon="search" action={<Button icon="double-chevron-left" text={zh.vul.firstPage} onClick={() => setState(changedLicense(state, { page: 1 }))} />} />
      ) : hasLicenseFilters(state) ? (
        <EmptyState title={t.emptyFiltered} description={t.emptyFilteredBody} icon="search" />
      ) : (
        <EmptyState title={t.emptyAll} icon="manual" />
      );
  } else {
    body = (
      <Card className={list.isFetching ? 'cairn-table-card cairn-refreshing' : 'cairn-table-card'}>
        <LicenseTable rows={list.data.content} onOpen={open} />
        <Pager
          page={state.page}
          size={state.size}
          total={list.data.total}
          onPage={(page) => setState(changedLicense(state, { page }))}
          onSize={(size) => setState(changedLicense(state, { size }))}
        />
      </Card>
    );
  }

  return (
    <Page title={routeTitle('/license')} subtitle={t.listSubtitle}>
      <LicenseFilterBar state={state} onChange={setState} />
      {body}
    </Page>
  );
}
