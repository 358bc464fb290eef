// /changePassword: old password, new password, confirmation. The policy hint and the client-side
// check come from contract/validation.ts (the platform checks again). On success the platform
// ends every session: 修改成功，请用新密码登录, then back to /login.
import { useState, type FormEvent } from 'react';
import { Button, Callout, Card, FormGroup, InputGroup } from '@blueprintjs/core';
import { useNavigate } from 'react-router';
import { passwordHint } from '../../../contract/validation.ts';
import { SUCCESS_MESSAGES } from '../../../contract/errors.ts';
import { checkPasswordForm, type PasswordField as Field } from './passwordForm.ts';
import { useModifyPasswordMutation } from '../../api/platformApi.ts';
import { desktopApi } from '../../api/desktopApi.ts';
import { apiErrorMessage } from '../../api/baseQuery.ts';
import { useAppDispatch, useAppSelector, selectUser } from '../../app/hooks.ts';
import { sessionActions } from '../../app/sessionSlice.ts';
import { signOut } from '../../app/sessionFlows.ts';
import { toastNotifier as notify } from '../../app/toaster.ts';
import { GuardedButton } from '../../common/GuardedButton.tsx';
import { Page } from '../../common/PageHeader.tsx';
import { zh } from '../../i18n/zh-CN.ts';
import { ErrorCallout } from '../../common/states.tsx';

function PasswordField({
  id,
  label,
  value,
  onChange,
  error,
  helper,
  autoComplete,
  autoFocus,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  error?: string;
  helper?: string;
  autoComplete: string;
  autoFocus?: boolean;
}) {
  const [visible, setVisible] = useState(false);
  return (
    <FormGroup label={label} labelFor={id} labelInfo="*" intent={error ? 'danger' : 'none'} helperText={error ?? helper}>
      <InputGroup
        id={id}
        type={visible ? 'text' : 'password'}
        leftIcon="lock"
        autoComplete={autoComplete}
        autoFocus={autoFocus}
        value={value}
        maxLength={200}
        intent={error ? 'danger' : 'none'}
        onValueChange={onChange}
        rightElement={<Button variant="minimal" icon={visible ? 'eye-off' : 'eye-open'} aria-label={visible ? zh.app.hidePassword : zh.app.showPassword} onClick={() => setVisible(!visible)} />}
      />
    </FormGroup>
  );
}

export default function ChangePasswordScreen() {
  const user = useAppSelector(selectUser);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [modify, { isLoading }] = useModifyPasswordMutation();
  const [values, setValues] = useState<Record<Field, string>>({ oldPassword: '', password: '', confirm: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [serverError, setServerError] = useState<string | null>(null);

  if (!user) return null; // the guard sends visitors without a session to /login
  const forced = !user.updatedPwd;
  const hint = passwordHint(user.passwordPolicy);
  const set = (field: Field) => (v: string) => setValues((old) => ({ ...old, [field]: v }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const errs = checkPasswordForm(values, user.passwordPolicy);
    setErrors(errs);
    if (Object.keys(errs).length) return;
    setServerError(null);
    try {
      await modify({ oldPassword: values.oldPassword, password: values.password }).unwrap();
    } catch (err) {
      setServerError(apiErrorMessage(err));
      return;
    }
    notify.success(SUCCESS_MESSAGES.passwordModified);
    // The platform ended every session; main drops its cookie too, then the user signs in again.
    try {
      await dispatch(desktopApi.endpoints.logout.initiate()).unwrap();
    } catch {}
    dispatch(sessionActions.passwordChanged());
    navigate('/login', { replace: true });
  };

  const form = (
    <form onSubmit={(e) => void submit(e)} noValidate className="cairn-form">
      {forced ? (
        <Callout intent="warning" icon="warning-sign" className="cairn-form-notice">
          {zh.changePassword.forced}
        </Callout>
      ) : null}
      <PasswordField id="cp-old" label={zh.changePassword.oldPassword} value={values.oldPassword} onChange={set('oldPassword')} error={errors.oldPassword} autoComplete="current-password" autoFocus />
      <PasswordField id="cp-new" label={zh.changePassword.newPassword} value={values.password} onChange={set('password')} error={errors.password} helper={hint} autoComplete="new-password" />
      <PasswordField id="cp-confirm" label={zh.changePassword.confirmPassword} value={values.confirm} onChange={set('confirm')} error={errors.confirm} autoComplete="new-password" />
      <p className="cairn-muted cairn-form-note">{zh.changePassword.afterChange}</p>
      <ErrorCallout message={serverError} className="cairn-form-notice" />
      <div className="cairn-form-actions">
        {forced ? (
          <Button text={zh.shell.logout} icon="log-out" onClick={() => void dispatch(signOut()).then(() => navigate('/login', { replace: true }))} />
        ) : (
          <Button text={zh.changePassword.cancel} onClick={() => navigate(-1)} />
        )}
        <GuardedButton type="submit" intent="primary" loading={isLoading} text={zh.changePassword.submit} />
      </div>
    </form>
  );

  return (
    <Page title={zh.changePassword.title} subtitle={`${user.name || user.username}（${user.username}）`} narrow>
      <Card className="cairn-panel">{form}</Card>
    </Page>
  );
}
