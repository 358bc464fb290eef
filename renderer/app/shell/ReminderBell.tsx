// The bug-remind count, polled every 60 s for holders of risk:vul:list, never on the login and
// remind screens (spec doc 1 §2). The call is not implemented by the platform yet (服务未实现):
// a failure is quiet and shows no badge.
import { useMemo } from 'react';
import { Button, Menu, MenuItem, PopoverNext, Tooltip } from '@blueprintjs/core';
import { useLocation, useNavigate } from 'react-router';
import { REMINDER_POLL_MS, REMINDER_PERMISSION, shouldPollReminders } from '../../../contract/navigation.ts';
import { REMIND_MENU, visibleMenu } from '../../../contract/routes.ts';
import { useRemindersQuery } from '../../api/platformApi.ts';
import { useAppSelector, usePermissions, selectProduct } from '../hooks.ts';
import { isMenuBuilt } from '../router/screens.ts';
import { NotYetTag } from '../../common/NotYetTag.tsx';
import { zh } from '../../i18n/zh-CN.ts';

export function ReminderBell() {
  const has = usePermissions();
  const product = useAppSelector(selectProduct);
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const poll = shouldPollReminders(pathname, has);
  const { data } = useRemindersQuery(undefined, { skip: !poll, pollingInterval: REMINDER_POLL_MS, skipPollingIfUnfocused: false });
  const items = useMemo(() => visibleMenu(REMIND_MENU, has, product), [has, product]);
  if (!has(REMINDER_PERMISSION)) return null;

  const count = poll && typeof data === 'number' && data > 0 ? data : 0;
  const bell = (
    <span className="cairn-bell">
      <Button variant="minimal" icon="notifications" aria-label={zh.shell.reminders} />
      {count > 0 ? <span className="cairn-badge">{count > 99 ? '99+' : count}</span> : null}
    </span>
  );
  if (items.length === 0) return <Tooltip content={zh.shell.reminders}>{bell}</Tooltip>;
  const menu = (
    <Menu>
      {items.map((i) => (
        isMenuBuilt(i) ? (
          <MenuItem key={i.key} icon="notifications" text={i.title} onClick={() => i.path && navigate(i.path)} />
        ) : (
          <MenuItem key={i.key} icon="notifications" text={i.title} disabled shouldDismissPopover={false} labelElement={<NotYetTag />} />
        )
      ))}
    </Menu>
  );
  return (
    <PopoverNext content={menu} placement="bottom-end">
      <Tooltip content={count > 0 ? zh.shell.reminderCount(count) : zh.shell.reminders}>{bell}</Tooltip>
    </PopoverNext>
  );
}
