// The permission tree as checkboxes (contract/permission-tree.ts): checking a node checks it and
// everything below it, unchecking clears them; a node is half-checked when it holds some of its
// codes. A checked code brings its granting ancestors (withAncestors), as the platform saves it.
import { useMemo, useState } from 'react';
import { Button, ButtonGroup, Checkbox, Tree, type TreeNodeInfo } from '@blueprintjs/core';
import { codesUnder, withAncestors, type PermissionNode } from '../../../../contract/permission-tree.ts';
import { zh } from '../../../i18n/zh-CN.ts';

const t = zh.system.role;

const allKeys = (nodes: readonly PermissionNode[]): string[] => nodes.flatMap((n) => (n.children.length ? [n.code, ...allKeys(n.children)] : []));

export function PermissionTreeField({ tree, value, onChange, disabled = false }: {
  tree: readonly PermissionNode[];
  value: readonly string[];
  onChange: (codes: string[]) => void;
  disabled?: boolean;
}) {
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set(allKeys(tree)));
  const held = useMemo(() => new Set(value), [value]);
  const total = useMemo(() => tree.flatMap(codesUnder).length, [tree]);

  const toggle = (node: PermissionNode) => {
    const codes = codesUnder(node);
    const all = codes.every((c) => held.has(c));
    const next = new Set(held);
    if (all) codes.forEach((c) => next.delete(c));
    else codes.forEach((c) => next.add(c));
    onChange(all ? [...next].sort() : withAncestors(next));
  };

  const toInfo = (node: PermissionNode): TreeNodeInfo<PermissionNode> => {
    const codes = codesUnder(node);
    const count = codes.filter((c) => held.has(c)).length;
    return {
      id: node.code,
      nodeData: node,
      isExpanded: expanded.has(node.code),
      hasCaret: node.children.length > 0,
      label: (
        <Checkbox
          className="cairn-permission-check"
          checked={count > 0 && count === codes.length}
          indeterminate={count > 0 && count < codes.length}
          disabled={disabled}
          onChange={() => toggle(node)}
          onClick={(e) => e.stopPropagation()}
          labelElement={(
            <span className={node.grant ? undefined : 'cairn-permission-group'}>
              {node.name}
              {node.grant ? <code className="cairn-permission-code">{node.code}</code> : null}
            </span>
          )}
        />
      ),
      childNodes: node.children.length ? node.children.map(toInfo) : undefined,
    };
  };

  const flip = (node: TreeNodeInfo<PermissionNode>, open: boolean) => setExpanded((old) => {
    const next = new Set(old);
    if (open) next.add(String(node.id));
    else next.delete(String(node.id));
    return next;
  });

  return (
    <div className="cairn-permission-tree">
      <div className="cairn-permission-toolbar">
        <span className="cairn-muted">{t.permissionCount(value.length, total)}</span>
        <ButtonGroup minimal>
          <Button small icon="expand-all" text={t.expandAll} onClick={() => setExpanded(new Set(allKeys(tree)))} />
          <Button small icon="collapse-all" text={t.collapseAll} onClick={() => setExpanded(new Set())} />
          <Button small icon="tick" text={t.selectAll} disabled={disabled} onClick={() => onChange(tree.flatMap(codesUnder).sort())} />
          <Button small icon="cross" text={t.clearAll} disabled={disabled} onClick={() => onChange([])} />
        </ButtonGroup>
      </div>
      <div className="cairn-permission-scroll">
        <Tree
          contents={tree.map(toInfo)}
          onNodeExpand={(n) => flip(n, true)}
          onNodeCollapse={(n) => flip(n, false)}
        />
      </div>
    </div>
  );
}
