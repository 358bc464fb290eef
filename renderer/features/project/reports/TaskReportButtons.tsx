// The task details header's report entries: 生成报告 (every section, any format) and 许可证报告
// (licence sections only, document formats), both for the run the header shows.
import { useState } from 'react';
import { Button } from '@blueprintjs/core';
import { usePermissions } from '../../../app/hooks.ts';
import { GenerateReportDialog, type GenerateTarget } from './GenerateReportDialog.tsx';
import { zh } from '../../../i18n/zh-CN.ts';

const t = zh.report;

export function TaskReportButtons({ projectId, taskId, projectName, taskSeq }: { projectId: number; taskId: number; projectName: string; taskSeq: number }) {
  const has = usePermissions();
  const [target, setTarget] = useState<GenerateTarget | null>(null);
  if (!has('report:list')) return null;
  const open = (variant: 'task' | 'license') => setTarget({ variant, projectId, taskId, projectName, taskSeq });
  return (
    <>
      <Button icon="document" text={t.generate} onClick={() => open('task')} />
      <Button icon="manual" text={t.generateLicense} onClick={() => open('license')} />
      <GenerateReportDialog target={target} onClose={() => setTarget(null)} />
    </>
  );
}
