// Add or edit a server profile: name, URL, allow a self-signed certificate; test before saving.
import { useState, type FormEvent } from 'react';
import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, InputGroup, Switch } from '@blueprintjs/core';
import type { ConnectionTest, Profile } from '../../../contract/ipc/desktop-contract.ts';
import { SUCCESS_MESSAGES } from '../../../contract/errors.ts';
import { useAddProfileMutation, useTestProfileMutation, useUpdateProfileMutation, type BridgeError } from '../../api/desktopApi.ts';
import { toastNotifier as notify } from '../../app/toaster.ts';
import { GuardedButton } from '../../common/GuardedButton.tsx';
import { checkProfileForm, isPlatformUrl, type ProfileForm } from './profileForm.ts';
import { zh } from '../../i18n/zh-CN.ts';
import { ErrorCallout } from '../../common/states.tsx';
import { errorsStillStanding } from '../../common/form/formErrors.ts';

const t = zh.profiles;

export function ProfileDialog({ profile, onClose }: { profile: Profile | null; onClose: () => void }) {
  const local = profile?.kind === 'local';
  const [values, setValues] = useState<ProfileForm>({
    name: profile?.name ?? '',
    url: profile?.url ?? 'https://',
    allowSelfSigned: profile?.allowSelfSigned ?? false,
  });
  const [errors, setErrors] = useState<Partial<Record<'name' | 'url', string>>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [testResult, setTestResult] = useState<ConnectionTest | null>(null);
  const [add, adding] = useAddProfileMutation();
  const [update, updating] = useUpdateProfileMutation();
  const [test, testing] = useTestProfileMutation();

  // An error goes once its cause is fixed: the field errors shown are checked again on every
  // change, the platform's refusal goes with the change, and a connection test's answer goes when
  // the address it tested is changed.
  const change = (patch: Partial<ProfileForm>) => {
    const next = { ...values, ...patch };
    setValues(next);
    setErrors((shown) => errorsStillStanding(shown, checkProfileForm(next, local)));
    setServerError(null);
    if (patch.url !== undefined || patch.allowSelfSigned !== undefined) setTestResult(null);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const errs = checkProfileForm(values, local);
    setErrors(errs);
    if (Object.keys(errs).length) return;
    setServerError(null);
    try {
      if (!profile) {
        await add({ name: values.name, url: values.url.trim(), allowSelfSigned: values.allowSelfSigned }).unwrap();
        notify.success(SUCCESS_MESSAGES.added);
      } else {
        const patch = local ? { name: values.name } : { name: values.name, url: values.url.trim(), allowSelfSigned: values.allowSelfSigned };
        await update({ id: profile.id, patch }).unwrap();
        notify.success(SUCCESS_MESSAGES.saved);
      }
      onClose();
    } catch (err) {
      setServerError((err as BridgeError).message ?? zh.messages.requestFailed);
    }
  };

  const runTest = async () => {
    setTestResult(null);
    try {
      setTestResult(await test(local && profile ? { id: profile.id } : { url: values.url.trim() }).unwrap());
    } catch (err) {
      setTestResult({ ok: false, latencyMs: null, message: (err as BridgeError).message ?? zh.messages.requestFailed });
    }
  };

  return (
    <Dialog isOpen onClose={onClose} title={profile ? t.dialogEdit : t.dialogAdd} icon={profile ? 'edit' : 'add'} className="cairn-dialog">
      <form onSubmit={(e) => void submit(e)} noValidate>
        <DialogBody>
          <FormGroup label={t.name} labelFor="pf-name" labelInfo="*" intent={errors.name ? 'danger' : 'none'} helperText={errors.name}>
            <InputGroup id="pf-name" autoFocus placeholder={t.namePlaceholder} value={values.name} maxLength={100} intent={errors.name ? 'danger' : 'none'} onValueChange={(v) => change({ name: v })} />
          </FormGroup>
          {local ? null : (
            <>
              <FormGroup label={t.url} labelFor="pf-url" labelInfo="*" intent={errors.url ? 'danger' : 'none'} helperText={errors.url ?? t.urlHelp}>
                <InputGroup id="pf-url" leftIcon="globe" placeholder={t.urlPlaceholder} value={values.url} maxLength={500} intent={errors.url ? 'danger' : 'none'} onValueChange={(v) => change({ url: v })} />
              </FormGroup>
              <FormGroup helperText={t.allowSelfSignedHelp}>
                <Switch label={t.allowSelfSigned} checked={values.allowSelfSigned} onChange={(e) => change({ allowSelfSigned: e.currentTarget.checked })} />
              </FormGroup>
            </>
          )}
          {testResult ? (
            <Callout intent={testResult.ok ? 'success' : 'danger'} icon={testResult.ok ? 'tick-circle' : 'error'} className="cairn-form-notice">
              {testResult.ok ? t.testOk(testResult.latencyMs) : t.testFailed(testResult.message)}
            </Callout>
          ) : null}
          <ErrorCallout message={serverError} className="cairn-form-notice" />
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={t.cancel} onClick={onClose} />
              <GuardedButton type="submit" intent="primary" loading={adding.isLoading || updating.isLoading} text={t.save} />
            </>
          }
        >
          <Button icon="exchange" text={t.test} loading={testing.isLoading} disabled={!local && !isPlatformUrl(values.url)} onClick={() => void runTest()} />
        </DialogFooter>
      </form>
    </Dialog>
  );
}
