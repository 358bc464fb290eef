// 依赖树 / 文件树 (the spec's `source` tab; tree=dependence|file in the URL): a Blueprint Tree
// loaded level by level (200 children a page, 加载更多 for the rest), so it stays fast at 10,000
// nodes; search (resultTree/search) lists the hits with their path and expands the tree to one;
// a component node opens the component drawer.
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { Breadcrumbs, Button, Card, Classes, H5, InputGroup, ControlGroup, SegmentedControl, Tag, Tree, type TreeNodeInfo } from '@blueprintjs/core';
import type { DependencyNode, FileNode, TreeSearchHit } from '../../../../../contract/api/result/index.ts';
import { resultApi } from '../../../../api/resultApi.ts';
import { apiErrorMessage } from '../../../../api/baseQuery.ts';
import { useAppDispatch } from '../../../../app/hooks.ts';
import { ErrorState, LoadingState, EmptyState } from '../../../../common/states.tsx';
import { ComponentDrawer } from '../ComponentDrawer.tsx';
import { useTaskView } from '../context.ts';
import type { TreeKind } from '../taskUrl.ts';
import { LayerTree } from './LayerTree.tsx';
import { RiskTag, ComponentMarkTag, notCoveredIn } from '../parts.tsx';
import type { KbCoverage } from '../../../../../contract/api/kb-status.ts';
import { ROOT, TREE_PAGE, addPage, emptyModel, remaining, setExpanded, setLoading, type TreeItem, type TreeModel } from '../treeModel.ts';
import { zh } from '../../../../i18n/zh-CN.ts';

const t = zh.task.tree;
type Kind = 'dependence' | 'file';
/** Layer for an image run; a stale tree=layer link on any other run shows the dependency tree. */
const kindOf = (tree: TreeKind, image: boolean): Kind | 'layer' => (tree === 'layer' ? (image ? 'layer' : 'dependence') : tree);

type Item = TreeItem & ({ kind: 'dependence'; node: DependencyNode } | { kind: 'file'; node: FileNode });

const toItem = (kind: Kind, node: DependencyNode | FileNode): Item =>
  kind === 'dependence'
    ? { kind, node: node as DependencyNode, pathId: node.pathId, expandable: (node as DependencyNode).childCount > 0 && !(node as DependencyNode).cycle }
    : { kind, node: node as FileNode, pathId: node.pathId, expandable: (node as FileNode).isDir && (node as FileNode).hasChildren };

const MORE = '__more__:';

function label(item: Item): React.JSX.Element {
  if (item.kind === 'dependence') {
    const n = item.node;
    return (
      <span className="cairn-tree-label">
        <span className="cairn-tree-name">{n.name}</span>
        {n.version ? <span className="cairn-muted">@{n.version}</span> : null}
        <Tag minimal className="cairn-tree-eco">{n.ecosystem}</Tag>
        {n.cycle ? <Tag minimal intent="warning">{t.cycle}</Tag> : null}
      </span>
    );
  }
  const n = item.node;
  return (
    <span className="cairn-tree-label">
      <span className="cairn-tree-name">{n.name}</span>
      {n.componentCount ? <span className="cairn-muted">{t.componentsIn(n.componentCount)}</span> : null}
    </span>
  );
}

function secondary(item: Item, coverage: KbCoverage | null): React.JSX.Element | null {
  if (item.kind !== 'dependence') return null;
  const n = item.node;
  return (
    <span className="cairn-tree-secondary">
      {n.childCount ? <span className="cairn-muted">{t.children(n.childCount)}</span> : null}
      {n.mark !== 'N' ? <ComponentMarkTag mark={n.mark} /> : null}
      <RiskTag risk={n.riskLevel} notCovered={notCoveredIn(coverage, n.ecosystem, n.riskLevel)} />
    </span>
  );
}

export function TreeTab() {
  const { run, state, setUrl } = useTaskView();
  const shown = kindOf(state.tree, Boolean(run.image));
  const options = [{ label: t.dependence, value: 'dependence' }, { label: t.file, value: 'file' }, ...(run.image ? [{ label: zh.task.image.layer, value: 'layer' }] : [])];
  const toolbar = (extra?: ReactNode) => (
    <Card className="cairn-filter-bar cairn-tree-toolbar">
      <SegmentedControl aria-label={t.kindAria} options={options} value={shown} onValueChange={(v) => setUrl({ tree: v === 'dependence' ? undefined : v })} />
      {extra}
    </Card>
  );
  if (shown === 'layer' && run.image) {
    return (
      <div className="cairn-tree-tab">
        {toolbar()}
        <Card className={`cairn-panel cairn-tree-card ${Classes.ELEVATION_0}`}>
          <LayerTree image={run.image} />
        </Card>
        <ComponentDrawer componentId={state.componentId} onClose={() => setUrl({ component: undefined })} />
      </div>
    );
  }
  return <PackageTree kind={shown === 'file' ? 'file' : 'dependence'} toolbar={toolbar} />;
}

/** 依赖树 / 文件树: the server's trees, level by level, with search. */
function PackageTree({ kind, toolbar }: { kind: Kind; toolbar: (extra?: ReactNode) => ReactNode }) {
  const view = useTaskView();
  const { projectId, run, state, setUrl } = view;
  const dispatch = useAppDispatch();
  const [model, setModel] = useState<TreeModel<Item>>(emptyModel);
  const [error, setError] = useState<string | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [keyword, setKeyword] = useState('');
  const [hits, setHits] = useState<{ content: TreeSearchHit[]; total: number; capped: boolean } | null>(null);
  const [searching, setSearching] = useState(false);

  /** Fetches one page of a level; resolves with the items (for expanding a search path). */
  const fetchLevel = useCallback(
    async (parent: string, page: number): Promise<Item[]> => {
      setModel((m) => setLoading(m, parent, true));
      const query = { page, size: TREE_PAGE, taskId: run.id };
      try {
        const data =
          parent === ROOT
            ? kind === 'dependence'
              ? await dispatch(resultApi.endpoints.dependenceTree.initiate({ id: projectId, query }, { subscribe: false })).unwrap()
              : await dispatch(resultApi.endpoints.fileTree.initiate({ id: projectId, query }, { subscribe: false })).unwrap()
            : kind === 'dependence'
              ? await dispatch(resultApi.endpoints.dependenceChildren.initiate({ projectId, query: { ...query, pathId: parent } }, { subscribe: false })).unwrap()
              : await dispatch(resultApi.endpoints.fileChildren.initiate({ projectId, query: { ...query, pathId: parent } }, { subscribe: false })).unwrap();
        const items = (data.content as Array<DependencyNode | FileNode>).map((n) => toItem(kind, n));
        setModel((m) => addPage(m, parent, items, data.total, page));
        return items;
      } catch (e) {
        setModel((m) => setLoading(m, parent, false));
        setError(apiErrorMessage(e, t.loadFailed));
        return [];
      }
    },
    [dispatch, kind, projectId, run.id],
  );

  useEffect(() => {
    setModel(emptyModel());
    setHits(null);
    setSelected(null);
    setError(null);
    void fetchLevel(ROOT, 1);
  }, [fetchLevel]);

  const toNodes = (parent: string): TreeNodeInfo<Item | null>[] => {
    const level = model.levels[parent];
    if (!level) return [];
    const nodes: TreeNodeInfo<Item | null>[] = level.items.map((item) => {
      const expanded = model.expanded.has(item.pathId);
      const loading = model.loading.has(item.pathId);
      const node: TreeNodeInfo<Item | null> = {
        id: item.pathId,
        label: label(item),
        secondaryLabel: secondary(item, run.coverage),
        icon: item.kind === 'file' ? (item.node.isDir ? (expanded ? 'folder-open' : 'folder-close') : 'document') : 'cube',
        hasCaret: item.expandable,
        isExpanded: expanded,
        isSelected: selected === item.pathId,
        nodeData: item,
      };
      if (expanded) node.childNodes = loading && !model.levels[item.pathId] ? [{ id: `${item.pathId}:loading`, label: <span className="cairn-muted">{t.loading}</span>, nodeData: null }] : toNodes(item.pathId);
      return node;
    });
    const left = remaining(level);
    if (left > 0) {
      nodes.push({ id: `${MORE}${parent}`, label: <a className="cairn-tree-more">{model.loading.has(parent) ? t.loading : t.loadMore(left)}</a>, icon: 'more', nodeData: null });
    }
    return nodes;
  };

  const expand = (item: Item, on: boolean) => {
    setModel((m) => setExpanded(m, item.pathId, on));
    if (on && !model.levels[item.pathId] && !model.loading.has(item.pathId)) void fetchLevel(item.pathId, 1);
  };

  const onClick = (node: TreeNodeInfo<Item | null>) => {
    const id = String(node.id);
    if (id.startsWith(MORE)) {
      const parent = id.slice(MORE.length);
      const level = model.levels[parent];
      if (level && !model.loading.has(parent)) void fetchLevel(parent, level.page + 1);
      return;
    }
    const item = node.nodeData;
    if (!item) return;
    setSelected(item.pathId);
    if (item.kind === 'dependence') setUrl({ component: item.node.id });
    else if (item.expandable) expand(item, !model.expanded.has(item.pathId));
  };

  /** Expands the tree along a hit's ancestors (loading each level, and further pages when needed). */
  const reveal = async (hit: TreeSearchHit) => {
    let parent = ROOT;
    for (const step of [...hit.ancestors.map((a) => a.pathId), hit.pathId]) {
      let items = model.levels[parent]?.items ?? (await fetchLevel(parent, 1));
      let page = model.levels[parent]?.page ?? 1;
      // The node may sit beyond the first page of a big level.
      while (!items.some((x) => x.pathId === step) && page < 50) {
        page += 1;
        const more = await fetchLevel(parent, page);
        if (more.length === 0) break;
        items = [...items, ...more];
      }
      if (step !== hit.pathId) setModel((m) => setExpanded(m, step, true));
      parent = step;
    }
    setSelected(hit.pathId);
    requestAnimationFrame(() => document.querySelector(`.cairn-result-tree .${Classes.TREE_NODE_SELECTED}`)?.scrollIntoView({ block: 'center' }));
  };

  const search = async () => {
    const k = keyword.trim();
    if (!k) {
      setHits(null);
      return;
    }
    setSearching(true);
    try {
      const data = await dispatch(resultApi.endpoints.treeSearch.initiate({ projectId, body: { keyword: k, kind, taskId: run.id, limit: 200 } }, { subscribe: false })).unwrap();
      setHits(data);
      const first = data.content[0];
      if (first) await reveal(first);
    } catch (e) {
      setError(apiErrorMessage(e, t.loadFailed));
    } finally {
      setSearching(false);
    }
  };

  const root = model.levels[ROOT];
  let body: ReactNode;
  if (error && !root) body = <ErrorState title={t.loadFailed} message={error} onRetry={() => { setError(null); void fetchLevel(ROOT, 1); }} />;
  else if (!root) body = <LoadingState />;
  else if (root.total === 0) body = <EmptyState title={t.empty} description={kind === 'dependence' ? t.emptyDependence : t.emptyFile} icon="diagram-tree" />;
  else
    body = (
      <Tree<Item | null>
        className="cairn-result-tree"
        contents={toNodes(ROOT)}
        onNodeClick={onClick}
        onNodeExpand={(n) => n.nodeData && expand(n.nodeData, true)}
        onNodeCollapse={(n) => n.nodeData && expand(n.nodeData, false)}
      />
    );

  return (
    <div className="cairn-tree-tab">
      {toolbar(
        <form
          className="cairn-filter-keyword"
          role="search"
          onSubmit={(e) => {
            e.preventDefault();
            void search();
          }}
        >
          <ControlGroup>
            <InputGroup fill leftIcon="search" aria-label={t.search} placeholder={kind === 'dependence' ? t.searchPlaceholderDependence : t.searchPlaceholderFile} value={keyword} maxLength={200} onValueChange={setKeyword} />
            <Button type="submit" intent="primary" text={t.search} loading={searching} />
            {hits ? <Button text={t.clearSearch} onClick={() => { setHits(null); setKeyword(''); }} /> : null}
          </ControlGroup>
        </form>,
      )}
      <div className={hits ? 'cairn-tree-split' : undefined}>
        <Card className={`cairn-panel cairn-tree-card ${Classes.ELEVATION_0}`}>{body}</Card>
        {hits ? (
          <Card className="cairn-panel cairn-tree-hits">
            <H5>{hits.content.length ? t.hits(hits.content.length, hits.total, hits.capped) : t.noHits}</H5>
            <ul className="cairn-hit-list" aria-label={t.pathTo}>
              {hits.content.map((h) => (
                <li key={h.pathId}>
                  <button type="button" className={selected === h.pathId ? 'cairn-hit cairn-hit-on' : 'cairn-hit'} onClick={() => void reveal(h)}>
                    <b>{h.name}</b>
                    {h.version ? <span className="cairn-muted">@{h.version}</span> : null}
                    {h.riskLevel ? <RiskTag risk={h.riskLevel} /> : null}
                  </button>
                  <Breadcrumbs className="cairn-dep-path cairn-hit-path" minVisibleItems={3} items={h.ancestors.map((a) => ({ text: a.version ? `${a.name}@${a.version}` : a.name }))} />
                </li>
              ))}
            </ul>
          </Card>
        ) : null}
      </div>
      <ComponentDrawer componentId={state.componentId} onClose={() => setUrl({ component: undefined })} />
    </div>
  );
}
