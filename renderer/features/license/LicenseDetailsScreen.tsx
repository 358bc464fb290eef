// /license/details?id=… 许可证详情: 概览 (ids, level and default level, attributes, the SPDX link,
// the full text) and 影响项目 (the projects whose results contain the licence). The tab is kept
// in the URL (`tab=`).
import type { ReactNode } from 'react';
import type { Static } from 'typebox';
import type { InvolvedSubjectSchema } from '../../../contract/api/license.ts';
import type { LicenseDetail } from '../../../contract/api/license.ts';
import { DASH, formatDateTime } from '../../../contract/format.ts';
import { useLicenseDetailQuery, useLicenseInvolvedSubjectsQuery } from '../../api/licenseApi.ts';
import { DetailHeading, DetailPage, useDetailId } from '../../common/DetailPage.tsx';
import { Field } from '../../common/Field.tsx';
import { InvolvedSubjectsCard } from '../../common/InvolvedSubjectsCard.tsx';
import { Panel } from '../../common/Panel.tsx';
import { ExternalLink } from '../../common/ExternalLink.tsx';
import { LevelTag } from '../../common/levels.tsx';
import { CopyleftText, YesNo } from '../../common/license/LicenseTable.tsx';
import { zh } from '../../i18n/zh-CN.ts';
import './styles.ts';

const t = zh.license;
const PATH = '/license/details';

/** The licence's page on the SPDX licence list. */
export const spdxPage = (spdxId: string): string => `https://spdx.org/licenses/${encodeURIComponent(spdxId)}.html`;

function Overview({ l }: { l: LicenseDetail }) {
  const a = l.attributes;
  const attrs: Array<[string, ReactNode]> = a
    ? [
        [t.attributeLabels.copyleft, a.copyleft === 'none' ? <YesNo value={false} /> : <CopyleftText copyleft={a.copyleft} />],
        [t.attributeLabels.osiApproved, <YesNo value={a.osiApproved} />],
        [t.attributeLabels.fsfLibre, <YesNo value={a.fsfLibre} />],
        [t.attributeLabels.patentGrant, <YesNo value={a.patentGrant} />],
        [t.attributeLabels.attribution, <YesNo value={a.attribution} />],
        [t.attributeLabels.sourceDisclosure, <YesNo value={a.sourceDisclosure} />],
      ]
    : [];
  return (
    <>
      <Panel title={t.basics}>
        <div className="cairn-fields cairn-fields-grid">
          <Field label={t.spdxId}>
            <span className="cairn-vul-id-text">{l.spdxId}</span>
          </Field>
          <Field label={t.name}>{l.name || DASH}</Field>
          <Field label={t.currentLevel}>
            <LevelTag level={l.level} />
            {l.levelEdited ? <span className="cairn-muted"> {t.levelEditedHint}</span> : null}
          </Field>
          <Field label={t.defaultLevel}>
            <LevelTag level={l.defaultLevel} />
          </Field>
          <Field label={t.updatedAt} wide>
            {formatDateTime(l.updatedAt)}
          </Field>
          <Field label={t.link} wide>
            <ExternalLink url={spdxPage(l.spdxId)} />
          </Field>
          {l.url && l.url !== spdxPage(l.spdxId) ? (
            <Field label={t.officialLink} wide>
              <ExternalLink url={l.url} />
            </Field>
          ) : null}
        </div>
      </Panel>
      <Panel title={t.attributes} emptyText={a ? undefined : t.noAttributes}>
        <ul className="cairn-attr-list" aria-label={t.attributes}>
          {attrs.map(([label, value]) => (
            <li key={label}>
              <span className="cairn-muted">{label}</span>
              <span>{value}</span>
            </li>
          ))}
        </ul>
      </Panel>
      <Panel title={t.text} emptyText={l.text.trim() ? undefined : t.noText}>
        <pre className="cairn-license-text" tabIndex={0} aria-label={t.text}>
          {l.text}
        </pre>
      </Panel>
    </>
  );
}

type InvolvedSubject = Static<typeof InvolvedSubjectSchema>;
const INVOLVED_COLUMNS = [
  { title: t.subjectColumns.project, cell: (s: InvolvedSubject) => s.projectName },
  { title: t.subjectColumns.subject, cell: (s: InvolvedSubject) => s.subjectName },
];

export default function LicenseDetailsScreen() {
  const id = useDetailId();
  const q = useLicenseDetailQuery(id, { skip: !id });
  return (
    <DetailPage
      path={PATH}
      listPath="/license"
      tabsId="license-detail-tabs"
      id={id}
      texts={t}
      query={q}
      heading={(l) => <DetailHeading level={l.level} id={l.spdxId} name={l.name} warning={l.deprecated ? t.deprecated : null} />}
      panels={(l) => ({
        overview: <Overview l={l} />,
        impactItem: <InvolvedSubjectsCard id={id} texts={t} useSubjects={useLicenseInvolvedSubjectsQuery} columns={INVOLVED_COLUMNS} rowKey={(s) => `${s.projectId}:${s.subjectId}`} />,
      })}
    />
  );
}
