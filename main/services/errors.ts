// Errors that services raise on purpose: a machine-readable code and a Chinese message for the
// user. The IPC dispatcher turns them into `{ ok: false, error }` data; anything else that is
// thrown is a bug and is reported as `internal` without leaking its text.

export class DesktopError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'DesktopError';
    this.code = code;
  }
}

export const isDesktopError = (value: unknown): value is DesktopError => value instanceof DesktopError;

/** Shortcut for bad user input (form validation). */
export const invalidInput = (message: string): DesktopError => new DesktopError('invalid-input', message);
