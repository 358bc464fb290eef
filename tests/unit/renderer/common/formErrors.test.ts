// A form dialog's errors (common/form/formErrors.ts): the client checks from the contract's
// validators, and where the platform's refusal is shown.
import { describe, expect, it } from 'vitest';
import { placeRefusal, validateFields } from '../../../../renderer/common/form/formErrors.ts';
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
