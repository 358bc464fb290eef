// Add or edit a repository online resolution asks (扫描配置, and an 应用's own Maven repositories in
// its 基本设置): name, address (http or https, no credentials in it), username and password
// (write-only: a stored one is kept unless replaced or cleared), enabled, priority and remark. The
// caller sends it; the platform's refusals are shown beside their fields.
import { Checkbox, FormGroup, InputGroup, NumericInput, Switch, TextArea } from '@blueprintjs/core';
import {
  SCAN_ECOSYSTEM_LABEL, SCAN_NAME_MAX, SCAN_PASSWORD_MAX, SCAN_REMARK_MAX, SCAN_URL_EXAMPLE, SCAN_URL_MAX, SCAN_USERNAME_MAX,
  type ScanEcosystem, type ScanRepositoryForm, type ScanRepositoryRow,
} from '../../../contract/api/scan-config.ts';
import { ADMIN_SUCCESS_MESSAGES } from '../../../contract/errors.ts';
import { FormDialog } from '../form/FormDialog.tsx';
import { zh } from '../../i18n/zh-CN.ts';

const t = zh.system.scanConfig;
type Values = Required<ScanRepositoryForm>;

function validate(values: Values): Partial<Record<keyof Values, string>> {
  const errors: Partial<Record<keyof Values, string>> = {};
  if (!values.name.trim()) errors.name = '请填写名称';
  // The platform checks the rest (credentials, query) and answers beside the field.
  if (!/^[a-z][a-z0-9+.-]*:\/\/[^\s/]+/i.test(values.url.trim())) errors.url = '仓库地址无效，请填写完整的 http:// 或 https:// 地址';
  else if (!/^https?:/i.test(values.url.trim())) errors.url = '仓库地址只支持 http 或 https';
  if (values.password && !values.username.trim()) errors.username = '填写密码时请同时填写用户名';
  return errors;
}

export function ScanRepositoryDialog({ ecosystem, row, onClose, send }: {
  ecosystem: ScanEcosystem;
  row: ScanRepositoryRow | null;
  onClose: () => void;
  /** Adds (row null) or updates the repository. */
  send: (form: ScanRepositoryForm) => Promise<unknown>;
}) {
  const label = SCAN_ECOSYSTEM_LABEL[ecosystem];
  const initial: Values = {
    name: row?.name ?? '', url: row?.url ?? '', username: row?.username ?? '', password: '', clearPassword: false,
    enabled: row?.enabled ?? true, priority: row?.priority ?? 0, remark: row?.remark ?? '',
  };
  const submit = (values: Values) => {
    const form: ScanRepositoryForm = { ...values, name: values.name.trim(), url: values.url.trim(), username: values.username.trim() };
    if (!form.password) delete form.password;
    if (!form.clearPassword) delete form.clearPassword;
    return send(form);
  };

  return (
    <FormDialog<Values>
      title={row ? t.editTitle(label) : t.addTitle(label)}
      icon={row ? 'edit' : 'add'}
      idPrefix={`scan-repository-${ecosystem}`}
      onClose={onClose}
      initial={initial}
      validate={validate}
      submit={submit}
      success={row ? ADMIN_SUCCESS_MESSAGES.modified : ADMIN_SUCCESS_MESSAGES.added}
      fields={['name', 'url', 'username', 'password', 'priority', 'remark']}
    >
      {(form) => (
        <>
          <FormGroup label={t.name} labelFor={form.id('name')} labelInfo="*" {...form.group('name')}>
            <InputGroup id={form.id('name')} intent={form.intent('name')} value={form.values.name} placeholder={t.namePlaceholder} maxLength={SCAN_NAME_MAX} autoFocus onValueChange={(v) => form.set('name', v)} />
          </FormGroup>
          <FormGroup label={t.url} labelFor={form.id('url')} labelInfo="*" {...form.group('url', t.urlHelp)}>
            <InputGroup id={form.id('url')} intent={form.intent('url')} value={form.values.url} placeholder={SCAN_URL_EXAMPLE[ecosystem]} maxLength={SCAN_URL_MAX} onValueChange={(v) => form.set('url', v)} />
          </FormGroup>
          <FormGroup label={t.username} labelFor={form.id('username')} {...form.group('username')}>
            <InputGroup id={form.id('username')} intent={form.intent('username')} value={form.values.username} placeholder={t.usernamePlaceholder} maxLength={SCAN_USERNAME_MAX} autoComplete="off" onValueChange={(v) => form.set('username', v)} />
          </FormGroup>
          <FormGroup label={t.password} labelFor={form.id('password')} {...form.group('password', t.passwordHelp)}>
            <InputGroup
              id={form.id('password')}
              type="password"
              intent={form.intent('password')}
              value={form.values.password}
              placeholder={row?.hasPassword ? t.passwordKeep : t.passwordPlaceholder}
              maxLength={SCAN_PASSWORD_MAX}
              autoComplete="new-password"
              disabled={form.values.clearPassword}
              onValueChange={(v) => form.set('password', v)}
            />
          </FormGroup>
          {row?.hasPassword ? (
            <Checkbox label={t.clearPassword} checked={form.values.clearPassword} onChange={(e) => form.update((old) => ({ ...old, clearPassword: e.currentTarget.checked, password: '' }))} />
          ) : null}
          <Switch label={t.enabledLabel} checked={form.values.enabled} onChange={(e) => form.set('enabled', e.currentTarget.checked)} />
          <FormGroup label={t.priority} labelFor={form.id('priority')} {...form.group('priority', t.priorityHelp)}>
            <NumericInput id={form.id('priority')} intent={form.intent('priority')} value={form.values.priority} min={0} max={10_000} clampValueOnBlur onValueChange={(n) => form.set('priority', Number.isFinite(n) ? n : 0)} />
          </FormGroup>
          <FormGroup label={t.remark} labelFor={form.id('remark')} {...form.group('remark')}>
            <TextArea id={form.id('remark')} intent={form.intent('remark')} value={form.values.remark} maxLength={SCAN_REMARK_MAX} fill rows={2} onChange={(e) => form.set('remark', e.currentTarget.value)} />
          </FormGroup>
        </>
      )}
    </FormDialog>
  );
}
