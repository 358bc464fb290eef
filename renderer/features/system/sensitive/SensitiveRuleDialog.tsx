// Add a 敏感信息规则: its name (the rules every name follows), type, regular expression, case
// sensitivity and whether it starts enabled. The platform checks the pattern (compiles, cannot
// match the empty string, no nested quantifiers or back-references, fast on its probe inputs) and a
// refusal is shown beside the field it names.
import { Checkbox, FormGroup, HTMLSelect, InputGroup } from '@blueprintjs/core';
import type { LeakRuleForm } from '../../../../contract/api/leak.ts';
import { labelOf } from '../../../../contract/enums.ts';
import { ADMIN_SUCCESS_MESSAGES } from '../../../../contract/errors.ts';
import { LEAK_TYPE_LABEL, LEAK_TYPES, type LeakType } from '../../../../contract/leak-types.ts';
import { NAME_MAX_LENGTH, validateName } from '../../../../contract/validation.ts';
import { useAddLeakRuleMutation } from '../../../api/leakApi.ts';
import { FormDialog } from '../../../common/form/FormDialog.tsx';
import { validateFields } from '../../../common/form/formErrors.ts';
import { zh } from '../../../i18n/zh-CN.ts';

const t = zh.system.sensitive;
type Values = Required<LeakRuleForm>;

/** The platform's own limit (engine MAX_PATTERN_LENGTH); the deeper checks are the platform's. */
const PATTERN_MAX = 300;
const validate = validateFields<Values>({
  name: validateName,
  pattern: (v) => (!v.trim() ? '请填写正则表达式' : v.length > PATTERN_MAX ? `正则表达式不能超过 ${PATTERN_MAX} 个字符` : null),
});

const SECRET_TYPES: readonly LeakType[] = ['credential', 'private-key', 'token'];

export function SensitiveRuleDialog({ onClose }: { onClose: () => void }) {
  const [add] = useAddLeakRuleMutation();
  const initial: Values = { name: '', type: 'credential', pattern: '', ignoreCase: false, enabled: true };

  return (
    <FormDialog<Values>
      title={t.addTitle}
      icon="add"
      idPrefix="leak-rule"
      onClose={onClose}
      initial={initial}
      validate={validate}
      submit={(values) => add(values).unwrap()}
      success={ADMIN_SUCCESS_MESSAGES.added}
      fields={['name', 'type', 'pattern']}
    >
      {(form) => (
        <>
          <FormGroup label={t.name} labelFor={form.id('name')} labelInfo="*" {...form.group('name', t.nameHelp)}>
            <InputGroup
              id={form.id('name')}
              intent={form.intent('name')}
              value={form.values.name}
              placeholder={t.namePlaceholder}
              maxLength={NAME_MAX_LENGTH}
              autoFocus
              onValueChange={(v) => form.set('name', v)}
            />
          </FormGroup>
          <FormGroup label={t.type} labelFor={form.id('type')} labelInfo="*" {...form.group('type', SECRET_TYPES.includes(form.values.type) ? t.typeHelp : undefined)}>
            <HTMLSelect
              id={form.id('type')}
              value={form.values.type}
              options={LEAK_TYPES.map((v) => ({ value: v, label: labelOf(LEAK_TYPE_LABEL, v) }))}
              onChange={(e) => form.set('type', e.currentTarget.value as LeakType)}
            />
          </FormGroup>
          <FormGroup label={t.pattern} labelFor={form.id('pattern')} labelInfo="*" {...form.group('pattern', t.patternHelp)}>
            <InputGroup
              id={form.id('pattern')}
              className="cairn-mono"
              intent={form.intent('pattern')}
              value={form.values.pattern}
              placeholder={t.patternPlaceholder}
              maxLength={PATTERN_MAX}
              onValueChange={(v) => form.set('pattern', v)}
            />
          </FormGroup>
          <Checkbox label={t.ignoreCase} checked={form.values.ignoreCase} onChange={(e) => form.set('ignoreCase', e.currentTarget.checked)} />
          <Checkbox label={t.enabledNow} checked={form.values.enabled} onChange={(e) => form.set('enabled', e.currentTarget.checked)} />
        </>
      )}
    </FormDialog>
  );
}
