// The finding drawer of the 漏洞 tab (tab=bugInfo&finding=<row id>, the spec's bugInfo view): the
// id in the spec's display form, level (custom level and why), component, fixed versions, the
// audit mark and VEX with their remarks, the mark/level log and the VEX log; 标记 / 修改等级 and
// 设置 VEX open the remark dialog.
import { useState } from 'react';
import { AnchorButton, Button, Card, Drawer, DrawerSize, H5, Tag } from '@blueprintjs/core';
import type { FindingRow } from '../../../contract/api/result.ts';
import { VEX_LABEL, VULNERABILITY_MARK_LABEL, type VexCode, type VulnerabilityMark } from '../../../contract/enums.ts';
import { DASH, formatDate, formatVulnerabilityId } from '../../../contract/format.ts';
import { useMarkFindingsMutation, useVexMarkLogQuery, useVexMarkMutation, useVulnerabilityMarkLogQuery } from '../../api/resultApi.ts';
import { toastNotifier } from '../../app/toaster.ts';
import { Field } from '../../common/Field.tsx';
import { ErrorState, LoadingState } from '../../common/states.tsx';
import { ExploitText, LevelTag, formatScore } from '../bug/levels.tsx';
import { useTaskView } from './context.ts';
import { MarkDialog } from './MarkDialog.tsx';
import { MarkLogTable, VexTag, VulMarkTag, dash } from './parts.tsx';
import { zh } from '../../i18n/zh-CN.ts';

const t = zh.task.findingDetail;

function Logs({ findingId }: { findingId: number }) {
  const { projectId } = useTaskView();
  const marks = useVulnerabilityMarkLogQuery({ projectId, id: findingId, query: { page: 1, size: 50 } });
  const vex = useVexMarkLogQuery({ projectId, id: findingId, query: { page: 1, size: 50 } });
  return (
    <>
      <Card className="cairn-panel">
        <H5>{t.markLog}</H5>
        {marks.isLoading ? <LoadingState /> : marks.isError || !marks.data ? <ErrorState message={marks.error?.message} onRetry={() => void marks.refetch()} /> : <MarkLogTable rows={marks.data.content} empty={t.logNone} />}
      </Card>
      <Card className="cairn-panel">
        <H5>{t.vexLog}</H5>
        {vex.isLoading ? <LoadingState /> : vex.isError || !vex.data ? <ErrorState message={vex.error?.message} onRetry={() => void vex.refetch()} /> : <MarkLogTable rows={vex.data.content} empty={t.logNone} />}
      </Card>
    </>
  );
}

export function FindingDrawer({ finding, loading, onClose }: { finding: FindingRow | undefined; loading: boolean; onClose: () => void }) {
  const view = useTaskView();
  const open = Boolean(view.state.findingId);
  const [dialog, setDialog] = useState<'mark' | 'vex' | null>(null);
  const [markFindings] = useMarkFindingsMutation();
  const [setVex] = useVexMarkMutation();
  const f = finding;
  const aliases = f ? f.aliases.filter((a) => a !== f.identify && a !== f.cve && a !== f.cnnvd && a !== f.cnvd) : [];

  let body;
  if (!open) body = null;
  else if (!f) body = loading ? <LoadingState /> : <ErrorState message={t.notFound} />;
  else {
    body = (
      <div className="cairn-drawer-body">
        <Card className="cairn-panel">
          <div className="cairn-fields cairn-fields-grid">
            <Field label={t.ids} wide>
              <span className="cairn-vul-id-text" data-testid="finding-id">{formatVulnerabilityId(f)}</span>
            </Field>
            <Field label={t.aliases} wide>
              {aliases.length ? (
                <div className="cairn-tag-row">
                  {aliases.map((a) => (
                    <Tag key={a} minimal>
                      {a}
                    </Tag>
                  ))}
                </div>
              ) : (
                <span className="cairn-muted">{DASH}</span>
              )}
            </Field>
            <Field label={t.level}>
              <LevelTag level={f.level} />
              {f.level !== f.originalLevel ? <Tag minimal intent="warning" className="cairn-inline-tag">{zh.task.bug.customLevelTag}</Tag> : null}
            </Field>
            <Field label={t.originalLevel}>
              <LevelTag level={f.originalLevel} />
            </Field>
            {f.levelRemark ? <Field label={t.levelRemark} wide>{f.levelRemark}</Field> : null}
            <Field label={t.score}>{formatScore(f.score)}</Field>
            <Field label={t.exploit}>
              <ExploitText code={f.exploit} />
            </Field>
            <Field label={t.component}>
              <a
                onClick={() => view.setUrl({ tab: 'component', component: f.componentId, finding: undefined })}
                className="cairn-link-strong"
              >
                {f.componentName}
                {f.componentVersion ? `@${f.componentVersion}` : ''}
              </a>{' '}
              <span className="cairn-muted">{f.direct ? t.direct : t.transitive}</span>
            </Field>
            <Field label={t.fixed}>{f.fixedVersions.length ? f.fixedVersions.join(', ') : <span className="cairn-muted">{t.noFix}</span>}</Field>
            <Field label={t.published}>{formatDate(f.published)}</Field>
            <Field label={t.summary} wide>
              {dash(f.summary)}
            </Field>
          </div>
        </Card>
        <Card className="cairn-panel">
          <div className="cairn-fields cairn-fields-grid">
            <Field label={t.mark}>
              <VulMarkTag mark={f.mark} />
            </Field>
            <Field label={t.remark}>{dash(f.markRemark)}</Field>
            <Field label={t.vex}>
              <VexTag vex={f.vex} />
            </Field>
            <Field label={t.remark}>{dash(f.vexRemark)}</Field>
          </div>
        </Card>
        <Logs findingId={f.id} />
      </div>
    );
  }

  return (
    <Drawer isOpen={open} onClose={onClose} size={DrawerSize.LARGE} title={f ? formatVulnerabilityId(f) : zh.task.findingDetail.title} icon="shield" className="cairn-result-drawer">
      {f ? (
        <div className="cairn-drawer-actions">
          {view.canVul ? <Button icon="tag" text={t.setMark} onClick={() => setDialog('mark')} /> : null}
          {view.canVul ? <Button icon="endorsed" text={t.setVex} onClick={() => setDialog('vex')} /> : null}
          <AnchorButton variant="minimal" icon="share" text={t.knowledge} href={`#/bug/bugList?q=${encodeURIComponent(f.identify)}`} />
        </div>
      ) : null}
      {body}
      {f ? (
        <>
          <MarkDialog
            isOpen={dialog === 'mark'}
            title={zh.task.bug.markTitle(1)}
            label={zh.task.marks.mark}
            table={VULNERABILITY_MARK_LABEL}
            initial={String(f.mark)}
            withLevel
            currentLevel={f.level}
            onClose={() => setDialog(null)}
            onSubmit={async (v) => {
              await markFindings({
                body: {
                  projectId: view.projectId,
                  taskId: view.run.id,
                  ids: [f.id],
                  mark: Number(v.code) as VulnerabilityMark,
                  remark: v.remark,
                  ...(v.customLevel ? { customLevel: v.customLevel as FindingRow['level'], levelRemark: v.levelRemark ?? '' } : {}),
                },
                binary: view.binary,
              }).unwrap();
              toastNotifier.success(zh.task.marks.saved);
            }}
          />
          <MarkDialog
            isOpen={dialog === 'vex'}
            title={zh.task.bug.vexTitle(1)}
            label={zh.task.marks.vex}
            table={VEX_LABEL}
            initial={String(f.vex)}
            onClose={() => setDialog(null)}
            onSubmit={async (v) => {
              await setVex({ projectId: view.projectId, taskId: view.run.id, ids: [f.id], vex: Number(v.code) as VexCode, remark: v.remark }).unwrap();
              toastNotifier.success(zh.task.marks.saved);
            }}
          />
        </>
      ) : null}
    </Drawer>
  );
}
