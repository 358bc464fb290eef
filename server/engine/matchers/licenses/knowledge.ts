// Licence knowledge: the SPDX licence list (ids, names, full texts, OSI flag) from the
// `spdx-license-list` package, plus Cairn's own data in resources/licenses (risk levels,
// attributes, standard headers). Everything is loaded lazily once and cached: the list with
// texts is ~10 MB of JSON and most scans never need it.
import { createRequire } from 'node:module';
// Imported rather than read from disk so the server bundle (esbuild) carries them inline and no
// path to resources/ has to exist at run time.
import attributesData from '../../../../resources/licenses/attributes.json' with { type: 'json' };
import headersData from '../../../../resources/licenses/headers.json' with { type: 'json' };
import levelsData from '../../../../resources/licenses/levels.json' with { type: 'json' };
import { LEVEL_CODES, type LicenseLevel } from '../../../../contract/enums.ts';

/** Risk of a licence for a commercial closed-source product: 1 超危, 2 高危, 4 中危, 8 低危, 16 未知 (contract/enums.ts). */
export type { LicenseLevel };
export const LEVEL_UNKNOWN: LicenseLevel = 16;

export type CopyleftStrength = 'none' | 'weak' | 'strong' | 'network';

export interface LicenseAttributes {
  copyleft: CopyleftStrength;
  osiApproved: boolean;
  fsfLibre: boolean | null;
  patentGrant: boolean;
  attribution: boolean;
  sourceDisclosure: boolean;
}

export interface LicenseInfo {
  id: string;
  name: string;
  url: string;
  osiApproved: boolean;
  deprecated: boolean;
  isException: boolean;
}

interface SpdxEntry {
  name: string;
  url: string;
  osiApproved: boolean;
  licenseText: string;
}

// The SPDX list marks these ids deprecated (spdx-license-ids/deprecated.json, licence list 3.x);
// kept here because that package is only a transitive dependency. Recognition never reports them:
// they are renamed to their current id (GPL-2.0 → GPL-2.0-only) instead.
const DEPRECATED = new Set([
  'AGPL-1.0', 'AGPL-3.0', 'BSD-2-Clause-FreeBSD', 'BSD-2-Clause-NetBSD', 'GFDL-1.1', 'GFDL-1.2', 'GFDL-1.3',
  'GPL-1.0', 'GPL-2.0', 'GPL-2.0-with-GCC-exception', 'GPL-2.0-with-autoconf-exception',
  'GPL-2.0-with-bison-exception', 'GPL-2.0-with-classpath-exception', 'GPL-2.0-with-font-exception', 'GPL-3.0',
  'GPL-3.0-with-GCC-exception', 'GPL-3.0-with-autoconf-exception', 'LGPL-2.0', 'LGPL-2.1', 'LGPL-3.0', 'Net-SNMP',
  'Nunit', 'StandardML-NJ', 'bzip2-1.0.5', 'eCos-2.0', 'wxWindows',
  'GPL-1.0+', 'GPL-2.0+', 'GPL-3.0+', 'LGPL-2.0+', 'LGPL-2.1+', 'LGPL-3.0+', 'AGPL-1.0+', 'AGPL-3.0+',
]);

// Deprecated id → current expression, for the ones with a clean replacement.
const DEPRECATED_REPLACEMENT: Record<string, string> = {
  'AGPL-1.0': 'AGPL-1.0-only', 'AGPL-3.0': 'AGPL-3.0-only', 'GFDL-1.1': 'GFDL-1.1-only', 'GFDL-1.2': 'GFDL-1.2-only',
  'GFDL-1.3': 'GFDL-1.3-only', 'GPL-1.0': 'GPL-1.0-only', 'GPL-2.0': 'GPL-2.0-only', 'GPL-3.0': 'GPL-3.0-only',
  'LGPL-2.0': 'LGPL-2.0-only', 'LGPL-2.1': 'LGPL-2.1-only', 'LGPL-3.0': 'LGPL-3.0-only',
  'GPL-1.0+': 'GPL-1.0-or-later', 'GPL-2.0+': 'GPL-2.0-or-later', 'GPL-3.0+': 'GPL-3.0-or-later',
  'LGPL-2.0+': 'LGPL-2.0-or-later', 'LGPL-2.1+': 'LGPL-2.1-or-later', 'LGPL-3.0+': 'LGPL-3.0-or-later',
  'BSD-2-Clause-FreeBSD': 'BSD-2-Clause', 'BSD-2-Clause-NetBSD': 'BSD-2-Clause', 'StandardML-NJ': 'SMLNJ',
  'bzip2-1.0.5': 'bzip2-1.0.6', 'Nunit': 'zlib-acknowledgement',
  'GPL-2.0-with-GCC-exception': 'GPL-2.0-or-later WITH GCC-exception-2.0',
  'GPL-2.0-with-autoconf-exception': 'GPL-2.0-or-later WITH Autoconf-exception-2.0',
  'GPL-2.0-with-bison-exception': 'GPL-2.0-or-later WITH Bison-exception-2.2',
  'GPL-2.0-with-classpath-exception': 'GPL-2.0-only WITH Classpath-exception-2.0',
  'GPL-2.0-with-font-exception': 'GPL-2.0-only WITH Font-exception-2.0',
  'GPL-3.0-with-GCC-exception': 'GPL-3.0-only WITH GCC-exception-3.1',
  'GPL-3.0-with-autoconf-exception': 'GPL-3.0-only WITH Autoconf-exception-3.0',
  'eCos-2.0': 'GPL-2.0-or-later WITH eCos-exception-2.0', 'wxWindows': 'LGPL-2.0-or-later WITH WxWindows-exception-3.1',
};

const require = createRequire(import.meta.url);

let spdx: Record<string, SpdxEntry> | undefined;
let exceptions: Set<string> | undefined;
let byLower: Map<string, string> | undefined;
let levels: Record<string, LicenseLevel> | undefined;
let attributes: Record<string, Partial<LicenseAttributes>> | undefined;
let headers: Record<string, string[]> | undefined;

function list(): Record<string, SpdxEntry> {
  spdx ??= require('spdx-license-list/spdx-full.json') as Record<string, SpdxEntry>;
  return spdx;
}

function exceptionIds(): Set<string> {
  exceptions ??= new Set(require('spdx-exceptions/index.json') as string[]);
  return exceptions;
}

/** Every licence id of the SPDX list (including deprecated ones). */
export function licenseIds(): string[] {
  return Object.keys(list());
}

/** Every exception id of the SPDX exception list. */
export function exceptionIdList(): string[] {
  return [...exceptionIds()];
}

export function isException(id: string): boolean {
  return exceptionIds().has(id);
}

export function isDeprecated(id: string): boolean {
  return DEPRECATED.has(id);
}

/** Current replacement of a deprecated id (an id or a `WITH` expression), else the id itself. */
export function replaceDeprecated(id: string): string {
  return DEPRECATED_REPLACEMENT[id] ?? id;
}

/** Canonical casing of a licence or exception id ("mit" → "MIT"), or undefined when unknown. */
export function canonicalId(id: string): string | undefined {
  if (!byLower) {
    byLower = new Map();
    for (const k of Object.keys(list())) byLower.set(k.toLowerCase(), k);
    for (const k of exceptionIds()) byLower.set(k.toLowerCase(), k);
  }
  return byLower.get(id.toLowerCase());
}

export function isKnownLicense(id: string): boolean {
  return Object.hasOwn(list(), id);
}

export function licenseInfo(id: string): LicenseInfo | undefined {
  const e = list()[id];
  if (e) return { id, name: e.name, url: e.url, osiApproved: e.osiApproved, deprecated: DEPRECATED.has(id), isException: false };
  if (exceptionIds().has(id)) return { id, name: id, url: `https://spdx.org/licenses/${id}.html`, osiApproved: false, deprecated: false, isException: true };
  return undefined;
}

/** Full licence text from the SPDX list (empty string when unknown). */
export function licenseText(id: string): string {
  return list()[id]?.licenseText ?? '';
}

/** Standard per-file notices ("headers") shipped in resources/licenses/headers.json, per id. */
export function licenseHeaders(): Record<string, string[]> {
  headers ??= headersData as Record<string, string[]>;
  return headers;
}

function levelTable(): Record<string, LicenseLevel> {
  if (!levels) {
    const raw = levelsData as { levels: Record<string, number> };
    levels = {};
    for (const [id, v] of Object.entries(raw.levels)) if ((LEVEL_CODES as readonly number[]).includes(v)) levels[id] = v as LicenseLevel;
  }
  return levels;
}

/**
 * Default risk level of one licence id. `-only`/`-or-later` and deprecated spellings share their
 * family's level; an id outside the table (LicenseRef-*, unknown) is 16 未知.
 */
export function licenseLevel(id: string): LicenseLevel {
  const table = levelTable();
  const direct = table[id];
  if (direct !== undefined) return direct;
  const base = id.replace(/\+$/, '').replace(/-(only|or-later)$/, '');
  return table[base] ?? table[`${base}-only`] ?? LEVEL_UNKNOWN;
}

/** Attributes for detail screens; falls back to what the SPDX list knows (OSI flag) when not curated. */
export function licenseAttributes(id: string): LicenseAttributes | undefined {
  attributes ??= (attributesData as { licenses: Record<string, Partial<LicenseAttributes>> }).licenses;
  const base = id.replace(/\+$/, '').replace(/-(only|or-later)$/, '');
  const a = attributes[id] ?? attributes[base] ?? attributes[`${base}-only`];
  const e = list()[id];
  if (!a && !e) return undefined;
  return {
    copyleft: a?.copyleft ?? 'none',
    osiApproved: a?.osiApproved ?? e?.osiApproved ?? false,
    fsfLibre: a?.fsfLibre ?? null,
    patentGrant: a?.patentGrant ?? false,
    attribution: a?.attribution ?? true,
    sourceDisclosure: a?.sourceDisclosure ?? false,
  };
}
