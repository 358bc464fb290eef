import { describe, expect, it } from 'vitest';
import {
  DESCRIPTION_MESSAGE,
  NAME_MESSAGE,
  PROJECT_NAME_MESSAGE,
  controlConditionFromPolicy,
  normalizePasswordPolicy,
  passwordHint,
  policyFromControlCondition,
  validateDescription,
  validateName,
  validatePassword,
  validateProjectName,
} from '../../../contract/validation.ts';
import type { PasswordPolicy } from '../../../contract/api/session.ts';

const ALL8: PasswordPolicy = { length: 8, uppercase: true, lowercase: true, digit: true, special: true };

describe('name rules', () => {
  it('words the message as the spec does', () => {
    expect(NAME_MESSAGE).toBe('请输入1-100个字符，不能包含[*?"<>|；《》]及空格');
    expect(PROJECT_NAME_MESSAGE).toBe('请输入1-400个字符，不能包含[*?"<>|；《》]及空格');
    expect(DESCRIPTION_MESSAGE).toBe('请输入0-200个字符，不能包含[*?"<>|；《》]');
  });

  it('accepts letters, Chinese, digits and the allowed punctuation', () => {
    for (const ok of ['项目A', 'my-app_v1.2', 'web(前端)', '支付系统【二期】', 'a@b#c', 'x/y:z', 'Ünïcode', '张三，李四']) {
      expect(validateName(ok), ok).toBeNull();
    }
  });

  it('refuses empty, spaces, leading/trailing whitespace and the forbidden symbols', () => {
    for (const bad of ['', ' abc', 'abc ', 'a b', 'a\tb', 'a\nb', '　全角空格']) expect(validateName(bad), JSON.stringify(bad)).toBe(NAME_MESSAGE);
    for (const ch of ['*', '?', '"', '<', '>', '|', '；', '《', '》']) expect(validateName(`ab${ch}c`), ch).toBe(NAME_MESSAGE);
    expect(validateName(null)).toBe(NAME_MESSAGE);
    expect(validateName(undefined)).toBe(NAME_MESSAGE);
    expect(validateName('a😀')).toBe(NAME_MESSAGE);
  });

  it('counts characters: 100 Chinese characters pass, 101 fail', () => {
    expect(validateName('汉'.repeat(100))).toBeNull();
    expect(validateName('汉'.repeat(101))).toBe(NAME_MESSAGE);
    expect(validateName('a'.repeat(100))).toBeNull();
  });

  it('allows project names up to 400 characters', () => {
    expect(validateProjectName('p'.repeat(400))).toBeNull();
    expect(validateProjectName('p'.repeat(401))).toBe(PROJECT_NAME_MESSAGE);
    expect(validateProjectName('a b')).toBe(PROJECT_NAME_MESSAGE);
    expect(validateProjectName('')).toBe(PROJECT_NAME_MESSAGE);
  });

  it('makes descriptions optional, up to 200, same symbols refused', () => {
    expect(validateDescription('')).toBeNull();
    expect(validateDescription(undefined)).toBeNull();
    expect(validateDescription(null)).toBeNull();
    expect(validateDescription('面向客户的 Web 应用，第二期。')).toBeNull();
    expect(validateDescription('第一行\n第二行')).toBeNull();
    expect(validateDescription('描'.repeat(200))).toBeNull();
    expect(validateDescription('描'.repeat(201))).toBe(DESCRIPTION_MESSAGE);
    expect(validateDescription('见《手册》')).toBe(DESCRIPTION_MESSAGE);
    expect(validateDescription('a|b')).toBe(DESCRIPTION_MESSAGE);
    expect(validateDescription(' 前导空格')).toBe(DESCRIPTION_MESSAGE);
  });
});

describe('password policy', () => {
  it('defaults to 8 and requires every class when no flag is set', () => {
    expect(normalizePasswordPolicy({})).toEqual(ALL8);
  });

  it('falls back to 6 when the configured length is blank', () => {
    expect(normalizePasswordPolicy({ length: '' }).length).toBe(6);
    expect(normalizePasswordPolicy({ length: '  ' }).length).toBe(6);
    expect(normalizePasswordPolicy({ length: null }).length).toBe(6);
    expect(normalizePasswordPolicy({ length: Number.NaN }).length).toBe(6);
    expect(normalizePasswordPolicy({ length: 'abc' }).length).toBe(6);
    expect(normalizePasswordPolicy({ length: 0 }).length).toBe(6);
  });

  it('reads numeric lengths and keeps the set flags only', () => {
    expect(normalizePasswordPolicy({ length: '10' }).length).toBe(10);
    expect(normalizePasswordPolicy({ length: 12, uppercase: true, digit: true })).toEqual({ length: 12, uppercase: true, lowercase: false, digit: true, special: false });
    expect(normalizePasswordPolicy({ lowercase: false, special: false })).toEqual(ALL8);
  });

  it('builds the hint from the required classes', () => {
    expect(passwordHint(ALL8)).toBe('密码由8位及以上大写字母、小写字母、数字、特殊字符组成');
    expect(passwordHint({ length: 6, uppercase: false, lowercase: true, digit: true, special: false })).toBe('密码由6位及以上小写字母、数字组成');
    expect(passwordHint({ length: 10, uppercase: false, lowercase: false, digit: false, special: true })).toBe('密码由10位及以上特殊字符组成');
  });

  it('validates a password against the policy', () => {
    const hint = passwordHint(ALL8);
    expect(validatePassword('Abcdef1!', ALL8)).toBeNull();
    expect(validatePassword('Abcdé1!x', ALL8)).toBeNull();
    expect(validatePassword('abcdef1!', ALL8)).toBe(hint);
    expect(validatePassword('ABCDEF1!', ALL8)).toBe(hint);
    expect(validatePassword('Abcdefg!', ALL8)).toBe(hint);
    expect(validatePassword('Abcdefg1', ALL8)).toBe(hint);
    expect(validatePassword('Abc1!', ALL8)).toBe(hint);
    expect(validatePassword('', ALL8)).toBe(hint);
    const weak: PasswordPolicy = { length: 6, uppercase: false, lowercase: true, digit: true, special: false };
    expect(validatePassword('abc123', weak)).toBeNull();
    expect(validatePassword('abcdef', weak)).toBe('密码由6位及以上小写字母、数字组成');
  });

  it('converts control condition type 5 (length plus four Y/N flags)', () => {
    expect(policyFromControlCondition({ length: 10, uppercase: 'Y', lowercase: 'N', digit: 'N', special: 'N' })).toEqual({ length: 10, uppercase: true, lowercase: false, digit: false, special: false });
    expect(policyFromControlCondition({ length: '', uppercase: 'N', lowercase: 'N', digit: 'N', special: 'N' })).toEqual({ ...ALL8, length: 6 });
    expect(policyFromControlCondition({})).toEqual(ALL8);
    const p: PasswordPolicy = { length: 9, uppercase: true, lowercase: false, digit: true, special: false };
    expect(controlConditionFromPolicy(p)).toEqual({ length: 9, uppercase: 'Y', lowercase: 'N', digit: 'Y', special: 'N' });
    expect(policyFromControlCondition(controlConditionFromPolicy(p))).toEqual(p);
  });
});
