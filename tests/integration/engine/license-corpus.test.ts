// Licence recognition measured on ScanCode's licence test corpus (lic1 + lic2). Each file has a
// .yml sidecar with the expected ScanCode licence expressions; keys map to SPDX ids through
// key-to-spdx.json. Only files whose expected ids are all real SPDX ids (no LicenseRef-scancode-*)
// count, since Cairn reports SPDX ids only.
//
// Targets are 80 % exact id sets and ≥ 0.95 precision for each of the 20 most frequent expected
// licences; all top-20 licences now reach the precision target. FLOOR_EXACT records the exact-set
// share reached so far (87.4 % with the GFDL variants named, floor 86.6 %); raise it as the engine improves.
//
// No family confusion: no file may report one member of a licence family where the corpus expects
// another (expected LGPL-2.1-only, got GPL-2.0-only; expected MPL-1.1, got NPL-1.1), the two id sets
// otherwise the same. KNOWN_LABELS lists the files where the corpus label and the text part ways,
// each with the reason; they are reported, not counted.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { familyOf as engineFamilyOf, loadLicenseRecognition, readableText } from '../../../server/engine/index.ts';

const { createLicenseRecognizer } = await loadLicenseRecognition();

const BASE = path.resolve('../shared/corpora/licenses/scancode');
const TARGET_EXACT = 0.8;
const TARGET_PRECISION = 0.95;
const FLOOR_EXACT = 0.866;

// Licence families (issue 15, Deliver 1): look-alike licences that differ in a few clauses, as the
// engine groups them; a licence of no family is its own.
const familyOf = (id: string): string => engineFamilyOf(id) ?? id;

// Files where the corpus label and the text's own words part ways; each is reported with the reason.
const KNOWN_LABELS: Record<string, string> = {
  'lic1/gpl-2.0_28.txt': 'the notice names the "GNU General Public License" without a version: by the GPL\'s own terms any version (GPL-1.0-or-later); the label knows doxygen is GPL-2.0',
  'lic1/gpl-2.0_complex.txt': 'the file holds a second notice, "either version 2 of the License, or (at your option) any later version", that the label leaves out',
  // ScanCode's keys have no GFDL -invariants / -no-invariants variants (key-to-spdx.json maps none);
  // SPDX names the licence a notice grants "with no Invariant Sections" GFDL-1.x-no-invariants.
  'lic1/gfdl-1.2_and_gpl-3.0-plus.txt': 'the GFDL notice says "with no Invariant Sections": GFDL-1.2-no-invariants-or-later, a variant the label has no key for',
  'lic1/gfdl-1.2_and_gpl-3.0-plus_1.txt': 'the GFDL notice says "with no Invariant Sections": GFDL-1.2-no-invariants-or-later, a variant the label has no key for',
  'lic2/bsd-new_and_bsd-new_and_fsf-unlimited-no-warranty_and_gfdl-1.2_and_other.txt': 'the GFDL notice says "with no Invariant Sections": GFDL-1.2-no-invariants-or-later, a variant the label has no key for',
  'lic1/gpl_and_mit_1.txt': 'unversioned "dual licensed under the MIT and GPL licenses": the reference rules read this jQuery idiom as GPL-2.0 (references.ts IDIOMS), the label as GPL-1.0-or-later',
};

interface Case {
  file: string;
  expected: Set<string>;
}

/** The `license_expressions` list of a sidecar (a flat YAML list of strings). */
function expressionsOf(yml: string): string[] {
  const out: string[] = [];
  let inList = false;
  for (const line of yml.split('\n')) {
    if (/^license_expressions:/.test(line)) {
      inList = true;
      continue;
    }
    if (inList && /^\s+-\s+/.test(line)) out.push(line.replace(/^\s+-\s+/, '').trim());
    else if (inList && /^\S/.test(line)) inList = false;
  }
  return out;
}

function loadCases(): Case[] {
  const keyMap = JSON.parse(readFileSync(path.join(BASE, 'key-to-spdx.json'), 'utf8')) as Record<string, { spdx: string }>;
  const cases: Case[] = [];
  for (const dir of ['lic1', 'lic2']) {
    for (const name of readdirSync(path.join(BASE, dir)).sort()) {
      if (!name.endsWith('.yml')) continue;
      const file = path.join(dir, name.slice(0, -4));
      if (!existsSync(path.join(BASE, file))) continue;
      const keys = expressionsOf(readFileSync(path.join(BASE, dir, name), 'utf8'))
        .flatMap((e) => e.replace(/[()]/g, ' ').split(/\s+/))
        .filter((t) => t && !/^(AND|OR|WITH)$/i.test(t));
      const ids = keys.map((k) => keyMap[k]?.spdx);
      if (ids.length === 0 || ids.some((id) => !id || id.startsWith('LicenseRef-'))) continue;
      cases.push({ file, expected: new Set(ids as string[]) });
    }
  }
  return cases;
}

describe.skipIf(!existsSync(BASE))('许可证识别：ScanCode 语料', () => {
  it('精确集合匹配率与前 20 个许可证的精确率', () => {
    const cases = loadCases();
    expect(cases.length).toBeGreaterThan(400);
    const recognizer = createLicenseRecognizer();
    recognizer.recognize('warm up: build the licence index once (copyright license)');
    // Read as the analysis reads files: each in its own encoding, binaries by their strings.
    const texts = cases.map((c) => readableText(readFileSync(path.join(BASE, c.file))).text);

    const started = performance.now();
    const detected = texts.map((t, i) => new Set(recognizer.recognize(t, cases[i]?.file).map((m) => m.spdx)));
    const seconds = (performance.now() - started) / 1000;

    let exact = 0;
    const frequency = new Map<string, number>();
    const truePositive = new Map<string, number>();
    const falsePositive = new Map<string, number>();
    const misses: string[] = [];
    cases.forEach((c, i) => {
      const got = detected[i] ?? new Set<string>();
      const same = got.size === c.expected.size && [...got].every((id) => c.expected.has(id));
      if (same) exact++;
      else misses.push(`${c.file}: expected ${[...c.expected].join(', ')} | got ${[...got].join(', ') || '—'}`);
      for (const id of c.expected) frequency.set(id, (frequency.get(id) ?? 0) + 1);
      for (const id of got) {
        const table = c.expected.has(id) ? truePositive : falsePositive;
        table.set(id, (table.get(id) ?? 0) + 1);
      }
    });
    const exactShare = exact / cases.length;
    // Family confusion: an id reported but not expected whose family the expected set has under
    // another id, with the two sets equal once ids are read as families.
    const confused: string[] = [];
    cases.forEach((c, i) => {
      const got = detected[i] ?? new Set<string>();
      const extra = [...got].filter((id) => !c.expected.has(id));
      const swapped = extra.filter((id) => familyOf(id) !== id && [...c.expected].some((e) => familyOf(e) === familyOf(id)));
      const families = (ids: Iterable<string>): string => [...new Set([...ids].map(familyOf))].sort().join(' ');
      if (swapped.length > 0 && families(c.expected) === families(got)) confused.push(c.file);
    });
    const top = [...frequency.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 20);
    const precision = top.map(([id, n]) => {
      const tp = truePositive.get(id) ?? 0;
      const fp = falsePositive.get(id) ?? 0;
      return { id, expected: n, tp, fp, precision: tp + fp === 0 ? 1 : tp / (tp + fp) };
    });

    console.log(`licence corpus: ${cases.length} files, exact id set ${exact}/${cases.length} = ${(exactShare * 100).toFixed(1)} % (target ${TARGET_EXACT * 100} %)`);
    console.log(`speed: ${(cases.length / seconds).toFixed(0)} files/s (${seconds.toFixed(2)} s)`);
    console.log(precision.map((p) => `${p.id.padEnd(26)} n=${String(p.expected).padStart(3)} tp=${String(p.tp).padStart(3)} fp=${String(p.fp).padStart(3)} precision=${p.precision.toFixed(3)}`).join('\n'));
    console.log(`worst files (${misses.length} misses, first 30):\n${misses.slice(0, process.env.CAIRN_LICENCE_ALL ? 1000 : 30).join('\n')}`);

    console.log(`family confusion: ${confused.length} files${confused.length ? `\n${confused.map((f) => `${f}${KNOWN_LABELS[f] ? ` (label: ${KNOWN_LABELS[f]})` : ''}`).join('\n')}` : ''}`);

    expect(exactShare).toBeGreaterThanOrEqual(Math.min(TARGET_EXACT, FLOOR_EXACT));
    expect(exactShare).toBeGreaterThanOrEqual(FLOOR_EXACT);
    expect(confused.filter((f) => !KNOWN_LABELS[f])).toEqual([]);
    for (const p of precision) expect({ id: p.id, ok: p.precision >= TARGET_PRECISION }).toEqual({ id: p.id, ok: true });
  });
});
