// The one remark dialog of the audit actions: a component mark (N/F/L/W/Y), a vulnerability mark
// (0–7, optionally with a custom level and its reason) or a VEX statement (0–4). The caller sends;
// the dialog validates the remark (required, at most 500 characters) and shows the server message.
import { useState } from 'react';
import { Button, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect, TextArea } from '@blueprintjs/core';
import { LEVEL_CODES, VULNERABILITY_LEVEL_LABEL, optionsOf } from '../../../../contract/enums.ts';
import type { LabelTable } from '../../../../contract/enums.ts';
import { GuardedButton } from '../../../common/GuardedButton.tsx';
import { apiErrorMessage } from '../../../api/baseQuery.ts';
import { zh } from '../../../i18n/zh-CN.ts';
import { MARK_REMARK_MAX as MAX, markProblem, type MarkValue } from './marks.ts';
import { ErrorCallout } from '../../../common/states.tsx';

const t = zh.task.marks;

export function MarkDialog(props: {
  isOpen: boolean;
  title: string;
  label: string;
  table: LabelTable;
  initial: string;
  /** Offer 自定义等级 (vulnerability marks). */
  withLevel?: boolean;
  currentLevel?: number;
  onClose: () => void;
  onSubmit: (value: MarkValue) => Promise<unknown>;
}) {
  const { isOpen, title, label, table, initial, withLevel, onClose, onSubmit } = props;
  const [code, setCode] = useState(initial);
  const [remark, setRemark] = useState('');
  const [level, setLevel] = useState<string>('');
  const [levelRemark, setLevelRemark] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const reset = () => {
    setCode(initial);
    setRemark('');
    setLevel('');
    setLevelRemark('');
    setError(null);
  };

  const submit = async () => {
    const value: MarkValue = { code, remark: remark.trim() };
    if (withLevel && level) {
      value.customLevel = Number(level);
      value.levelRemark = levelRemark.trim();
    }
    const problem = markProblem(value, Boolean(withLevel));
    if (problem) {
      setError(problem);
      return;
    }
    setBusy(true);
    try {
      await onSubmit(value);
      onClose();
    } catch (e) {
      setError(apiErrorMessage(e, t.failed));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog isOpen={isOpen} title={title} onClose={onClose} onOpening={reset} className="cairn-mark-dialog">
      <DialogBody>
        <ErrorCallout message={error} className="cairn-form-error" />
        <FormGroup label={label} labelFor="mark-code">
          <HTMLSelect id="mark-code" fill value={code} onChange={(e) => setCode(e.currentTarget.value)} options={optionsOf(table).map((o) => ({ value: String(o.value), label: o.label }))} />
        </FormGroup>
        <FormGroup label={t.remark} labelFor="mark-remark" labelInfo="*">
          <TextArea id="mark-remark" fill rows={3} maxLength={MAX} placeholder={t.remarkPlaceholder} value={remark} onChange={(e) => setRemark(e.currentTarget.value)} />
        </FormGroup>
        {withLevel ? (
          <>
            <FormGroup label={t.customLevel} labelFor="mark-level">
              <HTMLSelect
                id="mark-level"
                fill
                value={level}
                onChange={(e) => setLevel(e.currentTarget.value)}
                options={[{ value: '', label: t.keepLevel }, ...LEVEL_CODES.map((l) => ({ value: String(l), label: VULNERABILITY_LEVEL_LABEL[l] }))]}
              />
            </FormGroup>
            {level ? (
              <FormGroup label={t.levelRemark} labelFor="mark-level-remark" labelInfo="*">
                <TextArea id="mark-level-remark" fill rows={2} maxLength={MAX} value={levelRemark} onChange={(e) => setLevelRemark(e.currentTarget.value)} />
              </FormGroup>
            ) : null}
          </>
        ) : null}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={zh.task.cancel} onClick={onClose} />
            <GuardedButton intent="primary" text={t.save} loading={busy} onClick={() => void submit()} />
          </>
        }
      />
    </Dialog>
  );
}
