// /system/knowledgeBase/vul 漏洞知识库 (setup:knowledge:vul): the custom (system) vulnerabilities,
// filtered and paged like the knowledge base list, with add/edit dialogs, delete with
// confirmation and batch delete. Imported data is looked after in the import records.
import { useState } from 'react';
import { Button } from '@blueprintjs/core';
import { useNavigate } from 'react-router';
import type { VulnerabilityRow } from '../../../../contract/api/vulnerability.ts';
import { formatVulnerabilityId } from '../../../../contract/format.ts';
import { routeTitle } from '../../../../contract/routes.ts';
import { useDeleteSystemVulnerabilitiesMutation, useDeleteSystemVulnerabilityMutation, useSystemVulnerabilityListQuery } from '../../../api/vulnerabilityApi.ts';
import { usePermissions } from '../../../app/hooks.ts';
import { ListScreen } from '../../../common/list/ListScreen.tsx';
import { useUrlState } from '../../../common/list/useListState.ts';
import { SYSTEM_VULNERABILITY_FIELDS as FIELDS, filterOf, toggleSort } from '../../../common/vulnerability/fields.ts';
import { SYSTEM_VULNERABILITY_FILTERS } from '../../../common/vulnerability/filters.ts';
import { vulnerabilityColumns, vulnerabilityDetailsPath } from '../../../common/vulnerability/columns.tsx';
import { SystemVulDialog } from './SystemVulDialog.tsx';
import { ImportDialog } from './ImportDialog.tsx';
import { SyncSettingsDialog } from './SyncSettingsDialog.tsx';
import { kbImportZh } from '../../../i18n/kb-import.ts';
import { KbStatusPanel } from '../../../common/kbStatus.tsx';
import { zh } from '../../../i18n/zh-CN.ts';
import './styles.ts';

const t = zh.vul;
const PATH = '/system/knowledgeBase/vul';
const ADMIN = 'setup:knowledge:vul';

export default function SystemVulScreen() {
  const [state, setState] = useUrlState(FIELDS);
  const navigate = useNavigate();
  const canAdmin = usePermissions()(ADMIN);
  const list = useSystemVulnerabilityListQuery({ paging: { page: state.page, size: state.size }, filter: filterOf(state) });
  const [removeOne] = useDeleteSystemVulnerabilityMutation();
  const [removeMany] = useDeleteSystemVulnerabilitiesMutation();
  const [dialog, setDialog] = useState<{ id: number | null } | null>(null);
  const [onboarding, setOnboarding] = useState<'import' | 'sync' | null>(null);
  const open = (row: VulnerabilityRow) => navigate(vulnerabilityDetailsPath(row));

  return (
    <ListScreen
      title={routeTitle(PATH)}
      subtitle={t.systemSubtitle}
      banner={<KbStatusPanel />}
      actions={
        <>
          {canAdmin ? <Button icon="import" intent="primary" text={kbImportZh.importAction} onClick={() => setOnboarding('import')} /> : null}
          {canAdmin ? <Button icon="cloud-download" text={kbImportZh.syncAction} onClick={() => setOnboarding('sync')} /> : null}
          <Button icon="history" text={t.importRecords} onClick={() => navigate(`${PATH}/batch`)} />
        </>
      }
      add={canAdmin ? { text: t.add, onClick: () => setDialog({ id: null }) } : undefined}
      fields={FIELDS}
      state={state}
      onState={setState}
      filters={SYSTEM_VULNERABILITY_FILTERS}
      list={list}
      columns={vulnerabilityColumns({ sort: state, onSort: (key) => setState(toggleSort(state, key)), onOpen: open })}
      rowKey={(row) => row.id}
      rowLabel={formatVulnerabilityId}
      onOpen={open}
      tableClassName="cairn-vul-table"
      rowActions={canAdmin ? (row) => [{ icon: 'edit', text: zh.list.edit, onClick: () => setDialog({ id: row.id }) }] : undefined}
      remove={
        canAdmin
          ? {
              one: (row) => removeOne(row.id).unwrap(),
              many: (ids) => removeMany(ids).unwrap(),
              texts: { title: t.removeTitle, one: (row) => t.removeBody(formatVulnerabilityId(row)), many: t.batchRemoveBody },
            }
          : undefined
      }
      texts={{ loadFailed: t.systemLoadFailed, emptyFiltered: t.emptyFiltered, emptyFilteredBody: t.emptyFilteredBody }}
      empty={{ title: t.systemEmpty, description: canAdmin ? t.systemEmptyBody : undefined, icon: 'shield' }}
    >
      {dialog ? <SystemVulDialog id={dialog.id} onClose={() => setDialog(null)} /> : null}
      {onboarding === 'import' ? <ImportDialog onClose={() => setOnboarding(null)} /> : null}
      {onboarding === 'sync' ? <SyncSettingsDialog onClose={() => setOnboarding(null)} /> : null}
    </ListScreen>
  );
}
