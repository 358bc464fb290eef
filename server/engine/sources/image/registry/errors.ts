// A failed pull or registry check: the message is for the user, in Chinese, and names the reason
// (the registry's answer, the layer, the certificate problem). Credentials and tokens never appear
// in it: every message passes through the pull's redaction before it is thrown.
import { UserError, type FailureKind } from '../../../../errors.ts';

export type RegistryErrorCode =
  | 'auth' // 401/403, or the registry wants credentials that were not given
  | 'not-found' // 404 for the manifest or a blob
  | 'server' // the registry (or its token service) answered 5xx or nonsense
  | 'timeout' // no answer within the per-request timeout
  | 'tls' // certificate problems, or an HTTPS handshake with a plain-HTTP server
  | 'digest' // content that does not match its digest
  | 'limits' // a blob or the image over the size limits
  | 'media-type' // schema 1, an artifact that is not an image, an unknown layer type
  | 'network' // refused, reset, unresolvable host
  | 'platform' // the requested platform is not in the image
  | 'reference'; // the image reference text is not valid

const KIND: Record<RegistryErrorCode, FailureKind> = {
  auth: 'invalid',
  'not-found': 'not-found',
  server: 'unavailable',
  timeout: 'unavailable',
  tls: 'invalid',
  digest: 'invalid',
  limits: 'invalid',
  'media-type': 'invalid',
  network: 'unavailable',
  platform: 'invalid',
  reference: 'invalid',
};

export class RegistryError extends UserError {
  override name = 'RegistryError';
  readonly code: RegistryErrorCode;

  constructor(code: RegistryErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, KIND[code], options);
    this.code = code;
  }
}

/**
 * The secrets of one pull (password, the basic credentials as sent, tokens), replaced by `***` in
 * any text. Strings shorter than 4 characters are not redacted (they would mangle ordinary words);
 * such a password is never put into a message in the first place.
 */
export class Secrets {
  private readonly values = new Set<string>();

  add(value: string | undefined | null): void {
    if (value && value.length >= 4) this.values.add(value);
  }

  redact(text: string): string {
    let out = text;
    for (const value of [...this.values].sort((a, b) => b.length - a.length)) out = out.split(value).join('***');
    return out;
  }

  /** The error with its message redacted; causes are dropped from a RegistryError made here. */
  scrub<E extends Error>(error: E): E {
    const clean = this.redact(error.message);
    if (clean !== error.message) error.message = clean;
    if (error.stack) error.stack = this.redact(error.stack);
    return error;
  }
}
