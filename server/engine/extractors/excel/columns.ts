// The template's columns and the header spellings accepted for them: trimmed, full/half-width
// folded, case-insensitive, with required-markers (`*`, `（必填）`) and notes in brackets ignored.

export type ColumnKey = 'name' | 'version' | 'ecosystem' | 'purl' | 'license' | 'remark' | 'namespace';

export interface ColumnSpec {
  key: ColumnKey;
  /** Header text in the template (undefined: accepted on import but not in the template). */
  title?: string;
  width?: number;
  aliases: string[];
}

export const COLUMNS: readonly ColumnSpec[] = [
  { key: 'name', title: '组件名称', width: 36, aliases: ['组件名称', '组件名', '组件', '名称', '包名', '包名称', '软件名称', '开源组件', '开源组件名称', '依赖', '依赖名称', 'name', 'component', 'componentname', 'package', 'packagename', 'artifactid', 'artifact'] },
  { key: 'version', title: '版本', width: 16, aliases: ['版本', '版本号', '组件版本', '使用版本', 'version', 'ver', 'componentversion', 'packageversion'] },
  { key: 'ecosystem', title: '语言/生态', width: 16, aliases: ['语言/生态', '语言', '生态', '语言生态', '开发语言', '编程语言', '包管理器', '包类型', '组件类型', 'ecosystem', 'language', 'lang', 'type', 'packagemanager', 'purltype'] },
  { key: 'purl', title: 'purl', width: 44, aliases: ['purl', 'packageurl', 'package-url', '组件purl', '包地址'] },
  { key: 'license', title: '许可证', width: 24, aliases: ['许可证', '许可', '许可协议', '开源许可证', '开源协议', '协议', '授权协议', 'license', 'licence', 'licenses', 'licences', 'licensename', 'spdx'] },
  { key: 'remark', title: '备注', width: 30, aliases: ['备注', '说明', '描述', '备注说明', 'remark', 'remarks', 'note', 'notes', 'comment', 'comments', 'description'] },
  { key: 'namespace', aliases: ['groupid', 'group', 'namespace', '命名空间', '组织', 'groupid/组织'] },
];

/** Header cell -> comparable key. */
function headerKey(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[（(【[][^）)】\]]*[）)】\]]/g, '') // 组件名称（必填）, version (e.g. 1.2.3)
    .replace(/[\s*＊:：_\u200b\ufeff]/g, '');
}

const byAlias = new Map<string, ColumnKey>();
for (const column of COLUMNS) for (const alias of column.aliases) byAlias.set(headerKey(alias), column.key);

/** A header cell's column; bilingual headers (`名称/Name`, `版本|Version`) are tried part by part. */
function lookupColumn(cell: string): ColumnKey | undefined {
  const key = headerKey(cell);
  if (!key) return undefined;
  const direct = byAlias.get(key);
  if (direct) return direct;
  for (const part of cell.normalize('NFKC').split(/[/|]+/)) {
    const found = byAlias.get(headerKey(part));
    if (found) return found;
  }
  return undefined;
}

export type ColumnMap = Partial<Record<ColumnKey, number>>;

/**
 * Which cell index holds which column, when `cells` is a header row: it must name the component
 * name or purl and one more known column (or be a lone purl column). The first occurrence wins.
 */
export function matchHeader(cells: readonly string[]): ColumnMap | undefined {
  const map: ColumnMap = {};
  let known = 0;
  cells.forEach((cell, index) => {
    const key = lookupColumn(cell);
    if (key && map[key] === undefined) {
      map[key] = index;
      known++;
    }
  });
  if (map.name === undefined && map.purl === undefined) return undefined;
  if (known >= 2) return map;
  // A bare list of purls: one column, nothing else on the row.
  const filled = cells.filter((c) => c.trim()).length;
  return map.purl !== undefined && filled === 1 ? map : undefined;
}
