// The permission tree of the role screen (/api/role/tree, spec doc 2 §6): every code of
// contract/permissions.ts placed once, under the screen or area it belongs to. The spec writes
// the administration codes as prefixes (`setup:user (:user:list, :role:list)`), so a code's parent
// is its longest proper prefix that is itself a node; where the spec groups codes whose spelling
// does not share a prefix (set:strategy:* beside setup:strategy:list, the statistics codes, the
// component-area menu codes) PLACEMENT says where they go. A node either grants a code (`grant`),
// or only groups others (GROUPS: the two areas and the spec's unnamed families such as
// setup:notice). A code nobody has placed yet (a later area's) still appears, by prefix or
// under 其他, so the tree always covers every code.
//
// Selection rules (the role form and the server share them):
// - selecting a node selects it and everything below it (a parent's selection is the codes it holds);
// - a granted code implies its granting ancestors (a screen's menu needs its parent's code:
//   /system/systemSettings/customFields needs setup:sys besides setup:sys:custom), see withAncestors.
import { ALL_PERMISSION_CODES, PERMISSIONS, type PermissionCode } from './permissions.ts';

export interface PermissionNode {
  /** A permission code, or a group's key (grant false). */
  code: string;
  name: string;
  /** True when the node is a permission code a role can hold; false for a grouping node. */
  grant: boolean;
  children: PermissionNode[];
}

/** Grouping nodes: not codes, only containers. Keys never collide with a code (none starts "group:"). */
const GROUPS: ReadonlyArray<{ key: string; name: string; parent: string | null }> = [
  { key: 'group:project', name: '项目与检测', parent: null },
  { key: 'group:governance', name: '组件与漏洞治理', parent: null },
  { key: 'group:setup', name: '系统管理', parent: null },
  { key: 'group:other', name: '其他', parent: null },
  { key: 'analysis:result', name: '检测结果', parent: 'group:project' },
  { key: 'setup:knowledge', name: '知识库', parent: 'group:setup' },
  { key: 'setup:notice', name: '通知', parent: 'group:setup' },
  { key: 'setup:integration', name: '账号集成', parent: 'group:setup' },
];

/** Where a code goes when its longest node prefix is not its place (or it has none). */
const PLACEMENT: Partial<Record<PermissionCode, string>> = {
  'project:list': 'group:project',
  'project-summary': 'project:list',
  'project:setup': 'project:list',
  'analysis:task:list': 'group:project',
  'report:list': 'group:project',
  statistic: 'group:project',
  'statistic-project:license:list': 'statistic',
  'statistic-project:summary:report': 'statistic',
  'stastistic-system:see': 'statistic',
  component: 'group:governance',
  cominfo: 'component',
  source: 'component',
  remote: 'component',
  vul: 'group:governance',
  'risk:vul:list': 'vul',
  'repository-security:manager': 'group:governance',
  'set:strategy:score': 'setup:strategy:list',
  'set:strategy:activity': 'setup:strategy:list',
  'set:strategy:com': 'setup:strategy:list',
};

/** The parent key of a code: its placement, else its longest proper prefix that is a node, else an area. */
function parentOf(code: string, nodes: ReadonlySet<string>): string {
  const placed = PLACEMENT[code as PermissionCode];
  if (placed) return placed;
  const parts = code.split(':');
  for (let n = parts.length - 1; n > 0; n -= 1) {
    const prefix = parts.slice(0, n).join(':');
    if (prefix !== code && nodes.has(prefix)) return prefix;
  }
  if (parts[0] === 'setup' || parts[0] === 'set') return 'group:setup';
  return 'group:other';
}

function build(): { roots: PermissionNode[]; parent: ReadonlyMap<string, string | null> } {
  const nodes = new Map<string, PermissionNode>();
  const parent = new Map<string, string | null>();
  for (const g of GROUPS) nodes.set(g.key, { code: g.key, name: g.name, grant: false, children: [] });
  for (const code of ALL_PERMISSION_CODES) nodes.set(code, { code, name: PERMISSIONS[code], grant: true, children: [] });
  const keys = new Set(nodes.keys());
  for (const g of GROUPS) parent.set(g.key, g.parent);
  for (const code of ALL_PERMISSION_CODES) parent.set(code, parentOf(code, keys));
  for (const [key, p] of parent) if (p) nodes.get(p)!.children.push(nodes.get(key)!);
  // Children in the order permissions.ts lists the codes; a group where its first code stands.
  const order = new Map<string, number>(ALL_PERMISSION_CODES.map((c, i) => [c, i]));
  const rank = (n: PermissionNode): number => Math.min(order.get(n.code) ?? Infinity, ...n.children.map(rank));
  for (const n of nodes.values()) n.children.sort((a, b) => rank(a) - rank(b));
  // An empty grouping node (其他 while every code is placed) is left out.
  const prune = (list: PermissionNode[]): PermissionNode[] =>
    list.filter((n) => n.grant || n.children.length > 0).map((n) => ({ ...n, children: prune(n.children) }))
      .filter((n) => n.grant || n.children.length > 0);
  const roots = prune(GROUPS.filter((g) => g.parent === null).map((g) => nodes.get(g.key)!));
  return { roots, parent };
}

const TREE = build();

/** The permission tree (a fresh copy: callers may not change the shared one). */
export function permissionTree(): PermissionNode[] {
  const copy = (n: PermissionNode): PermissionNode => ({ ...n, children: n.children.map(copy) });
  return TREE.roots.map(copy);
}

/** The codes a node holds: itself when it grants one, and every code below it. */
export function codesUnder(node: PermissionNode): string[] {
  const out: string[] = [];
  const walk = (n: PermissionNode) => {
    if (n.grant) out.push(n.code);
    n.children.forEach(walk);
  };
  walk(node);
  return out;
}

/** The codes with every granting ancestor added (a code's menu needs its parent's), sorted. */
export function withAncestors(codes: Iterable<string>): string[] {
  const known = new Set<string>(ALL_PERMISSION_CODES);
  const out = new Set<string>();
  for (const code of codes) {
    let current: string | null | undefined = code;
    while (current) {
      if (known.has(current)) out.add(current);
      current = TREE.parent.get(current);
    }
  }
  return [...out].sort();
}
