// The licence of an installed JavaScript package whose package.json declares none (no `license`
// or `licenses` field, as older and hand-made packages ship): the licence file at the package's
// root (LICENSE, LICENCE, COPYING, UNLICENSE, with any extension or suffix such as LICENSE-MIT),
// recognised the way the licence pass recognises texts (matchers/licenses/recognize.ts). Only
// what states the package's licence counts: full texts (standard or modified), licence headers
// and SPDX tags; a licence merely named in passing does not.
import type { ExtractContext } from '../../model.ts';
import type { LicenseRecognizer } from '../../matchers/licenses/recognize.ts';
import { joinPath } from './paths.ts';

/** A package's own licence file, by name. */
export const LICENCE_FILE = /^(?:licen[cs]e|copying|unlicense)(?:[.\-_][\w.-]*)?$/i;
/** Larger files are not a package's licence (a bundle of third-party notices is read by the licence pass). */
const MAX_LICENCE_CHARS = 256 * 1024;
/** Licence files of one package read at most (LICENSE-MIT and LICENSE-APACHE …). */
const MAX_FILES = 4;

let recognizer: Promise<LicenseRecognizer> | undefined;
const recognizerOf = (): Promise<LicenseRecognizer> =>
  (recognizer ??= import('../../matchers/licenses/recognize.ts').then((m) => m.createLicenseRecognizer()));

/**
 * The licences stated by the licence files at the root of the package folder `dir` (root-relative),
 * and the files that stated them; null when there is none or none states a licence.
 */
export async function licenceFromFiles(dir: string, ctx: ExtractContext): Promise<{ licenses: string[]; files: string[] } | null> {
  const names = (await ctx.list(dir).catch(() => [] as string[])).filter((n) => LICENCE_FILE.test(n)).sort().slice(0, MAX_FILES);
  if (!names.length) return null;
  const licenses: string[] = [];
  const files: string[] = [];
  for (const name of names) {
    ctx.signal.throwIfAborted();
    const file = joinPath(dir, name);
    const text = await ctx.readText(file).catch(() => undefined);
    if (!text || text.length > MAX_LICENCE_CHARS) continue;
    const found = await licencesStatedBy(text, name);
    if (!found.length) continue;
    files.push(file);
    for (const spdx of found) if (!licenses.includes(spdx)) licenses.push(spdx);
  }
  return licenses.length ? { licenses, files } : null;
}

/**
 * The licences a package's licence file states (full texts, headers, SPDX tags; not a licence
 * named in passing), as SPDX ids; none for a text too large to be one package's licence.
 */
export async function licencesStatedBy(text: string, name: string): Promise<string[]> {
  if (text.length > MAX_LICENCE_CHARS) return [];
  // The same few texts (Apache-2.0's, MIT's) come back in every jar or package of a large input.
  const key = `${name}\0${text}`;
  const known = stated.get(key);
  if (known) return known;
  const found = (await recognizerOf()).recognize(text, name).filter((m) => m.kind !== 'reference');
  const ids = [...new Set(found.map((m) => m.spdx))];
  if (stated.size >= MAX_REMEMBERED) stated.clear();
  stated.set(key, ids);
  return ids;
}
const MAX_REMEMBERED = 256;
const stated = new Map<string, string[]>();
