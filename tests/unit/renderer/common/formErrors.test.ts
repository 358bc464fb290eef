// A form dialog's errors (common/form/formErrors.ts): the client checks from the contract's
// validators, and where the platform's refusal is shown.
import { describe, expect, it } from 'vitest';
import { errorsStillStanding, messageAfterChange, placeRefusal, validateFields } from '../../../../renderer/common/form/formErrors.ts';
import { keepEnterInField, normalizeTags } from '../../../../renderer/common/form/tagField.ts';
import { checkProfileForm } from '../../../../renderer/features/desktop/profileForm.ts';
import { initialForm, validateForm, type ProjectFormState } from '../../../../renderer/features/project/tasks/projectForm.ts';
import { NAME_MESSAGE, DESCRIPTION_MESSAGE, validateDescription, validateName } from '../../../../contract/validation.ts';

describe('validateFields', () => {
  const check = validateFields<{ name: string; remark: string; enabled: boolean }>({ name: validateName, remark: validateDescription });

  it('reports only the failing fields, with the contract messages', () => {
    expect(check({ name: '项目类型A', remark: '', enabled: true })).toEqual({});
    expect(check({ name: 'a b', remark: ' x', enabled: true })).toEqual({ name: NAME_MESSAGE, remark: DESCRIPTION_MESSAGE });
  });
});

describe('placeRefusal', () => {
  const shown = ['name', 'remark'];

  it('goes beside the field the platform names when the form shows it', () => {
    expect(placeRefusal('名称已存在', 'name', shown)).toEqual({ message: '名称已存在', field: 'name' });
  });

  it('goes to the top when the field is not shown, or none is named', () => {
    expect(placeRefusal('类型不存在', 'id', shown)).toEqual({ message: '类型不存在', field: null });
    expect(placeRefusal('请求失败，请稍后重试', undefined, shown)).toEqual({ message: '请求失败，请稍后重试', field: null });
  });

  it('falls back to the field a form recognises in the message', () => {
    const fieldOfMessage = (m: string) => (m.startsWith('名称') ? 'name' : null);
    expect(placeRefusal('名称不能为空', undefined, shown, fieldOfMessage).field).toBe('name');
    expect(placeRefusal('名称不能为空', 'remark', shown, fieldOfMessage).field).toBe('remark');
    expect(placeRefusal('其他错误', undefined, shown, fieldOfMessage).field).toBeNull();
  });
});

describe('errorsStillStanding: an error disappears once its cause is fixed', () => {
  it('drops a server-profile error when the field is corrected, keeps the other until it is', () => {
    const bad = { name: '', url: 'ftp://x', allowSelfSigned: false };
    const shown = checkProfileForm(bad, false);
    expect(Object.keys(shown).sort()).toEqual(['name', 'url']);
    const urlFixed = { ...bad, url: 'https://cairn.example.cn' };
    expect(errorsStillStanding(shown, checkProfileForm(urlFixed, false))).toEqual({ name: shown.name });
    expect(errorsStillStanding(shown, checkProfileForm({ ...urlFixed, name: '总部平台' }, false))).toEqual({});
  });

  it('drops the project form\'s upload error once a file is uploaded', () => {
    const form: ProjectFormState = { ...initialForm({ subjectId: 1, lastCodeType: 0 }), projectName: 'shop' };
    const shown = validateForm(form, String);
    expect(shown.upload).toBeDefined();
    const uploaded = { ...form, upload: { uploadId: 'u1', fileName: 'shop.zip', size: 10 } };
    expect(errorsStillStanding(shown, validateForm(uploaded, String))).toEqual({});
  });

  it('gives a field no new error before the next submit, and follows a changed message', () => {
    expect(errorsStillStanding({}, { name: '请输入名称' })).toEqual({});
    expect(errorsStillStanding({ name: '请输入名称' }, { name: '名称过长' })).toEqual({ name: '名称过长' });
  });
});

describe('messageAfterChange', () => {
  const summary = '请先修正表单中标出的问题';
  it('keeps the summary while a field error stands, drops it when none does', () => {
    expect(messageAfterChange(summary, summary, { upload: '请上传文件' })).toBe(summary);
    expect(messageAfterChange(summary, summary, {})).toBeNull();
  });
  it('drops the platform\'s refusal once the form is changed', () => {
    expect(messageAfterChange('项目名称已存在', summary, {})).toBeNull();
    expect(messageAfterChange(null, summary, { name: 'x' })).toBeNull();
  });
});

describe('tag field', () => {
  const keyDown = (key: string) => {
    const event = { key, prevented: false, preventDefault() { this.prevented = true; } };
    keepEnterInField(event);
    return event.prevented;
  };
  it('keeps Enter from submitting the form (the field adds the tag), other keys untouched', () => {
    expect(keyDown('Enter')).toBe(true);
    expect(keyDown('a')).toBe(false);
    expect(keyDown('Backspace')).toBe(false);
    expect(keyDown(',')).toBe(false);
  });
  it('keeps tags trimmed, non-empty and unique in the order typed', () => {
    expect(normalizeTags([' go ', 'python', '', 'go', 3])).toEqual(['go', 'python', '3']);
  });
});
