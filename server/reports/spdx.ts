// SPDX 2.3 JSON (`.spdx.json`): the project as the package the document DESCRIBES, one package
// per component with its purl and licence, and the dependency graph as relationships. Licence
// ids that are not on the SPDX list become `LicenseRef-` ids declared in
// hasExtractedLicensingInfos, so that every licence field stays a valid SPDX expression.
import { COMPONENT_NOT_COVERED, COMPONENT_NOT_COVERED_REASON } from '../../contract/coverage.ts';
import { randomUUID } from 'node:crypto';
import parseSpdx from 'spdx-expression-parse';
import spdxCorrect from 'spdx-correct';
import type { ReportModel } from './model.ts';
import { writePrivateFile } from '../files/private.ts';
import { imageOperatingSystem, imageProperties, imagePurl, layerProperties, osRootRefs } from './image.ts';

/**
 * The SPDX licence list the ids are checked against: spdx-expression-parse accepts the ids of
 * spdx-license-ids, a subset of the list spdx-license-list ships (3.28, checked by the SBOM
 * tests against that package's readme).
 */
export const LICENSE_LIST_VERSION = '3.28';

type Ast = parseSpdx.Info;

export interface SpdxLicence {
  /** A valid SPDX expression, or NOASSERTION when the component's licence is unknown. */
  expression: string;
  /** LicenseRef- ids used in the expression, with the original text they stand for. */
  extracted: Array<{ id: string; text: string }>;
  /** The declared text when it had to be corrected or replaced (for a comment), else null. */
  original: string | null;
}

function tryParse(text: string): Ast | null {
  try {
    return parseSpdx(text);
  } catch {
    return null;
  }
}

/** Canonical text of a parsed expression: upper-case operators, parentheses only where needed. */
function render(ast: Ast, parent: 'and' | 'or' | null = null): string {
  if ('license' in ast) return `${ast.license}${ast.plus ? '+' : ''}${ast.exception ? ` WITH ${ast.exception}` : ''}`;
  const text = `${render(ast.left, ast.conjunction)} ${ast.conjunction.toUpperCase()} ${render(ast.right, ast.conjunction)}`;
  // AND binds tighter than OR: an OR inside an AND needs parentheses.
  return parent === 'and' && ast.conjunction === 'or' ? `(${text})` : text;
}

/** `LicenseRef-` + the idstring characters SPDX allows (letters, digits, `.` and `-`). */
function licenseRefOf(text: string): string {
  const id = text.normalize('NFKC').replace(/[^A-Za-z0-9.]+/g, '-').replace(/^-+|-+$/g, '');
  return `LicenseRef-${id || 'unknown'}`;
}

/**
 * Turns a component's licence text into a valid SPDX expression: kept when it parses; else each
 * licence of the expression is corrected (spdx-correct) or replaced by a LicenseRef; a text
 * that still does not parse becomes one LicenseRef as a whole.
 */
export function spdxLicence(text: string | null): SpdxLicence {
  const declared = (text ?? '').replace(/\s+/g, ' ').trim();
  if (!declared || declared === 'NOASSERTION' || declared === 'NONE') return { expression: 'NOASSERTION', extracted: [], original: null };
  const parsed = tryParse(declared);
  if (parsed) {
    const expression = render(parsed);
    return { expression, extracted: refsIn(parsed, declared), original: null };
  }
  // A whole name such as `Apache License, Version 2.0` first, before splitting on operators; not
  // a compound text, which spdx-correct would shorten to one of its licences.
  const compound = /\s(?:AND|OR|WITH)\s|[()]/i.test(declared);
  const whole = compound ? null : spdxCorrect(declared);
  const wholeParsed = whole ? tryParse(whole) : null;
  if (wholeParsed) return { expression: render(wholeParsed), extracted: refsIn(wholeParsed, declared), original: declared };
  const extracted = new Map<string, string>();
  const pieces = declared.split(/(\s+(?:AND|OR|WITH|and|or|with)\s+|[()])/);
  const rebuilt = pieces
    .map((piece, index) => {
      if (index % 2 === 1) return piece.trim() === '(' || piece.trim() === ')' ? piece : ` ${piece.trim().toUpperCase()} `;
      const licence = piece.trim();
      if (!licence) return piece;
      // The piece after WITH is an exception: only the list's exceptions can stand there.
      if (/\bWITH\s*$/i.test(pieces[index - 1] ?? '')) return licence;
      if (tryParse(licence)) return licence;
      const corrected = spdxCorrect(licence);
      if (corrected && tryParse(corrected)) return corrected;
      const ref = licenseRefOf(licence);
      extracted.set(ref, licence);
      return ref;
    })
    .join('');
  const reparsed = tryParse(rebuilt);
  if (reparsed) return { expression: render(reparsed), extracted: [...extracted].map(([id, t]) => ({ id, text: t })), original: declared };
  const ref = licenseRefOf(declared);
  return { expression: ref, extracted: [{ id: ref, text: declared }], original: declared };
}

/** LicenseRefs a parsable expression already names (declared with the whole text as theirs). */
function refsIn(ast: Ast, text: string): Array<{ id: string; text: string }> {
  if ('license' in ast) return ast.license.startsWith('LicenseRef-') ? [{ id: ast.license, text }] : [];
  return [...refsIn(ast.left, text), ...refsIn(ast.right, text)];
}

/** SPDX times are whole seconds in UTC: `2026-11-22T08:00:00Z`. */
function spdxTime(iso: string): string {
  const date = new Date(iso);
  return (Number.isNaN(date.getTime()) ? new Date() : date).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** SPDXRef- + the idstring characters SPDX allows. */
const spdxId = (prefix: string, ref: string): string => `SPDXRef-${prefix}-${ref.replace(/[^A-Za-z0-9.-]+/g, '-') || 'x'}`;

/** The project's name in a document or file: the subject, the project and the subject version. */
export function documentName(model: ReportModel): string {
  const parts = [model.subject.name, model.project.name].filter((p, i, all) => p && all.indexOf(p) === i);
  return `${parts.join(' / ') || model.title}${model.subject.version ? ` ${model.subject.version}` : ''}`;
}

function buildSpdx(model: ReportModel): Record<string, unknown> {
  const rootId = model.image ? spdxId('Image', String(model.project.id)) : spdxId('Project', String(model.project.id));
  const extracted = new Map<string, string>();
  const licenceOf = (text: string | null): SpdxLicence => {
    const licence = spdxLicence(text);
    for (const { id, text: original } of licence.extracted) if (!extracted.has(id)) extracted.set(id, original);
    return licence;
  };
  const outbound = licenceOf(model.project.outboundLicense);
  const created = spdxTime(model.generatedAt);
  const annotator = `Tool: ${model.tool.name}-${model.tool.version}`;
  /** Cairn's `cairn:` properties of an element as SPDX annotations (`cairn:name: value`). */
  const annotations = (properties: Array<[string, string]>) =>
    properties.map(([name, value]) => ({ annotationType: 'OTHER', annotator, annotationDate: created, comment: `cairn:${name}: ${value}` }));
  const image = model.image;
  const imageRef = image ? imagePurl(image) : null;
  const root = {
    SPDXID: rootId,
    // An image run's document describes the image: named by its reference (else its digest),
    // version the manifest digest, a container (SPDX 2.3 §7.24), with its oci purl.
    ...(image
      ? { name: image.reference ?? image.manifestDigest, versionInfo: image.manifestDigest }
      : { name: model.project.name || model.subject.name, ...(model.subject.version ? { versionInfo: model.subject.version } : {}) }),
    downloadLocation: 'NOASSERTION',
    filesAnalyzed: false,
    licenseConcluded: 'NOASSERTION',
    licenseDeclared: outbound.expression,
    copyrightText: 'NOASSERTION',
    primaryPackagePurpose: image ? 'CONTAINER' : 'APPLICATION',
    ...(image
      ? {
        description: `容器镜像 ${image.reference ?? image.manifestDigest}（平台 ${image.platform}，基础系统 ${image.os?.prettyName ?? '未识别'}，共 ${image.layers.length} 层）`,
        ...(imageRef ? { externalRefs: [{ referenceCategory: 'PACKAGE-MANAGER', referenceType: 'purl', referenceLocator: imageRef }] } : {}),
        annotations: annotations(imageProperties(image)),
      }
      : {}),
    comment: `应用：${model.subject.name}；${image ? `项目：${model.project.name}；` : ''}代码类型：${model.project.codeTypeLabel}；检测任务第 ${model.task.seq} 次${model.coverage.headline ? `；${model.coverage.headline}` : ''}`,
  };
  const ids = new Map<string, string>();
  const packages = model.components.map((component) => {
    const id = spdxId('Package', component.ref);
    ids.set(component.ref, id);
    const licence = licenceOf(component.license);
    const locations = component.locations.map((l) => (l.line ? `${l.file}:${l.line}` : l.file));
    return {
      SPDXID: id,
      name: component.name,
      ...(component.version ? { versionInfo: component.version } : {}),
      downloadLocation: 'NOASSERTION',
      filesAnalyzed: false,
      licenseConcluded: licence.expression,
      licenseDeclared: licence.expression,
      ...(licence.original ? { licenseComments: `组件声明的许可证：${licence.original}` } : {}),
      copyrightText: 'NOASSERTION',
      primaryPackagePurpose: 'LIBRARY',
      ...(locations.length ? { sourceInfo: `声明位置：${locations.join('，')}` } : {}),
      ...(component.covered ? {} : { comment: `漏洞${COMPONENT_NOT_COVERED}：${COMPONENT_NOT_COVERED_REASON}` }),
      ...(component.purl ? { externalRefs: [{ referenceCategory: 'PACKAGE-MANAGER', referenceType: 'purl', referenceLocator: component.purl }] } : {}),
      // Besides: an image run's component's layer (server/reports/image.ts), the declared range of
      // an unpinned component, and how a component found in a built artefact was identified.
      ...(componentProperties(component, image).length ? { annotations: annotations(componentProperties(component, image)) } : {}),
    };
  });
  const scopeOf = new Map(model.components.map((c) => [c.ref, c.scope]));
  const relationships: Array<{ spdxElementId: string; relationshipType: string; relatedSpdxElement: string }> = [
    { spdxElementId: 'SPDXRef-DOCUMENT', relationshipType: 'DESCRIBES', relatedSpdxElement: rootId },
  ];
  // An image's operating system (os-release): a package the image CONTAINS, which CONTAINS the
  // OS packages nothing else brings in (server/reports/image.ts).
  const os = imageOperatingSystem(image);
  const osRoots = os ? osRootRefs(model.components, model.edges) : new Set<string>();
  const osPackage = os
    ? {
      SPDXID: spdxId('OperatingSystem', String(model.project.id)),
      name: os.name,
      ...(os.version ? { versionInfo: os.version } : {}),
      downloadLocation: 'NOASSERTION',
      filesAnalyzed: false,
      licenseConcluded: 'NOASSERTION',
      licenseDeclared: 'NOASSERTION',
      copyrightText: 'NOASSERTION',
      primaryPackagePurpose: 'OPERATING_SYSTEM',
      description: os.description,
    }
    : null;
  if (osPackage) {
    relationships.push({ spdxElementId: rootId, relationshipType: 'CONTAINS', relatedSpdxElement: osPackage.SPDXID });
    for (const ref of osRoots) {
      const to = ids.get(ref);
      if (to) relationships.push({ spdxElementId: osPackage.SPDXID, relationshipType: 'CONTAINS', relatedSpdxElement: to });
    }
  }
  const seen = new Set<string>();
  // An image contains every component nothing else brings in, whether or not the run recorded it as a root.
  const brought = new Set(model.edges.filter((e) => e.from !== null && e.from !== e.to).map((e) => e.to));
  const edges = image ? [...model.edges, ...model.components.filter((c) => !brought.has(c.ref)).map((c) => ({ from: null, to: c.ref }))] : model.edges;
  for (const edge of edges) {
    if (edge.from === null && osRoots.has(edge.to)) continue;
    const from = edge.from === null ? rootId : ids.get(edge.from);
    const to = ids.get(edge.to);
    if (!from || !to || from === to || seen.has(`${from}>${to}`)) continue;
    seen.add(`${from}>${to}`);
    // A development dependency is stated from its side, so that importers keep its scope; an
    // image CONTAINS its top-level components.
    relationships.push(
      image && edge.from === null
        ? { spdxElementId: from, relationshipType: 'CONTAINS', relatedSpdxElement: to }
        : scopeOf.get(edge.to) === 'dev'
        ? { spdxElementId: to, relationshipType: 'DEV_DEPENDENCY_OF', relatedSpdxElement: from }
        : { spdxElementId: from, relationshipType: 'DEPENDS_ON', relatedSpdxElement: to },
    );
  }
  const name = documentName(model);
  return {
    spdxVersion: 'SPDX-2.3',
    dataLicense: 'CC0-1.0',
    SPDXID: 'SPDXRef-DOCUMENT',
    name,
    // Unique per document (SPDX 2.3 §6.5): the project, the task and a fresh UUID.
    documentNamespace: `https://spdx.org/spdxdocs/cairn/project-${model.project.id}-task-${model.task.id}-${randomUUID()}`,
    creationInfo: {
      created,
      creators: [`Tool: ${model.tool.name}-${model.tool.version}`, ...(model.author ? [`Person: ${model.author}`] : [])],
      licenseListVersion: LICENSE_LIST_VERSION,
      ...(model.coverage.headline ? { comment: model.coverage.headline } : {}),
    },
    packages: [root, ...(osPackage ? [osPackage] : []), ...packages],
    relationships,
    ...(extracted.size
      ? {
          hasExtractedLicensingInfos: [...extracted].map(([licenseId, text]) => ({
            licenseId,
            extractedText: text,
            name: text,
            comment: '组件声明的许可证不在 SPDX 许可证列表中，按原文记录',
          })),
        }
      : {}),
  };
}

export async function writeSpdx(model: ReportModel, file: string): Promise<void> {
  await writePrivateFile(file, `${JSON.stringify(buildSpdx(model), null, 2)}\n`);
}

/** The `cairn:` facts of a component that SPDX 2.3 has no field for, as name/value pairs for annotations. */
function componentProperties(component: ReportModel['components'][number], image: ReportModel['image']): Array<[string, string]> {
  return [
    ...(image && component.layer !== null ? layerProperties(image, component.layer) : []),
    ...(component.constraint ? [['versionConstraint', component.constraint] as [string, string]] : []),
    ...(component.confidence !== null ? [['confidence', String(component.confidence)] as [string, string]] : []),
    ...component.evidence.map((e): [string, string] => ['evidence', `${e.rule}: ${e.file}${e.offset !== null ? ` @${e.offset}` : ''}${e.text ? ` (${e.text})` : ''}`]),
  ];
}
