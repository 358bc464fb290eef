// 测试 LDAP 登录: a directory username and password, sent with the form as it stands (a blank
// service password: the saved one). Stays open to show what a login would make of the account, or
// exactly which step failed (the platform's message); nothing is created.
import { useState, type FormEvent } from 'react';
import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, HTMLTable, InputGroup, Tag } from '@blueprintjs/core';
import type { LdapChoices, LdapConfigForm, LdapTestResult } from '../../../../contract/api/ldap.ts';
import { DIRECTORY_USER_TYPE } from '../../../../contract/api/ldap.ts';
import { apiErrorMessage } from '../../../api/baseQuery.ts';
import { useTestLdapLoginMutation } from '../../../api/ldapApi.ts';
import { GuardedButton } from '../../../common/GuardedButton.tsx';
import { zh } from '../../../i18n/zh-CN.ts';

const t = zh.ldap;

function Result({ result, choices }: { result: LdapTestResult; choices: LdapChoices }) {
  const groupName = (id: number) => choices.groups.find((g) => g.id === id)?.name ?? `#${id}`;
  const account = result.account === null
    ? <Tag intent="primary" minimal>{t.accountNew}</Tag>
    : result.account.userType === DIRECTORY_USER_TYPE
      ? <Tag intent="success" minimal>{t.accountDirectory(result.account.userId)}</Tag>
      : <Tag intent="warning" minimal>{t.accountTaken}</Tag>;
  const rows: Array<[string, React.ReactNode]> = [
    [t.resultDn, <code key="dn">{result.userDn}</code>],
    [t.resultUsername, result.username],
    [t.resultName, result.name],
    [t.resultEmail, result.email ?? t.none],
    [t.resultPhone, result.phone ?? t.none],
    [t.resultGroups, result.groups.length ? result.groups.map((g) => <div key={g}><code>{g}</code></div>) : t.none],
    [t.resultMapped, result.mappedGroupIds.length ? result.mappedGroupIds.map(groupName).join('、') : t.none],
    [t.resultAccount, account],
  ];
  return (
    <>
      <Callout intent="success" icon="tick-circle" className="cairn-ldap-note">{t.testPassed(result.elapsedMs)}</Callout>
      <HTMLTable compact className="cairn-ldap-result">
        <tbody>
          {rows.map(([label, value]) => (
            <tr key={label}><th>{label}</th><td>{value}</td></tr>
          ))}
        </tbody>
      </HTMLTable>
    </>
  );
}

export function LdapTestDialog({ form, choices, onClose }: { form: LdapConfigForm; choices: LdapChoices; onClose: () => void }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ username?: string; password?: string }>({});
  const [outcome, setOutcome] = useState<{ ok: true; result: LdapTestResult } | { ok: false; message: string } | null>(null);
  const [test, { isLoading }] = useTestLdapLoginMutation();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = { ...(username.trim() ? {} : { username: t.usernameRequired }), ...(password ? {} : { password: t.passwordRequired }) };
    setErrors(found);
    if (found.username || found.password) return;
    setOutcome(null);
    try {
      const result = await test({ username: username.trim(), password, config: form }).unwrap();
      setOutcome({ ok: true, result });
    } catch (error) {
      setOutcome({ ok: false, message: apiErrorMessage(error) });
    }
  };

  return (
    <Dialog isOpen onClose={onClose} title={t.testTitle} icon="confirm" className="cairn-dialog cairn-ldap-test" canOutsideClickClose={false}>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <DialogBody>
          <p className="cairn-muted">{t.testHelp}</p>
          <div className="cairn-form-grid">
            <FormGroup label={t.testUsername} labelFor="ldap-test-username" labelInfo="*" intent={errors.username ? 'danger' : 'none'} helperText={errors.username}>
              <InputGroup id="ldap-test-username" autoFocus autoComplete="off" maxLength={100} value={username} intent={errors.username ? 'danger' : 'none'} onValueChange={setUsername} />
            </FormGroup>
            <FormGroup label={t.testPassword} labelFor="ldap-test-password" labelInfo="*" intent={errors.password ? 'danger' : 'none'} helperText={errors.password}>
              <InputGroup id="ldap-test-password" type="password" autoComplete="new-password" maxLength={200} value={password} intent={errors.password ? 'danger' : 'none'} onValueChange={setPassword} />
            </FormGroup>
          </div>
          {outcome?.ok ? <Result result={outcome.result} choices={choices} /> : null}
          {outcome && !outcome.ok ? <Callout intent="danger" icon="error" role="alert" className="cairn-ldap-note">{outcome.message}</Callout> : null}
        </DialogBody>
        <DialogFooter
          actions={(
            <>
              <Button text={t.testClose} onClick={onClose} />
              <GuardedButton type="submit" intent="primary" icon="confirm" loading={isLoading} text={t.testRun} />
            </>
          )}
        />
      </form>
    </Dialog>
  );
}
