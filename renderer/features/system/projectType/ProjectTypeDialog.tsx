// Add or edit a 项目类型: its name (the rules every name follows) and an optional remark. A name
// another type already has is refused by the platform beside the name field.
import { FormGroup, InputGroup, TextArea } from '@blueprintjs/core';
import type { SubjectTypeForm, SubjectTypeRow } from '../../../../contract/api/project-type.ts';
import { ADMIN_SUCCESS_MESSAGES } from '../../../../contract/errors.ts';
import { DESCRIPTION_MAX_LENGTH, NAME_MAX_LENGTH, validateDescription, validateName } from '../../../../contract/validation.ts';
import { useAddProjectTypeMutation, useUpdateProjectTypeMutation } from '../../../api/projectTypeApi.ts';
import { FormDialog } from '../../../common/form/FormDialog.tsx';
import { validateFields } from '../../../common/form/formErrors.ts';
import { zh } from '../../../i18n/zh-CN.ts';

const t = zh.system.projectType;
type Values = Required<SubjectTypeForm>;

const validate = validateFields<Values>({ subjectTypeName: validateName, remark: validateDescription });

export function ProjectTypeDialog({ row, onClose }: { row: SubjectTypeRow | null; onClose: () => void }) {
  const [add] = useAddProjectTypeMutation();
  const [update] = useUpdateProjectTypeMutation();
  const initial: Values = { subjectTypeName: row?.subjectTypeName ?? '', remark: row?.remark ?? '' };
  const renamed = (name: string) => row !== null && row.subjects > 0 && name.trim() !== row.subjectTypeName;

  return (
    <FormDialog<Values>
      title={row ? t.editTitle : t.addTitle}
      icon={row ? 'edit' : 'add'}
      idPrefix="project-type"
      onClose={onClose}
      initial={initial}
      validate={validate}
      submit={(values) => (row ? update({ params: { id: row.id }, body: values }).unwrap() : add(values).unwrap())}
      success={row ? ADMIN_SUCCESS_MESSAGES.modified : ADMIN_SUCCESS_MESSAGES.added}
      fields={['subjectTypeName', 'remark']}
    >
      {(form) => (
        <>
          <FormGroup label={t.name} labelFor={form.id('subjectTypeName')} labelInfo="*" {...form.group('subjectTypeName', renamed(form.values.subjectTypeName) ? t.renameHelp(row!.subjects) : t.nameHelp)}>
            <InputGroup
              id={form.id('subjectTypeName')}
              intent={form.intent('subjectTypeName')}
              value={form.values.subjectTypeName}
              placeholder={t.namePlaceholder}
              maxLength={NAME_MAX_LENGTH}
              autoFocus
              onValueChange={(v) => form.set('subjectTypeName', v)}
            />
          </FormGroup>
          <FormGroup label={t.remark} labelFor={form.id('remark')} {...form.group('remark')}>
            <TextArea
              id={form.id('remark')}
              intent={form.intent('remark')}
              value={form.values.remark}
              placeholder={t.remarkPlaceholder}
              maxLength={DESCRIPTION_MAX_LENGTH}
              fill
              rows={3}
              onChange={(e) => form.set('remark', e.currentTarget.value)}
            />
          </FormGroup>
        </>
      )}
    </FormDialog>
  );
}
