// The personal-information form's check: the name rule of contract/validation.ts, a plausible
// email and phone (both optional).
import { validateName } from '../../../contract/validation.ts';
import { zh } from '../../i18n/zh-CN.ts';

export interface PersonalForm {
  name: string;
  email: string;
  phone: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9][0-9 -]{2,29}$/;

export function checkPersonalForm(values: PersonalForm): Partial<Record<keyof PersonalForm, string>> {
  const errors: Partial<Record<keyof PersonalForm, string>> = {};
  const nameError = validateName(values.name);
  if (nameError) errors.name = nameError;
  const email = values.email.trim();
  if (email && (email.length > 200 || !EMAIL.test(email))) errors.email = zh.personal.emailInvalid;
  const phone = values.phone.trim();
  if (phone && !PHONE.test(phone)) errors.phone = zh.personal.phoneInvalid;
  return errors;
}
