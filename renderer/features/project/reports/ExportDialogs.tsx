// The task details' exports: 导出 VEX (CycloneDX VEX and/or OpenVEX, POST /api/vex/export) and
// 导出组件 (xlsx or csv, GET /api/component/export). Both are jobs like reports: the toast says so
// and leads to the matching tab of 报告管理. Submit buttons are click-guarded (spec doc 1 §5).
import { useState } from 'react';
import { Button, Callout, Checkbox, Dialog, DialogBody, DialogFooter, FormGroup, Radio, RadioGroup } from '@blueprintjs/core';
import { useNavigate } from 'react-router';
import { REPORT_SUBMITTED_MESSAGE } from '../../../../contract/api/report.ts';
import { VEX_EXTENSION, VEX_FORMAT_LABEL, type VexFormat } from '../../../../contract/enums.ts';
import { apiErrorMessage } from '../../../api/baseQuery.ts';
import { useReportComponentExportMutation, useReportVexExportMutation } from '../../../api/reportApi.ts';
import { usePermissions } from '../../../app/hooks.ts';
import { GuardedButton } from '../../../common/GuardedButton.tsx';
import { toastWithAction } from '../../../app/toaster.ts';
import { zh } from '../../../i18n/zh-CN.ts';
import './styles.ts';

const t = zh.report;
const VEX_FORMATS: readonly VexFormat[] = [1, 2];
type ComponentFormat = 'xlsx' | 'csv';

interface TaskTarget {
  projectId: number;
  taskId: number;
}

function useSubmitted() {
  const navigate = useNavigate();
  return (tab: string) => toastWithAction(REPORT_SUBMITTED_MESSAGE, { text: t.goToReports, onClick: () => navigate(`/project/report?tab=${tab}`) });
}

function VexExportDialog({ target, onClose }: { target: TaskTarget; onClose: () => void }) {
  const [formats, setFormats] = useState<VexFormat[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [exportVex, exporting] = useReportVexExportMutation();
  const submitted = useSubmitted();
  const toggle = (f: VexFormat) => setFormats((old) => (old.includes(f) ? old.filter((x) => x !== f) : [...old, f]));
  const submit = async () => {
    if (formats.length === 0) return;
    setError(null);
    try {
      await exportVex({ projectId: target.projectId, taskId: target.taskId, vexTypes: VEX_FORMATS.filter((f) => formats.includes(f)) }).unwrap();
      onClose();
      submitted('vex');
    } catch (e) {
      setError(apiErrorMessage(e, t.submitFailed));
    }
  };
  return (
    <Dialog isOpen title={t.vexTitle} icon="endorsed" onClose={onClose} className="cairn-dialog cairn-report-dialog">
      <DialogBody>
        <p className="cairn-report-scope">{t.vexHelp}</p>
        <FormGroup label={t.formats} helperText={formats.length ? t.formatsHelp : t.formatRequired} intent={formats.length ? 'none' : 'warning'}>
          <div className="cairn-report-formats" role="group" aria-label={t.formats}>
            {VEX_FORMATS.map((f) => (
              <Checkbox key={f} label={`${VEX_FORMAT_LABEL[f]}（${VEX_EXTENSION[f]}）`} checked={formats.includes(f)} onChange={() => toggle(f)} />
            ))}
          </div>
        </FormGroup>
        {error ? <Callout intent="danger" className="cairn-result-callout" role="alert">{error}</Callout> : null}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t.cancel} onClick={onClose} />
            <GuardedButton intent="primary" text={t.exportSubmit} disabled={formats.length === 0} loading={exporting.isLoading} onClick={() => void submit()} />
          </>
        }
      />
    </Dialog>
  );
}

function ComponentExportDialog({ target, onClose }: { target: TaskTarget; onClose: () => void }) {
  const [format, setFormat] = useState<ComponentFormat>('xlsx');
  const [error, setError] = useState<string | null>(null);
  const [exportComponents, exporting] = useReportComponentExportMutation();
  const submitted = useSubmitted();
  const submit = async () => {
    setError(null);
    try {
      await exportComponents({ projectId: target.projectId, taskId: target.taskId, format }).unwrap();
      onClose();
      submitted('component');
    } catch (e) {
      setError(apiErrorMessage(e, t.submitFailed));
    }
  };
  return (
    <Dialog isOpen title={t.componentTitle} icon="export" onClose={onClose} className="cairn-dialog cairn-report-dialog">
      <DialogBody>
        <p className="cairn-report-scope">{t.componentHelp}</p>
        <RadioGroup label={t.componentFormat} selectedValue={format} onChange={(e) => setFormat(e.currentTarget.value as ComponentFormat)}>
          <Radio value="xlsx" label={t.componentFormats.xlsx} />
          <Radio value="csv" label={t.componentFormats.csv} />
        </RadioGroup>
        {error ? <Callout intent="danger" className="cairn-result-callout" role="alert">{error}</Callout> : null}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t.cancel} onClick={onClose} />
            <GuardedButton intent="primary" text={t.exportSubmit} loading={exporting.isLoading} onClick={() => void submit()} />
          </>
        }
      />
    </Dialog>
  );
}

/** 导出 VEX on the task's vulnerability tab (needs analysis:result:vul:list). */
export function VexExportButton({ projectId, taskId }: TaskTarget) {
  const has = usePermissions();
  const [open, setOpen] = useState(false);
  if (!has('analysis:result:vul:list')) return null;
  return (
    <>
      <Button icon="export" text={t.vexExport} onClick={() => setOpen(true)} />
      {open ? <VexExportDialog target={{ projectId, taskId }} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

/** 导出组件 on the task's component tab (needs analysis:result:cominfo:list). */
export function ComponentExportButton({ projectId, taskId }: TaskTarget) {
  const has = usePermissions();
  const [open, setOpen] = useState(false);
  if (!has('analysis:result:cominfo:list')) return null;
  return (
    <>
      <Button icon="export" text={t.componentExport} onClick={() => setOpen(true)} />
      {open ? <ComponentExportDialog target={{ projectId, taskId }} onClose={() => setOpen(false)} /> : null}
    </>
  );
}
