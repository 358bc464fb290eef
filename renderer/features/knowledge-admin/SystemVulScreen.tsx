// /system/knowledgeBase/vul 漏洞知识库 (setup:knowledge:vul): the custom (system) vulnerabilities,
// filtered and paged like the knowledge base list, with add/edit dialogs, delete with
// confirmation and batch delete. Imported data is looked after in the import records.
import { useState } from 'react';
import { Alert, Button, ButtonGroup, Card, Tooltip } from '@blueprintjs/core';
import { useNavigate } from 'react-router';
import type { VulnerabilityRow } from '../../../contract/api/vulnerability.ts';
import { ADMIN_SUCCESS_MESSAGES } from '../../../contract/errors.ts';
import { formatVulnerabilityId } from '../../../contract/format.ts';
import { routeTitle } from '../../../contract/routes.ts';
import { apiErrorMessage } from '../../api/baseQuery.ts';
import { useDeleteSystemVulnerabilitiesMutation, useDeleteSystemVulnerabilityMutation, useSystemVulnerabilityListQuery } from '../../api/vulnerabilityApi.ts';
import { usePermissions } from '../../app/hooks.ts';
import { toastNotifier as notify } from '../../app/toaster.ts';
import { Page } from '../../common/PageHeader.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../common/states.tsx';
import { FilterBar } from '../bug/FilterBar.tsx';
import { changed, filterOf, hasFilters, toggleSort } from '../bug/listQuery.ts';
import { Pager } from '../bug/Pager.tsx';
import { useListState } from '../bug/useListState.ts';
import { VulnerabilityTable } from '../bug/VulnerabilityTable.tsx';
import { SystemVulDialog } from './SystemVulDialog.tsx';
import { zh } from '../../i18n/zh-CN.ts';
import '../bug/styles.ts';

const t = zh.vul;
const ADMIN = 'setup:knowledge:vul';

type Doomed = { kind: 'one'; row: VulnerabilityRow } | { kind: 'many'; ids: number[] };

export default function SystemVulScreen() {
  const [state, setState] = useListState();
  const navigate = useNavigate();
  const has = usePermissions();
  const canAdmin = has(ADMIN);
  const { source: _source, ...filter } = filterOf(state);
  const list = useSystemVulnerabilityListQuery({ paging: { page: state.page, size: state.size }, filter });
  const [removeOne, removingOne] = useDeleteSystemVulnerabilityMutation();
  const [removeMany, removingMany] = useDeleteSystemVulnerabilitiesMutation();
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [dialog, setDialog] = useState<{ id: number | null } | null>(null);
  const [doomed, setDoomed] = useState<Doomed | null>(null);

  const rows = list.data?.content ?? [];
  const toggle = (id: number) =>
    setSelected((old) => {
      const next = new Set(old);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const togglePage = (all: boolean) =>
    setSelected((old) => {
      const next = new Set(old);
      for (const r of rows) {
        if (all) next.add(r.id);
        else next.delete(r.id);
      }
      return next;
    });

  const confirmRemove = async () => {
    if (!doomed) return;
    try {
      if (doomed.kind === 'one') await removeOne(doomed.row.id).unwrap();
      else await removeMany(doomed.ids).unwrap();
      notify.success(ADMIN_SUCCESS_MESSAGES.deleted);
      const gone = doomed.kind === 'one' ? [doomed.row.id] : doomed.ids;
      setSelected((old) => new Set([...old].filter((id) => !gone.includes(id))));
      // The last row of a later page went: step back a page.
      if (rows.length <= gone.length && state.page > 1) setState(changed(state, { page: state.page - 1 }));
    } catch (e) {
      notify.error(apiErrorMessage(e));
    }
    setDoomed(null);
  };

  const actions = (
    <>
      <Button icon="history" text={t.importRecords} onClick={() => navigate('/system/knowledgeBase/vul/batch')} />
      {canAdmin ? (
        <>
          <Button icon="trash" intent="danger" text={t.batchRemove(selected.size)} disabled={selected.size === 0} onClick={() => setDoomed({ kind: 'many', ids: [...selected] })} />
          <Button icon="add" intent="primary" text={t.add} onClick={() => setDialog({ id: null })} />
        </>
      ) : null}
    </>
  );

  let body: React.ReactNode;
  if (list.isLoading) body = <LoadingState />;
  else if (list.isError) body = <ErrorState title={t.systemLoadFailed} message={list.error.message} onRetry={() => void list.refetch()} />;
  else if (!list.data || rows.length === 0) {
    body = hasFilters(state) || (list.data?.total ?? 0) > 0 ? (
      <EmptyState title={t.emptyFiltered} description={t.emptyFilteredBody} icon="search" action={<Button icon="reset" text={t.reset} onClick={() => setState(changed(state, { keyword: '', levels: [], exploit: [], ecosystem: '', from: '', to: '', withdrawn: false, page: 1 }))} />} />
    ) : (
      <EmptyState title={t.systemEmpty} description={canAdmin ? t.systemEmptyBody : undefined} icon="shield" action={canAdmin ? <Button icon="add" intent="primary" text={t.add} onClick={() => setDialog({ id: null })} /> : undefined} />
    );
  } else {
    body = (
      <Card className={list.isFetching ? 'cairn-table-card cairn-refreshing' : 'cairn-table-card'}>
        <VulnerabilityTable
          rows={rows}
          state={state}
          onSort={(key) => setState(toggleSort(state, key))}
          onOpen={(row) => navigate(`/bug/bugList/details?id=${row.id}`)}
          selection={canAdmin ? { selected, onToggle: toggle, onTogglePage: togglePage } : undefined}
          actions={
            canAdmin
              ? (row) => (
                  <ButtonGroup variant="minimal">
                    <Tooltip content={t.edit}>
                      <Button icon="edit" aria-label={`${t.edit} ${formatVulnerabilityId(row)}`} onClick={() => setDialog({ id: row.id })} />
                    </Tooltip>
                    <Tooltip content={t.remove}>
                      <Button icon="trash" intent="danger" aria-label={`${t.remove} ${formatVulnerabilityId(row)}`} onClick={() => setDoomed({ kind: 'one', row })} />
                    </Tooltip>
                  </ButtonGroup>
                )
              : undefined
          }
        />
        <Pager page={state.page} size={state.size} total={list.data.total} onPage={(page) => setState(changed(state, { page }))} onSize={(size) => setState(changed(state, { size }))} />
      </Card>
    );
  }

  return (
    <Page title={routeTitle('/system/knowledgeBase/vul')} subtitle={t.systemSubtitle} actions={actions}>
      <FilterBar state={state} onChange={setState} showSource={false} />
      {body}
      {dialog ? <SystemVulDialog id={dialog.id} onClose={() => setDialog(null)} /> : null}
      <Alert
        isOpen={doomed !== null}
        intent="danger"
        icon="trash"
        cancelButtonText={t.cancel}
        confirmButtonText={t.removeConfirm}
        loading={removingOne.isLoading || removingMany.isLoading}
        onCancel={() => setDoomed(null)}
        onConfirm={() => void confirmRemove()}
      >
        <p>
          <strong>{t.removeTitle}</strong>
        </p>
        <p>{doomed ? (doomed.kind === 'one' ? t.removeBody(formatVulnerabilityId(doomed.row)) : t.batchRemoveBody(doomed.ids.length)) : ''}</p>
      </Alert>
    </Page>
  );
}
