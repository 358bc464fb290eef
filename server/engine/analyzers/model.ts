// What an analysis beyond extraction looks like to the engine (design.md §9): an analyzer is picked
// by the analysis modes a run asks for and is one of two kinds.
//   - A file analyzer sees every text file of the analysed tree (in the analysis thread) and
//     answers its findings for that file: licence texts (mode 4), copyright notices (mode 7), and
//     later secrets, snippets, file signatures.
//   - A component analyzer sees the whole inventory once it is known, with the knowledge the
//     caller supplies as plain data (the knowledge base's advisory index, the administrators'
//     licence levels: the engine never reads a database), and answers its verdict per component:
//     vulnerabilities and risk, licence level.
// A new analysis is one module implementing one of these plus one line in the registry
// (analyzers/index.ts). Descriptors are light: an analyzer loads its code when an analysis uses it.
import type { AnalysisMode } from '../../../contract/enums.ts';
import type { Level } from '../matchers/advisory.ts';
import type { LicenseMatch } from '../matchers/licenses/recognize.ts';
import type { AdvisoryIndex, Finding, RiskLevel } from '../matchers/vulnerabilities.ts';
import type { InventoryEntry } from '../output/inventory.ts';
import type { LeakFinding } from '../detectors/leaks/index.ts';
import type { LeakRuleSpec } from '../detectors/leaks/rules.ts';

/**
 * A file of the analysed tree as text: decoded in its own encoding, a binary as its printable strings
 * (text-decode.ts); oversized files are not offered.
 */
export interface TextFile {
  /** Root-relative, `/`-separated. */
  path: string;
  /** Its base name. */
  name: string;
  text: string;
  /** The file's bytes (the sensitive-information analysis reads strings at their byte offsets). */
  bytes?: Uint8Array;
}

/** What the file analyzers found in one file; each analyzer fills its own fields. */
export interface FileFindings {
  path: string;
  licenses: LicenseMatch[];
  copyrights: Array<{ statement: string; holder: string | null; line: number }>;
  authors: Array<{ value: string; line: number }>;
  /** Sensitive information (mode 9), in file order; absent when the analysis did not look. */
  leaks?: LeakFinding[];
}

export type FileFindingFields = Omit<FileFindings, 'path'>;

/** A file's record before any analyzer looked at it (fields in the order results keep them). */
export const noFindings = (path: string): FileFindings => ({ path, licenses: [], copyrights: [], authors: [] });

/** Whether any analyzer found something in the file (only such files are kept). */
export const hasFindings = (record: FileFindings): boolean =>
  Object.entries(record).some(([key, value]) => key !== 'path' && Array.isArray(value) && value.length > 0);

export interface FileAnalyzer {
  kind: 'file';
  /** Short name: `licenses`, `copyrights`. */
  name: string;
  /** The analysis mode (contract ANALYSIS_MODE_LABEL) that turns it on. */
  mode: AnalysisMode;
  /**
   * Prepares one analysis (loads its code, builds its indexes once) and answers the function that
   * examines each text file, in tree order.
   */
  start(options?: AnalyzerOptions): Promise<(file: TextFile) => Partial<FileFindingFields>>;
}

/** What an analysis tells its file analyzers beyond the modes (plain data: it crosses to worker threads). */
export interface AnalyzerOptions {
  /** The administrators' sensitive-information rules that are enabled (validated when stored). */
  leakRules?: LeakRuleSpec[];
  /** Keys of the built-in sensitive-information rules the administrators turned off. */
  disabledLeakRules?: string[];
}

/**
 * What component analyzers judge against, supplied by the caller. Plain data: the platform reads
 * it from its knowledge base and settings, the CLI from a knowledge-base file.
 */
export interface AnalysisKnowledge {
  /** The knowledge base's advisories, indexed for matching (buildAdvisoryIndex). */
  advisories: AdvisoryIndex;
  /** The administrators' level of each licence id asked for; an id absent here is 未知 (16). */
  licenseLevels: ReadonlyMap<string, Level>;
}

/** What the caller is asked to look up once the inventory is known. */
export interface KnowledgeRequest {
  /** Every licence id the inventory's declared licence expressions name. */
  licenseIds: string[];
}

/** What the component analyzers add to an inventory entry. */
export interface ComponentVerdict {
  risk: RiskLevel;
  findings: Finding[];
  /** The nearest version without known vulnerabilities, when the component has some. */
  recommendVersion: string | null;
  licenseLevel: Level;
}

/** An inventory entry with every component analyzer's verdict. */
export interface AnalysedComponent extends InventoryEntry, ComponentVerdict {}

export interface ComponentAnalyzer {
  kind: 'component';
  /** Short name: `vulnerabilities`, `license-levels`. */
  name: string;
  /** The analysis mode that turns it on; null: part of every analysis, as the inventory itself is. */
  mode: AnalysisMode | null;
  /** Its part of the verdict of each component, in the inventory's order. */
  analyse(components: readonly InventoryEntry[], knowledge: AnalysisKnowledge): Promise<Array<Partial<ComponentVerdict>>>;
}

export type Analyzer = FileAnalyzer | ComponentAnalyzer;
