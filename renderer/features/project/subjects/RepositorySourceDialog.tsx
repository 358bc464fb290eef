// 新建 / 编辑仓库源: name, type (the four the platform accepts), address, user name and a
// write-only password. 校验 asks the platform to check the address syntax only; connectivity and
// credentials are tried when a task is launched, so nothing here reaches the repository. The
// shared form dialog shows a refusal beside the field it names.
import { Button, Callout, Checkbox, FormGroup, HTMLSelect, InputGroup } from '@blueprintjs/core';
import { useState } from 'react';
import { REPOSITORY_SOURCE_TYPES, type RepositorySource } from '../../../../contract/api/subject.ts';
import { CODE_TYPE_LABEL, labelOf } from '../../../../contract/enums.ts';
import { SUCCESS_MESSAGES } from '../../../../contract/errors.ts';
import { validateName } from '../../../../contract/validation.ts';
import { apiErrorMessage } from '../../../api/baseQuery.ts';
import { useCheckRepositorySourceMutation, useSaveRepositorySourceMutation } from '../../../api/subjectApi.ts';
import { FormDialog } from '../../../common/form/FormDialog.tsx';
import { validateFields } from '../../../common/form/formErrors.ts';
import { zh } from '../../../i18n/zh-CN.ts';

const t = zh.subject;
const s = t.sources;
const SOURCE_TYPE_OPTIONS = REPOSITORY_SOURCE_TYPES.map((value) => ({ value, label: labelOf(CODE_TYPE_LABEL, value) }));

type CheckResult = { intent: 'success' | 'danger'; text: string } | null;

interface Values {
  name: string;
  getCodeType: number;
  url: string;
  username: string;
  password: string;
  clearPassword: boolean;
}
const validate = validateFields<Values>({ name: validateName, url: (url) => (url.trim() ? null : s.urlRequired) });

export function RepositorySourceDialog({ editing, onClose }: { editing: RepositorySource | 'new'; onClose: () => void }) {
  const current = editing === 'new' ? null : editing;
  const [checkResult, setCheckResult] = useState<CheckResult>(null);
  const [save] = useSaveRepositorySourceMutation();
  const [check, checking] = useCheckRepositorySourceMutation();

  const runCheck = async ({ getCodeType, url }: Values) => {
    if (!url.trim()) return setCheckResult({ intent: 'danger', text: s.urlRequired });
    try {
      const got = await check({ getCodeType, url: url.trim() }).unwrap();
      setCheckResult({ intent: 'success', text: s.checked(got.normalizedUrl) });
    } catch (err) {
      setCheckResult({ intent: 'danger', text: apiErrorMessage(err) });
    }
  };

  const submit = (v: Values) => {
    // Password: typed -> replace; left empty -> keep (absent), or clear ('') when asked to.
    const secret = v.password ? { password: v.password } : v.clearPassword ? { password: '' } : {};
    return save({ ...(current ? { id: current.id } : {}), name: v.name.trim(), getCodeType: v.getCodeType, url: v.url.trim(), username: v.username.trim() || null, ...secret }).unwrap();
  };

  return (
    <FormDialog<Values>
      title={current ? s.editTitle : s.addTitle}
      icon="git-repo"
      idPrefix="source"
      onClose={onClose}
      initial={{ name: current?.name ?? '', getCodeType: current?.getCodeType ?? REPOSITORY_SOURCE_TYPES[0], url: current?.url ?? '', username: current?.username ?? '', password: '', clearPassword: false }}
      validate={validate}
      submit={submit}
      success={current ? SUCCESS_MESSAGES.saved : SUCCESS_MESSAGES.added}
      fields={['name', 'getCodeType', 'url', 'username', 'password']}
    >
      {(form) => {
        const v = form.values;
        // A result only speaks for the address and type it was given.
        const edited = <K extends 'url' | 'getCodeType'>(key: K, value: Values[K]) => {
          form.set(key, value);
          setCheckResult(null);
        };
        return (
          <>
            <FormGroup label={s.name} labelFor={form.id('name')} labelInfo="*" {...form.group('name')}>
              <InputGroup id={form.id('name')} value={v.name} onValueChange={(x) => form.set('name', x)} autoFocus intent={form.intent('name')} />
            </FormGroup>
            <FormGroup label={s.type} labelFor={form.id('getCodeType')} labelInfo="*" {...form.group('getCodeType')}>
              <HTMLSelect id={form.id('getCodeType')} value={v.getCodeType} onChange={(e) => edited('getCodeType', Number(e.currentTarget.value))} options={SOURCE_TYPE_OPTIONS} />
            </FormGroup>
            <FormGroup label={s.url} labelFor={form.id('url')} labelInfo="*" {...form.group('url', s.checkHint)}>
              <InputGroup id={form.id('url')} value={v.url} onValueChange={(x) => edited('url', x)} placeholder={s.urlExamples[v.getCodeType]} maxLength={1000}
                intent={form.intent('url')}
                rightElement={<Button minimal icon="tick-circle" text={s.check} loading={checking.isLoading} onClick={() => void runCheck(v)} />} />
            </FormGroup>
            {checkResult ? <Callout intent={checkResult.intent} compact className="cairn-source-check" role="status">{checkResult.text}</Callout> : null}
            <FormGroup label={s.username} labelFor={form.id('username')} {...form.group('username')}>
              <InputGroup id={form.id('username')} value={v.username} onValueChange={(x) => form.set('username', x)} maxLength={200} autoComplete="off" />
            </FormGroup>
            <FormGroup label={s.password} labelFor={form.id('password')} {...form.group('password')}>
              <InputGroup id={form.id('password')} type="password" value={v.password} onValueChange={(x) => form.set('password', x)} maxLength={1000} autoComplete="new-password"
                disabled={v.clearPassword} placeholder={current?.hasPassword ? s.passwordKept : undefined} />
            </FormGroup>
            {current?.hasPassword ? (
              <Checkbox label={s.clearPassword} checked={v.clearPassword} onChange={(e) => { const on = e.currentTarget.checked; form.update((old) => ({ ...old, clearPassword: on, password: '' })); }} />
            ) : null}
          </>
        );
      }}
    </FormDialog>
  );
}
