// The server-profile form's check: the name rule, an http(s) URL.
import { validateName } from '../../../contract/validation.ts';
import { zh } from '../../i18n/zh-CN.ts';

export interface ProfileForm {
  name: string;
  url: string;
  allowSelfSigned: boolean;
}

export function isPlatformUrl(value: string): boolean {
  try {
    const u = new URL(value.trim());
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '' && value.trim().length <= 500;
  } catch {
    return false;
  }
}

/** `local`: the embedded platform's profile, whose URL is not editable. */
export function checkProfileForm(values: ProfileForm, local: boolean): Partial<Record<'name' | 'url', string>> {
  const errors: Partial<Record<'name' | 'url', string>> = {};
  const nameError = validateName(values.name);
  if (nameError) errors.name = nameError;
  if (!local && !isPlatformUrl(values.url)) errors.url = zh.profiles.urlInvalid;
  return errors;
}
