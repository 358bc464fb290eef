// /system/accountIntegration/ldap LDAP集成 (setup:integration:ldap): the directory directory users
// sign in through. One form in four panels (connection, service account and search, attribute
// mapping, account creation and group mapping), saved with POST the first time and PUT /{id}
// after; the service password is write-only (kept unless replaced or cleared). 测试登录 runs the
// whole login path with a directory account against the form as it stands, saved or not.
import { useEffect, useState, type ReactNode } from 'react';
import { Button, Callout, Checkbox, FormGroup, HTMLSelect, InputGroup, NumericInput, Switch, TextArea, type Intent } from '@blueprintjs/core';
import {
  LDAP_ACTIVE_DIRECTORY, LDAP_ATTRIBUTE_MAX, LDAP_CA_MAX, LDAP_DEFAULTS, LDAP_DN_MAX, LDAP_FILTER_MAX, LDAP_PASSWORD_MAX, LDAP_URL_MAX,
  type LdapChoices, type LdapConfig, type LdapConfigForm,
} from '../../../../contract/api/ldap.ts';
import { ADMIN_SUCCESS_MESSAGES } from '../../../../contract/errors.ts';
import { routeTitle } from '../../../../contract/routes.ts';
import { formatDateTime } from '../../../../contract/format.ts';
import { apiErrorMessage, isApiError } from '../../../api/baseQuery.ts';
import { useCreateLdapConfigMutation, useLdapChoicesQuery, useLdapConfigQuery, useUpdateLdapConfigMutation } from '../../../api/ldapApi.ts';
import { toastNotifier as notify } from '../../../app/toaster.ts';
import { GuardedButton } from '../../../common/GuardedButton.tsx';
import { Page } from '../../../common/PageHeader.tsx';
import { Panel } from '../../../common/Panel.tsx';
import { ErrorState, LoadingState } from '../../../common/states.tsx';
import { zh } from '../../../i18n/zh-CN.ts';
import { LdapTestDialog } from './LdapTestDialog.tsx';
import './styles.ts';

const t = zh.ldap;
const PATH = '/system/accountIntegration/ldap';

type Values = Required<LdapConfigForm>;
type Field = keyof Values & string;

function initialValues(config: LdapConfig | null, choices: LdapChoices | undefined): Values {
  if (config) {
    const { id: _id, hasBindPassword: _has, defaultRoleName: _role, updatedBy: _by, updatedAt: _at, ...form } = config;
    return { ...form, bindPassword: '', clearBindPassword: false };
  }
  return {
    enabled: true, url: '', startTls: false, bindDn: '', bindPassword: '', clearBindPassword: false, baseDn: '',
    userFilter: LDAP_DEFAULTS.userFilter, usernameAttribute: LDAP_DEFAULTS.usernameAttribute, nameAttribute: LDAP_DEFAULTS.nameAttribute,
    emailAttribute: LDAP_DEFAULTS.emailAttribute, phoneAttribute: LDAP_DEFAULTS.phoneAttribute,
    defaultRoleId: choices?.roles.find((r) => r.name === '普通用户')?.id ?? choices?.roles.at(-1)?.id ?? 0,
    groupBaseDn: '', groupFilter: '', groupMappings: [], caCertificate: '',
    connectTimeoutSeconds: LDAP_DEFAULTS.connectTimeoutSeconds, timeoutSeconds: LDAP_DEFAULTS.timeoutSeconds,
  };
}

/** The form as sent: trimmed, the password only when typed, the clear flag only when ticked. */
function toForm(values: Values): LdapConfigForm {
  const form: LdapConfigForm = {
    ...values,
    url: values.url.trim(), bindDn: values.bindDn.trim(), baseDn: values.baseDn.trim(), groupBaseDn: values.groupBaseDn.trim(), userFilter: values.userFilter.trim(),
    groupMappings: values.groupMappings.filter((m) => m.groupDn.trim() || m.groupId).map((m) => ({ groupDn: m.groupDn.trim(), groupId: m.groupId })),
  };
  if (!form.bindPassword) delete form.bindPassword;
  if (!form.clearBindPassword) delete form.clearBindPassword;
  return form;
}

/** The client's checks; the platform checks the rest and answers beside the field. */
function validate(v: Values): Partial<Record<Field, string>> {
  const errors: Partial<Record<Field, string>> = {};
  if (!/^ldaps?:\/\/[^\s/]+\/?$/i.test(v.url.trim())) errors.url = '请填写 ldap://主机[:端口] 或 ldaps://主机[:端口]';
  if (!v.baseDn.trim()) errors.baseDn = t.required(t.baseDn);
  if (!v.userFilter.includes('{username}')) errors.userFilter = '用户过滤条件必须包含 {username}';
  if (!v.usernameAttribute.trim()) errors.usernameAttribute = t.required(t.usernameAttribute);
  if (!v.nameAttribute.trim()) errors.nameAttribute = t.required(t.nameAttribute);
  if (v.groupMappings.some((m) => !m.groupDn.trim() || !m.groupId)) errors.groupMappings = '请为每条映射填写目录组 DN 并选择组织';
  return errors;
}

function Labeled({ label, field, errors, help, required, children }: { label: string; field: Field; errors: Partial<Record<Field, string>>; help?: ReactNode; required?: boolean; children: ReactNode }) {
  const error = errors[field];
  return (
    <FormGroup label={label} labelFor={`ldap-${field}`} labelInfo={required ? '*' : undefined} intent={error ? 'danger' : 'none'} helperText={error ?? help}>
      {children}
    </FormGroup>
  );
}

function LdapForm({ config, choices }: { config: LdapConfig | null; choices: LdapChoices }) {
  const [values, setValues] = useState<Values>(() => initialValues(config, choices));
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const [testing, setTesting] = useState(false);
  const [create, creating] = useCreateLdapConfigMutation();
  const [update, updating] = useUpdateLdapConfigMutation();
  useEffect(() => setValues(initialValues(config, choices)), [config]); // a saved configuration is shown as saved

  const set = <K extends Field>(key: K, value: Values[K]) => {
    setValues((old) => ({ ...old, [key]: value }));
    setErrors((old) => (old[key] ? { ...old, [key]: undefined } : old));
  };
  const intent = (key: Field): Intent => (errors[key] ? 'danger' : 'none');
  const ldaps = values.url.trim().toLowerCase().startsWith('ldaps:');
  const plain = /^ldap:/i.test(values.url.trim()) && !values.startTls;

  const save = async () => {
    const found = validate(values);
    setErrors(found);
    setRefusal(null);
    if (Object.keys(found).length) return;
    try {
      if (config) await update({ params: { id: config.id }, body: toForm(values) }).unwrap();
      else await create(toForm(values)).unwrap();
      notify.success(ADMIN_SUCCESS_MESSAGES.saved);
    } catch (e) {
      const field = isApiError(e) ? e.field : undefined;
      if (field && field in values) {
        setErrors({ [field]: apiErrorMessage(e) });
        document.getElementById(`ldap-${field}`)?.focus();
      } else setRefusal(apiErrorMessage(e));
    }
  };

  const preset = (p: typeof LDAP_DEFAULTS | typeof LDAP_ACTIVE_DIRECTORY) => setValues((old) => ({
    ...old, userFilter: p.userFilter, usernameAttribute: p.usernameAttribute, nameAttribute: p.nameAttribute,
    emailAttribute: p.emailAttribute, phoneAttribute: p.phoneAttribute, groupFilter: old.groupFilter || (old.groupMappings.length ? p.groupFilter : ''),
  }));
  const text = (field: Field, max: number, props: { placeholder?: string; mono?: boolean; type?: string } = {}) => (
    <InputGroup
      id={`ldap-${field}`}
      className={props.mono ? 'cairn-mono' : undefined}
      intent={intent(field)}
      value={values[field] as string}
      maxLength={max}
      placeholder={props.placeholder}
      type={props.type}
      autoComplete="off"
      onValueChange={(v) => set(field, v as never)}
    />
  );

  const actions = (
    <>
      <Button icon="confirm" text={t.test} onClick={() => setTesting(true)} />
      <GuardedButton intent="primary" icon="floppy-disk" text={t.save} loading={creating.isLoading || updating.isLoading} onClick={save} />
    </>
  );

  return (
    <Page title={routeTitle(PATH)} subtitle={t.subtitle} actions={actions}>
      {config ? (
        <div className="cairn-muted cairn-ldap-updated">{t.updated(config.updatedBy, formatDateTime(config.updatedAt))}</div>
      ) : (
        <Callout intent="primary" icon="info-sign" className="cairn-ldap-note">{t.notConfigured}</Callout>
      )}
      {refusal ? <Callout intent="danger" icon="error" role="alert" className="cairn-ldap-note">{refusal}</Callout> : null}

      <div className="cairn-ldap-columns">
        <Panel title={t.connection}>
          <Switch large id="ldap-enabled" label={t.enabled} checked={values.enabled} onChange={(e) => set('enabled', e.currentTarget.checked)} />
          <p className="cairn-muted cairn-ldap-help">{t.enabledHelp}</p>
          <Labeled label={t.url} field="url" errors={errors} help={t.urlHelp} required>
            {text('url', LDAP_URL_MAX, { placeholder: 'ldaps://ldap.example.com:636', mono: true })}
          </Labeled>
          <Switch
            id="ldap-startTls"
            label={ldaps ? `${t.startTls}（${t.startTlsLdaps}）` : t.startTls}
            checked={values.startTls && !ldaps}
            disabled={ldaps}
            onChange={(e) => set('startTls', e.currentTarget.checked)}
          />
          {errors.startTls ? <div className="cairn-text-danger cairn-ldap-help">{errors.startTls}</div> : null}
          {plain && values.url.trim() ? <Callout intent="warning" icon="unlock" className="cairn-ldap-note">{t.plainWarning}</Callout> : null}
          <Labeled label={t.ca} field="caCertificate" errors={errors} help={t.caHelp}>
            <TextArea
              id="ldap-caCertificate"
              className="cairn-mono"
              intent={intent('caCertificate')}
              value={values.caCertificate}
              maxLength={LDAP_CA_MAX}
              placeholder={t.caPlaceholder}
              disabled={!ldaps && !values.startTls}
              fill
              rows={4}
              onChange={(e) => set('caCertificate', e.currentTarget.value)}
            />
          </Labeled>
          <div className="cairn-form-grid">
            <Labeled label={t.connectTimeout} field="connectTimeoutSeconds" errors={errors}>
              <NumericInput id="ldap-connectTimeoutSeconds" value={values.connectTimeoutSeconds} min={1} max={60} clampValueOnBlur fill onValueChange={(n) => { if (Number.isFinite(n)) set('connectTimeoutSeconds', Math.round(n)); }} />
            </Labeled>
            <Labeled label={t.timeout} field="timeoutSeconds" errors={errors}>
              <NumericInput id="ldap-timeoutSeconds" value={values.timeoutSeconds} min={1} max={120} clampValueOnBlur fill onValueChange={(n) => { if (Number.isFinite(n)) set('timeoutSeconds', Math.round(n)); }} />
            </Labeled>
          </div>
        </Panel>

        <Panel title={t.search}>
          <Labeled label={t.bindDn} field="bindDn" errors={errors} help={t.bindDnHelp}>
            {text('bindDn', LDAP_DN_MAX, { placeholder: 'cn=reader,ou=services,dc=example,dc=com', mono: true })}
          </Labeled>
          <Labeled label={t.bindPassword} field="bindPassword" errors={errors} help={t.passwordNote}>
            <InputGroup
              id="ldap-bindPassword"
              type="password"
              intent={intent('bindPassword')}
              value={values.bindPassword}
              maxLength={LDAP_PASSWORD_MAX}
              autoComplete="new-password"
              placeholder={config?.hasBindPassword ? t.bindPasswordKeep : t.bindPasswordPlaceholder}
              disabled={values.clearBindPassword}
              onValueChange={(v) => set('bindPassword', v)}
            />
          </Labeled>
          {config?.hasBindPassword ? (
            <Checkbox label={t.clearBindPassword} checked={values.clearBindPassword} onChange={(e) => setValues((old) => ({ ...old, clearBindPassword: e.currentTarget.checked, bindPassword: '' }))} />
          ) : null}
          <Labeled label={t.baseDn} field="baseDn" errors={errors} help={t.baseDnHelp} required>
            {text('baseDn', LDAP_DN_MAX, { placeholder: 'ou=people,dc=example,dc=com', mono: true })}
          </Labeled>
          <Labeled label={t.userFilter} field="userFilter" errors={errors} required help={t.userFilterHelp}>
            {text('userFilter', LDAP_FILTER_MAX, { mono: true })}
          </Labeled>
          <div className="cairn-ldap-presets">
            <span className="cairn-muted">{t.presets}</span>
            <Button size="small" icon="predictive-analysis" text={t.openldap} onClick={() => preset(LDAP_DEFAULTS)} />
            <Button size="small" icon="predictive-analysis" text={t.activeDirectory} onClick={() => preset(LDAP_ACTIVE_DIRECTORY)} />
          </div>
        </Panel>

        <Panel title={t.mapping}>
          <div className="cairn-form-grid">
            <Labeled label={t.usernameAttribute} field="usernameAttribute" errors={errors} required>{text('usernameAttribute', LDAP_ATTRIBUTE_MAX, { mono: true })}</Labeled>
            <Labeled label={t.nameAttribute} field="nameAttribute" errors={errors} required>{text('nameAttribute', LDAP_ATTRIBUTE_MAX, { mono: true })}</Labeled>
            <Labeled label={t.emailAttribute} field="emailAttribute" errors={errors} help={t.optionalAttribute}>{text('emailAttribute', LDAP_ATTRIBUTE_MAX, { mono: true })}</Labeled>
            <Labeled label={t.phoneAttribute} field="phoneAttribute" errors={errors} help={t.optionalAttribute}>{text('phoneAttribute', LDAP_ATTRIBUTE_MAX, { mono: true })}</Labeled>
          </div>
        </Panel>

        <Panel title={t.accounts}>
          <Labeled label={t.defaultRole} field="defaultRoleId" errors={errors} help={t.defaultRoleHelp} required>
            <HTMLSelect
              id="ldap-defaultRoleId"
              fill
              value={values.defaultRoleId}
              options={choices.roles.map((r) => ({ value: r.id, label: r.name }))}
              onChange={(e) => set('defaultRoleId', Number(e.currentTarget.value))}
            />
          </Labeled>
          <Labeled label={t.groupBaseDn} field="groupBaseDn" errors={errors} help={t.groupBaseDnHelp}>
            {text('groupBaseDn', LDAP_DN_MAX, { placeholder: 'ou=groups,dc=example,dc=com', mono: true })}
          </Labeled>
          <Labeled label={t.groupFilter} field="groupFilter" errors={errors} help={t.groupFilterHelp}>
            {text('groupFilter', LDAP_FILTER_MAX, { placeholder: LDAP_DEFAULTS.groupFilter, mono: true })}
          </Labeled>
          <GroupMappings values={values} setValues={setValues} choices={choices} error={errors.groupMappings} />
        </Panel>
      </div>

      {testing ? <LdapTestDialog form={toForm(values)} choices={choices} onClose={() => setTesting(false)} /> : null}
    </Page>
  );
}

function GroupMappings({ values, setValues, choices, error }: { values: Values; setValues: (change: (old: Values) => Values) => void; choices: LdapChoices; error: string | undefined }) {
  const change = (index: number, patch: Partial<Values['groupMappings'][number]>) =>
    setValues((old) => ({ ...old, groupMappings: old.groupMappings.map((m, i) => (i === index ? { ...m, ...patch } : m)) }));
  return (
    <FormGroup label={t.groupMappings} labelFor="ldap-groupMappings" intent={error ? 'danger' : 'none'} helperText={error ?? t.groupMappingsHelp}>
      <div id="ldap-groupMappings" className="cairn-ldap-mappings">
        {values.groupMappings.map((m, index) => (
          <div className="cairn-ldap-mapping" key={index}>
            <InputGroup className="cairn-mono" aria-label={t.groupDn} placeholder={`${t.groupDn}：cn=developers,ou=groups,dc=example,dc=com`} value={m.groupDn} maxLength={LDAP_DN_MAX} onValueChange={(v) => change(index, { groupDn: v })} />
            <HTMLSelect
              aria-label={t.group}
              value={m.groupId || ''}
              options={[{ value: '', label: t.chooseGroup, disabled: true }, ...choices.groups.map((g) => ({ value: g.id, label: g.name }))]}
              onChange={(e) => change(index, { groupId: Number(e.currentTarget.value) })}
            />
            <Button variant="minimal" icon="trash" aria-label={t.removeMapping} onClick={() => setValues((old) => ({ ...old, groupMappings: old.groupMappings.filter((_, i) => i !== index) }))} />
          </div>
        ))}
        {choices.groups.length === 0 ? <div className="cairn-muted">{t.noGroups}</div> : null}
        <Button
          icon="add"
          text={t.addMapping}
          disabled={choices.groups.length === 0}
          onClick={() => setValues((old) => ({ ...old, groupFilter: old.groupFilter || LDAP_DEFAULTS.groupFilter, groupMappings: [...old.groupMappings, { groupDn: '', groupId: 0 }] }))}
        />
      </div>
    </FormGroup>
  );
}

export default function LdapScreen() {
  const config = useLdapConfigQuery();
  const choices = useLdapChoicesQuery();
  if (config.isLoading || choices.isLoading) return <Page title={routeTitle(PATH)}><LoadingState /></Page>;
  if (config.isError || choices.isError || !choices.data || config.data === undefined) {
    const error = config.error ?? choices.error;
    return (
      <Page title={routeTitle(PATH)}>
        <ErrorState message={error?.message} onRetry={() => { void config.refetch(); void choices.refetch(); }} />
      </Page>
    );
  }
  return <LdapForm config={config.data} choices={choices.data} />;
}
