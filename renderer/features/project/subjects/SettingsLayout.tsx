// /project/projectSettings/*: the subject's name on top, the tabs on the left (only those the
// user's codes allow, spec doc 1 §6 project:setup:*), the tab's form on the right. The subject
// comes from ?subjectId=; without it, or when it cannot be read, the screen says so.
import { Button, Callout, Menu, MenuItem } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import type { SubjectDetail } from '../../../../contract/api/subject.ts';
import { permissionOf, routeTitle } from '../../../../contract/routes.ts';
import { useSubjectDetailQuery } from '../../../api/subjectApi.ts';
import { usePermissions } from '../../../app/hooks.ts';
import { Page } from '../../../common/PageHeader.tsx';
import { ErrorState, LoadingState } from '../../../common/states.tsx';
import { NotYetTag } from '../../../common/NotYetTag.tsx';
import { zh } from '../../../i18n/zh-CN.ts';
import './styles.ts';

const t = zh.subject;
const BASE = '/project/projectSettings';
const SETTINGS_TABS = ['basicSetup', 'memberManagement', 'version', 'noticeSetup', 'defectManagement', 'projectPrivateServiceConf', 'dataTransfer'] as const;
export type SettingsTab = (typeof SETTINGS_TABS)[number];
/**
 * Tabs whose settings nothing in this version applies (the platform stores them, but sends no
 * notice, syncs no defect tracker and compares no private repository): each says so on top, is
 * marked 暂未提供 in the tab list, and its form is read-only (saving disabled).
 */
const NOT_APPLIED: ReadonlySet<SettingsTab> = new Set(['noticeSetup', 'defectManagement', 'projectPrivateServiceConf']);
export const settingsApplied = (tab: SettingsTab): boolean => !NOT_APPLIED.has(tab);

function useSubjectIdParam(): number | null {
  const [params] = useSearchParams();
  const id = Number(params.get('subjectId'));
  return Number.isInteger(id) && id > 0 ? id : null;
}

export function SettingsLayout({ tab, children }: { tab: SettingsTab; children: (subject: SubjectDetail) => ReactNode }) {
  const subjectId = useSubjectIdParam();
  const navigate = useNavigate();
  const has = usePermissions();
  const detail = useSubjectDetailQuery(subjectId ?? 0, { skip: subjectId === null });
  const back = <Button icon="arrow-left" text={t.backToList} onClick={() => navigate('/project/projectList')} />;

  let body: ReactNode;
  if (subjectId === null) body = <Callout intent="warning" icon="warning-sign">{t.missingSubject}</Callout>;
  else if (detail.isLoading) body = <LoadingState />;
  else if (detail.isError || !detail.data) body = <ErrorState title={t.loadSubjectFailed} message={(detail.error as { message?: string } | undefined)?.message} onRetry={() => void detail.refetch()} />;
  else {
    const tabs = SETTINGS_TABS.filter((k) => { const code = permissionOf(`${BASE}/${k}`); return !code || has(code); });
    body = (
      <div className="cairn-settings">
        <Menu aria-label={t.settingsTitle}>
          {tabs.map((k) => (
            <MenuItem
              key={k}
              text={t.tabs[k]}
              active={k === tab}
              labelElement={settingsApplied(k) ? undefined : <NotYetTag hint={t.notApplied.saveHint} />}
              onClick={() => navigate(`${BASE}/${k}?subjectId=${subjectId}`)}
            />
          ))}
        </Menu>
        <div className="cairn-settings-body">
          {!settingsApplied(tab) ? (
            <Callout intent="warning" icon="info-sign" title={t.notApplied.title} style={{ marginBottom: 12 }} data-testid="settings-not-applied">
              {t.notApplied[tab as keyof typeof t.notApplied]}
            </Callout>
          ) : !detail.data.canManage && tab !== 'memberManagement' && tab !== 'version' ? (
            <Callout icon="lock" style={{ marginBottom: 12 }}>{t.readOnly}</Callout>
          ) : null}
          {children(detail.data)}
        </div>
      </div>
    );
  }
  const title = detail.data ? `${t.settingsTitle} · ${detail.data.name}` : routeTitle(`${BASE}/${tab}`);
  return <Page title={title} subtitle={routeTitle(`${BASE}/${tab}`)} actions={back}>{body}</Page>;
}
