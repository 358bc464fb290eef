// The component tab's filter state and the list call's body made from it. Pure, tested in Node.
import type { ComponentFilter } from '../../../../contract/api/result/index.ts';
import { COMPONENT_RISK_CODES, COMPONENT_TYPE_ORDER, LEVEL_CODES, type ComponentMark } from '../../../../contract/enums.ts';

export type Risk = (typeof COMPONENT_RISK_CODES)[number];
type Level = (typeof LEVEL_CODES)[number];
type CType = (typeof COMPONENT_TYPE_ORDER)[number];

export interface Filters {
  keyword: string;
  riskLevels: Risk[];
  ecosystem: string;
  scope: '' | 'runtime' | 'development';
  direct: '' | 'direct' | 'transitive';
  marks: ComponentMark[];
  componentTypes: CType[];
  licenseLevels: Level[];
}

export const EMPTY_FILTERS: Filters = { keyword: '', riskLevels: [], ecosystem: '', scope: '', direct: '', marks: [], componentTypes: [], licenseLevels: [] };

/** The list call's body of a filter state (empty parts left out). Pure, tested. */
export function filterBody(f: Filters, taskId: number): ComponentFilter {
  const body: ComponentFilter = { taskId };
  if (f.keyword) body.keyword = f.keyword;
  if (f.riskLevels.length) body.riskLevels = f.riskLevels;
  if (f.ecosystem) body.ecosystems = [f.ecosystem];
  if (f.scope) body.scope = f.scope;
  if (f.direct) body.direct = f.direct === 'direct';
  if (f.marks.length) body.marks = f.marks;
  if (f.componentTypes.length) body.componentTypes = f.componentTypes;
  if (f.licenseLevels.length) body.licenseLevels = f.licenseLevels;
  return body;
}

