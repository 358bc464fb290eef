// /project/report 报告管理 (permission report:list): one tab per kind of report the user may list
// (项目报告, 许可证报告, 统计报告, VEX 报告, 组件导出), the tab in the URL (?tab=). Reports are
// generated on the platform and downloaded from here into the desktop report library.
import { Button, Tab, Tabs, type TabId } from '@blueprintjs/core';
import { useNavigate, useSearchParams } from 'react-router';
import { routeTitle } from '../../../../contract/routes.ts';
import { usePermissions } from '../../../app/hooks.ts';
import { Page } from '../../../common/PageHeader.tsx';
import { EmptyState } from '../../../common/states.tsx';
import { ReportTab } from './ReportTab.tsx';
import { pickTab, visibleTabs } from './reportModel.ts';
import { useLibraryDownloads } from './useLibraryDownloads.ts';
import { zh } from '../../../i18n/zh-CN.ts';
import './styles.ts';

const t = zh.report;
const PATH = '/project/report';

export default function ReportManagementScreen() {
  const has = usePermissions();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const downloads = useLibraryDownloads();
  const tabs = visibleTabs(has);
  const current = pickTab(tabs, params.get('tab'));
  const library = downloads.available ? <Button icon="book" text={zh.report.openLibrary} onClick={() => navigate('/desktop/library')} /> : undefined;

  if (!current) {
    return (
      <Page title={routeTitle(PATH)} subtitle={t.subtitle}>
        <EmptyState title={t.noTabs} description={t.noTabsBody} icon="lock" />
      </Page>
    );
  }
  return (
    <Page title={routeTitle(PATH)} subtitle={t.subtitle} actions={library}>
      <Tabs
        id="report-tabs"
        large
        selectedTabId={current.key}
        renderActiveTabPanelOnly
        onChange={(next: TabId) => setParams({ tab: String(next) }, { replace: true })}
      >
        {tabs.map((tab) => (
          <Tab key={tab.key} id={tab.key} title={t.tabs[tab.key]} panel={<ReportTab key={tab.key} tab={tab} downloads={downloads} />} />
        ))}
      </Tabs>
    </Page>
  );
}
