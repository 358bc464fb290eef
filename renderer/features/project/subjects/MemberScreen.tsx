// 成员管理: the subject's members, paged; the owner adds users and removes members (never the owner).
import { Button, Card, Checkbox, Dialog, DialogBody, DialogFooter, HTMLTable, InputGroup, Tag } from '@blueprintjs/core';
import { useState } from 'react';
import type { SubjectDetail } from '../../../../contract/api/subject.ts';
import { DASH } from '../../../../contract/enums.ts';
import { SUCCESS_MESSAGES } from '../../../../contract/errors.ts';
import { formatDateTime } from '../../../../contract/format.ts';
import { apiErrorMessage } from '../../../api/baseQuery.ts';
import { useAddMembersMutation, useMembersQuery, useRemoveMembersMutation, useUsersForAddQuery } from '../../../api/subjectApi.ts';
import { toastNotifier as notify } from '../../../app/toaster.ts';
import { GuardedButton } from '../../../common/GuardedButton.tsx';
import { PagedListBody } from '../../../common/list/PagedListBody.tsx';
import { useConfirmDelete } from '../../../common/list/useConfirmDelete.tsx';
import { EmptyState } from '../../../common/states.tsx';
import { zh } from '../../../i18n/zh-CN.ts';
import { SettingsLayout } from './SettingsLayout.tsx';
import { UserPicker } from './UserPicker.tsx';

const t = zh.subject;

function AddMembersDialog({ subjectId, isOpen, onClose }: { subjectId: number; isOpen: boolean; onClose: () => void }) {
  const [picked, setPicked] = useState<number[]>([]);
  const users = useUsersForAddQuery({ subjectId }, { skip: !isOpen });
  const [add, adding] = useAddMembersMutation();
  const submit = async () => {
    try {
      await add({ subjectId, userIds: picked }).unwrap();
      notify.success(SUCCESS_MESSAGES.added);
      setPicked([]);
      onClose();
    } catch (err) {
      notify.error(apiErrorMessage(err));
    }
  };
  return (
    <Dialog isOpen={isOpen} onClose={onClose} title={t.addMembers} icon="new-person" style={{ width: 480 }}>
      <DialogBody><UserPicker users={users.data ?? []} selected={picked} onChange={setPicked} /></DialogBody>
      <DialogFooter actions={<>
        <Button text={t.cancel} onClick={onClose} />
        <GuardedButton intent="primary" text={t.confirm} disabled={!picked.length} loading={adding.isLoading} onClick={() => void submit()} />
      </>} />
    </Dialog>
  );
}

function Members({ subject }: { subject: SubjectDetail }) {
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(15);
  const [name, setName] = useState('');
  const [selected, setSelected] = useState<number[]>([]);
  const [adding, setAdding] = useState(false);
  const list = useMembersQuery({ subjectId: subject.id, page, size, ...(name.trim() && { name: name.trim() }) });
  const [remove] = useRemoveMembersMutation();
  const removal = useConfirmDelete<{ userId: number }, number>({
    rowKey: (m) => m.userId,
    removeOne: (m) => remove({ subjectId: subject.id, ids: [m.userId] }).unwrap(),
    removeMany: (ids) => remove({ subjectId: subject.id, ids }).unwrap(),
    texts: { one: () => t.confirmRemoveMembers(1), many: t.confirmRemoveMembers, confirm: t.confirm, done: SUCCESS_MESSAGES.deleted },
    selection: { drop: (ids) => setSelected((s) => s.filter((id) => !ids.includes(id))) },
  });
  return (
    <>
      <div className="cairn-subject-toolbar">
        <InputGroup leftIcon="search" placeholder={t.searchMembers} aria-label={t.searchMembers} value={name} onValueChange={(v) => { setName(v); setPage(1); }} />
        <span className="cairn-grow" />
        <Button icon="remove" intent="danger" text={t.removeMembers} disabled={!subject.canManage || !selected.length} onClick={() => removal.ask({ kind: 'many', keys: selected })} />
        <Button icon="new-person" intent="primary" text={t.addMembers} disabled={!subject.canManage} onClick={() => setAdding(true)} />
      </div>
      <PagedListBody list={list} texts={{ loadFailed: t.loadSubjectFailed, emptyFiltered: t.noMembers, emptyFilteredBody: '' }} filtered={!!name}
        emptyAll={<EmptyState title={t.noMembers} icon="people" />} page={page} size={size} onPage={setPage} onSize={(s) => { setSize(s); setPage(1); }}
        table={(rows) => (
          <HTMLTable className="cairn-table" compact striped>
            <thead><tr><th style={{ width: 32 }} /><th>{t.memberColumns.username}</th><th>{t.memberColumns.name}</th><th>{t.memberColumns.email}</th><th>{t.memberColumns.role}</th><th>{t.memberColumns.joinedAt}</th></tr></thead>
            <tbody>
              {rows.map((m) => (
                <tr key={m.userId}>
                  <td><Checkbox aria-label={m.username} disabled={m.role === 1 || !subject.canManage} checked={selected.includes(m.userId)}
                    onChange={(e) => { const on = e.currentTarget.checked; setSelected((s) => (on ? [...s, m.userId] : s.filter((x) => x !== m.userId))); }} /></td>
                  <td>{m.username}</td>
                  <td>{m.name}</td>
                  <td>{m.email ?? DASH}</td>
                  <td>{m.role === 1 ? <Tag intent="primary" minimal>{t.roleOwner}</Tag> : t.roleMember}</td>
                  <td>{formatDateTime(m.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )} />
      <AddMembersDialog subjectId={subject.id} isOpen={adding} onClose={() => setAdding(false)} />
      {removal.element}
    </>
  );
}

export default function MemberScreen() {
  return <SettingsLayout tab="memberManagement">{(s) => <Card><Members key={s.id} subject={s} /></Card>}</SettingsLayout>;
}
