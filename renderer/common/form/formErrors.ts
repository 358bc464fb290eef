// The errors of a form dialog, pure and tested in Node: the client checks run before submit (one
// validator per field, the contract's rules from contract/validation.ts), and where the platform's
// refusal is shown: beside the field it names (the envelope's `field`, or the field a form
// recognises in the message), else at the top of the dialog.

/** A field's check: null when the value is valid, else the message to show. */
export type Validator<T> = (value: T) => string | null;

export type FieldErrors<V> = Partial<Record<keyof V & string, string>>;

/** The whole form's check from one validator per field; only failing fields appear. */
export function validateFields<V>(rules: { [K in keyof V]?: Validator<V[K]> }): (values: V) => FieldErrors<V> {
  return (values) => {
    const errors: FieldErrors<V> = {};
    for (const key of Object.keys(rules) as Array<keyof V & string>) {
      const message = rules[key]?.(values[key]);
      if (message) errors[key] = message;
    }
    return errors;
  };
}

export interface Refusal {
  message: string;
  /** The form field the message is shown beside; null for the top of the dialog. */
  field: string | null;
}

/**
 * Where a refusal goes: beside `field` (or the field `fieldOfMessage` recognises) when the form
 * shows that field, else at the top.
 */
export function placeRefusal(message: string, field: string | undefined, shown: readonly string[], fieldOfMessage?: (message: string) => string | null): Refusal {
  const named = field ?? fieldOfMessage?.(message) ?? null;
  return { message, field: named !== null && shown.includes(named) ? named : null };
}

/**
 * The field errors still shown after the values changed: each shown error is checked again against
 * `current` (the form's check of the new values) and goes once its cause is fixed, or takes the
 * new message while the field is still wrong. A field without an error gets none before the next
 * submit, so typing is not interrupted.
 */
export function errorsStillStanding<E extends Partial<Record<string, string>>>(shown: E, current: E): E {
  const out: Partial<Record<string, string>> = {};
  for (const key of Object.keys(shown)) {
    const now = current[key];
    if (shown[key] && now) out[key] = now;
  }
  return out as E;
}

/**
 * The message above a form after its values changed: the "correct the marked fields" summary
 * stays while a field error stands; any other message (the platform's refusal of what was sent)
 * goes, since what it refused has been changed and the next submit checks again.
 */
export function messageAfterChange(message: string | null, summary: string, standing: object): string | null {
  if (message === null) return null;
  return message === summary && Object.keys(standing).length > 0 ? message : null;
}
