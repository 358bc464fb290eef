// Picks users from a list with a filter box: checkboxes for several, radios for one. Used by
// the new-subject dialog, member management, notice recipients and the transfer.
import { Checkbox, InputGroup, Radio } from '@blueprintjs/core';
import { useMemo, useState } from 'react';
import { zh } from '../../../i18n/zh-CN.ts';

const t = zh.subject;

export interface PickableUser {
  userId: number;
  username: string;
  name: string;
}

const label = (u: PickableUser) => (u.name && u.name !== u.username ? `${u.name}（${u.username}）` : u.username);

export function UserPicker({ users, selected, onChange, single, disabled = false }: {
  users: readonly PickableUser[];
  selected: readonly number[];
  onChange: (ids: number[]) => void;
  single?: boolean;
  /** Read-only: the choice is shown, not changed. */
  disabled?: boolean;
}) {
  const [filter, setFilter] = useState('');
  const shown = useMemo(() => {
    const f = filter.trim().toLowerCase();
    return f ? users.filter((u) => u.username.toLowerCase().includes(f) || u.name.toLowerCase().includes(f)) : users;
  }, [users, filter]);
  const toggle = (id: number, on: boolean) => onChange(on ? [...selected, id] : selected.filter((s) => s !== id));
  return (
    <div>
      <InputGroup leftIcon="search" placeholder={t.searchMembers} value={filter} onValueChange={setFilter} aria-label={t.searchMembers} />
      <div className="cairn-user-pick" role="group">
        {shown.length === 0 ? <div className="cairn-muted">{t.noUsers}</div> : null}
        {shown.map((u) => single
          ? <Radio key={u.userId} label={label(u)} disabled={disabled} checked={selected[0] === u.userId} onChange={() => onChange([u.userId])} />
          : <Checkbox key={u.userId} label={label(u)} disabled={disabled} checked={selected.includes(u.userId)} onChange={(e) => toggle(u.userId, e.currentTarget.checked)} />)}
      </div>
    </div>
  );
}
