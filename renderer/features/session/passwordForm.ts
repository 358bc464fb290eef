// The change-password form's client-side check: required fields, the password policy
// (contract/validation.ts validatePassword), new differs from old, confirmation matches.
import { validatePassword } from '../../../contract/validation.ts';
import type { PasswordPolicy } from '../../../contract/api/session.ts';
import { zh } from '../../i18n/zh-CN.ts';

export type PasswordField = 'oldPassword' | 'password' | 'confirm';

export function checkPasswordForm(values: Record<PasswordField, string>, policy: PasswordPolicy): Partial<Record<PasswordField, string>> {
  const errors: Partial<Record<PasswordField, string>> = {};
  if (!values.oldPassword) errors.oldPassword = zh.changePassword.oldRequired;
  if (!values.password) errors.password = zh.changePassword.newRequired;
  else {
    const policyError = validatePassword(values.password, policy);
    if (policyError) errors.password = policyError;
    else if (values.password === values.oldPassword) errors.password = zh.changePassword.sameAsOld;
  }
  if (!values.confirm) errors.confirm = zh.changePassword.confirmRequired;
  else if (values.password && values.confirm !== values.password) errors.confirm = zh.changePassword.mismatch;
  return errors;
}
