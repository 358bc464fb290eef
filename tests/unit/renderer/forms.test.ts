// Client-side checks of the session and desktop forms (the platform validates again).
import { describe, expect, it } from 'vitest';
import { checkPasswordForm } from '../../../renderer/features/session/passwordForm.ts';
import { checkPersonalForm } from '../../../renderer/features/desktop/personalForm.ts';
import { checkProfileForm, isPlatformUrl } from '../../../renderer/features/desktop/profileForm.ts';
import { normalizePasswordPolicy, passwordHint } from '../../../contract/validation.ts';

const policy = normalizePasswordPolicy({ length: 8 });

describe('checkPasswordForm', () => {
  it('requires every field', () => {
    expect(checkPasswordForm({ oldPassword: '', password: '', confirm: '' }, policy)).toEqual({
      oldPassword: '请输入原密码',
      password: '请输入新密码',
      confirm: '请再次输入新密码',
    });
  });
  it('applies the policy with its hint as the message', () => {
    expect(checkPasswordForm({ oldPassword: 'x', password: 'short', confirm: 'short' }, policy).password).toBe(passwordHint(policy));
    expect(passwordHint(policy)).toMatch(/^密码由8位及以上/);
  });
  it('refuses a mismatched confirmation and an unchanged password', () => {
    expect(checkPasswordForm({ oldPassword: 'Old#12345', password: 'New#12345', confirm: 'New#1234' }, policy).confirm).toBe('两次输入的新密码不一致');
    expect(checkPasswordForm({ oldPassword: 'Same#1234', password: 'Same#1234', confirm: 'Same#1234' }, policy).password).toBe('新密码不能与原密码相同');
    expect(checkPasswordForm({ oldPassword: 'Old#12345', password: 'New#12345', confirm: 'New#12345' }, policy)).toEqual({});
  });
});

describe('checkPersonalForm', () => {
  it('applies the name rule and checks optional email and phone', () => {
    expect(checkPersonalForm({ name: '张三', email: '', phone: '' })).toEqual({});
    expect(checkPersonalForm({ name: '', email: '', phone: '' }).name).toMatch(/请输入1-100个字符/);
    expect(checkPersonalForm({ name: '张三', email: 'not-mail', phone: '' }).email).toBeDefined();
    expect(checkPersonalForm({ name: '张三', email: 'zs@example.cn', phone: '+86 138-0000-0000' })).toEqual({});
    expect(checkPersonalForm({ name: '张三', email: '', phone: 'abc' }).phone).toBeDefined();
  });
});

describe('checkProfileForm', () => {
  it('wants a name and an http(s) URL (not for the local profile)', () => {
    expect(isPlatformUrl('https://sca.example.com')).toBe(true);
    expect(isPlatformUrl('http://10.0.0.5:8080/')).toBe(true);
    expect(isPlatformUrl('ftp://x')).toBe(false);
    expect(isPlatformUrl('https://')).toBe(false);
    expect(checkProfileForm({ name: '总部', url: 'https://', allowSelfSigned: false }, false).url).toBe('请输入以 http:// 或 https:// 开头的地址');
    expect(checkProfileForm({ name: '本机', url: '', allowSelfSigned: false }, true)).toEqual({});
    expect(checkProfileForm({ name: '', url: 'https://a.b', allowSelfSigned: false }, false).name).toBeDefined();
  });
});
