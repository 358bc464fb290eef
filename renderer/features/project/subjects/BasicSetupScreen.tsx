// 基本设置: name, description, importance, type and the subject's facts; below, the 应用's own Maven
// repositories for online resolution (SubjectMavenRepositories.tsx).
import { Card, FormGroup, HTMLSelect, InputGroup, TextArea } from '@blueprintjs/core';
import { useState, type FormEvent } from 'react';
import type { SubjectDetail } from '../../../../contract/api/subject.ts';
import { DASH } from '../../../../contract/enums.ts';
import { SUCCESS_MESSAGES } from '../../../../contract/errors.ts';
import { formatDateTime } from '../../../../contract/format.ts';
import { validateDescription, validateName } from '../../../../contract/validation.ts';
import { apiErrorMessage } from '../../../api/baseQuery.ts';
import { useSetupSubjectMutation } from '../../../api/subjectApi.ts';
import { toastNotifier as notify } from '../../../app/toaster.ts';
import { Field } from '../../../common/Field.tsx';
import { GuardedButton } from '../../../common/GuardedButton.tsx';
import { zh } from '../../../i18n/zh-CN.ts';
import { IMPORTANCE_OPTIONS } from './CreateSubjectDialog.tsx';
import { SettingsLayout } from './SettingsLayout.tsx';
import { SubjectMavenRepositories } from './SubjectMavenRepositories.tsx';
import { SubjectTypeSelect } from './SubjectTypeSelect.tsx';

const t = zh.subject;

function BasicForm({ subject }: { subject: SubjectDetail }) {
  const [name, setName] = useState(subject.name);
  const [description, setDescription] = useState(subject.description);
  const [importance, setImportance] = useState(subject.importance);
  const [subjectType, setSubjectType] = useState(subject.subjectType ?? '');
  const [save, saving] = useSetupSubjectMutation();
  const nameProblem = validateName(name);
  const descriptionProblem = validateDescription(description);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (nameProblem || descriptionProblem) return;
    try {
      await save({ id: subject.id, name, description, importance, subjectType: subjectType.trim() || null, groupId: subject.groupId }).unwrap();
      notify.success(SUCCESS_MESSAGES.saved);
    } catch (err) {
      notify.error(apiErrorMessage(err));
    }
  };
  const fields = Object.entries(subject.customFields);
  return (
    <Card className="cairn-settings-form">
      <form onSubmit={(e) => void submit(e)}>
        <FormGroup label={t.name} labelFor="basic-name" labelInfo="*" intent={nameProblem ? 'danger' : 'none'} helperText={nameProblem ?? undefined}>
          <InputGroup id="basic-name" value={name} onValueChange={setName} disabled={!subject.canManage} />
        </FormGroup>
        <FormGroup label={t.description} labelFor="basic-description" intent={descriptionProblem ? 'danger' : 'none'} helperText={descriptionProblem ?? undefined}>
          <TextArea id="basic-description" fill value={description} onChange={(e) => setDescription(e.currentTarget.value)} disabled={!subject.canManage} />
        </FormGroup>
        <FormGroup label={t.importance} labelFor="basic-importance" inline>
          <HTMLSelect id="basic-importance" value={importance} onChange={(e) => setImportance(Number(e.currentTarget.value))} options={IMPORTANCE_OPTIONS} disabled={!subject.canManage} />
        </FormGroup>
        <SubjectTypeSelect id="basic-type" value={subjectType} onChange={setSubjectType} disabled={!subject.canManage} />
        <div className="cairn-fields-grid">
          <Field label={t.uuid}>{subject.uuid}</Field>
          <Field label={t.owner}>{subject.ownerName ?? DASH}</Field>
          <Field label={t.group}>{subject.groupName ?? t.noGroup}</Field>
          <Field label={t.createdAt}>{formatDateTime(subject.createdAt)}</Field>
          <Field label={t.customFields} wide>{fields.length ? fields.map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join('、') : String(v)}`).join('；') : t.noCustomFields}</Field>
        </div>
        <GuardedButton type="submit" intent="primary" text={t.save} loading={saving.isLoading} disabled={!subject.canManage} style={{ marginTop: 12 }} />
      </form>
    </Card>
  );
}

export default function BasicSetupScreen() {
  return (
    <SettingsLayout tab="basicSetup">
      {(s) => (
        <>
          <BasicForm key={s.id} subject={s} />
          <SubjectMavenRepositories key={`maven-${s.id}`} subject={s} />
        </>
      )}
    </SettingsLayout>
  );
}
