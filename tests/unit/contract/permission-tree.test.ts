// The role screen's permission tree (contract/permission-tree.ts): every code exactly once, under
// the node the spec's spelling or grouping gives it; grouping nodes never empty; a code brings its
// granting ancestors.
import { describe, expect, it } from 'vitest';
import { codesUnder, permissionTree, withAncestors, type PermissionNode } from '../../../contract/permission-tree.ts';
import { ALL_PERMISSION_CODES, PERMISSIONS } from '../../../contract/permissions.ts';

const flatten = (nodes: PermissionNode[]): PermissionNode[] => nodes.flatMap((n) => [n, ...flatten(n.children)]);
const find = (code: string) => flatten(permissionTree()).find((n) => n.code === code)!;

describe('permission tree', () => {
  it('holds every code exactly once, named as permissions.ts names it', () => {
    const granted = flatten(permissionTree()).filter((n) => n.grant);
    expect(granted.map((n) => n.code).sort()).toEqual([...ALL_PERMISSION_CODES].sort());
    for (const n of granted) expect(n.name).toBe(PERMISSIONS[n.code as keyof typeof PERMISSIONS]);
    for (const n of flatten(permissionTree()).filter((x) => !x.grant)) expect(codesUnder(n).length, n.code).toBeGreaterThan(0);
  });

  it('places codes under their prefix or the spec\'s grouping', () => {
    expect(permissionTree().map((n) => n.name)).toEqual(['项目与检测', '组件与漏洞治理', '系统管理']);
    expect(find('setup:sys:custom').children.map((n) => n.code)).toEqual(['setup:sys:custom:list']);
    expect(find('setup:strategy:list').children.map((n) => n.code)).toEqual(['set:strategy:score', 'set:strategy:activity', 'set:strategy:com']);
    expect(find('setup:notice').grant).toBe(false);
    expect(codesUnder(find('setup:notice'))).toEqual(['setup:notice:mail', 'setup:notice:rxt', 'setup:notice:im']);
    expect(codesUnder(find('project:setup'))[0]).toBe('project:setup');
  });

  it('adds the granting ancestors of a code, never a grouping node', () => {
    expect(withAncestors(['setup:notice:im', 'setup:sys:custom:list'])).toEqual(['setup:notice:im', 'setup:sys', 'setup:sys:custom', 'setup:sys:custom:list']);
    expect(withAncestors([])).toEqual([]);
  });

  it('answers copies: changing one leaves the next untouched', () => {
    const first = permissionTree();
    first[0]!.children = [];
    expect(permissionTree()[0]!.children.length).toBeGreaterThan(0);
  });
});
