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
