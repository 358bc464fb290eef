// The finding drawer of the 漏洞 tab (tab=bugInfo&finding=<row id>, the spec's bugInfo view): the
// id in the spec's display form, level (custom level and why, the source that set it or 未评级 with
// the reason), component, fixed versions and the recommended upgrade, the audit mark and VEX with
// their remarks, what the knowledge base says of the advisory (FindingAdvisory.tsx: description,
// CWE, affected ranges, references), the mark/level log and the VEX log; 标记 / 修改等级 and
// 设置 VEX open the remark dialog.
import { useState } from 'react';
import { AnchorButton, Button, Card, Drawer, DrawerSize, Tag } from '@blueprintjs/core';
import type { FindingRow } from '../../../../contract/api/result/index.ts';
import { formatDate, formatVulnerabilityId } from '../../../../contract/format.ts';
import { useVexMarkLogQuery, useVulnerabilityMarkLogQuery } from '../../../api/resultApi.ts';
import { Field } from '../../../common/Field.tsx';
import { Panel, QueryBody } from '../../../common/Panel.tsx';
import { ErrorState, LoadingState } from '../../../common/states.tsx';
import { TagList, otherAliases } from '../../../common/TagList.tsx';
import { ExploitText, FindingLevelTag, LevelTag, SeveritySource, formatScore } from '../../../common/levels.tsx';
import { FixedIn } from '../../../common/vulnerability/FixState.tsx';
import { useTaskView } from './context.ts';
import { FindingAdvisory, UpgradeAdvice } from './FindingAdvisory.tsx';
import { FindingMarkDialogs, type FindingDialog } from './FindingMarkDialogs.tsx';
import { MarkLogTable, VexTag, VulMarkTag, dash } from './parts.tsx';
import { zh } from '../../../i18n/zh-CN.ts';

const t = zh.task.findingDetail;

function Logs({ findingId }: { findingId: number }) {
  const { projectId } = useTaskView();
  const marks = useVulnerabilityMarkLogQuery({ projectId, id: findingId, query: { page: 1, size: 50 } });
  const vex = useVexMarkLogQuery({ projectId, id: findingId, query: { page: 1, size: 50 } });
  return (
    <>
      <Panel title={t.markLog}>
        <QueryBody query={marks}>{(d) => <MarkLogTable rows={d.content} empty={t.logNone} />}</QueryBody>
      </Panel>
      <Panel title={t.vexLog}>
        <QueryBody query={vex}>{(d) => <MarkLogTable rows={d.content} empty={t.logNone} />}</QueryBody>
      </Panel>
    </>
  );
}

export function FindingDrawer({ finding, loading, onClose }: { finding: FindingRow | undefined; loading: boolean; onClose: () => void }) {
  const view = useTaskView();
  const open = Boolean(view.state.findingId);
  const [dialog, setDialog] = useState<FindingDialog>(null);
  const f = finding;

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
              <TagList items={otherAliases(f)} />
            </Field>
            <Field label={t.level}>
              {f.level === f.originalLevel ? <FindingLevelTag level={f.level} source={f.severitySource} /> : <LevelTag level={f.level} />}
              {f.level !== f.originalLevel ? <Tag minimal intent="warning" className="cairn-inline-tag">{zh.task.bug.customLevelTag}</Tag> : null}
            </Field>
            <Field label={t.originalLevel}>
              <FindingLevelTag level={f.originalLevel} source={f.severitySource} />
            </Field>
            <Field label={t.severitySource} wide>
              <SeveritySource source={f.severitySource} level={f.originalLevel} />
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
            <Field label={t.fixed}>
              <FixedIn versions={f.fixedVersions} state={f.fixState} empty={t.noFix} />
            </Field>
            <Field label={t.upgrade} wide>
              <UpgradeAdvice upgrade={f.upgrade} />
            </Field>
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
        <FindingAdvisory projectId={view.projectId} finding={f} />
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
        <FindingMarkDialogs open={dialog} ids={[f.id]} initialMark={String(f.mark)} initialVex={String(f.vex)} currentLevel={f.level} onClose={() => setDialog(null)} />
      ) : null}
    </Drawer>
  );
}
