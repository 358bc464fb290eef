// /system/systemSettings/scanConfig 扫描配置 (setup:sys): the online-resolution switch (off by
// default) with its bounds, and the repositories it resolves through, one tab per ecosystem (Maven
// 仓库, npm 注册表, PyPI 索引): add, edit (the password write-only), enable or disable, delete.
import { useEffect, useState } from 'react';
import { Button, Callout, FormGroup, NumericInput, Switch, Tab, Tabs } from '@blueprintjs/core';
import {
  DEFAULT_SCAN_SETTINGS, SCAN_ECOSYSTEM_LABEL, SCAN_ECOSYSTEMS, type ScanEcosystem, type ScanRepositoryRow, type ScanSettings,
} from '../../../../contract/api/scan-config.ts';
import { ADMIN_SUCCESS_MESSAGES } from '../../../../contract/errors.ts';
import { routeTitle } from '../../../../contract/routes.ts';
import { apiErrorMessage } from '../../../api/baseQuery.ts';
import {
  useAddScanRepositoryMutation, useRemoveScanRepositoryMutation, useSaveScanSettingsMutation, useScanRepositoriesQuery, useScanSettingsQuery, useUpdateScanRepositoryMutation,
} from '../../../api/scanConfigApi.ts';
import { toastNotifier as notify } from '../../../app/toaster.ts';
import { GuardedButton } from '../../../common/GuardedButton.tsx';
import { Page } from '../../../common/PageHeader.tsx';
import { Panel, QueryBody } from '../../../common/Panel.tsx';
import { DataTable } from '../../../common/list/DataTable.tsx';
import { useConfirmDelete } from '../../../common/list/useConfirmDelete.tsx';
import { EmptyState } from '../../../common/states.tsx';
import { SCAN_REPOSITORY_COLUMNS } from '../../../common/scanRepository/columns.tsx';
import { ScanRepositoryRowActions } from '../../../common/scanRepository/RowActions.tsx';
import { ScanRepositoryDialog } from '../../../common/scanRepository/ScanRepositoryDialog.tsx';
import { zh } from '../../../i18n/zh-CN.ts';
import './styles.ts';

const t = zh.system.scanConfig;
const PATH = '/system/systemSettings/scanConfig';


function SettingsPanel() {
  const query = useScanSettingsQuery();
  const [save] = useSaveScanSettingsMutation();
  const [values, setValues] = useState<ScanSettings>(DEFAULT_SCAN_SETTINGS);
  useEffect(() => { if (query.data) setValues(query.data); }, [query.data]);
  const change = (patch: Partial<ScanSettings>) => setValues((old) => ({ ...old, ...patch }));
  const submit = async () => {
    try {
      await save(values).unwrap();
      notify.success(ADMIN_SUCCESS_MESSAGES.saved);
    } catch (e) {
      notify.error(apiErrorMessage(e));
    }
  };
  const number = (key: 'timeoutSeconds' | 'maxPackages' | 'maxDepth', min: number, max: number) => (
    <NumericInput
      id={`scan-settings-${key}`}
      value={values[key]}
      min={min}
      max={max}
      clampValueOnBlur
      disabled={!values.online}
      onValueChange={(n) => { if (Number.isFinite(n)) change({ [key]: Math.round(n) }); }}
    />
  );
  return (
    <Panel title={t.onlineTitle} actions={<GuardedButton intent="primary" icon="floppy-disk" text={t.save} disabled={!query.data} onClick={submit} />}>
      <QueryBody query={query}>
        {() => (
          <>
            <Switch large label={t.onlineLabel} checked={values.online} onChange={(e) => change({ online: e.currentTarget.checked })} />
            <p className="cairn-muted">{values.online ? t.onlineHelp : t.onlineOff} {t.environment}</p>
            <div className="cairn-form-grid cairn-form-grid-3">
              <FormGroup label={t.timeout} labelFor="scan-settings-timeoutSeconds">{number('timeoutSeconds', 1, 300)}</FormGroup>
              <FormGroup label={t.maxPackages} labelFor="scan-settings-maxPackages">{number('maxPackages', 1, 20_000)}</FormGroup>
              <FormGroup label={t.maxDepth} labelFor="scan-settings-maxDepth">{number('maxDepth', 1, 100)}</FormGroup>
            </div>
          </>
        )}
      </QueryBody>
    </Panel>
  );
}

function RepositoryTab({ ecosystem }: { ecosystem: ScanEcosystem }) {
  const label = SCAN_ECOSYSTEM_LABEL[ecosystem];
  const query = useScanRepositoriesQuery(ecosystem);
  const [add] = useAddScanRepositoryMutation();
  const [update] = useUpdateScanRepositoryMutation();
  const [remove] = useRemoveScanRepositoryMutation();
  const [dialog, setDialog] = useState<{ row: ScanRepositoryRow | null } | null>(null);
  const removal = useConfirmDelete<ScanRepositoryRow, number>({
    rowKey: (r) => r.id,
    removeOne: (r) => remove({ ecosystem, id: r.id }).unwrap(),
    texts: { title: t.removeTitle, one: (r) => t.removeBody(r.name) },
  });
  const toggle = async (row: ScanRepositoryRow) => {
    try {
      await update({ ecosystem, id: row.id, form: { name: row.name, url: row.url, username: row.username, enabled: !row.enabled, priority: row.priority, remark: row.remark } }).unwrap();
      notify.success(ADMIN_SUCCESS_MESSAGES.modified);
    } catch (e) {
      notify.error(apiErrorMessage(e));
    }
  };
  const addButton = <Button icon="add" intent="primary" text={t.add(label)} onClick={() => setDialog({ row: null })} />;
  return (
    <>
      <div className="cairn-scan-toolbar">{addButton}</div>
      <QueryBody query={query}>
        {(rows) => (rows.length === 0 ? (
          <EmptyState title={t.empty(label)} description={t.emptyBody} icon="database" action={addButton} />
        ) : (
          <DataTable
            rows={rows}
            columns={SCAN_REPOSITORY_COLUMNS}
            rowKey={(r) => r.id}
            rowLabel={(r) => r.name}
            actions={(row) => <ScanRepositoryRowActions row={row} onEdit={() => setDialog({ row })} onToggle={() => void toggle(row)} onRemove={() => removal.ask({ kind: 'one', row })} />}
          />
        ))}
      </QueryBody>
      {dialog ? (
        <ScanRepositoryDialog
          ecosystem={ecosystem}
          row={dialog.row}
          onClose={() => setDialog(null)}
          send={(form) => (dialog.row ? update({ ecosystem, id: dialog.row.id, form }).unwrap() : add({ ecosystem, form }).unwrap())}
        />
      ) : null}
      {removal.element}
    </>
  );
}

export default function ScanConfigScreen() {
  const [tab, setTab] = useState<ScanEcosystem>('maven');
  return (
    <Page title={routeTitle(PATH)} subtitle={t.subtitle}>
      <SettingsPanel />
      <Callout className="cairn-scan-note" icon="info-sign">{t.passwordHelp}</Callout>
      <Tabs id="scan-config-tabs" selectedTabId={tab} onChange={(id) => setTab(id as ScanEcosystem)} renderActiveTabPanelOnly>
        {SCAN_ECOSYSTEMS.map((e) => <Tab key={e} id={e} title={SCAN_ECOSYSTEM_LABEL[e]} panel={<RepositoryTab ecosystem={e} />} />)}
      </Tabs>
    </Page>
  );
}
