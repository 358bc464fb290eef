// 新建应用: name, description, importance, group, type and members, in the shared form dialog.
// Checked in the form with the contract's rules, then by the platform (unique name per product:
// its refusal is shown beside the name).
import { FormGroup, HTMLSelect, InputGroup, TextArea } from '@blueprintjs/core';
import { PROJECT_IMPORTANCE_LABEL } from '../../../../contract/enums.ts';
import { SUCCESS_MESSAGES } from '../../../../contract/errors.ts';
import { validateDescription, validateName } from '../../../../contract/validation.ts';
import { useAllGroupsQuery, useGroupChoicesQuery } from '../../../api/groupApi.ts';
import { useCreateSubjectMutation, useUsersForAddQuery } from '../../../api/subjectApi.ts';
import { selectUser, useAppSelector } from '../../../app/hooks.ts';
import { FormDialog } from '../../../common/form/FormDialog.tsx';
import { validateFields } from '../../../common/form/formErrors.ts';
import { zh } from '../../../i18n/zh-CN.ts';
import { SubjectTypeSelect } from './SubjectTypeSelect.tsx';
import { UserPicker } from './UserPicker.tsx';

const t = zh.subject;
export const IMPORTANCE_OPTIONS = Object.entries(PROJECT_IMPORTANCE_LABEL).map(([value, label]) => ({ value: Number(value), label }));

interface Values {
  name: string;
  description: string;
  importance: number;
  groupId: number | null;
  subjectType: string;
  memberIds: number[];
}
const validate = validateFields<Values>({ name: validateName, description: validateDescription });

export function CreateSubjectDialog({ onClose, groupId }: { onClose: () => void; groupId?: number | null }) {
  const me = useAppSelector(selectUser);
  const users = useUsersForAddQuery({});
  // The creator becomes the owner: not offered as a member.
  const others = (users.data ?? []).filter((u) => u.userId !== me?.userId);
  // Every group the user may choose, by its path (总部/研发部/平台组); the group the dialog was
  // opened from (the group view) is offered even when it is above the user's own groups.
  const choices = useGroupChoicesQuery();
  const everyGroup = useAllGroupsQuery(undefined, { skip: !groupId });
  const groupOptions = (choices.data ?? []).map((g) => ({ value: g.id, label: g.groupPath }));
  const opened = everyGroup.data?.find((g) => g.id === groupId);
  if (opened && !groupOptions.some((o) => o.value === opened.id)) groupOptions.unshift({ value: opened.id, label: opened.groupPath });
  const [create] = useCreateSubjectMutation();

  return (
    <FormDialog<Values>
      title={t.createTitle}
      icon="add"
      idPrefix="subject"
      onClose={onClose}
      initial={{ name: '', description: '', importance: 3, groupId: groupId ?? null, subjectType: '', memberIds: [] }}
      validate={validate}
      submit={(v) => create({ ...v, subjectType: v.subjectType.trim() || null }).unwrap()}
      success={SUCCESS_MESSAGES.added}
      fields={['name', 'description']}
    >
      {(form) => (
        <>
          <FormGroup label={t.name} labelFor={form.id('name')} labelInfo="*" {...form.group('name')}>
            <InputGroup id={form.id('name')} value={form.values.name} onValueChange={(v) => form.set('name', v)} autoFocus intent={form.intent('name')} />
          </FormGroup>
          <FormGroup label={t.description} labelFor={form.id('description')} {...form.group('description')}>
            <TextArea id={form.id('description')} fill intent={form.intent('description')} value={form.values.description} onChange={(e) => form.set('description', e.currentTarget.value)} />
          </FormGroup>
          <FormGroup label={t.importance} labelFor={form.id('importance')} inline>
            <HTMLSelect id={form.id('importance')} value={form.values.importance} onChange={(e) => form.set('importance', Number(e.currentTarget.value))} options={IMPORTANCE_OPTIONS} />
          </FormGroup>
          <FormGroup label={t.group} labelFor={form.id('group')} inline>
            <HTMLSelect id={form.id('group')} value={form.values.groupId ?? ''} onChange={(e) => form.set('groupId', e.currentTarget.value ? Number(e.currentTarget.value) : null)}
              options={[{ value: '', label: t.noGroup }, ...groupOptions]} />
          </FormGroup>
          <SubjectTypeSelect id={form.id('type')} value={form.values.subjectType} onChange={(v) => form.set('subjectType', v)} />
          <FormGroup label={t.members} helperText={t.membersHint}>
            <UserPicker users={others} selected={form.values.memberIds} onChange={(ids) => form.set('memberIds', ids)} />
          </FormGroup>
        </>
      )}
    </FormDialog>
  );
}
