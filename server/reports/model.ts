// What every report format is written from: one task's results, read once from the database by
// build-model.ts and handed to the writers (pdf, docx, xlsx, spdx, cyclonedx, swid, vex). Plain
// JSON-able data so a worker thread can take it; the writers never touch the database.
import type { RunImage } from '../../contract/api/image.ts';
import type { FixState, LicenseKind, VerdictSource } from '../../contract/enums.ts';

/** Vulnerability / licence levels: 1 超危, 2 高危, 4 中危, 8 低危, 16 未知 (contract/enums.ts). */
export type Level = 1 | 2 | 4 | 8 | 16;
/** Counts per level, every level present (0 when none). */
export type LevelCounts = Record<Level, number>;

export interface ReportComponent {
  /** Stable reference inside the report (bom-ref / SPDXRef suffix / SWID tagId): `c<id>`. */
  ref: string;
  name: string;
  version: string;
  /** Package URL; may be '' for a component found without one. */
  purl: string;
  /** OSV / purl-style ecosystem name, e.g. npm, maven, pypi, golang. */
  ecosystem: string;
  direct: boolean;
  /** runtime | dev | optional | ... as the extractor reported it. */
  scope: string;
  /** SPDX expression, or null when unknown. */
  license: string | null;
  /** The strictest level among its licences (16 when unknown). */
  licenseLevel: Level;
  /** The component risk code: 1/2/4/8/16 highest vulnerability level, 32 no vulnerability, 64 unknown version. */
  risk: number;
  vulnerabilityCount: number;
  /** Where it was declared: manifest paths with an optional line. */
  locations: Array<{ file: string; line: number | null }>;
  /** How a component found in a built artefact was identified (contract Evidence); empty otherwise. */
  evidence: Array<{ file: string; rule: string; text: string | null; offset: number | null }>;
  /** Confidence of that identification, 0–1; null for manifests, lockfiles and SBOMs. */
  confidence: number | null;
  /** 声明的版本范围 of a component no input pins a version for (`>=2`, `^1.2`); null otherwise. */
  constraint: string | null;
  /** Component mark N/F/L/W/Y with its remark (contract COMPONENT_MARK_LABEL). */
  mark: string;
  markRemark: string;
  recommendVersion: string | null;
  /** False when the knowledge base held no advisory for its ecosystem when it was analysed: 未覆盖, never 无漏洞. */
  covered: boolean;
  /** A container image's report: the index of the layer it first appeared in (ReportModel.image.layers); null otherwise. */
  layer: number | null;
}

export interface ReportVulnerability {
  /** Primary id (CVE when known, else GHSA/GO/PYSEC...). */
  id: string;
  aliases: string[];
  cve: string | null;
  cnnvd: string | null;
  cnvd: string | null;
  /** ref of the affected component. */
  componentRef: string;
  componentName: string;
  componentVersion: string;
  componentPurl: string;
  title: string;
  description: string;
  /** Level after any custom level set by an analyst. */
  level: Level;
  originalLevel: Level;
  levelRemark: string;
  /** CVSS base score when known. */
  score: number | null;
  /** CVSS vector when known, e.g. CVSS:3.1/AV:N/... */
  vector: string | null;
  /** Which knowledge-base source set the level (`CVSS:3.1 NVD 9.8`); '' or absent when unrated or not recorded. */
  severitySource?: string;
  cwes: string[];
  fixedVersions: string[];
  /**
   * The distribution's fix status (contract/enums.ts FIX_STATE_LABEL): fixed, affected, or why no
   * fix comes (will_not_fix …); 修复版本 reads fixedInText of both. Absent in models built before it.
   */
  fixState?: Exclude<FixState, 'not_affected'>;
  /**
   * The recommended upgrade: the smallest fixed version above the installed one in the
   * ecosystem's order (server/kb/advisory-view.ts recommendedUpgrade); null with the reason when
   * none can be named.
   */
  upgrade: { version: string | null; reason: string };
  published: string | null;
  references: string[];
  /** Vulnerability mark 0–7 and remark (contract VULNERABILITY_MARK_LABEL). */
  mark: number;
  markRemark: string;
  /** VEX 0 待定, 1 不受影响, 2 受影响, 3 已修复, 4 调查中 (contract VEX_LABEL) and its statement. */
  vex: number;
  vexRemark: string;
}

export interface ReportLicense {
  spdxId: string;
  name: string;
  level: Level;
  /** Components whose licence mentions it. */
  componentCount: number;
  osiApproved: boolean;
  fsfLibre: boolean;
  /** none | weak | strong | network (copyleft strength) */
  copyleft: string;
}

/** One place a licence was found in a file (the licence sections' 许可证识别明细). */
export interface ReportLicenceFinding {
  spdxId: string;
  file: string;
  startLine: number | null;
  endLine: number | null;
  /** How it was found (LICENSE_KIND_LABEL): text, header, reference, tag, declared. */
  kind: LicenseKind;
  /** Confidence 0–100 (package metadata and SPDX tags 100). */
  score: number;
  /** The file's own lines that decided it (at most 5); [] when declared or not kept. */
  evidence: string[];
  /** For a modified licence text (LicenseRef-Cairn-modified-<id>): the nearest standard licence. */
  nearest: string | null;
}

/** The licence sections' filter, as the generate call asked for it; null: every finding. */
export interface ReportLicenceFilter {
  /** Only findings recognised in these ways; null: every way. */
  kinds: LicenseKind[] | null;
  /** Only findings with at least this confidence (0: any). */
  minScore: number;
}

export interface ReportConflict {
  componentRef: string;
  componentName: string;
  componentVersion: string;
  /** The component's (inbound) licence expression. */
  license: string;
  /** incompatible | check (需核查依赖方式) | unknown (compatible pairs are not listed). */
  verdict: 'incompatible' | 'check' | 'unknown';
  /** One Chinese sentence. */
  explanation: string;
  /** Who decided (VERDICT_SOURCE_LABEL): the OSADL compatibility matrix or Cairn's rules. */
  source: VerdictSource;
}

export interface ReportMarkLog {
  /** component | vulnerability | level | vex */
  kind: string;
  target: string;
  /** The values in words (无需修复, 高危, 不受影响, 误报 ...). */
  oldValue: string;
  newValue: string;
  remark: string;
  user: string;
  at: string;
}

export interface ReportModel {
  /** The document title on the cover, e.g. 开源软件成分分析报告 (see sections.ts REPORT_TITLES). */
  title: string;
  /** `license`: the licence sections only (the licence reports); `full`: every section. */
  scope: 'full' | 'license';
  /** ISO time the report was generated. */
  generatedAt: string;
  /** The platform's name and version, for the cover and the SBOM tool fields. */
  tool: { name: string; version: string };
  /** The user who asked for it. */
  author: string;
  /** For a statistics report: id 0 and the name 全部应用. */
  subject: { id: number; name: string; version: string | null };
  /** A subject or statistics report: id 0, the name says how many projects it covers. */
  project: {
    id: number;
    name: string;
    /** getCodeType and its Chinese label. */
    codeType: number;
    codeTypeLabel: string;
    /** The project's declared outbound licence (SPDX), or null. */
    outboundLicense: string | null;
  };
  task: {
    id: number;
    /** Run number within the project (1, 2, ...). */
    seq: number;
    startedAt: string | null;
    finishedAt: string | null;
    /** Analysis modes as stored, e.g. "1,4,7". */
    analysisModes: string;
  };
  summary: {
    components: number;
    directComponents: number;
    vulnerabilities: number;
    vulnerabilityLevels: LevelCounts;
    /** Components per highest vulnerability level (risk codes 1..64 as keys). */
    componentRisks: Record<string, number>;
    licenses: number;
    licenseLevels: LevelCounts;
    conflicts: number;
    /** Components per ecosystem, largest first. */
    ecosystems: Array<{ name: string; count: number }>;
  };
  /**
   * The knowledge base's coverage of the runs: `complete` false means the vulnerability results are
   * incomplete and every format says so in words (headline 漏洞结果不完整 and the reasons). Runs
   * analysed before coverage was recorded count as complete (nothing is known against them).
   */
  coverage: { complete: boolean; headline: string | null; reasons: string[]; uncoveredComponents: number };
  /**
   * The container image a single run analysed (reference, manifest digest, platform, base system,
   * layers bottom first); null for any other run and for merged (subject, statistic) reports.
   */
  image: RunImage | null;
  components: ReportComponent[];
  /** Dependency edges between component refs; `from: null` is the project itself. */
  edges: Array<{ from: string | null; to: string }>;
  vulnerabilities: ReportVulnerability[];
  licenses: ReportLicense[];
  /** Every place the licences were found in files, with kind, score and evidence (after the filter). */
  licenceFindings: ReportLicenceFinding[];
  /** The filter the licence sections were made with; null when they hold every finding. */
  licenceFilter: ReportLicenceFilter | null;
  conflicts: ReportConflict[];
  /** The date of the OSADL compatibility matrix the conflict verdicts come from first (YYYY-MM-DD). */
  osadlVersion: string;
  markLogs: ReportMarkLog[];
}
