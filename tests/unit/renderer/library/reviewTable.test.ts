// The offline review tables' pure helpers: numeric detection, sorting (numbers numerically, empty
// cells last, stable), header click cycle, search, severity extraction and filtering, widths.
import { describe, expect, it } from 'vitest';
import {
  columnWidth,
  compareCells,
  filterBySeverity,
  filterRows,
  isVulnerabilityTable,
  nextSort,
  numericValue,
  severityColumn,
  severityCounts,
  severityLevel,
  sortRows,
  viewRows,
  type Row,
} from '../../../../renderer/features/library/reviewTable.ts';

describe('numericValue', () => {
  it('reads numbers and numeric text only', () => {
    expect(numericValue(12)).toBe(12);
    expect(numericValue(' 7.5 ')).toBe(7.5);
    expect(numericValue('-3')).toBe(-3);
    expect(numericValue('1e3')).toBe(1000);
    expect(numericValue('1.2.3')).toBeNull();
    expect(numericValue('CVE-2021-44228')).toBeNull();
    expect(numericValue('')).toBeNull();
    expect(numericValue(null)).toBeNull();
    expect(numericValue(Number.NaN)).toBeNull();
  });
});

describe('sorting', () => {
  const rows: Row[] = [
    { name: 'b', size: '10', version: '1.10.0' },
    { name: 'a', size: '9', version: '1.9.0' },
    { name: 'c', size: null, version: '' },
    { name: '张三', size: 100, version: '2.0.0' },
  ];

  it('sorts numbers numerically, not as text', () => {
    expect(sortRows(rows, { column: 'size', direction: 'asc' }).map((r) => r.name)).toEqual(['a', 'b', '张三', 'c']);
    expect(sortRows(rows, { column: 'size', direction: 'desc' }).map((r) => r.name)).toEqual(['张三', 'b', 'a', 'c']);
  });

  it('compares version-like text by its numeric runs', () => {
    expect(sortRows(rows, { column: 'version', direction: 'asc' }).map((r) => r.version)).toEqual(['1.9.0', '1.10.0', '2.0.0', '']);
    expect(compareCells('1.9.0', '1.10.0')).toBeLessThan(0);
  });

  it('keeps empty cells last in both directions and the order of equal rows', () => {
    const same: Row[] = [{ k: 'x', i: 1 }, { k: null, i: 2 }, { k: 'x', i: 3 }, { k: 'a', i: 4 }];
    expect(sortRows(same, { column: 'k', direction: 'asc' }).map((r) => r.i)).toEqual([4, 1, 3, 2]);
    expect(sortRows(same, { column: 'k', direction: 'desc' }).map((r) => r.i)).toEqual([1, 3, 4, 2]);
  });

  it('puts numbers before text and leaves the input alone', () => {
    const mixed: Row[] = [{ v: 'abc' }, { v: 5 }, { v: '2' }];
    expect(sortRows(mixed, { column: 'v', direction: 'asc' }).map((r) => r.v)).toEqual(['2', 5, 'abc']);
    expect(mixed.map((r) => r.v)).toEqual(['abc', 5, '2']);
    expect(sortRows(mixed, null)).toEqual(mixed);
  });

  it('cycles a header: ascending, descending, unsorted; another column starts ascending', () => {
    const a = nextSort(null, 'name');
    expect(a).toEqual({ column: 'name', direction: 'asc' });
    const b = nextSort(a, 'name');
    expect(b).toEqual({ column: 'name', direction: 'desc' });
    expect(nextSort(b, 'name')).toBeNull();
    expect(nextSort(b, 'size')).toEqual({ column: 'size', direction: 'asc' });
  });
});

describe('filterRows', () => {
  const rows: Row[] = [
    { name: 'log4j-core', group: 'org.apache.logging.log4j', version: '2.14.1' },
    { name: 'lodash', group: null, version: '4.17.20' },
    { name: 'jackson-databind', group: 'com.fasterxml', version: '2.9.8' },
  ];
  const columns = ['name', 'group', 'version'];

  it('matches every term in any column, case-insensitively', () => {
    expect(filterRows(rows, columns, 'LOG4J').map((r) => r.name)).toEqual(['log4j-core']);
    expect(filterRows(rows, columns, 'apache 2.14').map((r) => r.name)).toEqual(['log4j-core']);
    expect(filterRows(rows, columns, 'apache 4.17')).toEqual([]);
    expect(filterRows(rows, columns, '  ')).toHaveLength(3);
  });

  it('searches only the listed columns', () => {
    expect(filterRows(rows, ['name'], 'fasterxml')).toEqual([]);
  });
});

describe('severity', () => {
  it('reads CycloneDX / OpenVEX words, our labels and CVSS scores', () => {
    expect(severityLevel('critical')).toBe(1);
    expect(severityLevel('HIGH')).toBe(2);
    expect(severityLevel('medium')).toBe(4);
    expect(severityLevel('moderate')).toBe(4);
    expect(severityLevel('low')).toBe(8);
    expect(severityLevel('info')).toBe(16);
    expect(severityLevel('none')).toBe(16);
    expect(severityLevel('超危')).toBe(1);
    expect(severityLevel('高危')).toBe(2);
    expect(severityLevel('中危')).toBe(4);
    expect(severityLevel('低危')).toBe(8);
    expect(severityLevel('9.8')).toBe(1);
    expect(severityLevel(7)).toBe(2);
    expect(severityLevel('5.3')).toBe(4);
    expect(severityLevel(0.1)).toBe(8);
    expect(severityLevel('whatever')).toBe(16);
    expect(severityLevel('')).toBeNull();
    expect(severityLevel(null)).toBeNull();
  });

  it('takes the most severe of several ratings in one cell', () => {
    expect(severityLevel('medium, high')).toBe(2);
    expect(severityLevel('low / critical')).toBe(1);
  });

  it('finds the severity column of vulnerability tables only', () => {
    const vulns = { key: 'vulnerabilities', title: '漏洞', columns: [{ key: 'id', title: '编号' }, { key: 'severity', title: '严重程度' }] };
    expect(isVulnerabilityTable(vulns)).toBe(true);
    expect(severityColumn(vulns)).toBe('severity');
    expect(severityColumn({ key: 'vex', title: 'VEX', columns: [{ key: 'rating', title: 'Rating' }] })).toBe('rating');
    expect(severityColumn({ key: 'table3', title: '漏洞列表', columns: [{ key: 'c4', title: '漏洞等级' }] })).toBe('c4');
    expect(severityColumn({ key: 'components', title: '组件', columns: [{ key: 'severity', title: '等级' }] })).toBeNull();
    expect(severityColumn({ key: 'vulnerabilities', title: '漏洞', columns: [{ key: 'id', title: '编号' }] })).toBeNull();
  });

  it('counts and filters rows by level', () => {
    const rows: Row[] = [{ s: 'critical' }, { s: 'high' }, { s: '9.1' }, { s: null }, { s: 'low' }];
    expect([...severityCounts(rows, 's')].sort()).toEqual([[1, 2], [2, 1], [8, 1]]);
    expect(filterBySeverity(rows, 's', new Set([1]))).toEqual([{ s: 'critical' }, { s: '9.1' }]);
    expect(filterBySeverity(rows, 's', new Set())).toHaveLength(5);
    expect(filterBySeverity(rows, null, new Set([1]))).toHaveLength(5);
  });
});

describe('viewRows', () => {
  it('searches, filters by level and sorts together over 20,000 rows', () => {
    const levels = ['critical', 'high', 'medium', 'low'];
    const rows: Row[] = Array.from({ length: 20_000 }, (_, i) => ({ id: `CVE-2024-${i}`, severity: levels[i % 4]!, score: (i % 100) / 10 }));
    const table = { columns: [{ key: 'id' }, { key: 'severity' }, { key: 'score' }], rows };
    const out = viewRows(table, { query: 'cve-2024-1', severityColumn: 'severity', levels: new Set([1]), sort: { column: 'score', direction: 'desc' } });
    expect(out.every((r) => r.severity === 'critical' && String(r.id).startsWith('CVE-2024-1'))).toBe(true);
    expect(out.length).toBeGreaterThan(0);
    for (let i = 1; i < out.length; i += 1) expect(Number(out[i - 1]!.score)).toBeGreaterThanOrEqual(Number(out[i]!.score));
  });
});

describe('columnWidth', () => {
  it('grows with content, counts CJK double and stays within bounds', () => {
    expect(columnWidth('ID', [], 'id')).toBe(80);
    expect(columnWidth('名称', [{ n: 'x'.repeat(20) }], 'n')).toBeGreaterThan(columnWidth('名称', [{ n: 'x' }], 'n'));
    expect(columnWidth('描述', [{ d: 'x'.repeat(1000) }], 'd')).toBe(420);
    expect(columnWidth('中文中文', [], 'k')).toBeGreaterThan(columnWidth('abcd', [], 'k'));
  });
});
