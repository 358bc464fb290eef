// 通知设置: which vulnerability levels and events notify which members. The platform stores the
// configuration; sending comes with the notice channels, so until then the screen says so and is
// read-only (SettingsLayout NOT_APPLIED).
import { Card, Checkbox, FormGroup } from '@blueprintjs/core';
import { useState } from 'react';
import type { NoticeConfig, SubjectDetail } from '../../../../contract/api/subject.ts';
import { LEVEL_CODES, VULNERABILITY_LEVEL_LABEL } from '../../../../contract/enums.ts';
import { SUCCESS_MESSAGES } from '../../../../contract/errors.ts';
import { apiErrorMessage } from '../../../api/baseQuery.ts';
import { useMembersQuery, useSaveNoticeMutation } from '../../../api/subjectApi.ts';
import { toastNotifier as notify } from '../../../app/toaster.ts';
import { GuardedButton } from '../../../common/GuardedButton.tsx';
import { zh } from '../../../i18n/zh-CN.ts';
import { SettingsLayout, settingsApplied } from './SettingsLayout.tsx';
import { UserPicker } from './UserPicker.tsx';

const t = zh.subject;
const EVENTS = ['onTaskFinish', 'onTaskFail', 'onNewVulnerability'] as const;

function NoticeForm({ subject }: { subject: SubjectDetail }) {
  const [config, setConfig] = useState<NoticeConfig>(subject.settings.notice);
  // Recipients are members: the whole member list (a subject has tens of members, not thousands).
  const members = useMembersQuery({ subjectId: subject.id, page: 1, size: 500 });
  const [save, saving] = useSaveNoticeMutation();
  const toggleLevel = (level: NoticeConfig['levels'][number], on: boolean) =>
    setConfig((c) => ({ ...c, levels: on ? [...c.levels, level].sort((a, b) => a - b) : c.levels.filter((l) => l !== level) }));
  const submit = async () => {
    try {
      await save({ subjectId: subject.id, ...config }).unwrap();
      notify.success(SUCCESS_MESSAGES.saved);
    } catch (err) {
      notify.error(apiErrorMessage(err));
    }
  };
  // nothing applies these settings yet: read-only, saving disabled (SettingsLayout says why)
  const disabled = !subject.canManage || !settingsApplied('noticeSetup');
  return (
    <Card className="cairn-settings-form">
      <FormGroup label={t.noticeLevels}>
        {LEVEL_CODES.map((level) => (
          <Checkbox key={level} inline disabled={disabled} label={VULNERABILITY_LEVEL_LABEL[level]} checked={config.levels.includes(level)} onChange={(e) => toggleLevel(level, e.currentTarget.checked)} />
        ))}
      </FormGroup>
      <FormGroup label={t.noticeEvents}>
        {EVENTS.map((k) => (
          <Checkbox key={k} inline disabled={disabled} label={t.events[k]} checked={config[k]} onChange={(e) => { const on = e.currentTarget.checked; setConfig((c) => ({ ...c, [k]: on })); }} />
        ))}
      </FormGroup>
      <FormGroup label={t.noticeUsers} helperText={t.noticeUsersHint}>
        <UserPicker disabled={disabled} users={members.data?.content ?? []} selected={config.userIds} onChange={(userIds) => setConfig((c) => ({ ...c, userIds }))} />
      </FormGroup>
      <GuardedButton intent="primary" text={t.save} disabled={disabled} loading={saving.isLoading} onClick={() => void submit()} />
    </Card>
  );
}

export default function NoticeScreen() {
  return <SettingsLayout tab="noticeSetup">{(s) => <NoticeForm key={s.id} subject={s} />}</SettingsLayout>;
}
