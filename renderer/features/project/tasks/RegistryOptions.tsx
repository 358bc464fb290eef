// The connection options of a container registry project (公共仓库, 私有仓库, 制品仓库A/B): the
// platform pulled (PlatformSelect: common platforms, or any os/arch[/variant] typed), the registry's
// CA certificate, 允许 HTTP, and the 校验 button that tries the form's reference, credentials and
// options against the registry (POST /api/analysis/imageCheck) and shows the digest and the
// platforms the image offers, or the registry's refusal. Rules and bodies are projectForm.ts's.
import { useState } from 'react';
import { Button, Callout, FormGroup, Switch, Tag, TextArea } from '@blueprintjs/core';
import { apiErrorMessage } from '../../../api/baseQuery.ts';
import { useProjectImageCheckMutation } from '../../../api/taskApi.ts';
import { PlatformSelect } from './PlatformSelect.tsx';
import { imageCheckBody, type FormErrors, type ProjectFormState, type RegistryOptionsState } from './projectForm.ts';
import { zh } from '../../../i18n/zh-CN.ts';

const t = zh.project.form;

interface CheckShown {
  intent: 'success' | 'warning' | 'danger';
  text: string;
  digest?: string;
  platforms?: string[];
  /** The body the result answers: a changed form makes it stale. */
  asked: string;
}

export function RegistryOptions({ form, errors, onChange }: {
  form: ProjectFormState;
  errors: FormErrors;
  onChange: (next: ProjectFormState) => void;
}) {
  const r = form.registry;
  const set = (patch: Partial<RegistryOptionsState>) => onChange({ ...form, registry: { ...r, ...patch } });
  const [check, checking] = useProjectImageCheckMutation();
  const [shown, setShown] = useState<CheckShown | null>(null);
  const body = imageCheckBody(form);
  const asked = JSON.stringify(body);

  const runCheck = async () => {
    if (!body.imageNameTag) return setShown({ intent: 'danger', text: t.imageCheckNeedsName, asked });
    try {
      const got = await check(body).unwrap();
      setShown({ intent: got.platform ? 'success' : 'warning', text: got.message, digest: got.manifestDigest, platforms: got.platforms, asked });
    } catch (err) {
      setShown({ intent: 'danger', text: apiErrorMessage(err), asked });
    }
  };

  return (
    <div className="cairn-registry-options">
      <div className="cairn-form-grid">
        <PlatformSelect value={r.platform} error={errors.imagePlatform} onChange={(platform) => set({ platform })} />
        <FormGroup helperText={r.insecure ? undefined : t.imageInsecureHelp} intent={r.insecure ? 'warning' : 'none'}>
          <Switch label={t.imageInsecure} checked={r.insecure} onChange={(e) => set({ insecure: e.currentTarget.checked })} />
          {r.insecure ? <Callout intent="warning" compact icon="unlock">{t.imageInsecureHelp}</Callout> : null}
        </FormGroup>
      </div>
      <FormGroup label={t.imageCaPem} labelFor="src-ca" intent={errors.imageCaPem ? 'danger' : 'none'} helperText={errors.imageCaPem ?? t.imageCaPemHelp}>
        <TextArea
          id="src-ca"
          fill
          rows={4}
          spellCheck={false}
          className="cairn-mono"
          value={r.caPem}
          placeholder={t.imageCaPemPlaceholder}
          intent={errors.imageCaPem ? 'danger' : 'none'}
          onChange={(e) => set({ caPem: e.currentTarget.value })}
        />
      </FormGroup>
      <FormGroup helperText={t.imageCheckHelp}>
        <Button icon="tick-circle" text={t.imageCheck} loading={checking.isLoading} onClick={() => void runCheck()} />
      </FormGroup>
      {checking.isLoading ? <div className="cairn-muted" role="status">{t.imageChecking}</div> : null}
      {shown && !checking.isLoading ? (
        <Callout intent={shown.intent} compact className="cairn-registry-check" role="status">
          <div>{shown.text}</div>
          {shown.digest ? <div className="cairn-muted cairn-mono">{t.imageCheckDigest(shown.digest)}</div> : null}
          {shown.platforms && shown.platforms.length > 1 ? (
            <div>
              {t.imageCheckPlatforms}
              {shown.platforms.map((p) => (
                <Tag
                  key={p}
                  minimal={p !== r.platform}
                  interactive
                  intent={p === r.platform ? 'primary' : 'none'}
                  className="cairn-platform-tag"
                  onClick={() => set({ platform: p })}
                >
                  {p}
                </Tag>
              ))}
            </div>
          ) : null}
          {shown.asked !== asked ? <div className="cairn-muted">{t.imageCheckStale}</div> : null}
        </Callout>
      ) : null}
    </div>
  );
}
