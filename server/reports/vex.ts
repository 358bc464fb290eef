// The VEX export in its two formats: CycloneDX VEX (a CycloneDX 1.6 BOM holding the findings with
// their analysis and only the components they affect) and OpenVEX v0.2.0 (one statement per
// finding and component, the status mapped from the analysts' VEX code).
import { randomUUID } from 'node:crypto';
import { PackageURL } from 'packageurl-js';
import type { ReportComponent, ReportModel, ReportVulnerability } from './model.ts';
import { buildBom, otherIdsOf, recommendationOf, serializeBom } from './cyclonedx.ts';
import { writePrivateFile } from '../files/private.ts';
import { imagePurl } from './image.ts';

export async function writeCycloneDxVex(model: ReportModel, file: string): Promise<void> {
  await writePrivateFile(file, serializeBom(buildBom(model, { vex: true })));
}

const OPENVEX_CONTEXT = 'https://openvex.dev/ns/v0.2.0';
export type OpenVexStatus = 'not_affected' | 'affected' | 'fixed' | 'under_investigation';

/** Our VEX codes (contract VEX_LABEL): 0 待定 and 4 调查中 are both still under investigation. */
const OPENVEX_STATUS_OF_VEX: Record<number, OpenVexStatus> = {
  0: 'under_investigation',
  1: 'not_affected',
  2: 'affected',
  3: 'fixed',
  4: 'under_investigation',
};

export interface OpenVexStatement {
  vulnerability: { name: string; aliases?: string[] };
  /** An image run's statements name the image with the affected component as its subcomponent. */
  products: Array<{ '@id': string; identifiers?: { purl: string }; subcomponents?: Array<{ '@id': string; identifiers?: { purl: string } }> }>;
  status: OpenVexStatus;
  status_notes?: string;
  impact_statement?: string;
  action_statement?: string;
}

export interface OpenVexDocument {
  '@context': string;
  '@id': string;
  author: string;
  role?: string;
  timestamp: string;
  version: number;
  tooling?: string;
  statements: OpenVexStatement[];
}

/** The product IRI: the purl, or for a component found without one a generic purl of its name. */
function productId(v: ReportVulnerability, component: ReportComponent | undefined): string {
  const purl = v.componentPurl || component?.purl;
  if (purl) return purl;
  return new PackageURL('generic', null, v.componentName || 'unknown', v.componentVersion || null, null, null).toString();
}

function statementOf(v: ReportVulnerability, component: ReportComponent | undefined, image: string | null): OpenVexStatement {
  const status = OPENVEX_STATUS_OF_VEX[v.vex] ?? 'under_investigation';
  const aliases = otherIdsOf(v);
  const id = productId(v, component);
  const statement: OpenVexStatement = {
    vulnerability: { name: v.id, ...(aliases.length ? { aliases } : {}) },
    products: [image
      ? { '@id': image, identifiers: { purl: image }, subcomponents: [{ '@id': id, ...(id.startsWith('pkg:') ? { identifiers: { purl: id } } : {}) }] }
      : { '@id': id, ...(id.startsWith('pkg:') ? { identifiers: { purl: id } } : {}) }],
    status,
  };
  // OpenVEX requires an impact statement (or a justification code) for not_affected and an
  // action statement for affected; the analyst's remark is the statement when there is one.
  if (status === 'not_affected') statement.impact_statement = v.vexRemark || '分析人员判定不受影响';
  else if (status === 'affected') {
    const advice = recommendationOf(v, component);
    statement.action_statement = advice ?? '暂无修复版本，请评估缓解措施或替换组件';
    if (v.vexRemark) statement.status_notes = v.vexRemark;
  } else if (v.vexRemark) statement.status_notes = v.vexRemark;
  return statement;
}

function buildOpenVex(model: ReportModel): OpenVexDocument {
  const components = new Map(model.components.map((c) => [c.ref, c]));
  // OpenVEX names a container image as the product and the package in it as a subcomponent.
  const image = model.image ? imagePurl(model.image) : null;
  return {
    '@context': OPENVEX_CONTEXT,
    '@id': `urn:uuid:${randomUUID()}`,
    author: model.author || model.tool.name,
    role: 'Document Creator',
    timestamp: new Date(model.generatedAt).toISOString(),
    version: 1,
    tooling: `${model.tool.name} ${model.tool.version}`,
    statements: model.vulnerabilities.map((v) => statementOf(v, components.get(v.componentRef), image)),
  };
}

export async function writeOpenVex(model: ReportModel, file: string): Promise<void> {
  await writePrivateFile(file, `${JSON.stringify(buildOpenVex(model), null, 2)}\n`);
}
