// 重置密码: the administrator's new password for a platform user, checked against the password
// policy; the user must change it at the next login and their open sessions end.
import { FormGroup, InputGroup } from '@blueprintjs/core';
import type { UserRow } from '../../../../contract/api/user.ts';
import { ADMIN_SUCCESS_MESSAGES } from '../../../../contract/errors.ts';
import { passwordHint, validatePassword } from '../../../../contract/validation.ts';
import { useResetUserPasswordMutation } from '../../../api/userApi.ts';
import { useAppSelector } from '../../../app/hooks.ts';
import { FormDialog } from '../../../common/form/FormDialog.tsx';
import { validateFields } from '../../../common/form/formErrors.ts';
import { usersZh as t } from '../../../i18n/users.ts';

const DEFAULT_POLICY = { length: 8, uppercase: true, lowercase: true, digit: true, special: true };

export function ResetPasswordDialog({ row, onClose }: { row: UserRow; onClose: () => void }) {
  const [reset] = useResetUserPasswordMutation();
  const policy = useAppSelector((s) => s.session.user?.passwordPolicy) ?? DEFAULT_POLICY;
  const validate = validateFields<{ password: string }>({ password: (v) => validatePassword(v, policy) });
  return (
    <FormDialog<{ password: string }>
      title={t.resetTitle(row.username)}
      icon="key"
      idPrefix="user-reset"
      onClose={onClose}
      initial={{ password: '' }}
      validate={validate}
      submit={(values) => reset({ params: { userId: row.userId }, body: values }).unwrap()}
      success={ADMIN_SUCCESS_MESSAGES.done}
      fields={['password']}
    >
      {(form) => (
        <FormGroup label={t.newPassword} labelFor={form.id('password')} labelInfo="*" {...form.group('password', `${passwordHint(policy)}；${t.resetHelp}`)}>
          <InputGroup id={form.id('password')} type="password" autoComplete="new-password" autoFocus intent={form.intent('password')} value={form.values.password} maxLength={200}
            onValueChange={(v) => form.set('password', v)} />
        </FormGroup>
      )}
    </FormDialog>
  );
}
