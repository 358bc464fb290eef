// /license/details?id=… 许可证详情: 概览 (ids, level and default level, attributes, the SPDX link,
// the full text) and 影响项目 (the projects whose results contain the licence). The tab is kept
// in the URL (`tab=`).
import { Button, Card, H5, HTMLTable, Tab, Tabs, Tag, type TabId } from '@blueprintjs/core';
import { useState, type ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import type { LicenseDetail } from '../../../contract/api/license.ts';
import { DASH, formatDateTime } from '../../../contract/format.ts';
import { routeInfo, routeTitle } from '../../../contract/routes.ts';
import { useLicenseDetailQuery, useLicenseInvolvedSubjectsQuery } from '../../api/licenseApi.ts';
import { Page } from '../../common/PageHeader.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../common/states.tsx';
import { ExternalLink } from '../bug/ExternalLink.tsx';
import { LevelTag } from '../bug/levels.tsx';
import { Pager } from '../bug/Pager.tsx';
import { CopyleftText, YesNo } from './LicenseTable.tsx';
import { zh } from '../../i18n/zh-CN.ts';
import './styles.ts';

const t = zh.license;
const PATH = '/license/details';
const TABS = routeInfo(PATH)?.tabs.filter((x) => !x.aliasOf) ?? [];
const TAB_KEYS = TABS.map((x) => x.key);

/** The licence's page on the SPDX licence list. */
export const spdxPage = (spdxId: string): string => `https://spdx.org/licenses/${encodeURIComponent(spdxId)}.html`;

function Field({ label, children, wide }: { label: string; children: ReactNode; wide?: boolean }) {
  return (
    <div className={wide ? 'cairn-field cairn-field-wide' : 'cairn-field'}>
      <div className="cairn-field-label cairn-muted">{label}</div>
      <div className="cairn-field-value">{children}</div>
    </div>
  );
}

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
      <Card className="cairn-panel">
        <H5>{t.basics}</H5>
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
      </Card>
      <Card className="cairn-panel">
        <H5>{t.attributes}</H5>
        {a ? (
          <ul className="cairn-attr-list" aria-label={t.attributes}>
            {attrs.map(([label, value]) => (
              <li key={label}>
                <span className="cairn-muted">{label}</span>
                <span>{value}</span>
              </li>
            ))}
          </ul>
        ) : (
          <div className="cairn-muted cairn-panel-empty">{t.noAttributes}</div>
        )}
      </Card>
      <Card className="cairn-panel">
        <H5>{t.text}</H5>
        {l.text.trim() ? (
          <pre className="cairn-license-text" tabIndex={0} aria-label={t.text}>
            {l.text}
          </pre>
        ) : (
          <div className="cairn-muted cairn-panel-empty">{t.noText}</div>
        )}
      </Card>
    </>
  );
}

function InvolvedSubjects({ id }: { id: string }) {
  const [page, setPage] = useState(1);
  const size = 15;
  const q = useLicenseInvolvedSubjectsQuery({ id, paging: { page, size } });
  let body: ReactNode;
  if (q.isLoading) body = <LoadingState />;
  else if (q.isError) body = <ErrorState message={q.error.message} onRetry={() => void q.refetch()} />;
  else if (!q.data || q.data.total === 0) body = <div className="cairn-muted cairn-panel-empty">{t.involvedEmpty}</div>;
  else {
    body = (
      <>
        <HTMLTable className="cairn-table" striped compact>
          <thead>
            <tr>
              <th>{t.subjectColumns.project}</th>
              <th>{t.subjectColumns.subject}</th>
            </tr>
          </thead>
          <tbody>
            {q.data.content.map((s) => (
              <tr key={`${s.projectId}:${s.subjectId}`}>
                <td>{s.projectName}</td>
                <td>{s.subjectName}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
        <Pager page={page} size={size} total={q.data.total} onPage={setPage} />
      </>
    );
  }
  return (
    <Card className="cairn-panel">
      <H5>{t.involvedSubjects}</H5>
      {body}
    </Card>
  );
}

export default function LicenseDetailsScreen() {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const id = (params.get('id') ?? '').trim();
  const rawTab = params.get('tab') ?? '';
  const tab = TAB_KEYS.includes(rawTab) ? rawTab : (TAB_KEYS[0] ?? 'overview');
  const q = useLicenseDetailQuery(id, { skip: !id });
  const back = <Button icon="arrow-left" text={t.back} onClick={() => (window.history.length > 1 ? navigate(-1) : navigate('/license'))} />;

  if (!id) {
    return (
      <Page title={routeTitle(PATH)} actions={back}>
        <EmptyState title={t.detailMissingId} description={t.detailMissingIdBody} icon="search" />
      </Page>
    );
  }
  let body: ReactNode;
  let subtitle: ReactNode;
  if (q.isLoading) body = <LoadingState />;
  else if (q.isError) body = <ErrorState title={t.detailLoadFailed} message={q.error.message} onRetry={() => void q.refetch()} />;
  else if (!q.data) body = <EmptyState />;
  else {
    const l = q.data;
    subtitle = (
      <span className="cairn-detail-heading">
        <LevelTag level={l.level} />
        <span className="cairn-vul-id-text">{l.spdxId}</span>
        <span className="cairn-detail-name">{l.name}</span>
        {l.deprecated ? (
          <Tag minimal intent="warning">
            {t.deprecated}
          </Tag>
        ) : null}
      </span>
    );
    const panels: Record<string, ReactNode> = {
      overview: <Overview l={l} />,
      impactItem: <InvolvedSubjects id={id} />,
    };
    body = (
      <Tabs
        id="license-detail-tabs"
        selectedTabId={tab}
        large
        renderActiveTabPanelOnly
        onChange={(next: TabId) =>
          setParams(
            (old) => {
              const out = new URLSearchParams(old);
              out.set('tab', String(next));
              return out;
            },
            { replace: true },
          )
        }
      >
        {TABS.map((x) => (
          <Tab key={x.key} id={x.key} title={x.label} panel={<div className="cairn-tab-panel">{panels[x.key]}</div>} />
        ))}
      </Tabs>
    );
  }
  return (
    <Page title={routeTitle(PATH)} subtitle={subtitle} actions={back}>
      {body}
    </Page>
  );
}
