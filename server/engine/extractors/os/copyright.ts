// A Debian package's licences from usr/share/doc/<package>/copyright when it is machine-readable
// (DEP-5, https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/): the License:
// short names of its header and Files stanzas, as SPDX expressions. A free-form copyright file
// names no licence in a form worth trusting and yields none.
import { normalizeDeclared } from '../../matchers/licenses/expression.ts';
import { parseStanzas } from './deb822.ts';

// DEP-5 short names whose SPDX id is spelt differently, or that normalizeDeclared cannot guess.
const SHORT_NAMES: Record<string, string> = {
  expat: 'MIT',
  artistic: 'Artistic-1.0-Perl',
  'artistic-1.0': 'Artistic-1.0-Perl',
  perl: '(Artistic-1.0-Perl OR GPL-1.0-or-later)',
  'gpl-1+ or artistic': '(GPL-1.0-or-later OR Artistic-1.0-Perl)',
  'public-domain': 'LicenseRef-public-domain',
  'bsd-3-clause': 'BSD-3-Clause',
  'bsd-2-clause': 'BSD-2-Clause',
  'bsd-4-clause': 'BSD-4-Clause',
  'zope-2.1': 'ZPL-2.1',
  'cc0-1.0': 'CC0-1.0',
  'mpl-1.1': 'MPL-1.1',
  'mpl-2.0': 'MPL-2.0',
  'python-2.0': 'Python-2.0',
  'psf-2': 'PSF-2.0',
  'bsd-0-clause': '0BSD',
  'openldap-2.8': 'OLDAP-2.8',
  pd: 'LicenseRef-public-domain',
  'gfdl-niv-1.3': 'GFDL-1.3-no-invariants-only',
  'gfdl-niv-1.3+': 'GFDL-1.3-no-invariants-or-later',
};

// GNU licences as DEP-5 writes them: `GPL-2` is that version only, `GPL-2+` or later, `GPL` any.
const GNU = /^(A|L)?GPL(?:-(\d)(?:\.(\d))?)?(\+)?$/i;
const FIRST_VERSION: Record<string, string> = { '': '1.0', A: '3.0', L: '2.0' };

const squash = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

// DEP-5 "with <name> exception" → the SPDX exception id.
const EXCEPTIONS: Record<string, string> = {
  autoconf: 'Autoconf-exception-generic',
  bison: 'Bison-exception-2.2',
  classpath: 'Classpath-exception-2.0',
  font: 'Font-exception-2.0',
  'gcc-runtime-library': 'GCC-exception-3.1',
  libtool: 'Libtool-exception',
  qt: 'Qt-LGPL-exception-1.1',
};

/** One DEP-5 short name, possibly `GPL-2+ with OpenSSL exception`, as SPDX. */
function shortName(name: string): string | null {
  const trimmed = name.trim();
  const exception = /^(.+?)\s+with\s+(.+?)\s+exception$/i.exec(trimmed);
  if (exception) {
    const base = shortName(exception[1]!);
    const id = EXCEPTIONS[exception[2]!.toLowerCase()];
    if (!base) return null;
    return id && !/\s/.test(base) ? `${base} WITH ${id}` : base;
  }
  const known = SHORT_NAMES[trimmed.toLowerCase()];
  if (known) return known.replace(/^\((.*)\)$/, '$1');
  const gnu = GNU.exec(trimmed);
  if (gnu) {
    const kind = (gnu[1] ?? '').toUpperCase();
    if (!gnu[2]) return `${kind}GPL-${FIRST_VERSION[kind]}-or-later`;
    return `${kind}GPL-${gnu[2]}.${gnu[3] ?? '0'}-${gnu[4] ? 'or-later' : 'only'}`;
  }
  // Only a spelling of the same id ("BSD-3-clause", "Apache-2"): normalizeDeclared's guesses for
  // names of Debian's own ("MIT-like", "BSD-variant") would claim more than the file says.
  const id = normalizeDeclared(trimmed);
  if (id && !/\s/.test(id) && squash(id).startsWith(squash(trimmed.replace(/\+$/, '')))) return id;
  const ref = trimmed.replace(/\+$/, '-or-later').replace(/[^A-Za-z0-9.-]+/g, '-').replace(/^-+|-+$/g, '');
  return ref && !/^(none|other|unknown)$/i.test(ref) ? `LicenseRef-${ref}` : null;
}

/** A DEP-5 License: value (`GPL-2+ or Artistic`, `MIT and BSD-3-clause`) as an SPDX expression. */
export function dep5License(value: string): string | null {
  const synopsis = value.split('\n')[0]!.trim().replace(/,\s*$/, '');
  if (!synopsis) return null;
  // `or` binds weaker than `and` (DEP-5 §7.2); a comma list is read as `and`.
  const alternatives = synopsis.split(/\s+(?:and\/)?or\s+/i).map((alt) => {
    const parts = alt.split(/\s+and\s+|,\s*(?:and\s+)?/i).map((p) => {
      const id = shortName(p);
      return id && / (AND|OR) /.test(id) ? `(${id})` : id;
    });
    if (parts.some((p) => p === null)) return null;
    return parts.length > 1 ? parts.join(' AND ') : parts[0]!;
  });
  if (alternatives.some((a) => a === null)) return null;
  if (alternatives.length === 1) return alternatives[0]!.replace(/^\((.*)\)$/, '$1');
  return alternatives.map((a) => (/ AND /.test(a!) && !/^\(.*\)$/.test(a!) ? `(${a})` : a)).join(' OR ');
}

/** The distinct licences a DEP-5 copyright file declares, in order; [] for a free-form file. */
export function dep5Licenses(text: string): string[] {
  const stanzas = parseStanzas(text);
  const header = stanzas[0];
  const format = header?.fields.get('format') ?? header?.fields.get('format-specification');
  if (!format || !/copyright-format|dep5|dep-5/i.test(format)) return [];
  const out: string[] = [];
  for (const [i, stanza] of stanzas.entries()) {
    // Stand-alone License stanzas hold the texts of names used elsewhere.
    if (stanza.error || (i > 0 && !stanza.fields.has('files'))) continue;
    const value = stanza.fields.get('license');
    if (!value) continue;
    const id = dep5License(value);
    if (id && !out.includes(id)) out.push(id);
  }
  return out;
}
