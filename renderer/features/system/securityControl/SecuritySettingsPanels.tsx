// The 安全管控 tabs of settings: the password policy (minimum length, the four character classes,
// expiry days, with the hint every password form will show) and the session timeout. Each saves
// on its own; the platform's refusal names the field and is shown beside it.
import { useEffect, useState, type ReactNode } from 'react';
import { Callout, Checkbox, FormGroup, NumericInput } from '@blueprintjs/core';
import {
  PASSWORD_EXPIRY_RANGE, PASSWORD_LENGTH_RANGE, SESSION_TIMEOUT_RANGE, type PasswordPolicySettings,
} from '../../../../contract/api/access.ts';
import { ADMIN_SUCCESS_MESSAGES } from '../../../../contract/errors.ts';
import { normalizePasswordPolicy, passwordHint } from '../../../../contract/validation.ts';
import { apiErrorMessage, isApiError } from '../../../api/baseQuery.ts';
import {
  usePasswordPolicySettingsQuery, useSavePasswordPolicySettingsMutation, useSaveSessionTimeoutSettingsMutation, useSessionTimeoutSettingsQuery,
} from '../../../api/accessApi.ts';
import { toastNotifier as notify } from '../../../app/toaster.ts';
import { GuardedButton } from '../../../common/GuardedButton.tsx';
import { Panel, QueryBody } from '../../../common/Panel.tsx';
import { securityZh as t } from '../../../i18n/security.ts';

const CLASSES = ['uppercase', 'lowercase', 'digit', 'special'] as const;

/** The platform's refusal of a save: beside its field when it names one, else as a toast. */
function useRefusal<F extends string>() {
  const [refusal, setRefusal] = useState<{ field: F; message: string } | null>(null);
  const run = async (save: () => Promise<unknown>) => {
    setRefusal(null);
    try {
      await save();
      notify.success(ADMIN_SUCCESS_MESSAGES.saved);
    } catch (e) {
      const field = isApiError(e) ? (e.field as F | undefined) : undefined;
      if (field) setRefusal({ field, message: apiErrorMessage(e) });
      else notify.error(apiErrorMessage(e));
    }
  };
  const group = (field: F, help: ReactNode) => (refusal?.field === field
    ? { intent: 'danger' as const, helperText: refusal.message }
    : { helperText: help });
  return { run, group, clear: () => setRefusal(null) };
}

const whole = (n: number, fallback: number) => (Number.isFinite(n) ? Math.round(n) : fallback);

export function PasswordPolicyPanel() {
  const query = usePasswordPolicySettingsQuery();
  const [save] = useSavePasswordPolicySettingsMutation();
  const [values, setValues] = useState<PasswordPolicySettings | null>(null);
  useEffect(() => { if (query.data) setValues(query.data); }, [query.data]);
  const { run, group, clear } = useRefusal<'length' | 'expiryDays'>();
  const change = (patch: Partial<PasswordPolicySettings>) => { clear(); setValues((old) => (old ? { ...old, ...patch } : old)); };

  return (
    <Panel
      title={t.passwordTitle}
      actions={<GuardedButton intent="primary" icon="floppy-disk" text={t.save} disabled={!values} onClick={() => run(() => save(values!).unwrap())} />}
    >
      <QueryBody query={query}>
        {() => values && (
          <>
            <p className="cairn-muted">{t.passwordHelp}</p>
            <div className="cairn-form-grid cairn-form-grid-3">
              <FormGroup label={t.length} labelFor="security-length" {...group('length', t.lengthHelp(PASSWORD_LENGTH_RANGE.min, PASSWORD_LENGTH_RANGE.max))}>
                <NumericInput
                  id="security-length"
                  value={values.length}
                  min={PASSWORD_LENGTH_RANGE.min}
                  max={PASSWORD_LENGTH_RANGE.max}
                  clampValueOnBlur
                  onValueChange={(n) => change({ length: whole(n, values.length) })}
                />
              </FormGroup>
              <FormGroup label={t.expiryDays} labelFor="security-expiry" {...group('expiryDays', t.expiryHelp)}>
                <NumericInput
                  id="security-expiry"
                  value={values.expiryDays}
                  min={PASSWORD_EXPIRY_RANGE.min}
                  max={PASSWORD_EXPIRY_RANGE.max}
                  clampValueOnBlur
                  onValueChange={(n) => change({ expiryDays: whole(n, values.expiryDays) })}
                />
              </FormGroup>
            </div>
            <FormGroup label={t.classes} helperText={t.classesHelp}>
              {CLASSES.map((k) => (
                <Checkbox key={k} inline label={t.classNames[k]} checked={values[k]} onChange={(e) => change({ [k]: e.currentTarget.checked })} />
              ))}
            </FormGroup>
            <Callout icon="key" className="cairn-access-hint" title={t.hintPreview}>{passwordHint(normalizePasswordPolicy(values))}</Callout>
          </>
        )}
      </QueryBody>
    </Panel>
  );
}

export function SessionTimeoutPanel() {
  const query = useSessionTimeoutSettingsQuery();
  const [save] = useSaveSessionTimeoutSettingsMutation();
  const [minutes, setMinutes] = useState<number | null>(null);
  useEffect(() => { if (query.data) setMinutes(query.data.timeoutMinutes); }, [query.data]);
  const { run, group, clear } = useRefusal<'timeoutMinutes'>();

  return (
    <Panel
      title={t.sessionTitle}
      actions={<GuardedButton intent="primary" icon="floppy-disk" text={t.save} disabled={minutes === null} onClick={() => run(() => save({ timeoutMinutes: minutes! }).unwrap())} />}
    >
      <QueryBody query={query}>
        {(settings) => minutes !== null && (
          <>
            <FormGroup label={t.timeout} labelFor="security-timeout" {...group('timeoutMinutes', t.timeoutHelp(SESSION_TIMEOUT_RANGE.min, SESSION_TIMEOUT_RANGE.max))}>
              <NumericInput
                id="security-timeout"
                value={minutes}
                min={SESSION_TIMEOUT_RANGE.min}
                max={SESSION_TIMEOUT_RANGE.max}
                clampValueOnBlur
                onValueChange={(n) => { clear(); setMinutes(whole(n, minutes)); }}
              />
            </FormGroup>
            <p className="cairn-muted">{settings.saved ? t.timeoutSaved(settings.timeoutMinutes, settings.defaultMinutes) : t.timeoutDefault(settings.defaultMinutes)}</p>
          </>
        )}
      </QueryBody>
    </Panel>
  );
}
