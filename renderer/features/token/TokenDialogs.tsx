// The dialogs of /tokenManagement: create (name and validity), the created token shown once with
// copy and a warning that it will not be shown again, and rename.
import { Button, Callout, Classes, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect, InputGroup } from '@blueprintjs/core';
import type { PersonalTokenRow } from '../../../contract/api/token.ts';
import { TOKEN_EXPIRY_CHOICES } from '../../../contract/api/token.ts';
import { ADMIN_SUCCESS_MESSAGES } from '../../../contract/errors.ts';
import { formatDateTime } from '../../../contract/format.ts';
import { NAME_MAX_LENGTH, validateName } from '../../../contract/validation.ts';
import { useAddTokenMutation, useUpdateTokenMutation } from '../../api/tokenApi.ts';
import { toastNotifier as notify } from '../../app/toaster.ts';
import { FormDialog } from '../../common/form/FormDialog.tsx';
import { validateFields } from '../../common/form/formErrors.ts';
import { zh } from '../../i18n/zh-CN.ts';
import './token.css';
import { DateField } from '../../common/form/DateField.tsx';

const t = zh.token.tokens;

/** A created token: its row and the token itself, held only while the dialog shows it. */
export type CreatedToken = PersonalTokenRow & { token: string };

/** A number of days of TOKEN_EXPIRY_CHOICES, a date of one's own, or never. */
type Expiry = string;
interface CreateValues { name: string; expiry: Expiry; date: string }

const localDay = (ms: number): string => {
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

/** The chosen validity as the ISO time the platform keeps: N days from now, a date's end (local), or never. */
function expiresAtOf(values: CreateValues, now = Date.now()): string | null {
  if (values.expiry === 'never') return null;
  if (values.expiry === 'custom') return new Date(`${values.date}T23:59:59.999`).toISOString();
  return new Date(now + Number(values.expiry) * 86_400_000).toISOString();
}

const validateCreate = (values: CreateValues) => ({
  ...validateFields<CreateValues>({ name: validateName })(values),
  ...(values.expiry === 'custom' && !values.date ? { date: t.expiryRequired } : {}),
  ...(values.expiry === 'custom' && values.date && values.date <= localDay(Date.now()) ? { date: t.expiryPastClient } : {}),
});

export function CreateTokenDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (token: CreatedToken) => void }) {
  const [add] = useAddTokenMutation();
  return (
    <FormDialog<CreateValues>
      title={t.createTitle}
      icon="key"
      idPrefix="token"
      onClose={onClose}
      initial={{ name: '', expiry: '90', date: '' }}
      validate={validateCreate}
      submit={async (values) => onCreated(await add({ name: values.name, expiresAt: expiresAtOf(values) }).unwrap())}
      success={ADMIN_SUCCESS_MESSAGES.added}
      fields={['name', 'date']}
      fieldOfMessage={(message) => (message.startsWith('过期时间') ? 'date' : null)}
    >
      {(form) => (
        <>
          <FormGroup label={t.name} labelFor={form.id('name')} labelInfo="*" {...form.group('name', t.nameHelp)}>
            <InputGroup
              id={form.id('name')}
              intent={form.intent('name')}
              value={form.values.name}
              placeholder={t.namePlaceholder}
              maxLength={NAME_MAX_LENGTH}
              autoFocus
              onValueChange={(v) => form.set('name', v)}
            />
          </FormGroup>
          <FormGroup label={t.expiry} labelFor={form.id('expiry')}>
            <HTMLSelect
              id={form.id('expiry')}
              value={form.values.expiry}
              onChange={(e) => form.set('expiry', e.currentTarget.value as Expiry)}
              options={[
                ...TOKEN_EXPIRY_CHOICES.flatMap((d) => (d === null ? [] : [{ value: String(d), label: t.expiryDays(d) }])),
                { value: 'custom', label: t.expiryCustom },
                { value: 'never', label: t.expiryNever },
              ]}
            />
          </FormGroup>
          {form.values.expiry === 'custom' ? (
            <FormGroup label={t.expiryDate} labelFor={form.id('date')} labelInfo="*" {...form.group('date', t.expiryDateHelp)}>
              <DateField id={form.id('date')} intent={form.intent('date')} value={form.values.date} min={localDay(Date.now() + 86_400_000)} onChange={(v) => form.set('date', v)} />
            </FormGroup>
          ) : form.values.expiry === 'never' ? (
            <Callout intent="warning" icon="warning-sign" compact>{t.expiryNeverWarning}</Callout>
          ) : (
            <p className={Classes.TEXT_MUTED}>{`${t.expiresAt}：${formatDateTime(expiresAtOf(form.values)!)}`}</p>
          )}
        </>
      )}
    </FormDialog>
  );
}

async function copy(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    notify.success(t.copied);
  } catch {
    notify.error(t.copyFailed);
  }
}

/** The token once, with copy; closing it forgets the token. */
export function CreatedTokenDialog({ created, onClose }: { created: CreatedToken; onClose: () => void }) {
  return (
    <Dialog isOpen onClose={onClose} title={t.createdTitle} icon="tick-circle" className="cairn-dialog cairn-token-created" canOutsideClickClose={false} canEscapeKeyClose={false}>
      <DialogBody>
        <Callout intent="warning" icon="warning-sign" role="alert">{t.createdWarning}</Callout>
        <FormGroup label={t.createdName(created.name)} labelFor="token-created-value" helperText={created.expiresAt ? `${t.expiresAt}：${formatDateTime(created.expiresAt)}` : t.never}>
          <InputGroup
            id="token-created-value"
            className="cairn-token-value"
            readOnly
            value={created.token}
            onFocus={(e) => e.currentTarget.select()}
            rightElement={<Button icon="duplicate" variant="minimal" text={t.copy} onClick={() => void copy(created.token)} />}
          />
        </FormGroup>
        <FormGroup label={t.usage}>
          <pre className="cairn-token-usage">{t.usageText}</pre>
        </FormGroup>
      </DialogBody>
      <DialogFooter actions={<Button intent="primary" text={t.done} onClick={onClose} />} />
    </Dialog>
  );
}

export function RenameTokenDialog({ row, onClose }: { row: PersonalTokenRow; onClose: () => void }) {
  const [update] = useUpdateTokenMutation();
  return (
    <FormDialog<{ name: string }>
      title={t.renameTitle}
      icon="edit"
      idPrefix="token-rename"
      onClose={onClose}
      initial={{ name: row.name }}
      validate={validateFields<{ name: string }>({ name: validateName })}
      submit={(values) => update({ id: row.id, name: values.name }).unwrap()}
      success={ADMIN_SUCCESS_MESSAGES.modified}
      fields={['name']}
    >
      {(form) => (
        <FormGroup label={t.name} labelFor={form.id('name')} labelInfo="*" {...form.group('name', t.nameHelp)}>
          <InputGroup
            id={form.id('name')}
            intent={form.intent('name')}
            value={form.values.name}
            maxLength={NAME_MAX_LENGTH}
            autoFocus
            onValueChange={(v) => form.set('name', v)}
          />
        </FormGroup>
      )}
    </FormDialog>
  );
}
