// Add or edit a system vulnerability: name, description, level or CVSS vector, exploit, ids and
// aliases, CWE, affected packages (ecosystem + name + vulnerable constraints + fixed versions),
// references, fix commits, published date. The platform's refusal is shown beside the field it is
// about (systemVulForm.ts recognises it in the message where the platform names none).
import { Button, FormGroup, H6, HTMLSelect, InputGroup, TextArea } from '@blueprintjs/core';
import { ADMIN_SUCCESS_MESSAGES } from '../../../../contract/errors.ts';
import { LEVEL_CODES } from '../../../../contract/enums.ts';
import type { VulnerabilityDetail } from '../../../../contract/api/vulnerability.ts';
import { useAddSystemVulnerabilityMutation, useEditSystemVulnerabilityMutation, useVulnerabilityDetailQuery } from '../../../api/vulnerabilityApi.ts';
import { FormDialog, type FormApi } from '../../../common/form/FormDialog.tsx';
import { exploitLabel, levelLabel } from '../../../common/levels.tsx';
import { ErrorState, LoadingState } from '../../../common/states.tsx';
import { ECOSYSTEMS, EXPLOIT_CODES } from '../../../common/vulnerability/fields.ts';
import { FIELD_KEYS, addPayload, checkForm, editPayload, emptyForm, emptyPackage, fieldOfMessage, formOf, type Ecosystem, type PackageForm, type SystemVulForm } from './systemVulForm.ts';
import { zh } from '../../../i18n/zh-CN.ts';
import { DateField } from '../../../common/form/DateField.tsx';

const t = zh.vul;

function Fields({ form, editing }: { form: FormApi<SystemVulForm>; editing: boolean }) {
  const { values, set, update, intent, group, id } = form;
  const setPackage = (index: number, patch: Partial<PackageForm>) => update((o) => ({ ...o, packages: o.packages.map((p, i) => (i === index ? { ...p, ...patch } : p)) }));
  return (
    <>
      <H6 className="cairn-form-section">{t.sectionBasic}</H6>
      <div className="cairn-form-grid">
        <FormGroup label={t.identify} labelFor={id('identify')} {...group('identify', editing ? t.identifyFixed : t.identifyHelp)}>
          <InputGroup id={id('identify')} intent={intent('identify')} value={values.identify} maxLength={100} disabled={editing} placeholder="CVE-2021-44228" onValueChange={(v) => set('identify', v)} />
        </FormGroup>
        <FormGroup label={t.publishedAt} labelFor={id('published')} {...group('published', t.publishedHelp)}>
          <DateField id={id('published')} intent={intent('published')} value={values.published} onChange={(v) => set('published', v)} />
        </FormGroup>
      </div>
      <FormGroup label={t.name} labelFor={id('name')} labelInfo="*" {...group('name')}>
        <InputGroup id={id('name')} autoFocus value={values.name} maxLength={500} placeholder={t.namePlaceholder} intent={intent('name')} onValueChange={(v) => set('name', v)} />
      </FormGroup>
      <FormGroup label={t.description} labelFor={id('description')}>
        <TextArea id={id('description')} fill autoResize value={values.description} maxLength={20000} placeholder={t.descriptionPlaceholder} onChange={(e) => set('description', e.currentTarget.value)} />
      </FormGroup>

      <H6 className="cairn-form-section">{t.sectionRating}</H6>
      <FormGroup label={t.vector} labelFor={id('vector')} {...group('vector', t.vectorHelp)}>
        <InputGroup id={id('vector')} intent={intent('vector')} className="cairn-mono" value={values.vector} maxLength={200} placeholder={t.vectorPlaceholder} onValueChange={(v) => set('vector', v)} />
      </FormGroup>
      <div className="cairn-form-grid">
        <FormGroup label={t.level} labelFor={id('level')} {...group('level')}>
          <HTMLSelect
            id={id('level')}
            fill
            value={values.level}
            onChange={(e) => set('level', e.currentTarget.value as SystemVulForm['level'])}
            options={[{ value: '', label: t.levelFromVector }, ...LEVEL_CODES.map((l) => ({ value: String(l), label: levelLabel(l) }))]}
          />
        </FormGroup>
        <FormGroup label={t.exploit} labelFor={id('exploit')}>
          <HTMLSelect
            id={id('exploit')}
            fill
            value={values.exploit}
            onChange={(e) => set('exploit', e.currentTarget.value as SystemVulForm['exploit'])}
            options={[{ value: '', label: t.exploitDefault }, ...EXPLOIT_CODES.map((c) => ({ value: String(c), label: exploitLabel(c) }))]}
          />
        </FormGroup>
      </div>

      <H6 className="cairn-form-section">{t.sectionIds}</H6>
      <div className="cairn-form-grid cairn-form-grid-3">
        <FormGroup label={t.cve} labelFor={id('cve')} {...group('cve')}>
          <InputGroup id={id('cve')} intent={intent('cve')} value={values.cve} maxLength={50} placeholder="CVE-2021-44228" onValueChange={(v) => set('cve', v)} />
        </FormGroup>
        <FormGroup label={t.cnnvd} labelFor={id('cnnvd')} {...group('cnnvd')}>
          <InputGroup id={id('cnnvd')} intent={intent('cnnvd')} value={values.cnnvd} maxLength={50} placeholder="CNNVD-202112-799" onValueChange={(v) => set('cnnvd', v)} />
        </FormGroup>
        <FormGroup label={t.cnvd} labelFor={id('cnvd')} {...group('cnvd')}>
          <InputGroup id={id('cnvd')} intent={intent('cnvd')} value={values.cnvd} maxLength={50} placeholder="CNVD-2021-95914" onValueChange={(v) => set('cnvd', v)} />
        </FormGroup>
      </div>
      <div className="cairn-form-grid">
        <FormGroup label={t.aliases} labelFor={id('aliases')} {...group('aliases')}>
          <InputGroup id={id('aliases')} intent={intent('aliases')} value={values.aliases} placeholder={t.aliasesPlaceholder} onValueChange={(v) => set('aliases', v)} />
        </FormGroup>
        <FormGroup label={t.cwe} labelFor={id('cwes')} {...group('cwes')}>
          <InputGroup id={id('cwes')} intent={intent('cwes')} value={values.cwes} placeholder={t.cwesPlaceholder} onValueChange={(v) => set('cwes', v)} />
        </FormGroup>
      </div>

      <div className="cairn-form-section-row">
        <H6 className="cairn-form-section">{t.sectionPackages}</H6>
        <Button size="small" icon="add" text={t.addPackage} onClick={() => update((o) => ({ ...o, packages: [...o.packages, emptyPackage()] }))} />
      </div>
      {values.packages.length === 0 ? <div className="cairn-muted cairn-form-note">{t.noPackages}</div> : null}
      {values.packages.map((p, i) => (
        <div key={i} className="cairn-package-form" role="group" aria-label={`${t.sectionPackages} ${i + 1}`}>
          <div className="cairn-package-form-row">
            <FormGroup label={t.packageEcosystem} labelFor={id(`p${i}-eco`)} className="cairn-package-eco">
              <HTMLSelect id={id(`p${i}-eco`)} value={p.ecosystem} onChange={(e) => setPackage(i, { ecosystem: e.currentTarget.value as Ecosystem })} options={ECOSYSTEMS.map((x) => ({ value: x, label: x }))} />
            </FormGroup>
            <FormGroup label={t.packageName} labelFor={id(`p${i}-name`)} className="cairn-package-name-input">
              <InputGroup id={id(`p${i}-name`)} value={p.name} maxLength={400} placeholder={t.packageNamePlaceholder} onValueChange={(v) => setPackage(i, { name: v })} />
            </FormGroup>
            <Button className="cairn-package-remove" variant="minimal" intent="danger" icon="trash" aria-label={t.removePackage} title={t.removePackage} onClick={() => update((o) => ({ ...o, packages: o.packages.filter((_, j) => j !== i) }))} />
          </div>
          <div className="cairn-form-grid">
            <FormGroup label={t.packageVulnerable} labelFor={id(`p${i}-vul`)}>
              <TextArea id={id(`p${i}-vul`)} fill rows={2} className="cairn-mono" value={p.vulnerable} placeholder={t.packageVulnerablePlaceholder} onChange={(e) => setPackage(i, { vulnerable: e.currentTarget.value })} />
            </FormGroup>
            <FormGroup label={t.packageFixed} labelFor={id(`p${i}-fixed`)}>
              <InputGroup id={id(`p${i}-fixed`)} className="cairn-mono" value={p.fixed} placeholder={t.packageFixedPlaceholder} onValueChange={(v) => setPackage(i, { fixed: v })} />
            </FormGroup>
          </div>
        </div>
      ))}

      <H6 className="cairn-form-section">{t.sectionMore}</H6>
      <FormGroup label={t.referencesLabel} labelFor={id('references')} {...group('references')}>
        <TextArea id={id('references')} intent={intent('references')} fill rows={3} value={values.references} placeholder={t.referencesPlaceholder} onChange={(e) => set('references', e.currentTarget.value)} />
      </FormGroup>
      <FormGroup label={t.fixCommitsLabel} labelFor={id('fixCommits')}>
        <TextArea id={id('fixCommits')} fill rows={2} value={values.fixCommits} placeholder={t.fixCommitsPlaceholder} onChange={(e) => set('fixCommits', e.currentTarget.value)} />
      </FormGroup>
    </>
  );
}

export function SystemVulDialog({ id, onClose }: { id: number | null; onClose: () => void }) {
  const [add] = useAddSystemVulnerabilityMutation();
  const [edit] = useEditSystemVulnerabilityMutation();
  const detail = useVulnerabilityDetailQuery(String(id), { skip: id === null, refetchOnMountOrArgChange: true });
  const loaded = id === null ? emptyForm() : detail.isFetching || detail.isError || !detail.data ? undefined : formOf(detail.data as VulnerabilityDetail);
  return (
    <FormDialog<SystemVulForm>
      title={id === null ? t.dialogAdd : t.dialogEdit}
      icon={id === null ? 'add' : 'edit'}
      className="cairn-vul-dialog"
      bodyClassName="cairn-vul-form"
      idPrefix="sv"
      onClose={onClose}
      initial={loaded}
      placeholder={detail.isError ? <ErrorState title={t.detailLoadFailed} message={detail.error.message} onRetry={() => void detail.refetch()} /> : <LoadingState label={t.detailLoading} />}
      validate={(values) => checkForm(values, t)}
      submit={(values) => (id === null ? add(addPayload(values)).unwrap() : edit(editPayload(id, values)).unwrap())}
      success={id === null ? ADMIN_SUCCESS_MESSAGES.added : ADMIN_SUCCESS_MESSAGES.saved}
      fields={FIELD_KEYS}
      fieldOfMessage={fieldOfMessage}
    >
      {(form) => <Fields form={form} editing={id !== null} />}
    </FormDialog>
  );
}
