// /system/user/role 角色管理 (setup:user:role:list): the roles on the left (holders, data
// permission, built-in mark), the chosen role on the right: its data permission as radios and its
// permissions as a checkbox tree, saved together; add and edit dialogs (name, remark), delete with
// confirmation (the built-ins cannot be; a role users hold is refused by the platform, naming how
// many). Saving codes or data permission says that holders must log in again (spec doc 2 §6).
import { useEffect, useMemo, useState } from 'react';
import { Button, Callout, Card, FormGroup, H5, Radio, RadioGroup, Tag } from '@blueprintjs/core';
import type { RoleRow } from '../../../../contract/api/role.ts';
import { ADMIN_SUCCESS_MESSAGES } from '../../../../contract/errors.ts';
import { orDash } from '../../../../contract/format.ts';
import type { PermissionNode } from '../../../../contract/permission-tree.ts';
import { DATA_PERMISSION, DATA_PERMISSION_LABEL, ROLE, type DataPermission } from '../../../../contract/permissions.ts';
import { routeTitle } from '../../../../contract/routes.ts';
import { apiErrorMessage } from '../../../api/baseQuery.ts';
import { usePermissionTreeQuery, useRemoveRoleMutation, useRoleListQuery, useUpdateRoleMutation } from '../../../api/roleApi.ts';
import { toastNotifier as notify } from '../../../app/toaster.ts';
import { GuardedButton } from '../../../common/GuardedButton.tsx';
import { Page } from '../../../common/PageHeader.tsx';
import { QueryBody } from '../../../common/Panel.tsx';
import { DataTable, type Column } from '../../../common/list/DataTable.tsx';
import { useConfirmDelete } from '../../../common/list/useConfirmDelete.tsx';
import { EmptyState } from '../../../common/states.tsx';
import { zh } from '../../../i18n/zh-CN.ts';
import { PermissionTreeField } from './PermissionTreeField.tsx';
import { RoleDialog } from './RoleDialog.tsx';
import './styles.ts';

const t = zh.system.role;
const PATH = '/system/user/role';

const sameCodes = (a: readonly string[], b: readonly string[]) => a.length === b.length && [...a].sort().join(',') === [...b].sort().join(',');

function RoleDetail({ role, tree, onEdit, onRemove }: { role: RoleRow; tree: readonly PermissionNode[]; onEdit: () => void; onRemove: () => void }) {
  const [update] = useUpdateRoleMutation();
  const [permissions, setPermissions] = useState<string[]>(role.permissions);
  const [dataPermission, setDataPermission] = useState<DataPermission>(role.dataPermissionEnum);
  useEffect(() => {
    setPermissions(role.permissions);
    setDataPermission(role.dataPermissionEnum);
  }, [role]);
  const locked = role.code === ROLE.DOMAIN_ADMIN;
  const dirty = !sameCodes(permissions, role.permissions) || dataPermission !== role.dataPermissionEnum;

  const save = async () => {
    try {
      await update({ params: { id: role.id }, body: { name: role.name, remark: role.remark, permissions, dataPermissionEnum: dataPermission } }).unwrap();
      notify.success(ADMIN_SUCCESS_MESSAGES.rolePermissionNeedsRelogin);
    } catch (e) {
      notify.error(apiErrorMessage(e));
    }
  };

  return (
    <Card className="cairn-panel cairn-role-detail">
      <div className="cairn-panel-header">
        <div className="cairn-role-title">
          <H5>{role.name}</H5>
          {role.builtin ? <Tag minimal intent="primary">{t.builtin}</Tag> : null}
          <Tag minimal icon="person">{t.usersOf(role.users)}</Tag>
          <span className="cairn-muted">{t.code} {role.code}</span>
        </div>
        <div className="cairn-role-actions">
          <Button icon="edit" text={t.edit} onClick={onEdit} />
          <Button icon="trash" intent="danger" text={t.remove} disabled={role.builtin} title={role.builtin ? t.builtinNoDelete : undefined} onClick={onRemove} />
        </div>
      </div>
      <p className="cairn-muted">{t.remark}：{orDash(role.remark)}</p>
      {locked ? <Callout intent="primary" icon="lock" className="cairn-role-note">{t.adminNote}</Callout> : null}
      <FormGroup label={t.dataPermission} helperText={t.dataPermissionHelp[dataPermission]}>
        <RadioGroup inline disabled={locked} selectedValue={dataPermission} onChange={(e) => setDataPermission(e.currentTarget.value as DataPermission)}>
          {Object.values(DATA_PERMISSION).map((d) => <Radio key={d} value={d} label={DATA_PERMISSION_LABEL[d]} />)}
        </RadioGroup>
      </FormGroup>
      <FormGroup label={t.permissions}>
        <PermissionTreeField tree={tree} value={permissions} onChange={setPermissions} disabled={locked} />
      </FormGroup>
      {locked ? null : (
        <div className="cairn-role-savebar">
          <span className="cairn-muted">{dirty ? t.unsaved : t.reloginNote}</span>
          <Button text={t.reset} disabled={!dirty} onClick={() => { setPermissions(role.permissions); setDataPermission(role.dataPermissionEnum); }} />
          <GuardedButton intent="primary" icon="floppy-disk" text={t.save} disabled={!dirty} onClick={save} />
        </div>
      )}
    </Card>
  );
}

export default function RoleScreen() {
  const roles = useRoleListQuery();
  const tree = usePermissionTreeQuery();
  const [remove] = useRemoveRoleMutation();
  const [chosenId, setChosenId] = useState<number | null>(null);
  const [dialog, setDialog] = useState<{ row: RoleRow | null } | null>(null);
  const rows = useMemo(() => roles.data ?? [], [roles.data]);
  const chosen = rows.find((r) => r.id === chosenId) ?? rows[0] ?? null;
  const removal = useConfirmDelete<RoleRow, number>({
    rowKey: (r) => r.id,
    removeOne: async (r) => {
      await remove(r.id).unwrap();
      setChosenId(null);
    },
    texts: { title: t.removeTitle, one: (r) => t.removeBody(r.name) },
  });

  const columns: ReadonlyArray<Column<RoleRow>> = [
    {
      key: 'name', title: t.name, className: 'cairn-col-name', cell: (r) => (
        <span className={r.id === chosen?.id ? 'cairn-role-chosen' : undefined}>
          {r.name}{r.builtin ? <Tag minimal className="cairn-role-tag">{t.builtin}</Tag> : null}
        </span>
      ),
    },
    { key: 'data', title: t.dataPermission, cell: (r) => DATA_PERMISSION_LABEL[r.dataPermissionEnum] },
    { key: 'users', title: t.users, className: 'cairn-col-number', cell: (r) => r.users },
  ];

  return (
    <Page title={routeTitle(PATH)} subtitle={t.subtitle} actions={<Button icon="add" intent="primary" text={t.add} onClick={() => setDialog({ row: null })} />}>
      <div className="cairn-role-layout">
        <Card className="cairn-panel cairn-role-list">
          <H5>{t.roles}</H5>
          <QueryBody query={roles} isEmpty={(d) => d.length === 0} emptyText={t.empty}>
            {(data) => (
              <DataTable
                compact
                className="cairn-role-table"
                rows={data}
                columns={columns}
                rowKey={(r) => r.id}
                rowLabel={(r) => r.name}
                onOpen={(r) => setChosenId(r.id)}
              />
            )}
          </QueryBody>
        </Card>
        <div className="cairn-role-main">
          <QueryBody query={tree}>
            {(nodes) => (chosen
              ? <RoleDetail key={chosen.id} role={chosen} tree={nodes} onEdit={() => setDialog({ row: chosen })} onRemove={() => removal.ask({ kind: 'one', row: chosen })} />
              : <EmptyState title={t.pick} icon="people" />)}
          </QueryBody>
        </div>
      </div>
      {dialog ? <RoleDialog row={dialog.row} roles={rows} onClose={() => setDialog(null)} onSaved={(r) => setChosenId(r.id)} /> : null}
      {removal.element}
    </Page>
  );
}
