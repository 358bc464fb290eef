// /desktop/personal: the signed-in user's account (name, email, phone editable through
// PATCH /api/user/modifyPersonalInformation), role, permissions and a way to change the password.
import { useState, type FormEvent } from 'react';
import { Button, Card, Collapse, FormGroup, H5, InputGroup, Tag } from '@blueprintjs/core';
import { useNavigate } from 'react-router';
import { DIRECTORY_USER_TYPE } from '../../../contract/api/ldap.ts';
import type { SessionUser } from '../../../contract/api/session.ts';
import { SUCCESS_MESSAGES } from '../../../contract/errors.ts';
import { PERMISSIONS, ROLE_LABEL } from '../../../contract/permissions.ts';
import { passwordHint } from '../../../contract/validation.ts';
import { useModifyPersonalInformationMutation, useSelfQuery } from '../../api/platformApi.ts';
import { apiErrorMessage } from '../../api/baseQuery.ts';
import { useAppDispatch, useAppSelector, selectUser } from '../../app/hooks.ts';
import { sessionActions } from '../../app/sessionSlice.ts';
import { toastNotifier as notify } from '../../app/toaster.ts';
import { GuardedButton } from '../../common/GuardedButton.tsx';
import { Page } from '../../common/PageHeader.tsx';
import { ErrorState, LoadingState, ErrorCallout } from '../../common/states.tsx';
import { checkPersonalForm, type PersonalForm } from './personalForm.ts';
import { zh } from '../../i18n/zh-CN.ts';

const t = zh.personal;

const userTypeLabel = (type: number): string => t.userTypes[type] ?? (type >= 6 && type <= 10 ? t.externalUser : String(type));

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="cairn-field">
      <div className="cairn-field-label">{label}</div>
      <div className="cairn-field-value">{children}</div>
    </div>
  );
}

const orEmpty = (v: string | null | undefined) => (v ? v : <span className="cairn-muted">{t.empty}</span>);

function EditForm({ user, onDone }: { user: SessionUser; onDone: () => void }) {
  const dispatch = useAppDispatch();
  const [save, { isLoading }] = useModifyPersonalInformationMutation();
  const [values, setValues] = useState<PersonalForm>({ name: user.name, email: user.email ?? '', phone: user.phone ?? '' });
  const [errors, setErrors] = useState<Partial<Record<keyof PersonalForm, string>>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const set = (k: keyof PersonalForm) => (v: string) => setValues((old) => ({ ...old, [k]: v }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const errs = checkPersonalForm(values);
    setErrors(errs);
    if (Object.keys(errs).length) return;
    setServerError(null);
    try {
      const updated = await save({ name: values.name, email: values.email.trim() || null, phone: values.phone.trim() || null }).unwrap();
      dispatch(sessionActions.userUpdated(updated));
      notify.success(SUCCESS_MESSAGES.modified);
      onDone();
    } catch (err) {
      setServerError(apiErrorMessage(err));
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="cairn-form">
      <FormGroup label={t.username} labelFor="pi-username">
        <InputGroup id="pi-username" value={user.username} disabled />
      </FormGroup>
      <FormGroup label={t.name} labelFor="pi-name" labelInfo="*" intent={errors.name ? 'danger' : 'none'} helperText={errors.name}>
        <InputGroup id="pi-name" value={values.name} maxLength={100} intent={errors.name ? 'danger' : 'none'} onValueChange={set('name')} autoFocus />
      </FormGroup>
      <FormGroup label={t.email} labelFor="pi-email" intent={errors.email ? 'danger' : 'none'} helperText={errors.email}>
        <InputGroup id="pi-email" type="email" leftIcon="envelope" value={values.email} maxLength={200} intent={errors.email ? 'danger' : 'none'} onValueChange={set('email')} />
      </FormGroup>
      <FormGroup label={t.phone} labelFor="pi-phone" intent={errors.phone ? 'danger' : 'none'} helperText={errors.phone}>
        <InputGroup id="pi-phone" type="tel" leftIcon="phone" value={values.phone} maxLength={30} intent={errors.phone ? 'danger' : 'none'} onValueChange={set('phone')} />
      </FormGroup>
      <ErrorCallout message={serverError} className="cairn-form-notice" />
      <div className="cairn-form-actions">
        <Button text={t.cancel} onClick={onDone} />
        <GuardedButton type="submit" intent="primary" icon="floppy-disk" loading={isLoading} text={t.save} />
      </div>
    </form>
  );
}

export default function PersonalSettingsScreen() {
  const stored = useAppSelector(selectUser);
  const self = useSelfQuery();
  const navigate = useNavigate();
  const [editing, setEditing] = useState(false);
  const [showPermissions, setShowPermissions] = useState(false);

  const user = self.data ?? stored;
  if (!user) {
    if (self.isError) return <ErrorState title={t.loadFailed} message={apiErrorMessage(self.error)} onRetry={() => void self.refetch()} />;
    return <LoadingState />;
  }
  const codes = user.permissionPOS.map((p) => p.code);
  const roles = [...new Set(user.roleCodes.map((c) => (ROLE_LABEL as Record<number, string>)[c]).filter((r): r is string => !!r && r !== user.roleName))];

  return (
    <Page title={t.title} subtitle={t.subtitle}>
      <div className="cairn-two-columns">
        <Card className="cairn-panel">
          <div className="cairn-panel-header">
            <div className="cairn-identity">
              <span className="cairn-avatar">{(user.name || user.username).slice(0, 1).toUpperCase()}</span>
              <div>
                <H5 className="cairn-identity-name">{user.name || user.username}</H5>
                <div className="cairn-muted">{user.username}</div>
              </div>
            </div>
            {!editing ? <Button icon="edit" text={t.edit} onClick={() => setEditing(true)} /> : null}
          </div>
          {editing ? (
            <EditForm user={user} onDone={() => setEditing(false)} />
          ) : (
            <div className="cairn-fields">
              <Field label={t.name}>{orEmpty(user.name)}</Field>
              <Field label={t.email}>{orEmpty(user.email)}</Field>
              <Field label={t.phone}>{orEmpty(user.phone)}</Field>
              <Field label={t.userType}>{userTypeLabel(user.userType)}</Field>
            </div>
          )}
        </Card>

        <div className="cairn-column">
          <Card className="cairn-panel">
            <H5>{t.roleAndPermissions}</H5>
            <div className="cairn-fields">
              <Field label={t.role}>
                <span className="cairn-tag-row">
                  <Tag intent="primary" minimal large>
                    {user.roleName || '--'}
                  </Tag>
                  {roles.map((r) => (
                    <Tag key={r} minimal>
                      {r}
                    </Tag>
                  ))}
                </span>
              </Field>
              <Field label={t.dataScope}>{user.dataPermissionEnum || '--'}</Field>
              <Field label={t.permissions}>
                <Button variant="minimal" size="small" endIcon={showPermissions ? 'chevron-up' : 'chevron-down'} text={t.permissionsValue(codes.length)} onClick={() => setShowPermissions(!showPermissions)} disabled={codes.length === 0} />
              </Field>
            </div>
            <Collapse isOpen={showPermissions}>
              <div className="cairn-tag-row cairn-permission-tags">
                {codes.map((c) => (
                  <Tag key={c} minimal title={c}>
                    {(PERMISSIONS as Record<string, string>)[c] ?? c}
                  </Tag>
                ))}
              </div>
            </Collapse>
          </Card>

          <Card className="cairn-panel">
            <H5>{t.security}</H5>
            {user.userType === DIRECTORY_USER_TYPE ? (
              // A directory user's password is the directory's: Cairn cannot change it.
              <p className="cairn-muted">{zh.ldap.directoryPassword}</p>
            ) : (
              <>
                <p className="cairn-muted">{t.passwordHint}</p>
                <p className="cairn-muted">{passwordHint(user.passwordPolicy)}</p>
                <Button icon="lock" text={t.changePassword} onClick={() => navigate('/changePassword')} />
              </>
            )}
          </Card>
        </div>
      </div>
    </Page>
  );
}
