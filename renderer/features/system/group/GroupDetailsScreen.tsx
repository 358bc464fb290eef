// /system/group/details?id=…&tab= 组织详情: a group's path and counts over three tabs — 应用 (the
// 应用 in it; 添加应用 picks from those not in it, moving each from the group it was in), 成员 (its
// users; 添加成员 picks from the others; a user may be in several groups) and 子分组 (the groups
// directly below it, opened on click, and a new one). Lists page and search on the platform; the
// checked rows of a list are removed together.
import { useState } from 'react';
import { Button, Callout, Dialog, DialogBody, DialogFooter, InputGroup, Tag } from '@blueprintjs/core';
import { useNavigate } from 'react-router';
import type { GroupDetail, GroupSubjectRow, GroupTreeNode, GroupUserRow } from '../../../../contract/api/group.ts';
import { PRODUCT_LABEL, USER_TYPE_LABEL, labelOf } from '../../../../contract/enums.ts';
import { orDash } from '../../../../contract/format.ts';
import { apiErrorMessage } from '../../../api/baseQuery.ts';
import {
  useAddGroupSubjectsMutation, useAddGroupUsersMutation, useGroupDetailQuery, useSubjectsInGroupQuery, useGroupSubjectsToAddQuery,
  useGroupTreeQuery, useGroupUsersQuery, useGroupUsersToAddQuery, useRemoveGroupSubjectsMutation, useRemoveGroupUsersMutation,
} from '../../../api/groupApi.ts';
import { toastNotifier as notify } from '../../../app/toaster.ts';
import { DetailPage, useDetailId } from '../../../common/DetailPage.tsx';
import { GuardedButton } from '../../../common/GuardedButton.tsx';
import { Panel } from '../../../common/Panel.tsx';
import { DataTable, type Column } from '../../../common/list/DataTable.tsx';
import { PagedListBody, type PagedListQuery } from '../../../common/list/PagedListBody.tsx';
import { useConfirmDelete } from '../../../common/list/useConfirmDelete.tsx';
import { useSelection } from '../../../common/list/useSelection.ts';
import { EmptyState } from '../../../common/states.tsx';
import { zh } from '../../../i18n/zh-CN.ts';
import { GroupNameDialog } from './GroupDialogs.tsx';
import { DETAILS_PATH } from './GroupScreen.tsx';
import './styles.ts';

const t = zh.system.group;
type PickerArgs = { groupId: number; keyword?: string; page: number; size: number };
type UsePage<Row> = (args: PickerArgs) => PagedListQuery<Row>;

const SUBJECT_COLUMNS: ReadonlyArray<Column<GroupSubjectRow>> = [
  { key: 'name', title: t.columns.subjectName, className: 'cairn-col-name', cell: (r) => r.name },
  { key: 'product', title: t.columns.product, cell: (r) => labelOf(PRODUCT_LABEL, r.product) },
  { key: 'owner', title: t.columns.owner, cell: (r) => orDash(r.ownerName) },
];
const SUBJECT_PICK_COLUMNS: ReadonlyArray<Column<GroupSubjectRow>> = [
  ...SUBJECT_COLUMNS,
  { key: 'group', title: t.columns.currentGroup, cell: (r) => (r.groupPath ? <Tag minimal intent="warning">{r.groupPath}</Tag> : t.none) },
];
const USER_COLUMNS: ReadonlyArray<Column<GroupUserRow>> = [
  { key: 'username', title: t.columns.username, className: 'cairn-col-name', cell: (r) => r.username },
  { key: 'name', title: t.columns.name, cell: (r) => r.name },
  { key: 'email', title: t.columns.email, cell: (r) => orDash(r.email) },
  { key: 'type', title: t.columns.userType, cell: (r) => labelOf(USER_TYPE_LABEL, r.userType) },
  { key: 'lock', title: t.columns.lock, cell: (r) => (r.isLock === 'Y' ? <Tag minimal intent="danger">{t.locked}</Tag> : t.normal) },
  { key: 'groups', title: t.columns.groups, cell: (r) => (r.groupPaths.length ? r.groupPaths.join('；') : t.none) },
];

/** A searchable, paged list of one page hook with checkboxes: what a tab and a picker share. */
function usePagedPicker<Row>(groupId: number, usePage: UsePage<Row>) {
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(15);
  const list = usePage({ groupId, page, size, ...(keyword.trim() && { keyword: keyword.trim() }) });
  return { keyword, setKeyword: (v: string) => { setKeyword(v); setPage(1); }, page, setPage, size, setSize: (s: number) => { setSize(s); setPage(1); }, list };
}

interface MembershipTexts {
  keyword: string;
  add: string;
  empty: string;
  pickTitle: string;
  pickHelp: string;
  removeMany: (n: number) => string;
  removeOne: (name: string) => string;
}

function PickDialog<Row extends { id: number }>({ group, texts, usePage, columns, label, onAdd, onClose }: {
  group: GroupDetail; texts: MembershipTexts; usePage: UsePage<Row>; columns: ReadonlyArray<Column<Row>>; label: (r: Row) => string;
  onAdd: (ids: number[]) => Promise<unknown>; onClose: () => void;
}) {
  const p = usePagedPicker(group.id, usePage);
  const selection = useSelection(p.list.data?.content ?? [], (r: Row) => r.id);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    setBusy(true);
    try {
      await onAdd([...selection.selected]);
      notify.success(t.added);
      onClose();
    } catch (e) {
      notify.error(apiErrorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog isOpen onClose={onClose} title={texts.pickTitle} icon="add" className="cairn-group-pick-dialog">
      <DialogBody>
        <Callout intent="primary" icon="info-sign" compact className="cairn-group-pick-help">{texts.pickHelp}</Callout>
        <InputGroup leftIcon="search" type="search" placeholder={texts.keyword} aria-label={texts.keyword} value={p.keyword} onValueChange={p.setKeyword} className="cairn-group-search" />
        <PagedListBody
          list={p.list}
          texts={{ loadFailed: t.loadFailed, emptyFiltered: t.nothingMatches, emptyFilteredBody: t.nothingMatchesBody }}
          filtered={Boolean(p.keyword.trim())}
          emptyAll={<EmptyState title={t.noneToAdd} icon="inbox" />}
          page={p.page}
          size={p.size}
          onPage={p.setPage}
          onSize={p.setSize}
          table={(rows) => <DataTable rows={rows} columns={columns} rowKey={(r) => r.id} rowLabel={label} selection={selection} compact />}
        />
      </DialogBody>
      <DialogFooter actions={<>
        <Button text={t.cancel} onClick={onClose} />
        <GuardedButton intent="primary" text={t.addPicked(selection.selected.size)} disabled={!selection.selected.size} loading={busy} onClick={() => void submit()} />
      </>} />
    </Dialog>
  );
}

function MembershipTab<Row extends { id: number }>({ group, texts, usePage, usePickPage, columns, pickColumns, label, add, remove }: {
  group: GroupDetail; texts: MembershipTexts; usePage: UsePage<Row>; usePickPage: UsePage<Row>;
  columns: ReadonlyArray<Column<Row>>; pickColumns: ReadonlyArray<Column<Row>>; label: (r: Row) => string;
  add: (ids: number[]) => Promise<unknown>; remove: (ids: number[]) => Promise<unknown>;
}) {
  const p = usePagedPicker(group.id, usePage);
  const rows = p.list.data?.content ?? [];
  const selection = useSelection(rows, (r: Row) => r.id);
  const [picking, setPicking] = useState(false);
  const removal = useConfirmDelete<Row, number>({
    rowKey: (r) => r.id,
    removeOne: (r) => remove([r.id]),
    removeMany: (ids) => remove(ids),
    texts: { one: (r) => texts.removeOne(label(r)), many: texts.removeMany, confirm: t.removeConfirm, done: t.removed },
    selection,
    paging: { page: p.page, rows: rows.length, onPage: p.setPage },
  });
  return (
    <Panel
      title={<InputGroup leftIcon="search" type="search" placeholder={texts.keyword} aria-label={texts.keyword} value={p.keyword} onValueChange={p.setKeyword} className="cairn-group-search" />}
      actions={<div className="cairn-group-tab-actions">
        <Button icon="remove" intent="danger" text={t.removeSelected(selection.selected.size)} disabled={!selection.selected.size} onClick={() => removal.ask({ kind: 'many', keys: [...selection.selected] })} />
        <Button icon="add" intent="primary" text={texts.add} onClick={() => setPicking(true)} />
      </div>}
    >
      <PagedListBody
        list={p.list}
        texts={{ loadFailed: t.loadFailed, emptyFiltered: t.nothingMatches, emptyFilteredBody: t.nothingMatchesBody }}
        filtered={Boolean(p.keyword.trim())}
        emptyAll={<EmptyState title={texts.empty} icon="inbox" action={<Button icon="add" intent="primary" text={texts.add} onClick={() => setPicking(true)} />} />}
        page={p.page}
        size={p.size}
        onPage={p.setPage}
        onSize={p.setSize}
        table={(shown) => (
          <DataTable
            rows={shown}
            columns={columns}
            rowKey={(r) => r.id}
            rowLabel={label}
            selection={selection}
            actions={(r) => <Button variant="minimal" icon="remove" intent="danger" aria-label={`${t.removeConfirm} ${label(r)}`} title={t.removeConfirm} onClick={() => removal.ask({ kind: 'one', row: r })} />}
          />
        )}
      />
      {picking ? <PickDialog group={group} texts={texts} usePage={usePickPage} columns={pickColumns} label={label} onAdd={add} onClose={() => setPicking(false)} /> : null}
      {removal.element}
    </Panel>
  );
}

function SubjectsTab({ group }: { group: GroupDetail }) {
  const [addSubjects] = useAddGroupSubjectsMutation();
  const [removeSubjects] = useRemoveGroupSubjectsMutation();
  return (
    <MembershipTab<GroupSubjectRow>
      group={group}
      texts={{ keyword: t.keywordSubjects, add: t.addSubjects, empty: t.noSubjects, pickTitle: t.pickSubjectsTitle(group.groupPath), pickHelp: t.pickSubjectsHelp, removeMany: t.removeSubjectsBody, removeOne: t.removeOneSubject }}
      usePage={useSubjectsInGroupQuery}
      usePickPage={useGroupSubjectsToAddQuery}
      columns={SUBJECT_COLUMNS}
      pickColumns={SUBJECT_PICK_COLUMNS}
      label={(r) => r.name}
      add={(subjectIds) => addSubjects({ groupId: group.id, subjectIds }).unwrap()}
      remove={(subjectIds) => removeSubjects({ groupId: group.id, subjectIds }).unwrap()}
    />
  );
}

function UsersTab({ group }: { group: GroupDetail }) {
  const [addUsers] = useAddGroupUsersMutation();
  const [removeUsers] = useRemoveGroupUsersMutation();
  return (
    <MembershipTab<GroupUserRow>
      group={group}
      texts={{ keyword: t.keywordUsers, add: t.addUsers, empty: t.noUsers, pickTitle: t.pickUsersTitle(group.groupPath), pickHelp: t.pickUsersHelp, removeMany: t.removeUsersBody, removeOne: t.removeOneUser }}
      usePage={useGroupUsersQuery}
      usePickPage={useGroupUsersToAddQuery}
      columns={USER_COLUMNS}
      pickColumns={USER_COLUMNS}
      label={(r) => (r.name && r.name !== r.username ? `${r.name}（${r.username}）` : r.username)}
      add={(userIds) => addUsers({ groupId: group.id, userIds }).unwrap()}
      remove={(userIds) => removeUsers({ groupId: group.id, userIds }).unwrap()}
    />
  );
}

const CHILD_COLUMNS: ReadonlyArray<Column<GroupTreeNode>> = [
  { key: 'name', title: t.columns.childName, className: 'cairn-col-name', cell: (r) => r.name },
  { key: 'children', title: t.children, className: 'cairn-col-number', cell: (r) => r.childCount },
  { key: 'subjects', title: t.subjects, className: 'cairn-col-number', cell: (r) => r.subjectCount },
  { key: 'users', title: t.users, className: 'cairn-col-number', cell: (r) => r.userCount },
];

function findNode(nodes: GroupTreeNode[], id: number): GroupTreeNode | undefined {
  for (const n of nodes) {
    if (n.id === id) return n;
    const below = findNode(n.children, id);
    if (below) return below;
  }
  return undefined;
}

function ChildrenTab({ group }: { group: GroupDetail }) {
  const tree = useGroupTreeQuery({});
  const navigate = useNavigate();
  const [adding, setAdding] = useState(false);
  const children = tree.data ? findNode(tree.data, group.id)?.children ?? [] : [];
  return (
    <Panel
      title={t.children}
      actions={<Button icon="folder-new" intent="primary" text={t.addChild} onClick={() => setAdding(true)} />}
      {...(tree.data && !children.length ? { emptyText: t.noChildren } : {})}
    >
      <DataTable rows={children} columns={CHILD_COLUMNS} rowKey={(r) => r.id} rowLabel={(r) => r.name} onOpen={(r) => navigate(`${DETAILS_PATH}?id=${r.id}&tab=child`)} />
      {adding ? <GroupNameDialog target={{ mode: 'child', group }} onClose={() => setAdding(false)} /> : null}
    </Panel>
  );
}

export default function GroupDetailsScreen() {
  const id = useDetailId();
  const groupId = Number(id) || 0;
  const q = useGroupDetailQuery(groupId, { skip: !groupId });
  return (
    <DetailPage<GroupDetail>
      path={DETAILS_PATH}
      listPath="/system/group"
      tabsId="group-detail-tabs"
      id={groupId ? id : ''}
      texts={t}
      query={q}
      heading={(g) => (
        <span className="cairn-detail-heading">
          <span className="cairn-group-path">{g.groupPath}</span>
          <Tag minimal>{`${t.subjects} ${g.subjectCount}`}</Tag>
          <Tag minimal>{`${t.users} ${g.userCount}`}</Tag>
          <Tag minimal>{`${t.children} ${g.childCount}`}</Tag>
        </span>
      )}
      panels={(g) => ({
        subject: <SubjectsTab key={g.id} group={g} />,
        member: <UsersTab key={g.id} group={g} />,
        child: <ChildrenTab key={g.id} group={g} />,
      })}
    />
  );
}
