// SWID tags (`.zip`): one ISO/IEC 19770-2:2015 primary tag for the project and one per component.
// The project's tag links to its components (rel="component"), every component's tag back to
// the project (rel="parent") and to the components it depends on (rel="requires"), so the
// dependency graph survives in the tags. tagIds are name-based UUIDs of the software (its purl,
// else name and version), so the same software gets the same tagId in every report.
import { createHash } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';
import type { ReportComponent, ReportModel } from './model.ts';
import { documentName } from './spdx.ts';
import { privateWriteStream } from '../files/private.ts';

export const SWID_NAMESPACE = 'http://standards.iso.org/iso/19770/-2/2015/schema.xsd';
/** Our own Meta attributes (purl, licence, scope) live in a namespace of ours, as the XSD allows. */
export const CAIRN_SWID_NAMESPACE = 'https://cairn.invalid/ns/swid/1';
/** The schema's own value for "no registration id": the platform has no registered domain. */
const UNAVAILABLE_REGID = 'http://invalid.unavailable';

/** Characters XML 1.0 cannot carry at all (controls other than tab and line breaks, lone surrogates). */
// eslint-disable-next-line no-control-regex -- matching those control characters is the point
const INVALID_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
// eslint-disable-next-line no-control-regex -- a cheap first test before the exact one above
const MAYBE_INVALID_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF\uD800-\uDFFF]/;
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\t': '&#9;', '\n': '&#10;', '\r': '&#13;' };

/** An attribute value: XML-escaped, line breaks and tabs kept as character references. */
function xmlAttr(value: string): string {
  const clean = MAYBE_INVALID_XML.test(value) ? value.replace(INVALID_XML, '') : value;
  return clean.replace(/[&<>"\t\n\r]/g, (c) => ESCAPES[c]!);
}

/** A name-based UUID (version 5 layout over SHA-1) of `text`. */
function nameUuid(text: string): string {
  const bytes = createHash('sha1').update(`cairn-swid:${text}`).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The versionScheme (ISO 19770-2 §8.6.17) a version string follows. */
function versionSchemeOf(version: string): string {
  if (!version) return 'unknown';
  if (/^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/.test(version)) return 'semver';
  if (/^\d+(?:\.\d+)*$/.test(version)) return 'multipartnumeric';
  if (/^\d+(?:\.\d+)*[-+._]?[0-9A-Za-z.-]+$/.test(version)) return 'multipartnumeric+suffix';
  return 'alphanumeric';
}

/** A file name safe in any zip tool: letters, digits, `.`, `_`, `-`; never hidden, never empty. */
function safeEntryName(text: string): string {
  const safe = text.normalize('NFKC').replace(/[^\p{L}\p{N}._-]+/gu, '_').replace(/^[._]+/, '').slice(0, 80);
  return safe || 'unnamed';
}

interface Tag {
  tagId: string;
  name: string;
  version: string;
  meta: Record<string, string>;
  links: Array<{ rel: string; href: string }>;
}

function tagXml(tag: Tag, model: ReportModel): string {
  const attrs = (pairs: Record<string, string>): string =>
    Object.entries(pairs)
      .filter(([, value]) => value !== '')
      .map(([key, value]) => ` ${key}="${xmlAttr(value)}"`)
      .join('');
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<SoftwareIdentity xmlns="${SWID_NAMESPACE}" xmlns:cairn="${CAIRN_SWID_NAMESPACE}"${attrs({
      name: tag.name,
      tagId: tag.tagId,
      tagVersion: '1',
      version: tag.version,
      versionScheme: versionSchemeOf(tag.version),
    })}>`,
    `  <Entity${attrs({ name: model.tool.name, regid: UNAVAILABLE_REGID, role: 'tagCreator' })}/>`,
    ...tag.links.map((link) => `  <Link${attrs(link)}/>`),
    `  <Meta${attrs(tag.meta)}/>`,
    '</SoftwareIdentity>',
    '',
  ];
  return lines.join('\n');
}

const softwareKey = (c: ReportComponent): string => c.purl || `${c.ecosystem}:${c.name}@${c.version}`;

/** The tags of a report: the project's first, then one per component, with their zip entry names. */
function buildSwidTags(model: ReportModel): Array<{ entry: string; tagId: string; xml: string }> {
  const generator = `${model.tool.name} ${model.tool.version}`;
  const projectTagId = nameUuid(`project:${model.project.id}:${model.project.name}:${model.subject.version ?? ''}`);
  const tagIds = new Map<string, string>();
  const used = new Set<string>();
  for (const c of model.components) {
    // The same software listed twice (two refs) still needs two distinct tagIds.
    let tagId = nameUuid(softwareKey(c));
    if (used.has(tagId)) tagId = nameUuid(`${softwareKey(c)}#${c.ref}`);
    used.add(tagId);
    tagIds.set(c.ref, tagId);
  }
  const requires = new Map<string, Set<string>>();
  const roots = new Set<string>();
  for (const edge of model.edges) {
    if (!tagIds.has(edge.to)) continue;
    if (edge.from === null) roots.add(edge.to);
    else if (tagIds.has(edge.from) && edge.from !== edge.to) {
      let set = requires.get(edge.from);
      if (!set) requires.set(edge.from, (set = new Set()));
      set.add(edge.to);
    }
  }
  const project: Tag = {
    tagId: projectTagId,
    name: model.project.name || model.subject.name,
    version: model.subject.version ?? '',
    meta: {
      product: documentName(model),
      colloquialVersion: model.subject.version ?? '',
      generator,
      'cairn:subject': model.subject.name,
      'cairn:codeType': model.project.codeTypeLabel,
      'cairn:license': model.project.outboundLicense ?? '',
    },
    // Every component is part of the project; the direct dependencies are also what it requires.
    links: [
      ...model.components.map((c) => ({ rel: 'component', href: `swid:${tagIds.get(c.ref)}` })),
      ...model.components.filter((c) => roots.has(c.ref)).map((c) => ({ rel: 'requires', href: `swid:${tagIds.get(c.ref)}` })),
    ],
  };
  const tags = [{ entry: `${safeEntryName(project.name)}.swidtag`, tagId: project.tagId, xml: tagXml(project, model) }];
  const entries = new Set<string>();
  for (const c of model.components) {
    const tag: Tag = {
      tagId: tagIds.get(c.ref)!,
      name: c.name,
      version: c.version,
        meta: {
        product: c.name,
        colloquialVersion: c.version,
        generator,
        'cairn:purl': c.purl,
        'cairn:ecosystem': c.ecosystem,
        'cairn:license': c.license ?? '',
        'cairn:scope': c.scope,
        'cairn:direct': String(c.direct),
      },
      links: [
        { rel: 'parent', href: `swid:${projectTagId}` },
        ...[...(requires.get(c.ref) ?? [])].map((ref) => ({ rel: 'requires', href: `swid:${tagIds.get(ref)}` })),
      ],
    };
    let entry = `components/${safeEntryName(`${c.name}-${c.version}`)}.swidtag`;
    if (entries.has(entry)) entry = `components/${safeEntryName(`${c.name}-${c.version}-${c.ref}`)}.swidtag`;
    entries.add(entry);
    tags.push({ entry, tagId: tag.tagId, xml: tagXml(tag, model) });
  }
  return tags;
}

export async function writeSwidZip(model: ReportModel, file: string): Promise<void> {
  const zip = new yazl.ZipFile();
  const mtime = new Date(model.generatedAt);
  // Stored, not deflated: yazl deflates every entry as its own thread-pool job, which for
  // thousands of sub-kilobyte tags costs seconds (5,000 tags: ~12 s deflated, <1 s stored) and
  // saves only about half of a file that is small either way.
  const options = { mtime: Number.isNaN(mtime.getTime()) ? new Date() : mtime, compress: false };
  for (const tag of buildSwidTags(model)) zip.addBuffer(Buffer.from(tag.xml, 'utf8'), tag.entry, options);
  zip.end();
  await pipeline(zip.outputStream, privateWriteStream(file));
}
