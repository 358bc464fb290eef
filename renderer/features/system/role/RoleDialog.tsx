// Add or edit a role's name and remark (the rules every name and description follow); a new role
// also takes its data permission and, optionally, the permissions of an existing role to start
// from. Its permissions are ticked in the tree beside the list. A built-in role keeps its name.
import { FormGroup, HTMLSelect, InputGroup, Radio, RadioGroup, TextArea } from '@blueprintjs/core';
import type { RoleRow } from '../../../../contract/api/role.ts';
import { ADMIN_SUCCESS_MESSAGES } from '../../../../contract/errors.ts';
import { DATA_PERMISSION, DATA_PERMISSION_LABEL, type DataPermission } from '../../../../contract/permissions.ts';
import { DESCRIPTION_MAX_LENGTH, NAME_MAX_LENGTH, validateDescription, validateName } from '../../../../contract/validation.ts';
import { useAddRoleMutation, useUpdateRoleMutation } from '../../../api/roleApi.ts';
import { FormDialog } from '../../../common/form/FormDialog.tsx';
import { validateFields } from '../../../common/form/formErrors.ts';
import { zh } from '../../../i18n/zh-CN.ts';

const t = zh.system.role;

interface Values { name: string; remark: string; dataPermissionEnum: DataPermission; copyFrom: string }

const validate = validateFields<Values>({ name: validateName, remark: validateDescription });

export function RoleDialog({ row, roles, onClose, onSaved }: {
  row: RoleRow | null;
  roles: readonly RoleRow[];
  onClose: () => void;
  onSaved: (row: RoleRow) => void;
}) {
  const [add] = useAddRoleMutation();
  const [update] = useUpdateRoleMutation();
  const initial: Values = { name: row?.name ?? '', remark: row?.remark ?? '', dataPermissionEnum: row?.dataPermissionEnum ?? DATA_PERMISSION.SELF, copyFrom: '' };

  const submit = async (values: Values) => {
    const form = { name: values.name, remark: values.remark, dataPermissionEnum: values.dataPermissionEnum };
    const saved = row
      ? await update({ params: { id: row.id }, body: { ...form, dataPermissionEnum: row.dataPermissionEnum, permissions: row.permissions } }).unwrap()
      : await add({ ...form, permissions: roles.find((r) => String(r.id) === values.copyFrom)?.permissions ?? [] }).unwrap();
    onSaved(saved);
  };

  return (
    <FormDialog<Values>
      title={row ? t.editTitle : t.addTitle}
      icon={row ? 'edit' : 'add'}
      idPrefix="role"
      onClose={onClose}
      initial={initial}
      validate={validate}
      submit={submit}
      success={row ? ADMIN_SUCCESS_MESSAGES.modified : ADMIN_SUCCESS_MESSAGES.added}
      fields={['name', 'remark', 'dataPermissionEnum']}
    >
      {(form) => (
        <>
          <FormGroup label={t.name} labelFor={form.id('name')} labelInfo="*" {...form.group('name', row?.builtin ? t.builtinNameHelp : t.nameHelp)}>
            <InputGroup
              id={form.id('name')}
              intent={form.intent('name')}
              value={form.values.name}
              placeholder={t.namePlaceholder}
              maxLength={NAME_MAX_LENGTH}
              disabled={row?.builtin}
              autoFocus={!row?.builtin}
              onValueChange={(v) => form.set('name', v)}
            />
          </FormGroup>
          <FormGroup label={t.remark} labelFor={form.id('remark')} {...form.group('remark')}>
            <TextArea
              id={form.id('remark')}
              intent={form.intent('remark')}
              value={form.values.remark}
              placeholder={t.remarkPlaceholder}
              maxLength={DESCRIPTION_MAX_LENGTH}
              fill
              rows={3}
              onChange={(e) => form.set('remark', e.currentTarget.value)}
            />
          </FormGroup>
          {row ? null : (
            <>
              <FormGroup label={t.dataPermission} {...form.group('dataPermissionEnum', t.dataPermissionHelp[form.values.dataPermissionEnum])}>
                <RadioGroup inline selectedValue={form.values.dataPermissionEnum} onChange={(e) => form.set('dataPermissionEnum', e.currentTarget.value as DataPermission)}>
                  {Object.values(DATA_PERMISSION).map((d) => <Radio key={d} value={d} label={DATA_PERMISSION_LABEL[d]} />)}
                </RadioGroup>
              </FormGroup>
              <FormGroup label={t.copyFrom} labelFor={form.id('copyFrom')}>
                <HTMLSelect
                  id={form.id('copyFrom')}
                  fill
                  value={form.values.copyFrom}
                  onChange={(e) => form.set('copyFrom', e.currentTarget.value)}
                  options={[{ value: '', label: t.copyNone }, ...roles.map((r) => ({ value: String(r.id), label: r.name }))]}
                />
              </FormGroup>
            </>
          )}
        </>
      )}
    </FormDialog>
  );
}
