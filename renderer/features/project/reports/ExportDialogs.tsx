// The task details' exports: 导出 VEX (CycloneDX VEX and/or OpenVEX, POST /api/vex/export) and
// 导出组件 (xlsx or csv, GET /api/component/export). Both are jobs like reports: the toast says so
// and leads to the matching tab of 报告管理. Submit buttons are click-guarded (spec doc 1 §5).
import { useState } from 'react';
import { Button, Radio, RadioGroup } from '@blueprintjs/core';
import { VEX_EXTENSION, VEX_FORMAT_LABEL, type VexFormat } from '../../../../contract/enums.ts';
import { useReportComponentExportMutation, useReportVexExportMutation } from '../../../api/reportApi.ts';
import { usePermissions } from '../../../app/hooks.ts';
import { FormatChecks, ReportJobDialog } from './ReportJobDialog.tsx';
import { zh } from '../../../i18n/zh-CN.ts';

const t = zh.report;
const VEX_FORMATS: readonly VexFormat[] = [1, 2];
type ComponentFormat = 'xlsx' | 'csv';

interface TaskTarget {
  projectId: number;
  taskId: number;
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

function VexExportDialog({ target, onClose }: { target: TaskTarget; onClose: () => void }) {
  const [formats, setFormats] = useState<VexFormat[]>([]);
  const [exportVex] = useReportVexExportMutation();
  return (
    <ReportJobDialog
      title={t.vexTitle}
      icon="endorsed"
      scope={t.vexHelp}
      submitText={t.exportSubmit}
      ready={formats.length > 0}
      tab="vex"
      send={() => exportVex({ projectId: target.projectId, taskId: target.taskId, vexTypes: VEX_FORMATS.filter((f) => formats.includes(f)) }).unwrap()}
      onClose={onClose}
    >
      <FormatChecks offered={VEX_FORMATS} chosen={formats} labelOf={(f) => `${VEX_FORMAT_LABEL[f]}（${VEX_EXTENSION[f]}）`} onChange={setFormats} />
    </ReportJobDialog>
  );
}

function ComponentExportDialog({ target, onClose }: { target: TaskTarget; onClose: () => void }) {
  const [format, setFormat] = useState<ComponentFormat>('xlsx');
  const [exportComponents] = useReportComponentExportMutation();
  return (
    <ReportJobDialog
      title={t.componentTitle}
      icon="export"
      scope={t.componentHelp}
      submitText={t.exportSubmit}
      ready
      tab="component"
      send={() => exportComponents({ projectId: target.projectId, taskId: target.taskId, format }).unwrap()}
      onClose={onClose}
    >
      <RadioGroup label={t.componentFormat} selectedValue={format} onChange={(e) => setFormat(e.currentTarget.value as ComponentFormat)}>
        <Radio value="xlsx" label={t.componentFormats.xlsx} />
        <Radio value="csv" label={t.componentFormats.csv} />
      </RadioGroup>
    </ReportJobDialog>
  );
}
