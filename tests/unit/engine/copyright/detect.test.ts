import { describe, expect, it } from 'vitest';
import { dedupe, detectCopyrights, normaliseHolder } from '../../../../server/engine/detectors/copyright/index.ts';

const values = (found: { value: string }[]): string[] => found.map((f) => f.value);

describe('detectCopyrights: statements and holders', () => {
  it('reads a plain C header statement with a year range and drops "All rights reserved"', () => {
    const r = detectCopyrights('/*\n * Copyright (c) 2010-2020 Foo Inc. All rights reserved.\n */\nint main() {}\n');
    expect(r.copyrights).toEqual([{ value: 'Copyright (c) 2010-2020 Foo Inc.', startLine: 2, endLine: 2 }]);
    expect(r.holders).toEqual([{ value: 'Foo Inc.', startLine: 2, endLine: 2 }]);
  });

  it('writes © and (C) as (c) and strips years and lists from the holder', () => {
    const r = detectCopyrights('# © 1999, 2001, 2003-2005 Jane Doe\n// Copyright (C) 2004 by Henrik Ravn\n');
    expect(values(r.copyrights)).toEqual(['(c) 1999, 2001, 2003-2005 Jane Doe', 'Copyright (c) 2004 by Henrik Ravn']);
    expect(values(r.holders)).toEqual(['Jane Doe', 'Henrik Ravn']);
  });

  it('keeps e-mails and URLs in the statement but not in the holder', () => {
    const r = detectCopyrights(' * Copyright (c) 2005-2010 Marcel Holtmann <marcel@holtmann.org>\n');
    expect(values(r.copyrights)).toEqual(['Copyright (c) 2005-2010 Marcel Holtmann <marcel@holtmann.org>']);
    expect(values(r.holders)).toEqual(['Marcel Holtmann']);
    const url = detectCopyrights('Copyright (c) 2000-2005 The Legion Of The Bouncy Castle (http://www.bouncycastle.org)\n');
    expect(values(url.holders)).toEqual(['The Legion Of The Bouncy Castle']);
  });

  it('handles Copr., Portions copyright and "and contributors"', () => {
    const r = detectCopyrights('Copr. 2006 INRIA - CIRAD - INRA\nPortions Copyright (c) 1999-2007 Apple Inc.\nCopyright (c) 2004 Jouni Malinen and contributors\n');
    expect(values(r.copyrights)).toEqual(['Copr. 2006 INRIA - CIRAD - INRA', 'Portions Copyright (c) 1999-2007 Apple Inc.', 'Copyright (c) 2004 Jouni Malinen and contributors']);
    expect(values(r.holders)).toEqual(['INRIA - CIRAD - INRA', 'Apple Inc.', 'Jouni Malinen and contributors']);
  });

  it('joins a statement whose holder is on the next comment line', () => {
    const r = detectCopyrights(' * Copyright (c) 1989, 1991, 1993\n *      The Regents of the University of California.  All rights reserved.\n *\n');
    expect(r.copyrights).toEqual([{ value: 'Copyright (c) 1989, 1991, 1993 The Regents of the University of California', startLine: 1, endLine: 2 }]);
    expect(values(r.holders)).toEqual(['The Regents of the University of California']);
  });

  it('strips comment markers of many languages', () => {
    const text = ['<!-- Copyright 2001 Alpha Ltd. -->', '; Copyright 2002 Beta GmbH', '-- Copyright 2003 Gamma Corp.', '% Copyright 2004 Delta AG', 'dnl Copyright 2005 Epsilon', 'rem Copyright 2006 Zeta'].join('\n');
    expect(values(detectCopyrights(text).holders)).toEqual(['Alpha Ltd.', 'Beta GmbH', 'Gamma Corp.', 'Delta AG', 'Epsilon', 'Zeta']);
  });

  it('reads Debian copyright fields, one holder per indented line', () => {
    const r = detectCopyrights('Files: *\nCopyright: © 2002-2008 Blender Foundation\n           © 2005-2007 Florian Ernst <florian@debian.org>\nLicense: GPL-2+\n');
    expect(values(r.holders)).toEqual(['Blender Foundation', 'Florian Ernst']);
    expect(values(r.copyrights)).toEqual(['Copyright (c) 2002-2008 Blender Foundation', '(c) 2005-2007 Florian Ernst <florian@debian.org>']);
  });

  it('reads a holder written before a trailing "(c) year"', () => {
    const r = detectCopyrights(' * Modified by Paul Mundt <lethal@linux-sh.org> (c) 2004 to support\n');
    expect(values(r.copyrights)).toEqual(['Paul Mundt <lethal@linux-sh.org> (c) 2004']);
    expect(values(r.holders)).toEqual(['Paul Mundt']);
  });

  it('ignores licence prose and code', () => {
    const text = [
      ' * Redistributions of source code must retain the above copyright',
      ' * notice, this list of conditions and the following disclaimer.',
      ' * THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS "AS IS"',
      '  (c) do not make any use of the GLIDE trademark',
      'const copyright = getCopyright();',
      'copyright = "2019 " + name',
      'by patents or by copyrighted interfaces, the original copyright holder',
    ].join('\n');
    expect(detectCopyrights(text)).toEqual({ copyrights: [], holders: [], authors: [] });
  });

  it('keeps the original spelling of names, accents and other scripts included', () => {
    expect(values(detectCopyrights('Copyright (c) 2003 Dag-Erling Coïdan Smørgrav\n').holders)).toEqual(['Dag-Erling Coïdan Smørgrav']);
    expect(values(detectCopyrights('Copyright (c) 2016 Sami Koskimäki\n').copyrights)).toEqual(['Copyright (c) 2016 Sami Koskimäki']);
    expect(values(detectCopyrights('Copyright (c) 2020 阿里巴巴\n').holders)).toEqual(['阿里巴巴']);
  });

  it('treats accented and folded spellings of one holder as the same holder', () => {
    expect(normaliseHolder('Sami Koskimäki')).toBe(normaliseHolder('Sami Koskimaki'));
    const merged = dedupe([
      { value: 'Sami Koskimäki', startLine: 1, endLine: 1, file: 'a' },
      { value: 'Sami Koskimaki', startLine: 3, endLine: 3, file: 'b' },
    ]);
    expect(merged.map((d) => [d.value, d.locations.length])).toEqual([['Sami Koskimäki', 2]]);
  });

  it('reads statements from the printable strings of binary files', () => {
    const bin = '\u0000\u0001\u0002Copyright Myself and Me, Inc\u0000\u00ff\u00fe junk';
    expect(values(detectCopyrights(bin).holders)).toEqual(['Myself and Me, Inc']);
  });
});

describe('detectCopyrights: authors', () => {
  it('reads @author, Author:, Written by, Contributed by, Maintainer: and SPDX-FileContributor', () => {
    const text = [
      '/**',
      ' * @author Jane Doe <jane@example.org>',
      ' * Author: Tim (xtimor@gmail.com)',
      ' * Written by Eric Young',
      ' * Contributed by Alice Smith',
      ' * Maintainer: Bob Jones <bob@example.org>',
      ' * SPDX-FileContributor: Adam Jackson <ajax@redhat.com>',
      ' */',
    ].join('\n');
    const r = detectCopyrights(text);
    expect(r.authors).toEqual([
      { value: 'Jane Doe <jane@example.org>', startLine: 2, endLine: 2 },
      { value: 'Tim (xtimor@gmail.com)', startLine: 3, endLine: 3 },
      { value: 'Eric Young', startLine: 4, endLine: 4 },
      { value: 'Alice Smith', startLine: 5, endLine: 5 },
      { value: 'Bob Jones <bob@example.org>', startLine: 6, endLine: 6 },
      { value: 'Adam Jackson <ajax@redhat.com>', startLine: 7, endLine: 7 },
    ]);
  });

  it('ignores authors in licence prose', () => {
    expect(detectCopyrights('copyright laws, the author or authors\nwritten by the licensor\n').authors).toEqual([]);
  });
});

describe('dedupe', () => {
  it('keeps one entry per normalised holder with all line ranges, or only the first', () => {
    const found = [
      { value: 'Foo, Inc.', startLine: 1, endLine: 1, file: 'a.c' },
      { value: 'FOO INC', startLine: 3, endLine: 4, file: 'b.c' },
      { value: 'Bar Ltd.', startLine: 9, endLine: 9 },
    ];
    expect(dedupe(found)).toEqual([
      { value: 'Foo, Inc.', locations: [{ file: 'a.c', startLine: 1, endLine: 1 }, { file: 'b.c', startLine: 3, endLine: 4 }] },
      { value: 'Bar Ltd.', locations: [{ startLine: 9, endLine: 9 }] },
    ]);
    expect(dedupe(found, { keep: 'first' })[0]!.locations).toEqual([{ file: 'a.c', startLine: 1, endLine: 1 }]);
    expect(normaliseHolder('The Foo Corporation')).toBe(normaliseHolder('Foo Corp.'));
  });
});

describe('detectCopyrights: minified bundles', () => {
  it('reads the licence banner inside a very long line', () => {
    const code = `/*! jQuery v3.6.0 | (c) OpenJS Foundation and other contributors | jquery.org/license */${'!function(e,t){"use strict";var n=[];'.repeat(300)}`;
    const r = detectCopyrights(code);
    expect(r.holders).toEqual([{ value: 'OpenJS Foundation and other contributors', startLine: 1, endLine: 1 }]);
  });
});

describe('detectCopyrights: chained and unusual statements', () => {
  it('reads several statements chained on one line and across lines', () => {
    const text = 'Portions Copyright (c) 2002-2007 Charlie Poole or Copyright (c) 2002-2004 James W. Newkirk,\nMichael C. Two or Copyright (c) 2000-2002 Philip A. Craig\n';
    const r = detectCopyrights(text);
    expect(values(r.holders)).toEqual(['Charlie Poole', 'James W. Newkirk, Michael C. Two', 'Philip A. Craig']);
    expect(r.holders.map((h) => [h.startLine, h.endLine])).toEqual([[1, 1], [1, 2], [2, 2]]);
  });

  it('drops a Debian "Copyright:" label in front of a full statement', () => {
    const r = detectCopyrights('Copyright: Copyright (C) 2009 Philipp Kern <pkern@debian.org>\n');
    expect(values(r.copyrights)).toEqual(['Copyright (c) 2009 Philipp Kern <pkern@debian.org>']);
  });

  it('reads two-digit and Roman-numeral years, and "holder is" notices', () => {
    const r = detectCopyrights('Copyright (C) 1988, 89, 90 Free Software Foundation, Inc.\nCopyright (c) MMXV jden\n * except that the holder is Tim Hudson (tjh@mincom.oz.au).\n');
    expect(values(r.holders)).toEqual(['Free Software Foundation, Inc.', 'jden', 'Tim Hudson']);
  });

  it('keeps markdown link text and drops the link target', () => {
    expect(values(detectCopyrights('Copyright (c) 2015 [Jared Wray](./LICENSE)\n').holders)).toEqual(['Jared Wray']);
  });

  it('ignores property declarations and author fields in code', () => {
    const text = [
      '  copyright?: Copyright;',
      '  copyright: CopyrightRepository;',
      '  author: data.author || undefined,',
      '  author: str',
      '  author: this.name,',
    ].join('\n');
    expect(detectCopyrights(text)).toEqual({ copyrights: [], holders: [], authors: [] });
  });
});

describe('detectCopyrights: author lists', () => {
  it('reads the names listed under an "Authors:" heading', () => {
    const text = 'Authors:\n  Jane Doe <jane@example.org>\n  John Smith - packaging\n  Li Wei\n  Zhang San\n\nThis program is free software.\n';
    expect(detectCopyrights(text).authors).toEqual([
      { value: 'Jane Doe <jane@example.org>', startLine: 2, endLine: 2 },
      { value: 'John Smith', startLine: 3, endLine: 3 },
      { value: 'Li Wei', startLine: 4, endLine: 4 },
      { value: 'Zhang San', startLine: 5, endLine: 5 },
    ]);
  });
});

describe('detectCopyrights: type declarations', () => {
  it('ignores TypeScript fields named copyrights and authors', () => {
    const text = 'type Report = {\n  copyrights: Found[];\n  authors: Found[];\n  copyright: Array<string>;\n};\n';
    expect(detectCopyrights(text)).toEqual({ copyrights: [], holders: [], authors: [] });
  });
});
