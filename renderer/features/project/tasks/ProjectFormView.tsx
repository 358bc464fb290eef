// The project form (new project and edit): basic facts, the source (an upload for local types,
// the remote fields otherwise), analysis settings and timing. State lives with the caller; the
// rules (defaults, fields per type, timing disabled for local uploads) are in projectForm.ts. A
// source type the platform cannot analyse yet is marked in the select and, once chosen, says so
// with the contract's message (contract/sources.ts) before anything is uploaded or saved.
import type { ReactNode } from 'react';
import { Callout, Card, FormGroup, H5, HTMLSelect, InputGroup, Switch, TagInput } from '@blueprintjs/core';
import { isImageUploadType, isLocalUploadType, isTimingDisabled } from '../../../../contract/enums.ts';
import { AnalysisModeChecks } from './AnalysisModeChecks.tsx';
import { keepEnterInField, normalizeTags } from '../../../common/form/tagField.ts';
import { inputKindOf, unsupportedSource } from '../../../../contract/sources.ts';
import { useSubjectAllQuery, useVersionsQuery } from '../../../api/subjectApi.ts';
import { ProjectUpload } from './ProjectUpload.tsx';
import { SourceFields } from './SourceFields.tsx';
import { SourceTypeOptions } from './SourceTypeOptions.tsx';
import { TimingFields } from './TimingFields.tsx';
import { UploadedImagePlatform } from './UploadedImagePlatform.tsx';
import {
  uploadFilesOf,
  withCodeType,
  type FormErrors,
  type ProjectFormState,
} from './projectForm.ts';
import { zh } from '../../../i18n/zh-CN.ts';

const t = zh.project.form;

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card className="cairn-form-card" compact>
      <H5 className="cairn-form-card-title">{title}</H5>
      {children}
    </Card>
  );
}

export function ProjectFormView({ form, errors, editing, onChange, onCodeTypeChosen, uploadNote }: {
  form: ProjectFormState;
  errors: FormErrors;
  editing: boolean;
  onChange: (next: ProjectFormState) => void;
  /** The user picked a source type (the new-project screen remembers it). */
  onCodeTypeChosen?: (code: number) => void;
  /** Shown above the drop zone when editing (what happens to the stored upload). */
  uploadNote?: string | undefined;
}) {
  const subjects = useSubjectAllQuery();
  const versions = useVersionsQuery(form.subjectId ?? 0, { skip: !form.subjectId });
  const code = form.getCodeType;
  const local = isLocalUploadType(code);
  const pending = unsupportedSource(code);
  const set = (patch: Partial<ProjectFormState>) => onChange({ ...form, ...patch });
  const toggleMode = (m: number) =>
    set({ analysisModes: form.analysisModes.includes(m) ? form.analysisModes.filter((x) => x !== m) : [...form.analysisModes, m] });

  const subjectOptions = subjects.data ?? [];
  const knownSubject = form.subjectId === null || subjectOptions.some((s) => s.id === form.subjectId);

  return (
    <div className="cairn-project-form">
      <Section title={t.sectionBasic}>
        <div className="cairn-form-grid">
          <FormGroup
            label={t.subject}
            labelFor="pf-subject"
            labelInfo="*"
            intent={errors.subjectId ? 'danger' : 'none'}
            helperText={errors.subjectId ?? (subjects.isSuccess && subjectOptions.length === 0 ? t.noSubjects : undefined)}
          >
            <HTMLSelect
              id="pf-subject"
              fill
              disabled={editing}
              value={form.subjectId ?? ''}
              onChange={(e) => set({ subjectId: e.currentTarget.value ? Number(e.currentTarget.value) : null, versionId: null })}
            >
              <option value="">{t.subjectPlaceholder}</option>
              {!knownSubject && form.subjectId ? <option value={form.subjectId}>{`#${form.subjectId}`}</option> : null}
              {subjectOptions.map((s) => (
                <option key={s.id} value={s.id}>{s.name}</option>
              ))}
            </HTMLSelect>
          </FormGroup>
          <FormGroup label={t.version} labelFor="pf-version">
            <HTMLSelect
              id="pf-version"
              fill
              value={form.versionId ?? ''}
              disabled={!form.subjectId}
              onChange={(e) => set({ versionId: e.currentTarget.value ? Number(e.currentTarget.value) : null })}
            >
              <option value="">{t.noVersion}</option>
              {(versions.data ?? []).map((v) => (
                <option key={v.id} value={v.id}>{v.name}</option>
              ))}
            </HTMLSelect>
          </FormGroup>
          <FormGroup
            label={t.projectName}
            labelFor="pf-name"
            labelInfo="*"
            intent={errors.projectName ? 'danger' : 'none'}
            helperText={errors.projectName}
          >
            <InputGroup
              id="pf-name"
              value={form.projectName}
              placeholder={t.projectNamePlaceholder}
              intent={errors.projectName ? 'danger' : 'none'}
              onChange={(e) => set({ projectName: e.currentTarget.value })}
            />
          </FormGroup>
          <FormGroup label={t.projectTags} labelFor="pf-tags">
            <TagInput
              inputProps={{ id: 'pf-tags', onKeyDown: keepEnterInField }}
              values={form.projectTags}
              placeholder={t.projectTagsPlaceholder}
              addOnBlur
              separator={/[,，]/}
              onChange={(values) => set({ projectTags: normalizeTags(values) })}
            />
          </FormGroup>
        </div>
      </Section>

      <Section title={t.sectionSource}>
        <FormGroup label={t.codeType} labelFor="pf-code-type" inline>
          <HTMLSelect
            id="pf-code-type"
            value={code}
            onChange={(e) => {
              const next = Number(e.currentTarget.value);
              onChange(withCodeType(form, next));
              onCodeTypeChosen?.(next);
            }}
          >
            <SourceTypeOptions marked current={code} />
          </HTMLSelect>
        </FormGroup>
        {pending ? (
          <Callout intent="warning" icon="info-sign" className="cairn-form-callout" role="note">
            {pending}
            <div>{t.pendingSave}</div>
          </Callout>
        ) : null}
        {local ? (
          <FormGroup label={t.upload} labelInfo="*" intent={errors.upload ? 'danger' : 'none'} helperText={errors.upload}>
            {uploadNote ? <div className="cairn-muted cairn-form-note">{uploadNote}</div> : null}
            {inputKindOf(code) === 'feature' ? <div className="cairn-muted cairn-form-note">{t.featureFileNote}</div> : null}
            {uploadFilesOf(code).imageFeature ? <div className="cairn-muted cairn-form-note">{t.imageFeatureNote}</div> : null}
            <ProjectUpload
              key={code}
              files={uploadFilesOf(code)}
              value={form.upload}
              current={Boolean(form.upload && form.upload.uploadId === form.stored?.uploadId)}
              onChange={(upload) => set({ upload })}
            />
          </FormGroup>
        ) : null}
        {local && isImageUploadType(code) ? <UploadedImagePlatform form={form} errors={errors} onChange={onChange} /> : null}
        {local ? null : (
          <SourceFields form={form} errors={errors} editing={editing} onChange={onChange} />
        )}
      </Section>

      <Section title={t.sectionAnalysis}>
        <FormGroup label={t.analysisModes} intent={errors.analysisModes ? 'danger' : 'none'} helperText={errors.analysisModes}>
          <div role="group" aria-label={t.analysisModes} className="cairn-mode-checks">
            <AnalysisModeChecks selected={form.analysisModes} onToggle={toggleMode} />
          </div>
        </FormGroup>
        <FormGroup helperText={t.retentionAuditHelp}>
          <Switch label={t.retentionAudit} checked={form.retentionAudit} onChange={(e) => set({ retentionAudit: e.currentTarget.checked })} />
        </FormGroup>
        <FormGroup label={t.outboundLicense} labelFor="pf-outbound" helperText={t.outboundLicenseHelp}>
          <InputGroup
            id="pf-outbound"
            value={form.outboundLicense}
            placeholder={t.outboundLicensePlaceholder}
            onChange={(e) => set({ outboundLicense: e.currentTarget.value })}
          />
        </FormGroup>
      </Section>

      <Section title={t.sectionTiming}>
        <TimingFields
          timing={form.timing}
          disabledReason={isTimingDisabled(code) ? t.timingDisabled : null}
          error={errors.timing}
          onChange={(timing) => set({ timing })}
        />
      </Section>
    </div>
  );
}
