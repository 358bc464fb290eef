// The 应用类型 of an 应用, chosen from the 项目类型 an administrator put online
// (/system/projectType). An 应用 keeps a type that went offline, or one typed before the list
// existed: it stays selectable, marked, until another is chosen.
import { FormGroup, HTMLSelect } from '@blueprintjs/core';
import { useProjectTypeNamesQuery } from '../../../api/projectTypeApi.ts';
import { zh } from '../../../i18n/zh-CN.ts';

const t = zh.subject;

export function SubjectTypeSelect({ id, value, onChange, disabled }: { id: string; value: string; onChange: (value: string) => void; disabled?: boolean }) {
  const names = useProjectTypeNamesQuery();
  const online = names.data ?? [];
  const kept = value !== '' && !online.includes(value);
  const options = [
    { value: '', label: t.noSubjectType },
    ...(kept ? [{ value, label: t.subjectTypeKept(value) }] : []),
    ...online.map((name) => ({ value: name, label: name })),
  ];
  const help = names.isError ? t.subjectTypesFailed : online.length === 0 && !names.isLoading ? t.subjectTypesNone : undefined;
  return (
    <FormGroup label={t.subjectType} labelFor={id} inline helperText={help}>
      <HTMLSelect id={id} value={value} onChange={(e) => onChange(e.currentTarget.value)} options={options} disabled={disabled || names.isLoading} />
    </FormGroup>
  );
}
