// Add or edit a system vulnerability: name, description, level or CVSS vector, exploit, ids and
// aliases, CWE, affected packages (ecosystem + name + vulnerable constraints + fixed versions),
// references, fix commits, published date. The platform's validation message is shown in the
// dialog as given.
import { useState, type FormEvent } from 'react';
import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, H6, HTMLSelect, InputGroup, TextArea } from '@blueprintjs/core';
import { ADMIN_SUCCESS_MESSAGES } from '../../../contract/errors.ts';
import { LEVEL_CODES } from '../../../contract/enums.ts';
import type { VulnerabilityDetail } from '../../../contract/api/vulnerability.ts';
import { apiErrorMessage } from '../../api/baseQuery.ts';
import { useAddSystemVulnerabilityMutation, useEditSystemVulnerabilityMutation, useVulnerabilityDetailQuery } from '../../api/vulnerabilityApi.ts';
import { toastNotifier as notify } from '../../app/toaster.ts';
import { GuardedButton } from '../../common/GuardedButton.tsx';
import { ErrorState, LoadingState } from '../../common/states.tsx';
import { ECOSYSTEMS, EXPLOIT_CODES } from '../bug/listQuery.ts';
import { exploitLabel, levelLabel } from '../bug/levels.tsx';
import { addPayload, checkForm, editPayload, emptyForm, emptyPackage, fieldOfMessage, formOf, type Ecosystem, type FieldKey, type PackageForm, type SystemVulForm } from './systemVulForm.ts';
import { zh } from '../../i18n/zh-CN.ts';

const t = zh.vul;

function Form({ initial, id, onClose }: { initial: SystemVulForm; id: number | null; onClose: () => void }) {
  const [values, setValues] = useState<SystemVulForm>(initial);
  const [errors, setErrors] = useState<Partial<Record<'name', string>>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [add, adding] = useAddSystemVulnerabilityMutation();
  const [edit, editing] = useEditSystemVulnerabilityMutation();
  // The field the platform's refusal is about is marked beside the message.
  const bad = serverError ? fieldOfMessage(serverError) : null;
  const mark = (k: FieldKey) => (bad === k ? 'danger' : 'none');
  const set = <K extends keyof SystemVulForm>(key: K, value: SystemVulForm[K]) => setValues((o) => ({ ...o, [key]: value }));
  const setPackage = (index: number, patch: Partial<PackageForm>) =>
    setValues((o) => ({ ...o, packages: o.packages.map((p, i) => (i === index ? { ...p, ...patch } : p)) }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const errs = checkForm(values, t);
    setErrors(errs);
    if (Object.keys(errs).length) return;
    setServerError(null);
    try {
      if (id === null) {
        await add(addPayload(values)).unwrap();
        notify.success(ADMIN_SUCCESS_MESSAGES.added);
      } else {
        await edit(editPayload(id, values)).unwrap();
        notify.success(ADMIN_SUCCESS_MESSAGES.saved);
      }
      onClose();
    } catch (err) {
      setServerError(apiErrorMessage(err));
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <DialogBody className="cairn-vul-form">
        <H6 className="cairn-form-section">{t.sectionBasic}</H6>
        <div className="cairn-form-grid">
          <FormGroup label={t.identify} labelFor="sv-identify" intent={mark('identify')} helperText={id === null ? t.identifyHelp : t.identifyFixed}>
            <InputGroup id="sv-identify" intent={mark('identify')} value={values.identify} maxLength={100} disabled={id !== null} placeholder="CVE-2021-44228" onValueChange={(v) => set('identify', v)} />
          </FormGroup>
          <FormGroup label={t.publishedAt} labelFor="sv-published" intent={mark('published')} helperText={t.publishedHelp}>
            <InputGroup id="sv-published" intent={mark('published')} type="date" value={values.published} onValueChange={(v) => set('published', v)} />
          </FormGroup>
        </div>
        <FormGroup label={t.name} labelFor="sv-name" labelInfo="*" intent={errors.name ? 'danger' : mark('name')} helperText={errors.name}>
          <InputGroup id="sv-name" autoFocus value={values.name} maxLength={500} placeholder={t.namePlaceholder} intent={errors.name ? 'danger' : mark('name')} onValueChange={(v) => set('name', v)} />
        </FormGroup>
        <FormGroup label={t.description} labelFor="sv-description">
          <TextArea id="sv-description" fill autoResize value={values.description} maxLength={20000} placeholder={t.descriptionPlaceholder} onChange={(e) => set('description', e.currentTarget.value)} />
        </FormGroup>

        <H6 className="cairn-form-section">{t.sectionRating}</H6>
        <FormGroup label={t.vector} labelFor="sv-vector" intent={mark('vector')} helperText={t.vectorHelp}>
          <InputGroup id="sv-vector" intent={mark('vector')} className="cairn-mono" value={values.vector} maxLength={200} placeholder={t.vectorPlaceholder} onValueChange={(v) => set('vector', v)} />
        </FormGroup>
        <div className="cairn-form-grid">
          <FormGroup label={t.level} labelFor="sv-level" intent={mark('level')}>
            <HTMLSelect
              id="sv-level"
              fill
              value={values.level}
              onChange={(e) => set('level', e.currentTarget.value as SystemVulForm['level'])}
              options={[{ value: '', label: t.levelFromVector }, ...LEVEL_CODES.map((l) => ({ value: String(l), label: levelLabel(l) }))]}
            />
          </FormGroup>
          <FormGroup label={t.exploit} labelFor="sv-exploit">
            <HTMLSelect
              id="sv-exploit"
              fill
              value={values.exploit}
              onChange={(e) => set('exploit', e.currentTarget.value as SystemVulForm['exploit'])}
              options={[{ value: '', label: t.exploitDefault }, ...EXPLOIT_CODES.map((c) => ({ value: String(c), label: exploitLabel(c) }))]}
            />
          </FormGroup>
        </div>

        <H6 className="cairn-form-section">{t.sectionIds}</H6>
        <div className="cairn-form-grid cairn-form-grid-3">
          <FormGroup label={t.cve} labelFor="sv-cve" intent={mark('cve')}>
            <InputGroup id="sv-cve" intent={mark('cve')} value={values.cve} maxLength={50} placeholder="CVE-2021-44228" onValueChange={(v) => set('cve', v)} />
          </FormGroup>
          <FormGroup label={t.cnnvd} labelFor="sv-cnnvd" intent={mark('cnnvd')}>
            <InputGroup id="sv-cnnvd" intent={mark('cnnvd')} value={values.cnnvd} maxLength={50} placeholder="CNNVD-202112-799" onValueChange={(v) => set('cnnvd', v)} />
          </FormGroup>
          <FormGroup label={t.cnvd} labelFor="sv-cnvd" intent={mark('cnvd')}>
            <InputGroup id="sv-cnvd" intent={mark('cnvd')} value={values.cnvd} maxLength={50} placeholder="CNVD-2021-95914" onValueChange={(v) => set('cnvd', v)} />
          </FormGroup>
        </div>
        <div className="cairn-form-grid">
          <FormGroup label={t.aliases} labelFor="sv-aliases" intent={mark('aliases')}>
            <InputGroup id="sv-aliases" intent={mark('aliases')} value={values.aliases} placeholder={t.aliasesPlaceholder} onValueChange={(v) => set('aliases', v)} />
          </FormGroup>
          <FormGroup label={t.cwe} labelFor="sv-cwes" intent={mark('cwes')}>
            <InputGroup id="sv-cwes" intent={mark('cwes')} value={values.cwes} placeholder={t.cwesPlaceholder} onValueChange={(v) => set('cwes', v)} />
          </FormGroup>
        </div>

        <div className="cairn-form-section-row">
          <H6 className="cairn-form-section">{t.sectionPackages}</H6>
          <Button size="small" icon="add" text={t.addPackage} onClick={() => setValues((o) => ({ ...o, packages: [...o.packages, emptyPackage()] }))} />
        </div>
        {values.packages.length === 0 ? <div className="cairn-muted cairn-form-note">{t.noPackages}</div> : null}
        {values.packages.map((p, i) => (
          <div key={i} className="cairn-package-form" role="group" aria-label={`${t.sectionPackages} ${i + 1}`}>
            <div className="cairn-package-form-row">
              <FormGroup label={t.packageEcosystem} labelFor={`sv-p${i}-eco`} className="cairn-package-eco">
                <HTMLSelect id={`sv-p${i}-eco`} value={p.ecosystem} onChange={(e) => setPackage(i, { ecosystem: e.currentTarget.value as Ecosystem })} options={ECOSYSTEMS.map((x) => ({ value: x, label: x }))} />
              </FormGroup>
              <FormGroup label={t.packageName} labelFor={`sv-p${i}-name`} className="cairn-package-name-input">
                <InputGroup id={`sv-p${i}-name`} value={p.name} maxLength={400} placeholder={t.packageNamePlaceholder} onValueChange={(v) => setPackage(i, { name: v })} />
              </FormGroup>
              <Button className="cairn-package-remove" variant="minimal" intent="danger" icon="trash" aria-label={t.removePackage} title={t.removePackage} onClick={() => setValues((o) => ({ ...o, packages: o.packages.filter((_, j) => j !== i) }))} />
            </div>
            <div className="cairn-form-grid">
              <FormGroup label={t.packageVulnerable} labelFor={`sv-p${i}-vul`}>
                <TextArea id={`sv-p${i}-vul`} fill rows={2} className="cairn-mono" value={p.vulnerable} placeholder={t.packageVulnerablePlaceholder} onChange={(e) => setPackage(i, { vulnerable: e.currentTarget.value })} />
              </FormGroup>
              <FormGroup label={t.packageFixed} labelFor={`sv-p${i}-fixed`}>
                <InputGroup id={`sv-p${i}-fixed`} className="cairn-mono" value={p.fixed} placeholder={t.packageFixedPlaceholder} onValueChange={(v) => setPackage(i, { fixed: v })} />
              </FormGroup>
            </div>
          </div>
        ))}

        <H6 className="cairn-form-section">{t.sectionMore}</H6>
        <FormGroup label={t.referencesLabel} labelFor="sv-refs" intent={mark('references')}>
          <TextArea id="sv-refs" intent={mark('references')} fill rows={3} value={values.references} placeholder={t.referencesPlaceholder} onChange={(e) => set('references', e.currentTarget.value)} />
        </FormGroup>
        <FormGroup label={t.fixCommitsLabel} labelFor="sv-commits">
          <TextArea id="sv-commits" fill rows={2} value={values.fixCommits} placeholder={t.fixCommitsPlaceholder} onChange={(e) => set('fixCommits', e.currentTarget.value)} />
        </FormGroup>
      </DialogBody>
      {/* Outside the scrolling body, so the platform's refusal is seen wherever the user is. */}
      {serverError ? (
        <Callout intent="danger" icon="error" className="cairn-dialog-error" role="alert">
          {serverError}
        </Callout>
      ) : null}
      <DialogFooter
        actions={
          <>
            <Button text={t.cancel} onClick={onClose} />
            <GuardedButton type="submit" intent="primary" loading={adding.isLoading || editing.isLoading} text={t.save} />
          </>
        }
      />
    </form>
  );
}

function EditForm({ id, onClose }: { id: number; onClose: () => void }) {
  const q = useVulnerabilityDetailQuery(String(id), { refetchOnMountOrArgChange: true });
  if (q.isLoading || q.isFetching) return <DialogBody><LoadingState label={t.detailLoading} /></DialogBody>;
  if (q.isError || !q.data) return <DialogBody><ErrorState title={t.detailLoadFailed} message={q.isError ? q.error.message : undefined} onRetry={() => void q.refetch()} /></DialogBody>;
  return <Form initial={formOf(q.data as VulnerabilityDetail)} id={id} onClose={onClose} />;
}

export function SystemVulDialog({ id, onClose }: { id: number | null; onClose: () => void }) {
  return (
    <Dialog isOpen onClose={onClose} title={id === null ? t.dialogAdd : t.dialogEdit} icon={id === null ? 'add' : 'edit'} className="cairn-dialog cairn-vul-dialog" canOutsideClickClose={false}>
      {id === null ? <Form initial={emptyForm()} id={null} onClose={onClose} /> : <EditForm id={id} onClose={onClose} />}
    </Dialog>
  );
}
