// Small helpers shared by the readers: building tables, reading loose JSON/XML values.
import type { ReviewTable } from '../../../contract/ipc/desktop-contract.ts';
import { VULNERABILITY_LEVEL_LABEL } from '../../../contract/enums.ts';

type Cell = string | number | null;

export function table(key: string, title: string, columns: Array<[key: string, title: string]>, rows: Array<Record<string, Cell>>): ReviewTable {
  return { key, title, columns: columns.map(([k, t]) => ({ key: k, title: t })), rows };
}

/** A string from a JSON or parsed-XML value (XML text may sit under `#text`), on one line for a table cell. */
export function text(value: unknown): string {
  if (typeof value === 'string') return value.replace(/\s+/g, ' ').trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value && typeof value === 'object' && '#text' in value) return text((value as { '#text': unknown })['#text']);
  return '';
}

export const cell = (value: unknown): Cell => text(value) || null;

export const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : value === undefined || value === null || value === '' ? [] : [value]);

export const obj = (value: unknown): Record<string, unknown> => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {});

/**
 * The layer of a container image's component, from name/value pairs: Cairn's
 * `cairn:image:layer:index` as 第 n 层 (with its digest), else trivy's `aquasecurity:trivy:LayerDigest`.
 */
export function imageLayerOf(properties: Map<string, string>): string | null {
  const index = properties.get('cairn:image:layer:index');
  if (index !== undefined && /^\d+$/.test(index)) return `第 ${Number(index) + 1} 层`;
  return properties.get('aquasecurity:trivy:LayerDigest') || null;
}

/** Licence → number of components, most used first; components without one are counted apart. */
export function licenceTable(perComponent: string[][]): ReviewTable {
  const counts = new Map<string, number>();
  for (const licences of perComponent) {
    for (const licence of licences.length ? new Set(licences) : ['（未声明）']) counts.set(licence, (counts.get(licence) ?? 0) + 1);
  }
  const rows = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([licence, count]) => ({ licence, count }));
  return table('licenses', '许可证', [['licence', '许可证'], ['count', '组件数']], rows);
}

const SEVERITY_RANK = ['critical', 'high', 'medium', 'low', 'info', 'none', 'unknown'];
const SEVERITY_LABEL: Record<string, string> = {
  critical: VULNERABILITY_LEVEL_LABEL[1],
  high: VULNERABILITY_LEVEL_LABEL[2],
  medium: VULNERABILITY_LEVEL_LABEL[4],
  low: VULNERABILITY_LEVEL_LABEL[8],
  info: '提示',
  none: '无',
  unknown: VULNERABILITY_LEVEL_LABEL[16],
};

/** The most severe of several ratings, as the platform's Chinese level name. */
export function worstSeverity(severities: string[]): string | null {
  const known = severities.map((s) => s.toLowerCase()).filter((s) => SEVERITY_RANK.includes(s));
  if (!known.length) return null;
  const worst = known.sort((a, b) => SEVERITY_RANK.indexOf(a) - SEVERITY_RANK.indexOf(b))[0]!;
  return SEVERITY_LABEL[worst] ?? worst;
}
