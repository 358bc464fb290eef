// 缺陷管理: the issue tracker a subject pushes defects to. The password is sent once and kept
// encrypted by the platform; the form only learns whether one is stored.
import { Callout, Card, Checkbox, FormGroup, HTMLSelect, InputGroup, Switch } from '@blueprintjs/core';
import { useState, type FormEvent } from 'react';
import { TRACKER_TYPES, type SubjectDetail } from '../../../../contract/api/subject.ts';
import { SUCCESS_MESSAGES } from '../../../../contract/errors.ts';
import { apiErrorMessage } from '../../../api/baseQuery.ts';
import { useEnableBugMutation, useSaveBugConfigMutation } from '../../../api/subjectApi.ts';
import { toastNotifier as notify } from '../../../app/toaster.ts';
import { GuardedButton } from '../../../common/GuardedButton.tsx';
import { zh } from '../../../i18n/zh-CN.ts';
import { SettingsLayout, settingsApplied } from './SettingsLayout.tsx';

const t = zh.subject;
type Tracker = (typeof TRACKER_TYPES)[number];

function DefectForm({ subject }: { subject: SubjectDetail }) {
  const bug = subject.settings.bug;
  const [type, setType] = useState<Tracker>(bug.type ?? 'jira');
  const [url, setUrl] = useState(bug.url);
  const [projectKey, setProjectKey] = useState(bug.projectKey);
  const [username, setUsername] = useState(bug.username);
  const [password, setPassword] = useState('');
  const [clear, setClear] = useState(false);
  const [save, saving] = useSaveBugConfigMutation();
  const [enable, enabling] = useEnableBugMutation();
  // nothing applies these settings yet: read-only, saving disabled (SettingsLayout says why)
  const disabled = !subject.canManage || !settingsApplied('defectManagement');
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    try {
      const secret = clear ? { password: '' } : password ? { password } : {};
      await save({ subjectId: subject.id, update: bug.type !== null, body: { type, url: url.trim(), projectKey: projectKey.trim(), username: username.trim(), ...secret } }).unwrap();
      notify.success(SUCCESS_MESSAGES.saved);
      setPassword('');
      setClear(false);
    } catch (err) {
      notify.error(apiErrorMessage(err));
    }
  };
  const toggle = async (enabled: boolean) => {
    try {
      await enable({ subjectId: subject.id, enabled }).unwrap();
      notify.success(SUCCESS_MESSAGES.done);
    } catch (err) {
      notify.error(apiErrorMessage(err));
    }
  };
  return (
    <Card className="cairn-settings-form">
      <Switch label={t.bugEnabled} checked={bug.enabled} disabled={disabled || enabling.isLoading || bug.type === null} onChange={(e) => void toggle(e.currentTarget.checked)} />
      {bug.type === null ? <Callout icon="info-sign" style={{ marginBottom: 12 }}>{t.bugNeedsConfig}</Callout> : null}
      <form onSubmit={(e) => void submit(e)}>
        <FormGroup label={t.trackerType} labelFor="bug-type" inline>
          <HTMLSelect id="bug-type" value={type} disabled={disabled} onChange={(e) => setType(e.currentTarget.value as Tracker)} options={TRACKER_TYPES.map((k) => ({ value: k, label: t.trackers[k] ?? k }))} />
        </FormGroup>
        <FormGroup label={t.trackerUrl} labelFor="bug-url" labelInfo="*">
          <InputGroup id="bug-url" value={url} onValueChange={setUrl} disabled={disabled} placeholder="https://" />
        </FormGroup>
        <FormGroup label={t.projectKey} labelFor="bug-key" labelInfo="*">
          <InputGroup id="bug-key" value={projectKey} onValueChange={setProjectKey} disabled={disabled} />
        </FormGroup>
        <FormGroup label={t.username} labelFor="bug-user">
          <InputGroup id="bug-user" value={username} onValueChange={setUsername} disabled={disabled} autoComplete="off" />
        </FormGroup>
        <FormGroup label={t.password} labelFor="bug-password" helperText={bug.hasPassword ? t.passwordKept : undefined}>
          <InputGroup id="bug-password" type="password" value={password} onValueChange={setPassword} disabled={disabled || clear} autoComplete="new-password" />
        </FormGroup>
        {bug.hasPassword ? <Checkbox label={t.clearPassword} checked={clear} disabled={disabled} onChange={(e) => setClear(e.currentTarget.checked)} /> : null}
        <GuardedButton type="submit" intent="primary" text={t.save} disabled={disabled || !url.trim() || !projectKey.trim()} loading={saving.isLoading} />
      </form>
    </Card>
  );
}

export default function DefectScreen() {
  return <SettingsLayout tab="defectManagement">{(s) => <DefectForm key={s.id} subject={s} />}</SettingsLayout>;
}
