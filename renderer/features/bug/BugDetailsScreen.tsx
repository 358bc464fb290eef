// /bug/bugList/details?id=… 漏洞详情: 概览 (ids, level, score, vector, exploit, CWE, dates,
// description), 影响项目 (affected packages with readable ranges and fixed versions, fix commits,
// the projects it touches) and 参考信息 (references). The tab is kept in the URL (`tab=`).
import { Code, HTMLTable, Icon, Tag } from '@blueprintjs/core';
import type { ReactNode } from 'react';
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
import { ExploitText, LevelTag, formatScore } from '../../common/levels.tsx';
import { ExternalLink } from '../../common/ExternalLink.tsx';
import { zh } from '../../i18n/zh-CN.ts';
import './styles.ts';

const t = zh.vul;
const PATH = '/bug/bugList/details';

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
          <Field label={t.cnnvd}>{dashIfEmpty(v.cnnvd)}</Field>
          <Field label={t.cnvd}>{dashIfEmpty(v.cnvd)}</Field>
          <Field label={t.aliases} wide>
            <TagList items={otherAliases(v)} />
          </Field>
        </div>
      </Panel>
      <Panel title={t.sectionRating}>
        <div className="cairn-fields cairn-fields-grid">
          <Field label={t.level}>
            <LevelTag level={v.level} />
          </Field>
          <Field label={t.score}>
            <span className="cairn-score">{formatScore(v.score)}</span>
            {v.cvssVersion ? <span className="cairn-muted"> （CVSS {v.cvssVersion}）</span> : null}
          </Field>
          <Field label={t.exploit}>
            <ExploitText code={v.exploit} />
          </Field>
          <Field label={t.cwe}>
            <TagList items={v.cwes} intent="primary" />
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
        <div className="cairn-description">{v.details}</div>
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
        <HTMLTable className="cairn-table cairn-affected-table" striped>
          <thead>
            <tr>
              <th>{t.ecosystem}</th>
              <th>{t.columns.packages}</th>
              <th>{t.affectedVersions}</th>
              <th>{t.fixedVersions}</th>
            </tr>
          </thead>
          <tbody>
            {v.affected.map((p, i) => {
              const ranges = p.affected.length ? p.affected : p.vulnerable;
              return (
                <tr key={`${p.ecosystem}:${p.name}:${i}`}>
                  <td>
                    <Tag minimal>{p.ecosystem}</Tag>
                    {p.distribution ? <div className="cairn-muted cairn-cell-sub">{`${t.distribution}：${p.distribution}`}</div> : null}
                  </td>
                  <td className="cairn-package-name">{p.name}</td>
                  <td>
                    {ranges.length ? (
                      ranges.map((r) => (
                        <div key={r}>
                          <Code>{r}</Code>
                        </div>
                      ))
                    ) : (
                      <span className="cairn-muted">{DASH}</span>
                    )}
                    {p.versions.length ? <div className="cairn-muted cairn-cell-sub" title={p.versions.join(', ')}>{t.explicitVersions(p.versions.length)}</div> : null}
                  </td>
                  <td>
                    {p.fixed.length ? (
                      <div className="cairn-tag-row">
                        {p.fixed.map((f) => (
                          <Tag key={f} minimal intent="success" icon="tick">
                            {f}
                          </Tag>
                        ))}
                      </div>
                    ) : (
                      <span className="cairn-muted">{t.noFix}</span>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </HTMLTable>
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
      <HTMLTable className="cairn-table cairn-ref-table" striped compact>
        <tbody>
          {v.references.map((r, i) => (
            <tr key={`${r.url}:${i}`}>
              <td className="cairn-col-reftype">
                <Tag minimal>{t.refTypes[r.type.toUpperCase()] ?? r.type}</Tag>
              </td>
              <td>
                <ExternalLink url={r.url} />
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </Panel>
  );
}

export default function BugDetailsScreen() {
  const id = useDetailId();
  const q = useVulnerabilityDetailQuery(id, { skip: !id });
  return (
    <DetailPage
      path={PATH}
      listPath="/bug/bugList"
      tabsId="vul-detail-tabs"
      id={id}
      texts={t}
      query={q}
      heading={(v) => <DetailHeading level={v.level} id={formatVulnerabilityId(v)} name={v.name} warning={v.withdrawn ? t.withdrawn : null} />}
      panels={(v) => ({
        overview: <Overview v={v} />,
        impactItem: <ImpactItems v={v} id={id} />,
        referenceInformation: <References v={v} />,
      })}
    />
  );
}
