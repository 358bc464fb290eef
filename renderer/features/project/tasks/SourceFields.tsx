// The source part of the project form for the remote getCodeTypes (spec doc 1 §3 groupings):
// repository address, branch and credentials (password or SSH key) for SVN/Git/Mercurial/TFVC,
// image name and credentials for registries (with RegistryOptions for container registries), the fire-fly server fields (VCS_SERVER_CODE_TYPE),
// FTP (FTP_CODE_TYPES) and the configuration-management server (CONFIG_MANAGEMENT_CODE_TYPE), as
// projectForm.ts's sourceKindOf sorts them. Local-upload types use ProjectUpload instead.
import { FormGroup, HTMLSelect, InputGroup, NumericInput, Radio, RadioGroup, Switch } from '@blueprintjs/core';
import { isContainerRegistryType, sshTypeWhenEditing } from '../../../../contract/enums.ts';
import { RegistryOptions } from './RegistryOptions.tsx';
import {
  SECRET_FIELDS,
  requiredFieldsOf,
  sourceKindOf,
  textFieldsOf,
  type FormErrors,
  type ProjectFormState,
  type TextField,
} from './projectForm.ts';
import { zh } from '../../../i18n/zh-CN.ts';

const t = zh.project.form;
const fieldLabel = (f: TextField): string => zh.project.fields[f] ?? f;

export function SourceFields({ form, errors, editing, onChange }: {
  form: ProjectFormState;
  errors: FormErrors;
  editing: boolean;
  onChange: (next: ProjectFormState) => void;
}) {
  const code = form.getCodeType;
  const kind = sourceKindOf(code);
  const required = requiredFieldsOf(code);
  const setText = (f: TextField, value: string) => onChange({ ...form, text: { ...form.text, [f]: value } });
  // Editing: some types fix the authentication (spec §4, sshTypeWhenEditing); buildBody sends the same.
  const fixedSsh = editing ? sshTypeWhenEditing(code, null) : null;
  const sshType = fixedSsh ?? form.sshType;
  const usesKey = kind === 'vcs' && sshType === 1;
  const storedSecrets = form.stored?.secrets ?? [];
  const visible = textFieldsOf(code).filter((f) => !(usesKey && f === 'svnGitPwd'));

  return (
    <div className="cairn-source-fields">
      {kind === 'vcs' ? (
        <FormGroup label={t.sshType} inline>
          <RadioGroup
            inline
            disabled={fixedSsh !== null}
            selectedValue={String(sshType)}
            onChange={(e) => onChange({ ...form, sshType: Number(e.currentTarget.value) === 1 ? 1 : 2 })}
          >
            <Radio label={zh.project.fields.svnGitPwd ?? ''} value="2" />
            <Radio label={t.sshKey} value="1" />
          </RadioGroup>
        </FormGroup>
      ) : null}
      {kind === 'image' ? (
        <FormGroup label={t.artifactoryAuthType} labelFor="auth-type" inline>
          <HTMLSelect
            id="auth-type"
            value={form.artifactoryAuthType}
            options={[{ value: 1, label: t.authPassword }, { value: 2, label: t.authToken }]}
            onChange={(e) => onChange({ ...form, artifactoryAuthType: Number(e.currentTarget.value) })}
          />
        </FormGroup>
      ) : null}
      <div className="cairn-form-grid">
        {visible.map((f) => {
          const secret = SECRET_FIELDS.includes(f);
          const id = `src-${f}`;
          return (
            <FormGroup
              key={f}
              label={fieldLabel(f)}
              labelFor={id}
              labelInfo={required.includes(f) ? '*' : undefined}
              intent={errors[f] ? 'danger' : 'none'}
              helperText={errors[f] ?? (secret && editing && storedSecrets.includes(f) ? zh.project.edit.passwordStored : undefined)}
            >
              <InputGroup
                id={id}
                type={secret ? 'password' : 'text'}
                autoComplete={secret ? 'new-password' : 'off'}
                value={form.text[f]}
                placeholder={zh.project.placeholders[f]}
                intent={errors[f] ? 'danger' : 'none'}
                onChange={(e) => setText(f, e.currentTarget.value)}
              />
            </FormGroup>
          );
        })}
        {usesKey ? (
          <FormGroup label={t.sshKeyId} labelFor="src-ssh-id" helperText={t.sshKeyHelp}>
            <NumericInput
              id="src-ssh-id"
              min={1}
              value={form.sshId ?? ''}
              onValueChange={(v) => onChange({ ...form, sshId: Number.isFinite(v) && v >= 1 ? Math.floor(v) : null })}
            />
          </FormGroup>
        ) : null}
      </div>
      {isContainerRegistryType(code) ? <RegistryOptions form={form} errors={errors} onChange={onChange} /> : null}
      {kind === 'vcsServer' ? <Switch label={t.ssl} checked={form.fireFlySsl} onChange={(e) => onChange({ ...form, fireFlySsl: e.currentTarget.checked })} /> : null}
      {kind === 'ftp' ? <Switch label={t.ssl} checked={form.ftpSsl} onChange={(e) => onChange({ ...form, ftpSsl: e.currentTarget.checked })} /> : null}
    </div>
  );
}
