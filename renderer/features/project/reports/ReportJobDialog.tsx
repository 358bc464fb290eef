// The dialog every report job is asked from (生成报告, 导出 VEX, 导出组件): what it covers, its
// choices, the click-guarded submit (disabled 2000 ms after a click, spec doc 1 §5). On success it
// closes and the spec's message (报告生成提交成功，…) leads to the 报告管理 tab that lists the job;
// a refusal is said in place.
import { useState, type ReactNode } from 'react';
import { Button, Checkbox, Dialog, DialogBody, DialogFooter, FormGroup } from '@blueprintjs/core';
import type { IconName } from '@blueprintjs/icons';
import { useNavigate } from 'react-router';
import { REPORT_SUBMITTED_MESSAGE } from '../../../../contract/api/report.ts';
import { apiErrorMessage } from '../../../api/baseQuery.ts';
import { toastWithAction } from '../../../app/toaster.ts';
import { GuardedButton } from '../../../common/GuardedButton.tsx';
import { ErrorCallout } from '../../../common/states.tsx';
import { zh } from '../../../i18n/zh-CN.ts';
import './styles.ts';

const t = zh.report;

export function ReportJobDialog({ title, icon, scope, submitText, ready, tab, send, onClose, children }: {
  title: string;
  icon: IconName;
  /** What the job covers (the project and run, the subject, …). */
  scope: string;
  submitText: string;
  /** Whether the choices make a job (a format is chosen). */
  ready: boolean;
  /** The 报告管理 tab that lists the job. */
  tab: string;
  send: () => Promise<unknown>;
  onClose: () => void;
  children: ReactNode;
}) {
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    if (!ready) return;
    setError(null);
    setBusy(true);
    try {
      await send();
      onClose();
      toastWithAction(REPORT_SUBMITTED_MESSAGE, { text: t.goToReports, onClick: () => navigate(`/project/report?tab=${tab}`) });
    } catch (e) {
      setError(apiErrorMessage(e, t.submitFailed));
      setBusy(false);
    }
  };
  return (
    <Dialog isOpen title={title} icon={icon} onClose={onClose} className="cairn-dialog cairn-report-dialog">
      <DialogBody>
        <p className="cairn-report-scope">{scope}</p>
        {children}
        <ErrorCallout message={error} className="cairn-result-callout" />
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t.cancel} onClick={onClose} />
            <GuardedButton intent="primary" text={submitText} disabled={!ready} loading={busy} onClick={() => void submit()} />
          </>
        }
      />
    </Dialog>
  );
}

/** The formats of a job, one file each; at least one is needed. */
export function FormatChecks<F extends string | number>({ offered, chosen, labelOf, onChange }: {
  offered: readonly F[];
  chosen: readonly F[];
  labelOf: (format: F) => string;
  onChange: (chosen: F[]) => void;
}) {
  const toggle = (f: F) => onChange(chosen.includes(f) ? chosen.filter((x) => x !== f) : [...chosen, f]);
  return (
    <FormGroup label={t.formats} helperText={chosen.length ? t.formatsHelp : t.formatRequired} intent={chosen.length ? 'none' : 'warning'}>
      <div className="cairn-report-formats" role="group" aria-label={t.formats}>
        {offered.map((f) => (
          <Checkbox key={f} label={labelOf(f)} checked={chosen.includes(f)} onChange={() => toggle(f)} />
        ))}
      </div>
    </FormGroup>
  );
}
