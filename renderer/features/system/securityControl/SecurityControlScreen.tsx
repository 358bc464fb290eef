// /system/securityControl 安全管控 (setup:sys): three tabs, the current one in the URL (?tab=):
// IP 访问规则 (the caller's own address, the rules with their filters, add/edit, 启用/停用 and
// delete), 密码策略 and 会话超时.
import { Tab, Tabs } from '@blueprintjs/core';
import { routeTitle } from '../../../../contract/routes.ts';
import { Page } from '../../../common/PageHeader.tsx';
import { changed } from '../../../common/list/urlState.ts';
import { useUrlState } from '../../../common/list/useListState.ts';
import { securityZh as t } from '../../../i18n/security.ts';
import { AccessRulesTab } from './AccessRulesTab.tsx';
import { SECURITY_FIELDS, type SecurityTab } from './fields.ts';
import { PasswordPolicyPanel, SessionTimeoutPanel } from './SecuritySettingsPanels.tsx';
import './styles.ts';

const PATH = '/system/securityControl';

export default function SecurityControlScreen() {
  const [state, setState] = useUrlState(SECURITY_FIELDS);
  return (
    <Page title={routeTitle(PATH)} subtitle={t.subtitle}>
      <Tabs id="security-tabs" selectedTabId={state.tab} onChange={(id) => setState(changed(state, { tab: id as SecurityTab }))} renderActiveTabPanelOnly large>
        <Tab id="rules" title={t.tabs.rules} panel={<AccessRulesTab state={state} onState={setState} />} />
        <Tab id="password" title={t.tabs.password} panel={<PasswordPolicyPanel />} />
        <Tab id="session" title={t.tabs.session} panel={<SessionTimeoutPanel />} />
      </Tabs>
    </Page>
  );
}
