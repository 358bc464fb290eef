// 新建应用: name, description, importance, group, type and members. Checked in the form with the
// contract's rules, then by the platform (unique name per product).
import { Button, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect, InputGroup, TextArea } from '@blueprintjs/core';
import { useState, type FormEvent } from 'react';
import { PROJECT_IMPORTANCE_LABEL } from '../../../../contract/enums.ts';
import { SUCCESS_MESSAGES } from '../../../../contract/errors.ts';
import { validateDescription, validateName } from '../../../../contract/validation.ts';
import { apiErrorMessage } from '../../../api/baseQuery.ts';
import { useCreateSubjectMutation, useGroupSubjectsQuery, useUsersForAddQuery } from '../../../api/subjectApi.ts';
import { selectUser, useAppSelector } from '../../../app/hooks.ts';
import { toastNotifier as notify } from '../../../app/toaster.ts';
import { GuardedButton } from '../../../common/GuardedButton.tsx';
import { zh } from '../../../i18n/zh-CN.ts';
import { SubjectTypeSelect } from './SubjectTypeSelect.tsx';
import { UserPicker } from './UserPicker.tsx';

const t = zh.subject;
export const IMPORTANCE_OPTIONS = Object.entries(PROJECT_IMPORTANCE_LABEL).map(([value, label]) => ({ value: Number(value), label }));

export function CreateSubjectDialog({ isOpen, onClose, groupId }: { isOpen: boolean; onClose: () => void; groupId?: number | null }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [importance, setImportance] = useState(3);
  const [group, setGroup] = useState<number | null>(groupId ?? null);
  const [subjectType, setSubjectType] = useState('');
  const [memberIds, setMemberIds] = useState<number[]>([]);
  const [touched, setTouched] = useState(false);
  const me = useAppSelector(selectUser);
  const users = useUsersForAddQuery({}, { skip: !isOpen });
  // The creator becomes the owner: not offered as a member.
  const others = (users.data ?? []).filter((u) => u.userId !== me?.userId);
  // The top-level groups are enough to place a new subject; deeper ones come from the group view.
  const groups = useGroupSubjectsQuery({ page: 1, size: 1 }, { skip: !isOpen });
  const [create, creating] = useCreateSubjectMutation();

  const nameProblem = validateName(name);
  const descriptionProblem = validateDescription(description);
  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    setTouched(true);
    if (nameProblem || descriptionProblem) return;
    try {
      await create({ name, description, importance, groupId: group, subjectType: subjectType.trim() || null, memberIds }).unwrap();
      notify.success(SUCCESS_MESSAGES.added);
      setName(''); setDescription(''); setImportance(3); setGroup(groupId ?? null); setMemberIds([]); setTouched(false); setSubjectType('');
      onClose();
    } catch (err) {
      notify.error(apiErrorMessage(err));
    }
  };

  return (
    <Dialog isOpen={isOpen} onClose={onClose} title={t.createTitle} icon="add" style={{ width: 560 }}>
      <form onSubmit={(e) => void submit(e)}>
        <DialogBody>
          <FormGroup label={t.name} labelFor="subject-name" labelInfo="*" intent={touched && nameProblem ? 'danger' : 'none'} helperText={touched ? nameProblem : undefined}>
            <InputGroup id="subject-name" value={name} onValueChange={setName} autoFocus intent={touched && nameProblem ? 'danger' : 'none'} />
          </FormGroup>
          <FormGroup label={t.description} labelFor="subject-description" intent={touched && descriptionProblem ? 'danger' : 'none'} helperText={touched ? descriptionProblem : undefined}>
            <TextArea id="subject-description" fill value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
          </FormGroup>
          <FormGroup label={t.importance} labelFor="subject-importance" inline>
            <HTMLSelect id="subject-importance" value={importance} onChange={(e) => setImportance(Number(e.currentTarget.value))} options={IMPORTANCE_OPTIONS} />
          </FormGroup>
          <FormGroup label={t.group} labelFor="subject-group" inline>
            <HTMLSelect id="subject-group" value={group ?? ''} onChange={(e) => setGroup(e.currentTarget.value ? Number(e.currentTarget.value) : null)}
              options={[{ value: '', label: t.noGroup }, ...(groups.data?.groups ?? []).map((g) => ({ value: g.id, label: g.name }))]} />
          </FormGroup>
          <SubjectTypeSelect id="subject-type" value={subjectType} onChange={setSubjectType} />
          <FormGroup label={t.members} helperText={t.membersHint}>
            <UserPicker users={others} selected={memberIds} onChange={setMemberIds} />
          </FormGroup>
        </DialogBody>
        <DialogFooter actions={<>
          <Button text={t.cancel} onClick={onClose} />
          <GuardedButton type="submit" intent="primary" text={t.save} loading={creating.isLoading} />
        </>} />
      </form>
    </Dialog>
  );
}
