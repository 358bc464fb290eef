// The component tab's filter state and the list call's body made from it. Pure, tested in Node.
import type { ComponentFilter } from '../../../../contract/api/result/index.ts';
import type { KbCoverage } from '../../../../contract/api/kb-status.ts';
import { NOT_COVERED_RISK, uncoveredEcosystems } from '../../../../contract/coverage.ts';
import { COMPONENT_RISK_CODES, COMPONENT_TYPE_ORDER, LEVEL_CODES, type ComponentMark } from '../../../../contract/enums.ts';

export type Risk = (typeof COMPONENT_RISK_CODES)[number];
type Level = (typeof LEVEL_CODES)[number];
type CType = (typeof COMPONENT_TYPE_ORDER)[number];

export interface Filters {
  keyword: string;
  riskLevels: Risk[];
  /** The 未覆盖 choice of the risk filter (components of 无漏洞 the knowledge base could not check). */
  notCovered: boolean;
  ecosystem: string;
  scope: '' | 'runtime' | 'development';
  direct: '' | 'direct' | 'transitive';
  marks: ComponentMark[];
  componentTypes: CType[];
  licenseLevels: Level[];
  /** Image runs: the layer (its index, as text) the components first appeared in; '' for every layer. */
  layer: string;
}

export const EMPTY_FILTERS: Filters = { keyword: '', riskLevels: [], notCovered: false, ecosystem: '', scope: '', direct: '', marks: [], componentTypes: [], licenseLevels: [], layer: '' };

/** The list call's body of a filter state (empty parts left out). Pure, tested. */
export function filterBody(f: Filters, taskId: number): ComponentFilter {
  const body: ComponentFilter = { taskId };
  if (f.keyword) body.keyword = f.keyword;
  if (f.riskLevels.length) body.riskLevels = f.riskLevels;
  if (f.notCovered) body.notCovered = true;
  if (f.ecosystem) body.ecosystems = [f.ecosystem];
  if (f.scope) body.scope = f.scope;
  if (f.direct) body.direct = f.direct === 'direct';
  if (f.marks.length) body.marks = f.marks;
  if (f.componentTypes.length) body.componentTypes = f.componentTypes;
  if (f.licenseLevels.length) body.licenseLevels = f.licenseLevels;
  if (f.layer !== '') body.layers = [Number(f.layer)];
  return body;
}


/** A choice of the risk filter: a risk code, or 未覆盖. */
export type RiskChoice = Risk | 'notCovered';
export const NOT_COVERED_CHOICE = 'notCovered' as const;

/** The risk filter's choices for a run: 未覆盖 right after 无漏洞 when the run's coverage left an ecosystem out. */
export function riskChoices(coverage: KbCoverage | null | undefined): RiskChoice[] {
  const uncovered = uncoveredEcosystems(coverage);
  if (uncovered !== 'all' && !uncovered.length) return [...COMPONENT_RISK_CODES];
  return COMPONENT_RISK_CODES.flatMap((code): RiskChoice[] => (code === NOT_COVERED_RISK ? [code, NOT_COVERED_CHOICE] : [code]));
}

/** The choices a filter state has ticked. */
export const selectedRiskChoices = (f: Filters): RiskChoice[] => (f.notCovered ? [...f.riskLevels, NOT_COVERED_CHOICE] : f.riskLevels);

/** The filter change of ticking or unticking a risk choice. */
export function toggleRiskChoice(f: Filters, choice: RiskChoice): Pick<Filters, 'riskLevels' | 'notCovered'> {
  if (choice === NOT_COVERED_CHOICE) return { riskLevels: f.riskLevels, notCovered: !f.notCovered };
  return { riskLevels: f.riskLevels.includes(choice) ? f.riskLevels.filter((r) => r !== choice) : [...f.riskLevels, choice], notCovered: f.notCovered };
}

/** The filter state a `?risk=` link (a risk code or notCovered) or a `?layer=` link (an image layer's index) opens the tab with. */
export function initialFilters(risk: string | null, layer: string | null = null): Filters {
  const layerFilter = layer !== null && /^\d{1,5}$/.test(layer) ? { layer } : {};
  if (risk === NOT_COVERED_CHOICE) return { ...EMPTY_FILTERS, notCovered: true, ...layerFilter };
  const code = Number(risk);
  return { ...EMPTY_FILTERS, riskLevels: risk && (COMPONENT_RISK_CODES as readonly number[]).includes(code) ? [code as Risk] : [], ...layerFilter };
}
