// 生成报告: pick the formats (one file each), submit, and the platform answers with the spec's
// message (报告生成提交成功，…) shown as a toast with a way to 报告管理. One dialog for every
// variant: a task's full report, its licence report, a batch of projects, a subject, statistics.
// The submit button is click-guarded (disabled 2000 ms after a click, spec doc 1 §5).
import { useState } from 'react';
import { Button, Callout, Checkbox, Dialog, DialogBody, DialogFooter, FormGroup } from '@blueprintjs/core';
import { useNavigate } from 'react-router';
import { REPORT_SUBMITTED_MESSAGE } from '../../../../contract/api/report.ts';
import type { ExportFormat } from '../../../../contract/enums.ts';
import { apiErrorMessage } from '../../../api/baseQuery.ts';
import {
  useReportBatchMutation,
  useReportGenerateMutation,
  useReportStatisticGenerateMutation,
  useReportSubjectGenerateMutation,
} from '../../../api/reportApi.ts';
import { GuardedButton } from '../../../common/GuardedButton.tsx';
import { formatOptionLabel, formatsOf, reportTypesOf, type GenerateVariant } from './reportModel.ts';
import { toastWithAction } from '../../../app/toaster.ts';
import { zh } from '../../../i18n/zh-CN.ts';
import './styles.ts';

const t = zh.report;

export type GenerateTarget =
  | { variant: 'task' | 'license'; projectId: number; taskId?: number; projectName: string; taskSeq: number | null }
  | { variant: 'batch'; projectIds: number[] }
  | { variant: 'subject'; subjectId: number; subjectName: string }
  | { variant: 'statistic' };

/** The 报告管理 tab that lists what a variant generates. */
const TAB_OF: Record<GenerateVariant, string> = { task: 'project', batch: 'project', subject: 'project', license: 'license', statistic: 'statistic' };

function scopeText(target: GenerateTarget): string {
  switch (target.variant) {
    case 'task':
    case 'license':
      return t.dialogScope[target.variant](target.projectName, target.taskSeq);
    case 'batch':
      return t.dialogScope.batch(target.projectIds.length);
    case 'subject':
      return t.dialogScope.subject(target.subjectName);
    case 'statistic':
      return t.dialogScope.statistic;
  }
}

/** Opens when `target` is set; `onClose` after a cancel or a successful submit. */
export function GenerateReportDialog({ target, onClose }: { target: GenerateTarget | null; onClose: () => void }) {
  // Remount per target, so a second opening starts with no formats chosen and no old error.
  return target ? <GenerateForm key={JSON.stringify(target)} target={target} onClose={onClose} /> : null;
}

function GenerateForm({ target, onClose }: { target: GenerateTarget; onClose: () => void }) {
  const navigate = useNavigate();
  const [formats, setFormats] = useState<ExportFormat[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [generate, generating] = useReportGenerateMutation();
  const [batch, batching] = useReportBatchMutation();
  const [subject, subjecting] = useReportSubjectGenerateMutation();
  const [statistic, statisticking] = useReportStatisticGenerateMutation();
  const busy = generating.isLoading || batching.isLoading || subjecting.isLoading || statisticking.isLoading;
  const offered = formatsOf(target.variant);

  const toggle = (f: ExportFormat) => setFormats((old) => (old.includes(f) ? old.filter((x) => x !== f) : [...old, f]));

  const send = () => {
    const reportTypes = reportTypesOf(formats);
    switch (target.variant) {
      case 'task':
      case 'license':
        return generate({
          projectId: target.projectId,
          ...(target.taskId ? { taskId: target.taskId } : {}),
          reportTypes,
          scope: target.variant === 'license' ? 'license' : 'full',
        }).unwrap();
      case 'batch':
        return batch({ projectIds: target.projectIds, reportTypes }).unwrap();
      case 'subject':
        return subject({ subjectId: target.subjectId, reportTypes }).unwrap();
      case 'statistic':
        return statistic({ reportTypes: reportTypes.filter((c) => c <= 3) }).unwrap();
    }
  };

  const submit = async () => {
    if (formats.length === 0) return;
    setError(null);
    try {
      await send();
      onClose();
      toastWithAction(REPORT_SUBMITTED_MESSAGE, { text: t.goToReports, onClick: () => navigate(`/project/report?tab=${TAB_OF[target.variant]}`) });
    } catch (e) {
      setError(apiErrorMessage(e, t.submitFailed));
    }
  };

  return (
    <Dialog isOpen title={t.dialogTitle[target.variant]} icon="document" onClose={onClose} className="cairn-dialog cairn-report-dialog">
      <DialogBody>
        <p className="cairn-report-scope">{scopeText(target)}</p>
        <FormGroup label={t.formats} helperText={formats.length ? t.formatsHelp : t.formatRequired} intent={formats.length ? 'none' : 'warning'}>
          <div className="cairn-report-formats" role="group" aria-label={t.formats}>
            {offered.map((f) => (
              <Checkbox key={f} label={formatOptionLabel(f)} checked={formats.includes(f)} onChange={() => toggle(f)} />
            ))}
          </div>
        </FormGroup>
        {error ? (
          <Callout intent="danger" className="cairn-result-callout" role="alert">
            {error}
          </Callout>
        ) : null}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t.cancel} onClick={onClose} />
            <GuardedButton intent="primary" text={t.submit} disabled={formats.length === 0} loading={busy} onClick={() => void submit()} />
          </>
        }
      />
    </Dialog>
  );
}
