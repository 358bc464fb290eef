// The component drawer of the task details (component=<row id> in the URL): identity, versions,
// licences, where it is declared (component/source), its vulnerabilities, the dependency paths
// from the project to it, and its mark log; 标记组件 opens the remark dialog.
import { useState } from 'react';
import { Link } from 'react-router';
import { Breadcrumbs, Button, Drawer, DrawerSize, HTMLTable, Tag, type BreadcrumbProps } from '@blueprintjs/core';
import { COMPONENT_MARK_LABEL, COMPONENT_TYPE_LABEL, LICENSE_KIND_LABEL, labelOf } from '../../../../contract/enums.ts';
import { DASH, formatVulnerabilityId } from '../../../../contract/format.ts';
import { useComponentDetailQuery, useComponentMarkLogQuery, useComponentSourceQuery, useModuleInfluenceQuery, useMarkComponentsMutation } from '../../../api/resultApi.ts';
import { toastNotifier } from '../../../app/toaster.ts';
import { Field } from '../../../common/Field.tsx';
import { Panel, QueryBody } from '../../../common/Panel.tsx';
import { ErrorState, LoadingState } from '../../../common/states.tsx';
import { FindingLevelTag, LevelTag } from '../../../common/levels.tsx';
import { FixedIn } from '../../../common/vulnerability/FixState.tsx';
import { useTaskView } from './context.ts';
import { layerLabel, shortDigest } from './ImagePanel.tsx';
import { findingChanges } from './taskUrl.ts';
import { MarkDialog } from './MarkDialog.tsx';
import { ComponentMarkTag, MarkLogTable, RiskTag, VexTag, VulMarkTag, dash, notCoveredIn } from './parts.tsx';
import { zh } from '../../../i18n/zh-CN.ts';

const t = zh.task.componentDetail;

function Locations({ componentId }: { componentId: number }) {
  const { projectId, run } = useTaskView();
  const q = useComponentSourceQuery({ projectId, taskId: run.id, componentId });
  return (
    <QueryBody query={q} isEmpty={(d) => d.locations.length === 0} emptyText={t.locationsNone}>
      {(d) => (
        <ul className="cairn-location-list" aria-label={t.locations}>
          {d.locations.map((l, i) => (
            <li key={`${l.file}:${i}`} className="cairn-mono">
              {l.file}
              {l.startLine ? <span className="cairn-muted">{`:${l.startLine}${l.endLine && l.endLine !== l.startLine ? `-${l.endLine}` : ''}`}</span> : null}
            </li>
          ))}
        </ul>
      )}
    </QueryBody>
  );
}

function MarkLog({ componentId }: { componentId: number }) {
  const { projectId } = useTaskView();
  const q = useComponentMarkLogQuery({ projectId, id: componentId, query: { page: 1, size: 50 } });
  return <QueryBody query={q}>{(d) => <MarkLogTable rows={d.content} empty={t.markLogNone} />}</QueryBody>;
}

/** Component influence across subjects: every visible project whose latest run has this version. */
function Influence({ purl }: { purl: string }) {
  const q = useModuleInfluenceQuery({ purl, page: 1, size: 20 });
  return (
    <QueryBody query={q} isEmpty={(d) => d.total === 0} emptyText={t.influenceNone}>
      {(d) => (
        <>
          <HTMLTable compact striped className="cairn-influence-table">
            <thead>
              <tr>{t.influenceHeaders.map((h) => <th key={h}>{h}</th>)}</tr>
            </thead>
            <tbody>
              {d.content.map((r) => (
                <tr key={`${r.projectId}:${r.componentId}`}>
                  <td>{r.subjectName}</td>
                  <td><Link to={`/project/analysis/details?projectId=${r.projectId}&tab=component`}>{r.projectName}</Link></td>
                  <td>{r.versionName ?? DASH}</td>
                  <td>{r.direct ? t.direct : t.transitive}</td>
                  <td><RiskTag risk={r.riskLevel} /></td>
                  <td>{r.vulCount}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
          <div className="cairn-muted">{t.influenceTotal(d.total)}</div>
        </>
      )}
    </QueryBody>
  );
}

export function ComponentDrawer({ componentId, onClose }: { componentId: number | undefined; onClose: () => void }) {
  const view = useTaskView();
  const q = useComponentDetailQuery({ id: componentId ?? 0, taskId: view.run.id }, { skip: !componentId });
  const [marking, setMarking] = useState(false);
  const [mark] = useMarkComponentsMutation();
  const d = componentId ? q.data : undefined;

  let body;
  if (!componentId) body = null;
  else if (q.isLoading || (q.isFetching && d?.id !== componentId)) body = <LoadingState />;
  else if (q.isError || !d) body = <ErrorState title={t.loadFailed} message={q.error?.message} onRetry={() => void q.refetch()} />;
  else {
    body = (
      <div className="cairn-drawer-body">
        <Panel title={t.basic}>
          <div className="cairn-fields cairn-fields-grid">
            <Field label={t.purl} wide>
              <span className="cairn-mono cairn-break">{d.purl}</span>
            </Field>
            <Field label={t.versions}>{d.version || <Tag minimal intent="warning">{zh.task.component.unknownVersion}</Tag>}</Field>
            {d.constraint ? (
              <Field label={t.declaredRange}>
                <span className="cairn-mono" data-testid="component-constraint">{d.constraint}</span>
              </Field>
            ) : null}
            {d.confidence !== null ? (
              <Field label={t.confidence}>
                <span data-testid="component-confidence">{t.confidenceValue(d.confidence)}</span>
              </Field>
            ) : null}
            <Field label={t.recommend}>{dash(d.recommendVersion)}</Field>
            <Field label={zh.task.component.columns.risk}>
              <RiskTag risk={d.riskLevel} notCovered={notCoveredIn(view.run.coverage, d.ecosystem, d.riskLevel)} />
            </Field>
            <Field label={zh.task.component.columns.ecosystem}>
              <Tag minimal>{d.ecosystem}</Tag>
            </Field>
            <Field label={zh.task.component.columns.dependency}>{d.direct ? zh.task.component.direct : zh.task.component.transitive}</Field>
            <Field label={zh.task.component.columns.scope}>{zh.task.component.scopes[d.scope] ?? d.scope}</Field>
            <Field label={zh.task.component.type}>{labelOf(COMPONENT_TYPE_LABEL, d.componentType)}</Field>
            {view.run.image && d.layer !== null ? (
              <Field label={zh.task.image.layer} wide>
                <span data-testid="component-layer">{layerLabel(view.run.image, d.layer)}</span>{' '}
                <code className="cairn-muted" title={view.run.image.layers[d.layer]?.digest}>{shortDigest(view.run.image.layers[d.layer]?.digest ?? '')}</code>
              </Field>
            ) : null}
            <Field label={zh.task.component.columns.mark}>
              <ComponentMarkTag mark={d.mark} />
              {d.markRemark ? <span className="cairn-muted"> {d.markRemark}</span> : null}
            </Field>
            <Field label={t.relationsLabel} wide>
              <span className="cairn-muted">{t.relations(d.dependencies, d.dependents)}</span>
            </Field>
          </div>
        </Panel>
        <Panel title={t.licenses} emptyText={d.licenses.length === 0 ? (d.licenseExpression ?? zh.task.component.noLicense) : undefined}>
          <div className="cairn-tag-row">
            {d.licenseExpression ? <span className="cairn-mono">{d.licenseExpression}</span> : null}
            {d.licenses.map((l) => (
              <span key={`${l.spdxId}:${l.source}`} className="cairn-license-chip">
                <LevelTag level={l.level} /> {l.known ? <a href={`#/license?q=${encodeURIComponent(l.spdxId)}`}>{l.spdxId}</a> : l.spdxId}
                <span className="cairn-muted">（{LICENSE_KIND_LABEL[l.source] ?? l.source}）</span>
              </span>
            ))}
          </div>
        </Panel>
        <Panel title={t.locations}>
          <Locations componentId={d.id} />
        </Panel>
        {d.evidence.length ? (
          <Panel title={t.evidence}>
            <HTMLTable className="cairn-table" compact striped aria-label={t.evidence}>
              <thead>
                <tr>{t.evidenceHeaders.map((h) => <th key={h}>{h}</th>)}</tr>
              </thead>
              <tbody>
                {d.evidence.map((e, i) => (
                  <tr key={i}>
                    <td className="cairn-mono cairn-break">{e.file}</td>
                    <td>{e.rule}</td>
                    <td className="cairn-mono cairn-break">{dash(e.text)}</td>
                    <td className="cairn-mono">{e.offset === null ? DASH : `0x${e.offset.toString(16)}`}</td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </Panel>
        ) : null}
        <Panel
          title={
            <>
              {t.vulnerabilities} <span className="cairn-muted cairn-h-sub">{d.vulnerabilities.length}</span>
            </>
          }
          emptyText={d.vulnerabilities.length === 0 ? t.vulnerabilitiesNone : undefined}
        >
          <HTMLTable className="cairn-table" compact striped interactive>
            <thead>
              <tr>
                <th>{zh.task.bug.columns.id}</th>
                <th>{zh.task.bug.columns.level}</th>
                <th>{zh.task.bug.columns.fixed}</th>
                <th>{zh.task.bug.columns.mark}</th>
                <th>{zh.task.bug.columns.vex}</th>
              </tr>
            </thead>
            <tbody>
              {d.vulnerabilities.map((f) => (
                <tr key={f.id} className="cairn-clickable-row" onClick={() => view.setUrl({ ...findingChanges(f), component: undefined, level: undefined })}>
                  <td className="cairn-vul-id-text">{formatVulnerabilityId(f)}</td>
                  <td>
                    {f.level === f.originalLevel ? <FindingLevelTag level={f.level} source={f.severitySource} /> : <LevelTag level={f.level} />}
                  </td>
                  <td>
                    <FixedIn versions={f.fixedVersions} state={f.fixState} empty={DASH} />
                  </td>
                  <td>
                    <VulMarkTag mark={f.mark} />
                  </td>
                  <td>
                    <VexTag vex={f.vex} />
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </Panel>
        <Panel title={t.paths} emptyText={d.paths.length === 0 ? t.pathsNone : undefined}>
          {d.paths.map((path, i) => {
            const crumbs: BreadcrumbProps[] = path.map((s) => ({ text: s.version ? `${s.name}@${s.version}` : s.name }));
            return <Breadcrumbs key={i} items={crumbs} className="cairn-dep-path" minVisibleItems={crumbs.length} />;
          })}
          <div className="cairn-muted">{t.pathTotal(d.paths.length, d.pathTotal)}</div>
        </Panel>
        <Panel title={t.influence}>
          <Influence purl={d.purl} />
        </Panel>
        <Panel title={t.markLog}>
          <MarkLog componentId={d.id} />
        </Panel>
      </div>
    );
  }

  return (
    <Drawer
      isOpen={Boolean(componentId)}
      onClose={onClose}
      size={DrawerSize.LARGE}
      title={d ? `${d.name}${d.version ? `@${d.version}` : ''}` : t.title}
      icon="cube"
      className="cairn-result-drawer"
    >
      {d && view.canAudit ? (
        <div className="cairn-drawer-actions">
          <Button icon="tag" text={t.markThis} onClick={() => setMarking(true)} />
        </div>
      ) : null}
      {body}
      {d ? (
        <MarkDialog
          isOpen={marking}
          title={zh.task.component.markTitle(1)}
          label={zh.task.marks.mark}
          table={COMPONENT_MARK_LABEL}
          initial={d.mark}
          onClose={() => setMarking(false)}
          onSubmit={async (v) => {
            await mark({ body: { projectId: view.projectId, taskId: view.run.id, ids: [d.id], mark: v.code as 'N', remark: v.remark }, binary: view.binary }).unwrap();
            toastNotifier.success(zh.task.marks.saved);
          }}
        />
      ) : null}
    </Drawer>
  );
}
