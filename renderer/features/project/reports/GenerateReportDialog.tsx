// 生成报告: pick the formats (one file each) and submit, in the report job dialog (ReportJobDialog:
// the spec's message 报告生成提交成功，… leads to 报告管理). One dialog for every variant: a task's
// full report, its licence report, a batch of projects, a subject, statistics.
import { useState } from 'react';
import { FormGroup } from '@blueprintjs/core';
import { LICENSE_KIND_LABEL, type ExportFormat, type LicenseKind } from '../../../../contract/enums.ts';
import { CheckTagGroup } from '../../../common/list/filters.tsx';
import { KIND_CODES, MinScoreSlider, reportConfidence } from '../analysis/tabs/licenceEvidence.tsx';
import {
  useReportBatchMutation,
  useReportGenerateMutation,
  useReportStatisticGenerateMutation,
  useReportSubjectGenerateMutation,
} from '../../../api/reportApi.ts';
import { formatOptionLabel, formatsOf, reportTypesOf, type GenerateVariant } from './reportModel.ts';
import { FormatChecks, ReportJobDialog } from './ReportJobDialog.tsx';
import { zh } from '../../../i18n/zh-CN.ts';

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
  const [formats, setFormats] = useState<ExportFormat[]>([]);
  const [kinds, setKinds] = useState<LicenseKind[]>([]);
  const [minScore, setMinScore] = useState(0);
  const [generate] = useReportGenerateMutation();
  const [batch] = useReportBatchMutation();
  const [subject] = useReportSubjectGenerateMutation();
  const [statistic] = useReportStatisticGenerateMutation();

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
          ...reportConfidence(kinds, minScore),
        }).unwrap();
      case 'batch':
        return batch({ projectIds: target.projectIds, reportTypes }).unwrap();
      case 'subject':
        return subject({ subjectId: target.subjectId, reportTypes }).unwrap();
      case 'statistic':
        return statistic({ reportTypes: reportTypes.filter((c) => c <= 3) }).unwrap();
    }
  };

  return (
    <ReportJobDialog
      title={t.dialogTitle[target.variant] ?? ''}
      icon="document"
      scope={scopeText(target)}
      submitText={t.submit}
      ready={formats.length > 0}
      tab={TAB_OF[target.variant]}
      send={send}
      onClose={onClose}
    >
      <FormatChecks offered={formatsOf(target.variant)} chosen={formats} labelOf={formatOptionLabel} onChange={setFormats} />
      {target.variant === 'task' || target.variant === 'license' ? (
        <FormGroup label={t.licenceFilter} helperText={t.licenceFilterHelp} className="cairn-report-licence-filter">
          <CheckTagGroup
            label={zh.task.license.kinds}
            codes={KIND_CODES}
            selected={kinds}
            labelOf={(x) => LICENSE_KIND_LABEL[x]}
            onToggle={(x) => setKinds((was) => (was.includes(x) ? was.filter((y) => y !== x) : [...was, x]))}
          />
          <MinScoreSlider value={minScore} onChange={setMinScore} />
        </FormGroup>
      ) : null}
    </ReportJobDialog>
  );
}
