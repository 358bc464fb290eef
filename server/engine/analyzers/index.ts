// Every analysis beyond extraction, as the extractors' registry lists every extractor. An analysis
// runs the analyzers its modes select: file analyzers in the analysis thread (analyse.ts), then
// component analyzers over the inventory with the caller's knowledge (analyse-project.ts).
import type { AnalysisMode } from '../../../contract/enums.ts';
import type { InventoryEntry } from '../output/inventory.ts';
import { copyrightAnalyzer } from './copyrights.ts';
import { licenseLevelAnalyzer } from './license-levels.ts';
import { leakAnalyzer } from './leaks.ts';
import { licenseTextAnalyzer } from './licenses.ts';
import type { AnalysedComponent, AnalysisKnowledge, Analyzer, ComponentAnalyzer, ComponentVerdict, FileAnalyzer } from './model.ts';
import { vulnerabilityAnalyzer } from './vulnerabilities.ts';

const allAnalyzers: readonly Analyzer[] = [
  licenseTextAnalyzer,
  copyrightAnalyzer,
  leakAnalyzer,
  vulnerabilityAnalyzer,
  licenseLevelAnalyzer,
];

const selected = (analyzer: Analyzer, modes: readonly number[]) => analyzer.mode === null || modes.includes(analyzer.mode);

/** The file analyzers an analysis with these modes runs, in registry order. */
export const fileAnalyzersFor = (modes: readonly number[]): FileAnalyzer[] =>
  allAnalyzers.filter((a): a is FileAnalyzer => a.kind === 'file' && selected(a, modes));

/** The component analyzers an analysis with these modes runs, in registry order. */
const componentAnalyzersFor = (modes: readonly number[]): ComponentAnalyzer[] =>
  allAnalyzers.filter((a): a is ComponentAnalyzer => a.kind === 'component' && selected(a, modes));

/**
 * Runs the selected component analyzers over the inventory: each entry with every verdict part,
 * in inventory order (fields in registry order after the entry's own).
 */
export async function analyseComponents(components: readonly InventoryEntry[], modes: readonly AnalysisMode[] | readonly number[], knowledge: AnalysisKnowledge): Promise<AnalysedComponent[]> {
  const parts: Array<Array<Partial<ComponentVerdict>>> = [];
  for (const analyzer of componentAnalyzersFor(modes)) parts.push(await analyzer.analyse(components, knowledge));
  // Every component analyzer runs in every analysis today (mode null), so each verdict is whole.
  return components.map((entry, i) => Object.assign({ ...entry }, ...parts.map((p) => p[i])) as AnalysedComponent);
}
