// Validation rules (spec doc 1 §5, doc 2 §5, §9). Every validator returns null when the value is
// valid, else the Chinese message to show. Lengths count characters (code points), so a Chinese
// character counts as one.
import type { PasswordPolicy } from './api/session.ts';

export type { PasswordPolicy };

export const NAME_MAX_LENGTH = 100;
export const PROJECT_NAME_MAX_LENGTH = 400;
export const DESCRIPTION_MAX_LENGTH = 200;

/** The symbols names and descriptions may not contain, as the message writes them. */
const FORBIDDEN_NAME_SYMBOLS = '*?"<>|；《》';

/** 请输入1-100个字符，不能包含[*?"<>|；《》]及空格 */
const nameMessage = (max: number): string => `请输入1-${max}个字符，不能包含[${FORBIDDEN_NAME_SYMBOLS}]及空格`;
/** 请输入0-200个字符，不能包含[*?"<>|；《》] (descriptions may contain spaces and line breaks). */
const descriptionMessage = (max: number): string => `请输入0-${max}个字符，不能包含[${FORBIDDEN_NAME_SYMBOLS}]`;

export const NAME_MESSAGE = nameMessage(NAME_MAX_LENGTH);
export const PROJECT_NAME_MESSAGE = nameMessage(PROJECT_NAME_MAX_LENGTH);
export const DESCRIPTION_MESSAGE = descriptionMessage(DESCRIPTION_MAX_LENGTH);

/**
 * The allowed punctuation: printable ASCII punctuation except the forbidden * ? " < > | , and the
 * common full-width punctuation except ； 《 》. Everything outside letters (any script, which
 * includes Chinese), digits and this set is refused (control characters, emoji, other symbols).
 */
const ALLOWED_NAME_PUNCTUATION = "!#$%&'()+,-./:;=@[\\]^_`{}~" + '，。、：！？（）【】“”‘’·—…～「」';

const isAllowedChar = (ch: string): boolean =>
  /^[\p{L}\p{N}\p{M}]$/u.test(ch) || ALLOWED_NAME_PUNCTUATION.includes(ch);

const charLength = (value: string): number => [...value].length;

/** Name-like value of 1..max characters: no whitespace anywhere, only allowed characters. */
function validateNameOfLength(value: string | null | undefined, max: number): string | null {
  const v = value ?? '';
  const len = charLength(v);
  if (len < 1 || len > max) return nameMessage(max);
  for (const ch of v) {
    if (/\s/u.test(ch) || !isAllowedChar(ch)) return nameMessage(max);
  }
  return null;
}

/** Name: 1–100 characters, no leading/trailing whitespace, no spaces, no [*?"<>|；《》]. */
export const validateName = (value: string | null | undefined): string | null =>
  validateNameOfLength(value, NAME_MAX_LENGTH);

/** Project name: the name rule with 1–400 characters. */
export const validateProjectName = (value: string | null | undefined): string | null =>
  validateNameOfLength(value, PROJECT_NAME_MAX_LENGTH);

/**
 * Description: optional, up to 200 characters, same symbol restriction. Inner spaces and line
 * breaks are allowed; leading or trailing whitespace is not.
 */
export function validateDescription(value: string | null | undefined): string | null {
  const v = value ?? '';
  if (v === '') return null;
  if (charLength(v) > DESCRIPTION_MAX_LENGTH || v.trim() !== v) return DESCRIPTION_MESSAGE;
  for (const ch of v) {
    if (!/\s/u.test(ch) && !isAllowedChar(ch)) return DESCRIPTION_MESSAGE;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Password policy (doc 1 §3 "Password policy", §5, §9)

const DEFAULT_PASSWORD_LENGTH = 8;
const FALLBACK_PASSWORD_LENGTH = 6;

export interface RawPasswordPolicy {
  length?: number | string | null;
  uppercase?: boolean;
  lowercase?: boolean;
  digit?: boolean;
  special?: boolean;
}

function policyLength(length: RawPasswordPolicy['length']): number {
  if (length === undefined) return DEFAULT_PASSWORD_LENGTH;
  if (length === null) return FALLBACK_PASSWORD_LENGTH;
  if (typeof length === 'string' && length.trim() === '') return FALLBACK_PASSWORD_LENGTH;
  const n = typeof length === 'number' ? length : Number(length.trim());
  if (!Number.isFinite(n) || n < 1) return FALLBACK_PASSWORD_LENGTH;
  return Math.floor(n);
}

/**
 * Minimum length: default 8 when not configured (undefined), 6 when the configured value is blank
 * (null, empty string, not a number, below 1). If no complexity flag is set, all four are required.
 */
export function normalizePasswordPolicy(raw: RawPasswordPolicy): PasswordPolicy {
  const flags = {
    uppercase: raw.uppercase === true,
    lowercase: raw.lowercase === true,
    digit: raw.digit === true,
    special: raw.special === true,
  };
  const none = !flags.uppercase && !flags.lowercase && !flags.digit && !flags.special;
  return {
    length: policyLength(raw.length),
    uppercase: none || flags.uppercase,
    lowercase: none || flags.lowercase,
    digit: none || flags.digit,
    special: none || flags.special,
  };
}

export type YesNo = 'Y' | 'N';

/** Control condition type 5: a length plus four Y/N flags. */
export interface PasswordControlCondition {
  length?: number | string | null;
  uppercase?: YesNo | null;
  lowercase?: YesNo | null;
  digit?: YesNo | null;
  special?: YesNo | null;
}

/**
 * The control condition type that holds the password policy (PasswordControlCondition).
 * @public spec data kept for the screens still to be built (no caller yet)
 */
export const PASSWORD_CONTROL_CONDITION_TYPE = 5;

export function policyFromControlCondition(c: PasswordControlCondition): PasswordPolicy {
  return normalizePasswordPolicy({
    length: c.length,
    uppercase: c.uppercase === 'Y',
    lowercase: c.lowercase === 'Y',
    digit: c.digit === 'Y',
    special: c.special === 'Y',
  });
}

/** The reverse of policyFromControlCondition, for saving the policy as a control condition. */
export function controlConditionFromPolicy(p: PasswordPolicy): Required<PasswordControlCondition> {
  const yn = (b: boolean): YesNo => (b ? 'Y' : 'N');
  return { length: p.length, uppercase: yn(p.uppercase), lowercase: yn(p.lowercase), digit: yn(p.digit), special: yn(p.special) };
}

const CLASS_NAMES = [
  ['uppercase', '大写字母'],
  ['lowercase', '小写字母'],
  ['digit', '数字'],
  ['special', '特殊字符'],
] as const;

/** 密码由8位及以上大写字母、小写字母、数字、特殊字符组成 (only the required classes). */
export function passwordHint(policy: PasswordPolicy): string {
  const classes = CLASS_NAMES.filter(([k]) => policy[k]).map(([, name]) => name);
  return `密码由${policy.length}位及以上${classes.join('、')}组成`;
}

const CLASS_TESTS = {
  uppercase: /[A-Z]/,
  lowercase: /[a-z]/,
  digit: /[0-9]/,
  // Anything that is not an ASCII letter, a digit or whitespace.
  special: /[^A-Za-z0-9\s]/u,
} as const;

/** null when the password satisfies the policy, else the policy's hint. */
export function validatePassword(password: string, policy: PasswordPolicy): string | null {
  const p = password ?? '';
  if (charLength(p) < policy.length) return passwordHint(policy);
  for (const [k] of CLASS_NAMES) {
    if (policy[k] && !CLASS_TESTS[k].test(p)) return passwordHint(policy);
  }
  return null;
}

// ---- container registry options (contract/enums.ts REGISTRY_OPTION_FIELDS) ----------------------

/** The longest CA certificate text a project keeps (a bundle of a few dozen certificates). */
export const CA_PEM_MAX_LENGTH = 100_000;
const PLATFORM_PART = /^[A-Za-z0-9_.-]+$/;
export const IMAGE_PLATFORM_MESSAGE = '平台格式不正确，应为 操作系统/架构[/变体]，例如 linux/amd64、linux/arm64、linux/arm/v7';

/** An image platform `os/arch[/variant]` (what the registry pull takes); empty means the default. */
export function validateImagePlatform(value: string | null | undefined): string | null {
  const v = (value ?? '').trim();
  if (!v) return null;
  const parts = v.split('/');
  if (parts.length < 2 || parts.length > 3 || !parts.every((p) => PLATFORM_PART.test(p))) return IMAGE_PLATFORM_MESSAGE;
  return null;
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g;

/**
 * A CA certificate as PEM text (one or more certificates; text around them, such as a bundle's
 * comments, is ignored); empty means none. The shape is checked here (each block base64 of a DER
 * sequence); the platform also parses each certificate before saving. A private key is refused: it
 * is never needed, and this field is not stored as a secret.
 */
export function validateCaPemText(value: string | null | undefined): string | null {
  const v = (value ?? '').trim();
  if (!v) return null;
  if (v.length > CA_PEM_MAX_LENGTH) return `CA 证书过长（最多 ${CA_PEM_MAX_LENGTH} 个字符）`;
  if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(v)) return 'CA 证书中不能包含私钥，请只粘贴证书（-----BEGIN CERTIFICATE-----）';
  const blocks = [...v.matchAll(PEM_CERTIFICATE)];
  if (blocks.length === 0) return 'CA 证书无效：没有找到 PEM 格式的证书（-----BEGIN CERTIFICATE-----）';
  for (const [, body] of blocks) {
    const b64 = (body ?? '').replace(/\s+/g, '');
    // DER certificates are a SEQUENCE with a long length: base64 "MII…" (or "MI" for tiny ones)
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64) || b64.length % 4 !== 0 || !b64.startsWith('MI')) return 'CA 证书无效：PEM 内容无法解析为 X.509 证书';
  }
  return null;
}
