// The URL state of /system/securityControl: the tab (?tab=rules|password|session, not a filter)
// and the IP rule list's filters and paging (?q=&action=ALLOW|DENY&state=on|off&page=&size=).
import { ACCESS_ACTION } from '../../../../contract/api/access.ts';
import { oneOf, text } from '../../../common/list/urlState.ts';

export const SECURITY_TABS = ['rules', 'password', 'session'] as const;
export type SecurityTab = (typeof SECURITY_TABS)[number];

export const SECURITY_FIELDS = {
  tab: oneOf('tab', SECURITY_TABS, 'rules', { filter: false }),
  keyword: text('q'),
  action: oneOf('action', [ACCESS_ACTION.ALLOW, ACCESS_ACTION.DENY] as const, ''),
  state: oneOf('state', ['on', 'off'] as const, ''),
};
