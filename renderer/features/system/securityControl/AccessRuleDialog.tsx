// Add or edit an IP access rule: the address or CIDR range, allow or deny, for all users or for
// the users picked here, enabled or not, and a remark. The platform checks the address (and makes
// it canonical), the users and the lock-out guard; its refusal is shown beside the field it names,
// or above the buttons (the lock-out guard names none).
import { FormGroup, HTMLSelect, InputGroup, Radio, RadioGroup, Switch, Tag, TextArea } from '@blueprintjs/core';
import {
  ACCESS_ACTION, ACCESS_SCOPE, type AccessAction, type AccessRuleForm, type AccessRuleRow, type AccessScope,
} from '../../../../contract/api/access.ts';
import { ADMIN_SUCCESS_MESSAGES } from '../../../../contract/errors.ts';
import { DESCRIPTION_MAX_LENGTH, validateDescription } from '../../../../contract/validation.ts';
import { apiErrorMessage } from '../../../api/baseQuery.ts';
import { useAddAccessRuleMutation, useEditAccessRuleMutation } from '../../../api/accessApi.ts';
import { useProjectOwnerOptionsQuery } from '../../../api/taskApi.ts';
import { FormDialog } from '../../../common/form/FormDialog.tsx';
import { validateFields } from '../../../common/form/formErrors.ts';
import { securityZh as t } from '../../../i18n/security.ts';

type Values = Required<AccessRuleForm>;

const validateEach = validateFields<Values>({
  address: (v) => (v.trim() ? null : t.addressRequired),
  remark: validateDescription,
});
const validate = (values: Values) => ({
  ...validateEach(values),
  ...(values.scope === ACCESS_SCOPE.USERS && values.userIds.length === 0 && { userIds: t.usersRequired }),
});

const userLabel = (u: { username: string; name: string }) => (u.name && u.name !== u.username ? `${u.name}（${u.username}）` : u.username);

/** The users of a rule: picked from every user, each shown as a removable tag. */
function UserPicker({ id, value, onChange, named }: { id: string; value: number[]; onChange: (ids: number[]) => void; named: AccessRuleRow['users'] }) {
  const users = useProjectOwnerOptionsQuery();
  const all = users.data ?? named;
  const byId = new Map(all.map((u) => [u.userId, u]));
  const free = all.filter((u) => !value.includes(u.userId));
  return (
    <>
      <HTMLSelect
        id={id}
        fill
        value=""
        disabled={users.isLoading || free.length === 0}
        onChange={(e) => { if (e.currentTarget.value) onChange([...value, Number(e.currentTarget.value)]); }}
      >
        <option value="">{t.pickUser}</option>
        {free.map((u) => <option key={u.userId} value={u.userId}>{userLabel(u)}</option>)}
      </HTMLSelect>
      {users.isError ? <p className="cairn-form-error">{t.usersLoadFailed}：{apiErrorMessage(users.error)}</p> : null}
      <div className="cairn-access-users">
        {value.length === 0 ? <span className="cairn-muted">{t.usersEmpty}</span> : value.map((userId) => {
          const label = byId.has(userId) ? userLabel(byId.get(userId)!) : `#${userId}`;
          return (
            <Tag key={userId} round minimal onRemove={() => onChange(value.filter((v) => v !== userId))}>
              {label}
            </Tag>
          );
        })}
      </div>
    </>
  );
}

export function AccessRuleDialog({ row, onClose }: { row: AccessRuleRow | null; onClose: () => void }) {
  const [add] = useAddAccessRuleMutation();
  const [edit] = useEditAccessRuleMutation();
  const initial: Values = row
    ? { address: row.address, action: row.action, scope: row.scope, userIds: row.users.map((u) => u.userId), enabled: row.enabled, remark: row.remark }
    : { address: '', action: ACCESS_ACTION.ALLOW, scope: ACCESS_SCOPE.ALL, userIds: [], enabled: true, remark: '' };

  return (
    <FormDialog<Values>
      title={row ? t.editTitle : t.addTitle}
      icon={row ? 'edit' : 'add'}
      idPrefix="access-rule"
      className="cairn-access-dialog"
      onClose={onClose}
      initial={initial}
      validate={validate}
      submit={(values) => {
        const form = { ...values, userIds: values.scope === ACCESS_SCOPE.USERS ? values.userIds : [] };
        return row ? edit({ id: row.id, ...form }).unwrap() : add(form).unwrap();
      }}
      success={row ? ADMIN_SUCCESS_MESSAGES.modified : ADMIN_SUCCESS_MESSAGES.added}
      fields={['address', 'action', 'scope', 'userIds', 'remark']}
    >
      {(form) => (
        <>
          <FormGroup label={t.address} labelFor={form.id('address')} labelInfo="*" {...form.group('address', t.addressHelp)}>
            <InputGroup
              id={form.id('address')}
              className="cairn-mono"
              intent={form.intent('address')}
              value={form.values.address}
              placeholder={t.addressPlaceholder}
              maxLength={100}
              autoFocus
              onValueChange={(v) => form.set('address', v)}
            />
          </FormGroup>
          <FormGroup label={t.action} labelFor={form.id('action')} {...form.group('action', t.actionHelp[form.values.action])}>
            <RadioGroup inline selectedValue={form.values.action} onChange={(e) => form.set('action', e.currentTarget.value as AccessAction)}>
              <Radio id={form.id('action')} value={ACCESS_ACTION.ALLOW} label={t.actions.ALLOW} />
              <Radio value={ACCESS_ACTION.DENY} label={t.actions.DENY} />
            </RadioGroup>
          </FormGroup>
          <FormGroup label={t.scope} labelFor={form.id('scope')} {...form.group('scope')}>
            <RadioGroup inline selectedValue={form.values.scope} onChange={(e) => form.set('scope', e.currentTarget.value as AccessScope)}>
              <Radio id={form.id('scope')} value={ACCESS_SCOPE.ALL} label={t.scopeAll} />
              <Radio value={ACCESS_SCOPE.USERS} label={t.scopeUsers} />
            </RadioGroup>
          </FormGroup>
          {form.values.scope === ACCESS_SCOPE.USERS ? (
            <FormGroup label={t.scopeUsers} labelFor={form.id('userIds')} labelInfo="*" {...form.group('userIds')}>
              <UserPicker id={form.id('userIds')} value={form.values.userIds} onChange={(ids) => form.set('userIds', ids)} named={row?.users ?? []} />
            </FormGroup>
          ) : null}
          <FormGroup label={t.remark} labelFor={form.id('remark')} {...form.group('remark')}>
            <TextArea
              id={form.id('remark')}
              fill
              intent={form.intent('remark')}
              value={form.values.remark}
              placeholder={t.remarkPlaceholder}
              maxLength={DESCRIPTION_MAX_LENGTH}
              onChange={(e) => form.set('remark', e.currentTarget.value)}
            />
          </FormGroup>
          <Switch label={t.enabledNow} checked={form.values.enabled} onChange={(e) => form.set('enabled', e.currentTarget.checked)} />
        </>
      )}
    </FormDialog>
  );
}
