// /bug/bugList/details?id=… and /knowledge/bug/details?id=… 漏洞详情: 概览 (ids with every
// CNNVD/CNVD number, level, score, vector, exploit, CWE with names, dates, the description rendered
// from its Markdown), 影响项目 (affected packages with readable ranges, listed and fixed versions,
// fix commits, the projects it touches) and 参考信息 (references grouped by purpose). The tab is
// kept in the URL (`tab=`).
import { Code, Icon } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { useLocation } from 'react-router';
import type { Static } from 'typebox';
import type { InvolvedSubjectSchema } from '../../../contract/api/vulnerability.ts';
import type { VulnerabilityDetail } from '../../../contract/api/vulnerability.ts';
import { DASH, formatDateTime, formatVulnerabilityId } from '../../../contract/format.ts';
import { useInvolvedSubjectsQuery, useVulnerabilityDetailQuery } from '../../api/vulnerabilityApi.ts';
import { DetailHeading, DetailPage, useDetailId } from '../../common/DetailPage.tsx';
import { Field } from '../../common/Field.tsx';
import { InvolvedSubjectsCard } from '../../common/InvolvedSubjectsCard.tsx';
import { Panel } from '../../common/Panel.tsx';
import { TagList, otherAliases } from '../../common/TagList.tsx';
import { ExploitText, FindingLevelTag, SeveritySource, formatScore } from '../../common/levels.tsx';
import { ExternalLink } from '../../common/ExternalLink.tsx';
import { Markdown } from '../../common/Markdown.tsx';
import { AffectedPackagesTable, ReferenceGroups, WeaknessList } from '../../common/vulnerability/AdvisoryParts.tsx';
import { zh } from '../../i18n/zh-CN.ts';
import './styles.ts';

const t = zh.vul;
const PATH = '/bug/bugList/details';
/** The knowledge base's route to the same page (spec area knowledge). */
const KNOWLEDGE_PATH = '/knowledge/bug/details';

const dashIfEmpty = (v: string | null | undefined): ReactNode => (v && v.trim() ? v : <span className="cairn-muted">{DASH}</span>);

function Overview({ v }: { v: VulnerabilityDetail }) {
  return (
    <>
      <Panel title={t.ids}>
        <div className="cairn-fields cairn-fields-grid">
          <Field label={t.identify}>
            <span className="cairn-vul-id-text">{v.identify}</span>
          </Field>
          <Field label={t.cve}>{dashIfEmpty(v.cve)}</Field>
          <Field label={t.cnnvd}>{v.cnnvdIds.length ? <TagList items={v.cnnvdIds} /> : dashIfEmpty(v.cnnvd)}</Field>
          <Field label={t.cnvd}>{v.cnvdIds.length ? <TagList items={v.cnvdIds} /> : dashIfEmpty(v.cnvd)}</Field>
          <Field label={t.aliases} wide>
            <TagList items={otherAliases(v)} />
          </Field>
        </div>
      </Panel>
      <Panel title={t.sectionRating}>
        <div className="cairn-fields cairn-fields-grid">
          <Field label={t.level}>
            <FindingLevelTag level={v.level} source={v.severitySource} />
          </Field>
          <Field label={t.severitySource}>
            <SeveritySource source={v.severitySource} level={v.level} />
          </Field>
          <Field label={t.score}>
            <span className="cairn-score">{formatScore(v.score)}</span>
            {v.cvssVersion ? <span className="cairn-muted"> （CVSS {v.cvssVersion}）</span> : null}
          </Field>
          <Field label={t.exploit}>
            <ExploitText code={v.exploit} />
          </Field>
          <Field label={t.cwe} wide>
            <WeaknessList weaknesses={v.weaknesses} />
          </Field>
          <Field label={t.vector} wide>
            {v.vector ? <Code className="cairn-vector">{v.vector}</Code> : <span className="cairn-muted">{DASH}</span>}
          </Field>
          {v.severities.filter((s) => s.score !== v.vector).map((s) => (
            <Field key={`${s.type}:${s.score}`} label={`${t.severities}（${s.type}）`} wide>
              <Code className="cairn-vector">{s.score}</Code>
            </Field>
          ))}
          <Field label={t.publishedAt}>{formatDateTime(v.published)}</Field>
          <Field label={t.modifiedAt}>{formatDateTime(v.modified)}</Field>
          {v.withdrawn ? <Field label={t.withdrawnAt}>{formatDateTime(v.withdrawn)}</Field> : null}
          <Field label={t.origin}>
            {t.sources[v.source] ?? v.source}
            {v.origin && v.origin !== v.source ? <span className="cairn-muted"> · {v.origin}</span> : null}
          </Field>
        </div>
      </Panel>
      <Panel title={t.description} emptyText={v.details.trim() ? undefined : t.noDescription}>
        <Markdown text={v.details} />
      </Panel>
    </>
  );
}

type InvolvedSubject = Static<typeof InvolvedSubjectSchema>;
const INVOLVED_COLUMNS = [
  { title: t.subjectColumns.name, cell: (s: InvolvedSubject) => s.subjectName },
  { title: t.subjectColumns.component, cell: (s: InvolvedSubject) => s.component },
  { title: t.subjectColumns.version, cell: (s: InvolvedSubject) => s.version },
];

function ImpactItems({ v, id }: { v: VulnerabilityDetail; id: string }) {
  return (
    <>
      <Panel
        title={<>{t.affectedPackages} <span className="cairn-muted cairn-h-sub">{t.affectedCount(v.affected.length)}</span></>}
        emptyText={v.affected.length === 0 ? zh.states.empty : undefined}
      >
        <AffectedPackagesTable affected={v.affected} />
      </Panel>
      <Panel title={t.fixCommits} emptyText={v.fixCommits.length === 0 ? t.noFixCommits : undefined}>
        <ul className="cairn-link-list">
          {v.fixCommits.map((c) => (
            <li key={c}>
              <Icon icon="git-commit" className="cairn-muted" /> <ExternalLink url={c} />
            </li>
          ))}
        </ul>
      </Panel>
      <InvolvedSubjectsCard id={id} texts={t} useSubjects={useInvolvedSubjectsQuery} columns={INVOLVED_COLUMNS} rowKey={(s) => `${s.subjectId}:${s.component}:${s.version}`} />
    </>
  );
}

function References({ v }: { v: VulnerabilityDetail }) {
  return (
    <Panel title={t.references} emptyText={v.references.length === 0 ? t.noReferences : undefined}>
      <ReferenceGroups references={v.references} />
    </Panel>
  );
}

export default function BugDetailsScreen() {
  const id = useDetailId();
  const { pathname } = useLocation();
  const q = useVulnerabilityDetailQuery(id, { skip: !id });
  return (
    <DetailPage
      path={pathname === KNOWLEDGE_PATH ? KNOWLEDGE_PATH : PATH}
      listPath="/bug/bugList"
      tabsId="vul-detail-tabs"
      id={id}
      texts={t}
      query={q}
      heading={(v) => <DetailHeading level={v.level} levelTag={<FindingLevelTag level={v.level} source={v.severitySource} />} id={formatVulnerabilityId(v)} name={v.name} warning={v.withdrawn ? t.withdrawn : null} />}
      panels={(v) => ({
        overview: <Overview v={v} />,
        impactItem: <ImpactItems v={v} id={id} />,
        referenceInformation: <References v={v} />,
      })}
    />
  );
}
