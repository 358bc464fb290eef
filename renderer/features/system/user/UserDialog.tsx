// 新增用户 / 编辑用户: username (new users only), name, initial password (new users only, checked
// against the password policy the session carries), e-mail, phone, roles and organisation groups.
// A new user must change
// the password at the first login; a role change applies at the user's next login, which the
// dialog says after saving. The platform's refusal is shown beside the field it names.
import { Checkbox, FormGroup, InputGroup, MenuItem } from '@blueprintjs/core';
import { MultiSelect } from '@blueprintjs/select';
import { validateEmail, validatePhone, validateUsername, type UserRow } from '../../../../contract/api/user.ts';
import { ADMIN_SUCCESS_MESSAGES } from '../../../../contract/errors.ts';
import { NAME_MAX_LENGTH, passwordHint, validateName, validatePassword } from '../../../../contract/validation.ts';
import { useAddUserMutation, useUpdateUserMutation } from '../../../api/userApi.ts';
import { useAllGroupsQuery } from '../../../api/groupApi.ts';
import { useRoleListQuery } from '../../../api/roleApi.ts';
import { useAppSelector } from '../../../app/hooks.ts';
import { toastNotifier as notify } from '../../../app/toaster.ts';
import { FormDialog } from '../../../common/form/FormDialog.tsx';
import { validateFields } from '../../../common/form/formErrors.ts';
import { usersZh as t } from '../../../i18n/users.ts';

interface Values {
  username: string;
  name: string;
  password: string;
  email: string;
  phone: string;
  roleIds: number[];
  groupIds: number[];
}

interface GroupChoice { id: number; groupPath: string }

const DEFAULT_POLICY = { length: 8, uppercase: true, lowercase: true, digit: true, special: true };

export function UserDialog({ row, onClose }: { row: UserRow | null; onClose: () => void }) {
  const [add] = useAddUserMutation();
  const [update] = useUpdateUserMutation();
  const roles = useRoleListQuery();
  const groups = useAllGroupsQuery();
  const policy = useAppSelector((s) => s.session.user?.passwordPolicy) ?? DEFAULT_POLICY;
  const editing = row !== null;
  const initialRoles = row ? row.roles.map((r) => r.id) : [];
  const ordinary = roles.data?.find((r) => r.code === 3)?.id;
  const initial: Values | undefined = roles.data && groups.data
    ? {
      username: row?.username ?? '', name: row?.name ?? '', password: '', email: row?.email ?? '', phone: row?.phone ?? '',
      roleIds: row ? initialRoles : ordinary ? [ordinary] : [],
      groupIds: row?.groups.map((g) => g.id) ?? [],
    }
    : undefined;

  const validate = validateFields<Values>({
    ...(editing ? {} : { username: (v: string) => validateUsername(v.trim()), password: (v: string) => validatePassword(v, policy) }),
    name: validateName,
    email: (v) => validateEmail(v.trim()),
    phone: (v) => validatePhone(v.trim()),
    roleIds: (v) => (v.length === 0 ? '请至少选择一个角色' : null),
  });

  const submit = async (values: Values) => {
    const details = { name: values.name, email: values.email.trim() || null, phone: values.phone.trim() || null, roleIds: values.roleIds, groupIds: values.groupIds };
    if (!row) return add({ ...details, username: values.username.trim(), password: values.password }).unwrap();
    const answer = await update({ params: { userId: row.userId }, body: details }).unwrap();
    const changed = [...values.roleIds].sort().join(',') !== [...initialRoles].sort().join(',');
    if (changed) notify.warning(ADMIN_SUCCESS_MESSAGES.roleAssignmentNeedsRelogin);
    return answer;
  };

  return (
    <FormDialog<Values>
      title={row ? t.editTitle(row.username) : t.addTitle}
      icon={row ? 'edit' : 'new-person'}
      idPrefix="user"
      onClose={onClose}
      initial={initial}
      validate={validate}
      submit={submit}
      success={row ? ADMIN_SUCCESS_MESSAGES.modified : ADMIN_SUCCESS_MESSAGES.added}
      fields={['username', 'name', 'password', 'email', 'phone', 'roleIds', 'groupIds']}
    >
      {(form) => (
        <>
          <FormGroup label={t.username} labelFor={form.id('username')} labelInfo={editing ? undefined : '*'} {...form.group('username', editing ? undefined : t.usernameHelp)}>
            <InputGroup id={form.id('username')} intent={form.intent('username')} value={form.values.username} disabled={editing} maxLength={64} autoFocus={!editing}
              onValueChange={(v) => form.set('username', v)} />
          </FormGroup>
          <FormGroup label={t.name} labelFor={form.id('name')} labelInfo="*" {...form.group('name')}>
            <InputGroup id={form.id('name')} intent={form.intent('name')} value={form.values.name} maxLength={NAME_MAX_LENGTH} autoFocus={editing}
              onValueChange={(v) => form.set('name', v)} />
          </FormGroup>
          {editing ? null : (
            <FormGroup label={t.password} labelFor={form.id('password')} labelInfo="*" {...form.group('password', `${passwordHint(policy)}；${t.passwordHelp}`)}>
              <InputGroup id={form.id('password')} type="password" autoComplete="new-password" intent={form.intent('password')} value={form.values.password} maxLength={200}
                onValueChange={(v) => form.set('password', v)} />
            </FormGroup>
          )}
          <FormGroup label={t.email} labelFor={form.id('email')} {...form.group('email')}>
            <InputGroup id={form.id('email')} intent={form.intent('email')} value={form.values.email} maxLength={200} onValueChange={(v) => form.set('email', v)} />
          </FormGroup>
          <FormGroup label={t.phone} labelFor={form.id('phone')} {...form.group('phone')}>
            <InputGroup id={form.id('phone')} intent={form.intent('phone')} value={form.values.phone} maxLength={30} onValueChange={(v) => form.set('phone', v)} />
          </FormGroup>
          <FormGroup label={t.roles} labelFor={form.id('roleIds')} labelInfo="*" {...form.group('roleIds', editing ? t.rolesHelp : undefined)}>
            <div id={form.id('roleIds')} className="cairn-user-roles">
              {(roles.data ?? []).map((r) => (
                <Checkbox key={r.id} inline label={r.name} checked={form.values.roleIds.includes(r.id)}
                  onChange={(e) => form.update((old) => ({ ...old, roleIds: e.currentTarget.checked ? [...old.roleIds, r.id] : old.roleIds.filter((id) => id !== r.id) }))} />
              ))}
            </div>
          </FormGroup>
          <FormGroup label={t.groups} labelFor={form.id('groupIds')} {...form.group('groupIds', t.groupsHelp)}>
            <MultiSelect<GroupChoice>
              items={groups.data ?? []}
              selectedItems={(groups.data ?? []).filter((g) => form.values.groupIds.includes(g.id))}
              itemPredicate={(query, g) => g.groupPath.toLowerCase().includes(query.trim().toLowerCase())}
              itemRenderer={(g, { handleClick, handleFocus, modifiers }) => modifiers.matchesPredicate ? (
                <MenuItem key={g.id} text={g.groupPath} roleStructure="listoption" selected={form.values.groupIds.includes(g.id)}
                  active={modifiers.active} onClick={handleClick} onFocus={handleFocus} />
              ) : null}
              tagRenderer={(g) => g.groupPath}
              onItemSelect={(g) => form.update((old) => ({ ...old, groupIds: old.groupIds.includes(g.id) ? old.groupIds.filter((id) => id !== g.id) : [...old.groupIds, g.id] }))}
              onRemove={(g) => form.update((old) => ({ ...old, groupIds: old.groupIds.filter((id) => id !== g.id) }))}
              noResults={<MenuItem disabled roleStructure="listoption" text={t.groupsNone} />}
              placeholder={t.groupsPlaceholder}
              resetOnSelect
              fill
              popoverProps={{ minimal: true, matchTargetWidth: true }}
              tagInputProps={{ inputProps: { id: form.id('groupIds') } }}
            />
          </FormGroup>
        </>
      )}
    </FormDialog>
  );
}
