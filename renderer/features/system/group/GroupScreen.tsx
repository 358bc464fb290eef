// /system/group 组织管理 (setup:group:list): the organisation tree on the left (searchable; a
// search keeps the matching groups and those above them), the chosen group on the right with its
// path and counts and the commands: new child group, rename, move, delete (refused by the platform
// while the group still holds anything) and its details page. The chosen group and the search are
// kept in the URL (?id=&q=).
import { useMemo, useState } from 'react';
import { Button, ButtonGroup, Card, InputGroup, Tree, type TreeNodeInfo } from '@blueprintjs/core';
import { useNavigate, useSearchParams } from 'react-router';
import type { GroupDetail, GroupTreeNode } from '../../../../contract/api/group.ts';
import { formatDateTime } from '../../../../contract/format.ts';
import { routeTitle } from '../../../../contract/routes.ts';
import { useGroupTreeQuery, useRemoveGroupMutation } from '../../../api/groupApi.ts';
import { Field } from '../../../common/Field.tsx';
import { Page } from '../../../common/PageHeader.tsx';
import { useConfirmDelete } from '../../../common/list/useConfirmDelete.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../../common/states.tsx';
import { zh } from '../../../i18n/zh-CN.ts';
import { GroupNameDialog, MoveGroupDialog, type NameDialogMode } from './GroupDialogs.tsx';
import './styles.ts';

const t = zh.system.group;
const PATH = '/system/group';
export const DETAILS_PATH = '/system/group/details';

function flatten(nodes: GroupTreeNode[]): GroupTreeNode[] {
  return nodes.flatMap((n) => [n, ...flatten(n.children)]);
}

function toTreeNodes(nodes: GroupTreeNode[], selected: number | null, collapsed: ReadonlySet<number>): Array<TreeNodeInfo<GroupTreeNode>> {
  return nodes.map((n) => ({
    id: n.id,
    label: n.name,
    secondaryLabel: <span className="cairn-muted cairn-group-counts">{t.counts(n.subjectCount, n.userCount)}</span>,
    icon: n.children.length ? (collapsed.has(n.id) ? 'folder-close' : 'folder-open') : 'people',
    isSelected: n.id === selected,
    isExpanded: !collapsed.has(n.id),
    hasCaret: n.children.length > 0,
    nodeData: n,
    ...(n.children.length ? { childNodes: toTreeNodes(n.children, selected, collapsed) } : {}),
  }));
}

export function GroupFacts({ group }: { group: GroupDetail }) {
  const parent = group.path.length > 1 ? group.path.slice(0, -1).map((c) => c.name).join(' / ') : t.topLevel;
  return (
    <div className="cairn-fields cairn-fields-grid">
      <Field label={t.path} wide>
        <span className="cairn-group-path">{group.groupPath}</span>
      </Field>
      <Field label={t.parent}>{parent}</Field>
      <Field label={t.createdAt}>{formatDateTime(group.createdAt)}</Field>
      <Field label={t.children}>{group.childCount}</Field>
      <Field label={t.subjects}>{group.subjectCount}</Field>
      <Field label={t.users}>{group.userCount}</Field>
    </div>
  );
}

export default function GroupScreen() {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const keyword = params.get('q') ?? '';
  const selectedId = Number(params.get('id')) || null;
  const tree = useGroupTreeQuery(keyword.trim() ? { keyword: keyword.trim() } : {});
  const [collapsed, setCollapsed] = useState<ReadonlySet<number>>(new Set());
  const [naming, setNaming] = useState<NameDialogMode | null>(null);
  const [moving, setMoving] = useState<GroupDetail | null>(null);
  const [remove] = useRemoveGroupMutation();

  const setParam = (key: string, value: string | null) =>
    setParams((old) => {
      const out = new URLSearchParams(old);
      if (value) out.set(key, value);
      else out.delete(key);
      return out;
    }, { replace: true });
  const select = (id: number | null) => setParam('id', id === null ? null : String(id));

  const all = useMemo(() => flatten(tree.data ?? []), [tree.data]);
  const selected = all.find((g) => g.id === selectedId) ?? null;
  const nodes = useMemo(() => toTreeNodes(tree.data ?? [], selectedId, collapsed), [tree.data, selectedId, collapsed]);
  const toggle = (id: number) => setCollapsed((old) => {
    const next = new Set(old);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    return next;
  });

  const removal = useConfirmDelete<GroupDetail, number>({
    rowKey: (g) => g.id,
    removeOne: async (g) => {
      await remove(g.id).unwrap();
      select(g.pid);
    },
    texts: { title: t.removeTitle, one: (g) => t.removeBody(g.groupPath) },
  });

  const addRoot = <Button icon="folder-new" intent="primary" text={t.addRoot} onClick={() => setNaming({ mode: 'root' })} />;
  const openDetails = (g: GroupDetail) => navigate(`${DETAILS_PATH}?id=${g.id}`);

  let treeBody;
  if (tree.isLoading) treeBody = <LoadingState />;
  else if (tree.isError) treeBody = <ErrorState title={t.loadFailed} message={tree.error?.message} onRetry={() => void tree.refetch()} />;
  else if (!nodes.length) treeBody = keyword ? <EmptyState title={t.noMatch} icon="search" /> : <EmptyState title={t.empty} description={t.emptyBody} icon="diagram-tree" action={addRoot} />;
  else {
    treeBody = (
      <Tree<GroupTreeNode>
        contents={nodes}
        className="cairn-group-tree"
        aria-label={t.treeLabel}
        onNodeClick={(node) => select(Number(node.id))}
        onNodeDoubleClick={(node) => node.nodeData && openDetails(node.nodeData)}
        onNodeExpand={(node) => toggle(Number(node.id))}
        onNodeCollapse={(node) => toggle(Number(node.id))}
      />
    );
  }

  return (
    <Page title={routeTitle(PATH)} subtitle={t.subtitle} actions={addRoot}>
      <div className="cairn-group-layout">
        <Card className="cairn-group-tree-card">
          <InputGroup
            leftIcon="search"
            type="search"
            placeholder={t.search}
            aria-label={t.search}
            value={keyword}
            onValueChange={(v) => setParam('q', v || null)}
          />
          <div className="cairn-group-tree-scroll">{treeBody}</div>
        </Card>
        <Card className="cairn-group-side">
          {selected ? (
            <>
              <div className="cairn-group-side-head">
                <h4 className="cairn-group-side-title">{selected.name}</h4>
                <Button icon="arrow-right" intent="primary" text={t.details} onClick={() => openDetails(selected)} />
              </div>
              <GroupFacts group={selected} />
              <ButtonGroup className="cairn-group-actions">
                <Button icon="folder-new" text={t.addChild} onClick={() => setNaming({ mode: 'child', group: selected })} />
                <Button icon="edit" text={t.rename} onClick={() => setNaming({ mode: 'rename', group: selected })} />
                <Button icon="move" text={t.move} onClick={() => setMoving(selected)} />
                <Button icon="trash" intent="danger" text={t.remove} onClick={() => removal.ask({ kind: 'one', row: selected })} />
              </ButtonGroup>
            </>
          ) : (
            <EmptyState title={t.pickOne} description={t.pickOneBody} icon="diagram-tree" />
          )}
        </Card>
      </div>
      {naming ? <GroupNameDialog target={naming} onClose={() => setNaming(null)} onDone={(g) => select(g.id)} /> : null}
      {moving ? <MoveGroupDialog group={moving} onClose={() => setMoving(null)} /> : null}
      {removal.element}
    </Page>
  );
}
