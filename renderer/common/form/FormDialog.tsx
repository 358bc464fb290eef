// A dialog holding a form: the client checks run before submit, submit goes through the click guard
// (GuardedButton, 2000 ms), success closes the dialog with a toast, and the platform's refusal is
// shown beside the field it names or, naming none, at the top of the footer (outside the scrolling
// body, so it is seen wherever the user is). Fields are drawn by the caller with `form`:
//
//   <FormGroup label="名称" labelFor={form.id('name')} {...form.group('name')}>
//     <InputGroup id={form.id('name')} intent={form.intent('name')} value={form.values.name} onValueChange={(v) => form.set('name', v)} />
//   </FormGroup>
//
// A refusal beside a field also focuses it, so it scrolls into view.
//
// Without `initial` (the values are still loading) the dialog shows `placeholder` instead.
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Button, Callout, Dialog, DialogBody, DialogFooter, type Intent } from '@blueprintjs/core';
import type { IconName } from '@blueprintjs/icons';
import { apiErrorMessage, isApiError } from '../../api/baseQuery.ts';
import { toastNotifier as notify } from '../../app/toaster.ts';
import { GuardedButton } from '../GuardedButton.tsx';
import { errorsStillStanding, placeRefusal, type FieldErrors, type Refusal } from './formErrors.ts';
import { zh } from '../../i18n/zh-CN.ts';
import './styles.ts';

export interface FormApi<V> {
  values: V;
  /** The element id of a field's input (for labelFor and id), or of a part of a field. */
  id: (key: string) => string;
  set: <K extends keyof V>(key: K, value: V[K]) => void;
  update: (change: (old: V) => V) => void;
  /** A field's intent: danger while its client check or the platform's refusal is about it. */
  intent: (key: keyof V & string) => Intent;
  /** A FormGroup's intent and helper text: the field's error, else `help`. */
  group: (key: keyof V & string, help?: ReactNode) => { intent: Intent; helperText?: ReactNode };
}

export interface FormDialogProps<V> {
  title: string;
  icon?: IconName;
  className?: string;
  /** Prefix of the fields' element ids. */
  idPrefix: string;
  /** The scrolling body's class. */
  bodyClassName?: string;
  onClose: () => void;
  /** The values the form starts from; undefined while they load. */
  initial: V | undefined;
  /** Shown instead of the form while `initial` is undefined (loading, or failed with retry). */
  placeholder?: ReactNode;
  /** Client checks run before submit (validateFields over contract/validation.ts rules). */
  validate?: (values: V) => FieldErrors<V>;
  /** Sends the form; a rejection is the platform's refusal. */
  submit: (values: V) => Promise<unknown>;
  /** The success toast (ADMIN_SUCCESS_MESSAGES.added / saved). */
  success: string;
  /** The fields drawn with `form.group`: a refusal naming one of them is shown beside it. */
  fields: ReadonlyArray<keyof V & string>;
  /** The field a refusal's message is about when the platform names none. */
  fieldOfMessage?: (message: string) => string | null;
  children: (form: FormApi<V>) => ReactNode;
}

function FormBody<V>(props: FormDialogProps<V> & { initial: V }) {
  const [values, setValues] = useState<V>(props.initial);
  const [errors, setErrors] = useState<FieldErrors<V>>({});
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const id = (key: string) => `${props.idPrefix}-${key}`;
  useEffect(() => {
    if (refusal?.field) document.getElementById(id(refusal.field))?.focus();
  }, [refusal]); // once per refusal

  // An error goes once its cause is fixed: the shown client errors are checked again on every
  // change; the platform's refusal goes when the field it is about (or, naming none, any field)
  // changes, since the next submit asks again.
  const previous = useRef(values);
  useEffect(() => {
    const before = previous.current;
    previous.current = values;
    if (before === values) return;
    setErrors((shown) => errorsStillStanding(shown, props.validate?.(values) ?? {}));
    const changed = (Object.keys(values as object) as Array<keyof V>).filter((k) => values[k] !== before[k]);
    setRefusal((r) => (r && (r.field === null ? changed.length > 0 : changed.includes(r.field as keyof V)) ? null : r));
  }, [values]); // once per change of the values

  const errorOf = (key: keyof V & string): string | undefined => errors[key] ?? (refusal?.field === key ? refusal.message : undefined);
  const form: FormApi<V> = {
    values,
    id,
    set: (key, value) => setValues((old) => ({ ...old, [key]: value })),
    update: setValues,
    intent: (key) => (errorOf(key) ? 'danger' : 'none'),
    group: (key, help) => {
      const error = errorOf(key);
      // The platform's refusal beside its field is announced as the top one would be.
      const text = error ? (refusal?.field === key && !errors[key] ? <span role="alert">{error}</span> : error) : help;
      return { intent: error ? 'danger' : 'none', ...(text ? { helperText: text } : {}) };
    },
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = props.validate?.(values) ?? {};
    setErrors(found);
    if (Object.keys(found).length) return;
    setRefusal(null);
    setSubmitting(true);
    try {
      await props.submit(values);
      notify.success(props.success);
      props.onClose();
    } catch (err) {
      setSubmitting(false);
      setRefusal(placeRefusal(apiErrorMessage(err), isApiError(err) ? err.field : undefined, props.fields, props.fieldOfMessage));
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <DialogBody className={props.bodyClassName}>{props.children(form)}</DialogBody>
      {refusal && refusal.field === null ? (
        <Callout intent="danger" icon="error" className="cairn-dialog-error" role="alert">
          {refusal.message}
        </Callout>
      ) : null}
      <DialogFooter
        actions={
          <>
            <Button text={zh.form.cancel} onClick={props.onClose} />
            <GuardedButton type="submit" intent="primary" loading={submitting} text={zh.form.save} />
          </>
        }
      />
    </form>
  );
}

export function FormDialog<V>(props: FormDialogProps<V>) {
  const { initial } = props;
  return (
    <Dialog isOpen onClose={props.onClose} title={props.title} icon={props.icon} className={props.className ? `cairn-dialog ${props.className}` : 'cairn-dialog'} canOutsideClickClose={false}>
      {initial === undefined ? <DialogBody>{props.placeholder}</DialogBody> : <FormBody {...props} initial={initial} />}
    </Dialog>
  );
}
