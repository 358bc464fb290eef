// 新建 / 编辑仓库源: name, type (the four the platform accepts), address, user name and a
// write-only password. 校验 asks the platform to check the address syntax only; connectivity and
// credentials are tried when a task is launched, so nothing here reaches the repository.
import { Button, Callout, Checkbox, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect, InputGroup } from '@blueprintjs/core';
import { useState, type FormEvent } from 'react';
import { REPOSITORY_SOURCE_TYPES, type RepositorySource } from '../../../../contract/api/subject.ts';
import { CODE_TYPE_LABEL, labelOf } from '../../../../contract/enums.ts';
import { SUCCESS_MESSAGES } from '../../../../contract/errors.ts';
import { validateName } from '../../../../contract/validation.ts';
import { apiErrorMessage } from '../../../api/baseQuery.ts';
import { useCheckRepositorySourceMutation, useSaveRepositorySourceMutation } from '../../../api/subjectApi.ts';
import { toastNotifier as notify } from '../../../app/toaster.ts';
import { GuardedButton } from '../../../common/GuardedButton.tsx';
import { zh } from '../../../i18n/zh-CN.ts';

const t = zh.subject;
const s = t.sources;
const SOURCE_TYPE_OPTIONS = REPOSITORY_SOURCE_TYPES.map((value) => ({ value, label: labelOf(CODE_TYPE_LABEL, value) }));

type CheckResult = { intent: 'success' | 'danger'; text: string } | null;

export function RepositorySourceDialog({ editing, onClose }: { editing: RepositorySource | 'new'; onClose: () => void }) {
  const current = editing === 'new' ? null : editing;
  const [name, setName] = useState(current?.name ?? '');
  const [type, setType] = useState<number>(current?.getCodeType ?? REPOSITORY_SOURCE_TYPES[0]);
  const [url, setUrl] = useState(current?.url ?? '');
  const [username, setUsername] = useState(current?.username ?? '');
  const [password, setPassword] = useState('');
  const [clearPassword, setClearPassword] = useState(false);
  const [touched, setTouched] = useState(false);
  const [checkResult, setCheckResult] = useState<CheckResult>(null);
  const [save, saving] = useSaveRepositorySourceMutation();
  const [check, checking] = useCheckRepositorySourceMutation();

  const nameProblem = validateName(name);
  const urlProblem = url.trim() ? null : s.urlRequired;
  // A result only speaks for the address and type it was given.
  const edited = <T,>(set: (v: T) => void) => (v: T) => { set(v); setCheckResult(null); };

  const runCheck = async () => {
    if (urlProblem) { setTouched(true); return; }
    try {
      const got = await check({ getCodeType: type, url: url.trim() }).unwrap();
      setCheckResult({ intent: 'success', text: s.checked(got.normalizedUrl) });
    } catch (err) {
      setCheckResult({ intent: 'danger', text: apiErrorMessage(err) });
    }
  };

  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    setTouched(true);
    if (nameProblem || urlProblem) return;
    // Password: typed -> replace; left empty -> keep (absent), or clear ('') when asked to.
    const secret = password ? { password } : clearPassword ? { password: '' } : {};
    try {
      await save({ ...(current ? { id: current.id } : {}), name: name.trim(), getCodeType: type, url: url.trim(), username: username.trim() || null, ...secret }).unwrap();
      notify.success(current ? SUCCESS_MESSAGES.saved : SUCCESS_MESSAGES.added);
      onClose();
    } catch (err) {
      notify.error(apiErrorMessage(err));
    }
  };

  return (
    <Dialog isOpen onClose={onClose} title={current ? s.editTitle : s.addTitle} icon="git-repo" style={{ width: 560 }}>
      <form onSubmit={(e) => void submit(e)}>
        <DialogBody>
          <FormGroup label={s.name} labelFor="source-name" labelInfo="*" intent={touched && nameProblem ? 'danger' : 'none'} helperText={touched ? nameProblem : undefined}>
            <InputGroup id="source-name" value={name} onValueChange={setName} autoFocus intent={touched && nameProblem ? 'danger' : 'none'} />
          </FormGroup>
          <FormGroup label={s.type} labelFor="source-type" labelInfo="*">
            <HTMLSelect id="source-type" value={type} onChange={(e) => edited(setType)(Number(e.currentTarget.value))} options={SOURCE_TYPE_OPTIONS} />
          </FormGroup>
          <FormGroup label={s.url} labelFor="source-url" labelInfo="*" intent={touched && urlProblem ? 'danger' : 'none'}
            helperText={touched && urlProblem ? urlProblem : s.checkHint}>
            <InputGroup id="source-url" value={url} onValueChange={edited(setUrl)} placeholder={s.urlExamples[type]} maxLength={1000}
              intent={touched && urlProblem ? 'danger' : 'none'}
              rightElement={<Button minimal icon="tick-circle" text={s.check} loading={checking.isLoading} onClick={() => void runCheck()} />} />
          </FormGroup>
          {checkResult ? <Callout intent={checkResult.intent} compact className="cairn-source-check" role="status">{checkResult.text}</Callout> : null}
          <FormGroup label={s.username} labelFor="source-username">
            <InputGroup id="source-username" value={username} onValueChange={setUsername} maxLength={200} autoComplete="off" />
          </FormGroup>
          <FormGroup label={s.password} labelFor="source-password">
            <InputGroup id="source-password" type="password" value={password} onValueChange={setPassword} maxLength={1000} autoComplete="new-password"
              disabled={clearPassword} placeholder={current?.hasPassword ? s.passwordKept : undefined} />
          </FormGroup>
          {current?.hasPassword ? (
            <Checkbox label={s.clearPassword} checked={clearPassword} onChange={(e) => { setClearPassword(e.currentTarget.checked); setPassword(''); }} />
          ) : null}
        </DialogBody>
        <DialogFooter actions={<>
          <Button text={t.cancel} onClick={onClose} />
          <GuardedButton type="submit" intent="primary" text={t.save} loading={saving.isLoading} />
        </>} />
      </form>
    </Dialog>
  );
}
