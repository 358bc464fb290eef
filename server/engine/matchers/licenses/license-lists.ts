// Files that list licences rather than grant one: PyPI's trove classifier list, the SPDX id arrays
// of licence tools (spdx-license-ids, a checker's allow-list), licence databases (ScanCode's
// LicenseDB index, spdx-license-list's JSON). Read as licence text, such a file "has" dozens of
// licences; it grants none. Decided early and cheaply, before any matching: a list is a stretch
// of the file where many distinct licence ids, names or classifiers stand one per line or one per
// quoted string, close together, each mostly once.
//
// JSON with dozens of "license" fields (lock files, SBOMs, licence reports) is such a list too.
//
// What counts as an entry: a quoted string or a whole line (list markers and trailing commas
// aside; the first cell of a table or CSV row) that is exactly an SPDX licence or exception id
// (any case), a `LicenseRef-…` id, an SPDX licence's full name, or a `License :: …` classifier.
// A prose line naming a licence ("Licensed under the MIT License") is not an entry, nor is a
// "License: MIT" field: a notices file listing its components' licences stays a notices file.
import { exceptionIdList, licenseIds, licenseInfo } from './knowledge.ts';

/** Distinct entries a stretch needs to be a list. */
const MIN_DISTINCT = 12;
/** Of which this many are unmistakable (an id with a version or a hyphen, a name, a classifier). */
const MIN_STRONG = 10;
/** Entries further apart than this many lines start a new stretch (a database record spans ~15). */
const GAP_LINES = 24;
/** Distinct entries per entry: a lock file repeats "MIT" a thousand times, a list names each once. */
const MIN_DISTINCT_SHARE = 0.3;
// Cheap first test, one native regex pass: a list of licences has versioned ids ("-2.0"),
// classifiers or LicenseRef ids by the dozen; ordinary files with a licence header have a few.
const MARKERS = /-\d\.\d|License\s*::|LicenseRef-/g;
// JSON that carries other packages' licence fields by the dozen: lock files (package-lock.json,
// composer.lock), SBOMs, licence-checker reports. Their licences belong to the components they
// describe, whose own files are read for them.
const JSON_LICENSE_FIELD = /"licen[cs]es?"\s*:\s*["[{]/gi;
const MIN_JSON_FIELDS = 20;
/** Only the start of a very big file is looked at. */
const MAX_CHARS = 2 * 1024 * 1024;

let known: Map<string, boolean> | undefined;

/** Lower-cased id or name → whether it is unmistakably a licence (not a word like "curl" or "JSON"). */
function entries(): Map<string, boolean> {
  if (known) return known;
  known = new Map();
  for (const id of [...licenseIds(), ...exceptionIdList()]) known.set(id.toLowerCase(), /[\d-]/.test(id));
  for (const id of licenseIds()) {
    const name = licenseInfo(id)?.name;
    if (name && name.includes(' ')) known.set(name.toLowerCase(), true);
  }
  return known;
}

const QUOTED = /"([^"\n]{2,100})"|'([^'\n]{2,100})'|`([^`\n]{2,100})`/g;
const CLASSIFIER = /^License\s*::/;
const LICENSE_REF = /^LicenseRef-[A-Za-z0-9.-]+$/;

/** Whether a candidate is an entry: 0 no, 1 yes, 2 yes and unmistakable. */
function entryKind(candidate: string): 0 | 1 | 2 {
  const c = candidate.trim();
  if (c.length < 2 || c.length > 100) return 0;
  if (CLASSIFIER.test(c) || LICENSE_REF.test(c)) return 2;
  const strong = entries().get(c.toLowerCase());
  return strong === undefined ? 0 : strong ? 2 : 1;
}

/** Candidates of one line: its quoted strings (each may be an entry), else the line itself or its first cell. */
function candidates(line: string): { list: string[]; quoted: boolean } {
  if (/["'`]/.test(line)) {
    const list: string[] = [];
    QUOTED.lastIndex = 0;
    for (let m = QUOTED.exec(line); m; m = QUOTED.exec(line)) list.push(m[1] ?? m[2] ?? m[3] ?? '');
    if (list.length) return { list, quoted: true };
  }
  const bare = line.replace(/^[\s>|*+#-]*(?:\d+[.)]\s+)?/, '').replace(/[\s,;|]+$/, '');
  if (!bare) return { list: [], quoted: false };
  const cell = bare.split(/\s*[|,\t]\s*/)[0] ?? '';
  return { list: cell === bare ? [bare] : [bare, cell], quoted: false };
}

/**
 * Whether the text is (or holds) a list of licences. Cheap: one pass over the lines with a map
 * look-up per candidate, no tokenising; most files leave at the first test.
 */
export function isLicenseList(text: string): boolean {
  const body = text.length > MAX_CHARS ? text.slice(0, MAX_CHARS) : text;
  JSON_LICENSE_FIELD.lastIndex = 0;
  let fields = 0;
  while (fields < MIN_JSON_FIELDS && JSON_LICENSE_FIELD.exec(body)) fields++;
  if (fields >= MIN_JSON_FIELDS) return true;
  MARKERS.lastIndex = 0;
  let markers = 0;
  while (markers < MIN_STRONG && MARKERS.exec(body)) markers++;
  if (markers < MIN_STRONG) return false;
  let distinct = new Set<string>();
  let strong = new Set<string>();
  let count = 0;
  let last = -Infinity;
  const settled = (): boolean => distinct.size >= MIN_DISTINCT && strong.size >= MIN_STRONG && distinct.size >= count * MIN_DISTINCT_SHARE;
  let lineNo = 0;
  let start = 0;
  while (start <= body.length) {
    let end = body.indexOf('\n', start);
    if (end < 0) end = body.length;
    const line = body.slice(start, end);
    start = end + 1;
    lineNo++;
    if (line.length < 2) continue;
    const { list, quoted } = candidates(line);
    for (const c of list) {
      const kind = entryKind(c);
      if (!kind) continue;
      if (lineNo - last > GAP_LINES) {
        if (settled()) return true;
        distinct = new Set();
        strong = new Set();
        count = 0;
      }
      last = lineNo;
      const key = c.trim().toLowerCase();
      count++;
      distinct.add(key);
      if (kind === 2) strong.add(key);
      // A bare line is one entry (the whole line or its first cell); quoted strings each count.
      if (!quoted) break;
    }
  }
  return settled();
}
