// The finding drawer's knowledge-base part: what the advisory behind a finding says now — the
// description (its Markdown, rendered safely), CNNVD/CNVD numbers, CWE with names, the affected
// packages (the finding's own package first and marked) and the references by purpose.
import { AnchorButton, Card, Tag } from '@blueprintjs/core';
import type { FindingRow } from '../../../../contract/api/result/index.ts';
import { useFindingAdvisoryQuery } from '../../../api/resultApi.ts';
import { Field } from '../../../common/Field.tsx';
import { Markdown } from '../../../common/Markdown.tsx';
import { Panel, QueryBody } from '../../../common/Panel.tsx';
import { TagList } from '../../../common/TagList.tsx';
import { AffectedPackagesTable, ReferenceGroups, WeaknessList } from '../../../common/vulnerability/AdvisoryParts.tsx';
import { zh } from '../../../i18n/zh-CN.ts';

const t = zh.task.findingDetail;

/** The recommended upgrade of a finding: the version to take, or why none is named. */
export function UpgradeAdvice({ upgrade }: { upgrade: FindingRow['upgrade'] }) {
  return (
    <span className="cairn-upgrade" data-testid="finding-upgrade">
      {upgrade.version ? (
        <Tag intent="success" icon="circle-arrow-up" minimal className="cairn-inline-tag">
          {t.upgradeTo(upgrade.version)}
        </Tag>
      ) : null}
      <span className={upgrade.version ? 'cairn-muted cairn-upgrade-reason' : 'cairn-upgrade-reason'}>{upgrade.reason}</span>
    </span>
  );
}

export function FindingAdvisory({ projectId, finding }: { projectId: number; finding: FindingRow }) {
  const q = useFindingAdvisoryQuery({ projectId, id: finding.id });
  return (
    <QueryBody query={q}>
      {(d) => {
        const v = d.advisory;
        if (!v) return <Card className="cairn-panel cairn-muted">{t.advisoryMissing}</Card>;
        return (
          <>
            <Panel
              title={<>{t.description} <span className="cairn-muted cairn-h-sub">{t.advisoryHint}</span></>}
              actions={<AnchorButton variant="minimal" size="small" icon="share" text={t.openAdvisory} href={`#/knowledge/bug/details?id=${v.id}`} />}
              emptyText={v.details.trim() ? undefined : t.noDescription}
            >
              <Markdown text={v.details} />
            </Panel>
            <Card className="cairn-panel">
              <div className="cairn-fields cairn-fields-grid">
                <Field label={t.cnnvd}>
                  <TagList items={v.cnnvdIds} />
                </Field>
                <Field label={t.cnvd}>
                  <TagList items={v.cnvdIds} />
                </Field>
                <Field label={t.cwe} wide>
                  <WeaknessList weaknesses={v.weaknesses} />
                </Field>
              </div>
            </Card>
            <Panel title={t.affected} emptyText={v.affected.length ? undefined : zh.states.empty}>
              <AffectedPackagesTable affected={v.affected} component={{ ecosystem: finding.ecosystem, name: finding.componentName }} />
            </Panel>
            <Panel title={t.references} emptyText={v.references.length ? undefined : t.noReferences}>
              <ReferenceGroups references={v.references} />
            </Panel>
          </>
        );
      }}
    </QueryBody>
  );
}
