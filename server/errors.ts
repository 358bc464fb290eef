// Domain failures as typed values. A UserError carries the Chinese message a user may read; any
// other error is a defect whose text stays in the log (the user is told 服务器内部错误 or the
// caller's fallback). Handlers, services, jobs and the engine throw these instead of returning
// `Row | string`, and nothing decides what a user may see by looking at the message's characters.
import { PERMISSION_DENIED_SERVER_MESSAGE } from '../contract/errors.ts';

/**
 * invalid: the input or the state refuses the command; not-found: what it names does not exist;
 * denied: the caller may not see or change it (HTTP 403, shown as 用户无权查看当前项目);
 * conflict: it clashes with existing data; unavailable: the platform cannot do it here or yet.
 */
export type FailureKind = 'invalid' | 'not-found' | 'denied' | 'conflict' | 'unavailable';

export interface UserErrorOptions extends ErrorOptions {
  /** The request field the failure is about, so a form shows the message beside it. */
  field?: string;
}

export class UserError extends Error {
  readonly kind: FailureKind;
  readonly field: string | undefined;

  constructor(message: string, kind: FailureKind = 'invalid', options?: UserErrorOptions) {
    super(message, options);
    this.name = 'UserError';
    this.kind = kind;
    this.field = options?.field;
  }

  /** The data-scope refusal every area answers alike (spec §6: 'Permission denied'). */
  static denied(): UserError {
    return new UserError(PERMISSION_DENIED_SERVER_MESSAGE, 'denied');
  }
}

export const isUserError = (error: unknown): error is UserError => error instanceof UserError;

/**
 * An error as it crosses a worker thread (posted as plain data): its message, and whether it was a
 * UserError (with its kind), so the receiving side still knows what a user may read.
 */
export interface ThreadError {
  message: string;
  /** The UserError's kind; absent for any other error. */
  userKind?: FailureKind;
}

export const toThreadError = (error: unknown): ThreadError => ({
  message: error instanceof Error ? error.message : String(error),
  ...(isUserError(error) && { userKind: error.kind }),
});

/** The error again on the receiving side: a UserError when it was one, a plain Error otherwise. */
export const fromThreadError = (data: ThreadError): Error =>
  (data.userKind ? new UserError(data.message, data.userKind) : new Error(data.message));
