// 镜像层 (the tree tab of an image run, tree=layer): the image → its layers bottom first (the
// Dockerfile step, size, how many components each brought) → the components that first appeared
// in that layer, loaded 200 at a time from the component list (its layer filter) so a layer with
// thousands of packages stays light; a component opens the component drawer.
import { useCallback, useState } from 'react';
import { Tag, Tree, type TreeNodeInfo } from '@blueprintjs/core';
import type { RunImage } from '../../../../../contract/api/image.ts';
import type { ComponentRow } from '../../../../../contract/api/result/index.ts';
import { formatFileSize } from '../../../../../contract/format.ts';
import { resultApi } from '../../../../api/resultApi.ts';
import { apiErrorMessage } from '../../../../api/baseQuery.ts';
import { useAppDispatch } from '../../../../app/hooks.ts';
import { ErrorState } from '../../../../common/states.tsx';
import { useTaskView } from '../context.ts';
import { layerLabel, shortDigest } from '../ImagePanel.tsx';
import { RiskTag, notCoveredIn } from '../parts.tsx';
import { TREE_PAGE } from '../treeModel.ts';
import { zh } from '../../../../i18n/zh-CN.ts';

const t = zh.task.image;
const IMAGE = 'image';

interface Loaded { rows: ComponentRow[]; total: number; page: number }
type Node = { kind: 'layer'; index: number } | { kind: 'component'; id: number } | { kind: 'more'; index: number } | { kind: 'image' };

export function LayerTree({ image }: { image: RunImage }) {
  const { projectId, run, setUrl } = useTaskView();
  const dispatch = useAppDispatch();
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set([IMAGE]));
  const [loaded, setLoaded] = useState<Readonly<Record<number, Loaded>>>({});
  const [loading, setLoading] = useState<ReadonlySet<number>>(new Set());
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(
    async (index: number, page: number) => {
      setLoading((s) => new Set(s).add(index));
      try {
        const data = await dispatch(
          resultApi.endpoints.componentList.initiate({ projectId, query: { page, size: TREE_PAGE, sort: 'name,asc' }, filter: { taskId: run.id, layers: [index] } }, { subscribe: false }),
        ).unwrap();
        setLoaded((m) => ({ ...m, [index]: { rows: [...(page > 1 ? (m[index]?.rows ?? []) : []), ...data.content], total: data.total, page } }));
      } catch (e) {
        setError(apiErrorMessage(e, zh.task.tree.loadFailed));
      } finally {
        setLoading((s) => { const n = new Set(s); n.delete(index); return n; });
      }
    },
    [dispatch, projectId, run.id],
  );

  const toggle = (id: string, index: number | null, on: boolean) => {
    setExpanded((s) => { const n = new Set(s); if (on) n.add(id); else n.delete(id); return n; });
    if (on && index !== null && !loaded[index] && !loading.has(index)) void load(index, 1);
  };

  const layerNodes: TreeNodeInfo<Node>[] = image.layers.map((l) => {
    const id = `layer:${l.index}`;
    const open = expanded.has(id);
    const got = loaded[l.index];
    const children: TreeNodeInfo<Node>[] = (got?.rows ?? []).map((r) => ({
      id: `c:${r.id}`,
      icon: 'cube',
      label: (
        <span className="cairn-tree-label">
          <span className="cairn-tree-name">{r.name}</span>
          {r.version ? <span className="cairn-muted">@{r.version}</span> : null}
          <Tag minimal className="cairn-tree-eco">{r.ecosystem}</Tag>
        </span>
      ),
      secondaryLabel: <RiskTag risk={r.riskLevel} notCovered={notCoveredIn(run.coverage, r.ecosystem, r.riskLevel)} />,
      nodeData: { kind: 'component', id: r.id },
    }));
    if (got && got.rows.length < got.total) {
      children.push({ id: `more:${l.index}`, icon: 'more', label: <a className="cairn-tree-more">{loading.has(l.index) ? zh.task.tree.loading : zh.task.tree.loadMore(got.total - got.rows.length)}</a>, nodeData: { kind: 'more', index: l.index } });
    }
    if (open && !got) children.push({ id: `loading:${l.index}`, label: <span className="cairn-muted">{zh.task.tree.loading}</span> });
    return {
      id,
      icon: 'layers',
      hasCaret: l.components > 0,
      isExpanded: open,
      label: (
        <span className="cairn-tree-label" title={l.createdBy ?? ''}>
          <span className="cairn-tree-name">{layerLabel(image, l.index)}</span>
        </span>
      ),
      secondaryLabel: (
        <span className="cairn-tree-secondary">
          <code className="cairn-muted" title={l.digest}>{shortDigest(l.digest)}</code>
          <span className="cairn-muted">{formatFileSize(l.size)}</span>
          <span className="cairn-muted">{t.layerComponents(l.components)}</span>
        </span>
      ),
      childNodes: open ? children : undefined,
      nodeData: { kind: 'layer', index: l.index },
    };
  });
  const contents: TreeNodeInfo<Node>[] = [{
    id: IMAGE,
    icon: 'box',
    hasCaret: true,
    isExpanded: expanded.has(IMAGE),
    label: <span className="cairn-tree-name">{image.reference ?? t.untagged}</span>,
    secondaryLabel: <span className="cairn-muted">{image.os?.prettyName ?? t.osUnknown} · {image.platform}</span>,
    childNodes: layerNodes,
    nodeData: { kind: 'image' },
  }];

  const onClick = (node: TreeNodeInfo<Node>) => {
    const d = node.nodeData;
    if (!d) return;
    if (d.kind === 'component') setUrl({ component: d.id });
    else if (d.kind === 'more') { const got = loaded[d.index]; if (got && !loading.has(d.index)) void load(d.index, got.page + 1); }
    else if (d.kind === 'layer') toggle(String(node.id), d.index, !expanded.has(String(node.id)));
    else toggle(IMAGE, null, !expanded.has(IMAGE));
  };

  return (
    <>
      {error ? <ErrorState title={zh.task.tree.loadFailed} message={error} onRetry={() => setError(null)} /> : null}
      <Tree<Node>
        className="cairn-result-tree"
        contents={contents}
        onNodeClick={onClick}
        onNodeExpand={(n) => n.nodeData && (n.nodeData.kind === 'layer' ? toggle(String(n.id), n.nodeData.index, true) : toggle(String(n.id), null, true))}
        onNodeCollapse={(n) => toggle(String(n.id), null, false)}
      />
    </>
  );
}
