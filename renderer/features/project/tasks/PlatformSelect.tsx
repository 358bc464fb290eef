// The 平台 select of an image project (container registries and uploaded images): the platform
// analysed of a multi-platform image. Without a list of the image's own platforms it offers the
// common ones, "default" and any os/arch[/variant] typed (其他…); given the platforms the image
// holds (an uploaded archive's index), it offers exactly those.
import { useState } from 'react';
import { FormGroup, HTMLSelect, InputGroup } from '@blueprintjs/core';
import { COMMON_IMAGE_PLATFORMS, defaultImagePlatform } from '../../../../contract/enums.ts';
import { zh } from '../../../i18n/zh-CN.ts';

const t = zh.project.form;
const OTHER = '__other';

export function PlatformSelect({ value, error, offered, helperText, onChange }: {
  value: string;
  error?: string | undefined;
  /** The platforms the image holds, when known: the only choices then. */
  offered?: readonly string[] | null | undefined;
  /** Shown under the select when there is no error (else the usual help). */
  helperText?: string | undefined;
  onChange: (platform: string) => void;
}) {
  const choices: readonly string[] = offered ?? COMMON_IMAGE_PLATFORMS;
  const known = value === '' || choices.includes(value);
  // "other" stays chosen while its text is being typed (even when empty or a common value); a
  // value set from outside (a platform tag clicked) decides it afresh.
  const [mode, setMode] = useState({ other: !known, value });
  const other = !offered && (mode.value === value ? mode.other : !known);
  const fallback = offered ? defaultImagePlatform(offered) : null;
  const defaultLabel = !offered ? t.platformDefault : fallback ? t.platformDefaultIs(fallback) : t.platformChoose;
  const pick = (next: string) => {
    setMode({ other: false, value: next });
    onChange(next);
  };
  return (
    <FormGroup label={t.imagePlatform} labelFor="src-platform" intent={error ? 'danger' : 'none'} helperText={error ?? helperText ?? t.platformHelp}>
      <HTMLSelect
        id="src-platform"
        value={other ? OTHER : value}
        onChange={(e) => {
          const v = e.currentTarget.value;
          if (v === OTHER) setMode({ other: true, value });
          else pick(v);
        }}
      >
        <option value="">{defaultLabel}</option>
        {!known && offered ? <option value={value}>{t.platformMissing(value)}</option> : null}
        {choices.map((p) => <option key={p} value={p}>{p}</option>)}
        {offered ? null : <option value={OTHER}>{t.platformOther}</option>}
      </HTMLSelect>
      {other ? (
        <InputGroup
          id="src-platform-text"
          aria-label={t.platformOtherPlaceholder}
          className="cairn-form-note"
          value={value}
          placeholder={t.platformOtherPlaceholder}
          intent={error ? 'danger' : 'none'}
          onChange={(e) => {
            const text = e.currentTarget.value;
            setMode({ other: true, value: text });
            onChange(text);
          }}
        />
      ) : null}
    </FormGroup>
  );
}
