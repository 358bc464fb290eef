// A tag field (Blueprint TagInput) inside a form, pure and tested in Node: Enter adds the typed
// tag and never submits the form (TagInput adds it but leaves the key's default, the form's
// implicit submission, alone), and the tags kept are trimmed, non-empty and unique.

/** For the field's input onKeyDown: Enter is the field's (adds a tag), not the form's. */
export function keepEnterInField(event: { key: string; preventDefault(): void }): void {
  if (event.key === 'Enter') event.preventDefault();
}

/** The tags a field keeps: trimmed, empty ones dropped, each once, in the order typed. */
export const normalizeTags = (values: readonly unknown[]): string[] =>
  Array.from(new Set(values.map((v) => String(v).trim()).filter(Boolean)));
