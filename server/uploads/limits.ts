// The platform's upload limit. Read from the environment on each call (not cached at start-up)
// so an operator's CAIRN_MAX_UPLOAD_BYTES applies as written and tests can vary it.
import { DEFAULT_MAX_UPLOAD_BYTES } from '../../contract/api/upload.ts';

export const MAX_UPLOAD_ENV = 'CAIRN_MAX_UPLOAD_BYTES';

/** Largest file one upload may declare, in bytes. A missing or unreadable value gives the default (20 GiB). */
export function maxUploadBytes(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[MAX_UPLOAD_ENV]?.trim();
  if (!raw) return DEFAULT_MAX_UPLOAD_BYTES;
  const value = Number(raw);
  return Number.isSafeInteger(value) && value > 0 ? value : DEFAULT_MAX_UPLOAD_BYTES;
}
