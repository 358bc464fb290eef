// 私服配置: the private repositories the subject publishes to (kind, address, repository name).
import { Button, Card, HTMLSelect, InputGroup } from '@blueprintjs/core';
import { useState } from 'react';
import { PRIVATE_SERVICE_KINDS, type PrivateServiceConfig, type SubjectDetail } from '../../../../contract/api/subject.ts';
import { SUCCESS_MESSAGES } from '../../../../contract/errors.ts';
import { apiErrorMessage } from '../../../api/baseQuery.ts';
import { useSavePrivateServiceMutation } from '../../../api/subjectApi.ts';
import { toastNotifier as notify } from '../../../app/toaster.ts';
import { GuardedButton } from '../../../common/GuardedButton.tsx';
import { zh } from '../../../i18n/zh-CN.ts';
import { SettingsLayout, settingsApplied } from './SettingsLayout.tsx';

const t = zh.subject;
type Repo = PrivateServiceConfig['repositories'][number];

function PrivateServiceForm({ subject }: { subject: SubjectDetail }) {
  const [repos, setRepos] = useState<Repo[]>(subject.settings.privateService.repositories);
  const [save, saving] = useSavePrivateServiceMutation();
  // nothing applies these settings yet: read-only, saving disabled (SettingsLayout says why)
  const disabled = !subject.canManage || !settingsApplied('projectPrivateServiceConf');
  const change = (i: number, patch: Partial<Repo>) => setRepos((rs) => rs.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const submit = async () => {
    try {
      await save({ subjectId: subject.id, body: { repositories: repos.map((r) => ({ kind: r.kind, url: r.url.trim(), ...(r.repository?.trim() && { repository: r.repository.trim() }) })) } }).unwrap();
      notify.success(SUCCESS_MESSAGES.saved);
    } catch (err) {
      notify.error(apiErrorMessage(err));
    }
  };
  return (
    <Card className="cairn-settings-form">
      <p className="cairn-muted">{t.privateHint}</p>
      {repos.length === 0 ? <p className="cairn-muted">{t.noRepositories}</p> : (
        <div className="cairn-repo-row cairn-muted"><span>{t.repoKind}</span><span>{t.repoUrl}</span><span>{t.repoName}</span><span /></div>
      )}
      {repos.map((r, i) => (
        <div className="cairn-repo-row" key={i}>
          <HTMLSelect aria-label={t.repoKind} value={r.kind} disabled={disabled} onChange={(e) => change(i, { kind: e.currentTarget.value as Repo['kind'] })} options={[...PRIVATE_SERVICE_KINDS]} />
          <InputGroup aria-label={t.repoUrl} value={r.url} disabled={disabled} placeholder="https://" onValueChange={(url) => change(i, { url })} />
          <InputGroup aria-label={t.repoName} value={r.repository ?? ''} disabled={disabled} onValueChange={(repository) => change(i, { repository })} />
          <Button minimal icon="trash" intent="danger" aria-label={t.removeRepository} disabled={disabled} onClick={() => setRepos((rs) => rs.filter((_, j) => j !== i))} />
        </div>
      ))}
      <div style={{ display: 'flex', gap: 8 }}>
        <Button icon="add" text={t.addRepository} disabled={disabled} onClick={() => setRepos((rs) => [...rs, { kind: 'maven', url: '' }])} />
        <GuardedButton intent="primary" text={t.save} disabled={disabled || repos.some((r) => !r.url.trim())} loading={saving.isLoading} onClick={() => void submit()} />
      </div>
    </Card>
  );
}

export default function PrivateServiceScreen() {
  return <SettingsLayout tab="projectPrivateServiceConf">{(s) => <PrivateServiceForm key={s.id} subject={s} />}</SettingsLayout>;
}
