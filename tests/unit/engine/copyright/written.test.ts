// Copyright statements as people write them (issue 15, item 5). Each case is a real line; the
// comment names where it was seen: files of ScanCode's copyright test corpus
// (../shared/corpora/copyrights/scancode, named by file) or public source files.
import { describe, expect, it } from 'vitest';
import { detectCopyrights } from '../../../../server/engine/detectors/copyright/index.ts';

const statements = (text: string): string[] => detectCopyrights(text).copyrights.map((f) => f.value);
const holders = (text: string): string[] => detectCopyrights(text).holders.map((f) => f.value);

describe('Chinese statements', () => {
  it('reads 版权所有 as the keyword, with years, (C) and organisation names in full-width brackets', () => {
    // libmedia's source headers (flv script tag format).
    expect(statements(' * 版权所有 (C) 2024 赵高兴\n * Copyright (C) 2024 Gaoxing Zhao\n')).toEqual(['版权所有 (c) 2024 赵高兴', 'Copyright (c) 2024 Gaoxing Zhao']);
    expect(holders(' * 版权所有 (C) 2024 赵高兴\n')).toEqual(['赵高兴']);
    // A Huawei driver header (drv_u…): comma after the sign, years before the holder.
    expect(holders('                  版权所有 (C), 2001-2011, 华为技术有限公司\n')).toEqual(['华为技术有限公司']);
    // A Huawei header with the years after the holder.
    expect(statements('            版权所有 (c) 华为技术有限公司 2024-2024\n')).toEqual(['版权所有 (c) 华为技术有限公司 2024-2024']);
  });

  it('ends the holder at 保留所有权利 (all rights reserved) and at a full-width comma', () => {
    // javamall (易族智汇) source header.
    const javamall = '版权所有 (C) 2008-2010 易族智汇（北京）科技有限公司，并保留所有权利。\n';
    expect(statements(javamall)).toEqual(['版权所有 (c) 2008-2010 易族智汇(北京)科技有限公司']);
    expect(holders(javamall)).toEqual(['易族智汇(北京)科技有限公司']);
    // Oracle's localised JDK sources.
    expect(holders(' * 版权所有 (c) 2005, 2012, Oracle 和/或其附属公司。保留所有权利。\n')).toEqual(['Oracle 和/或其附属公司']);
  });

  it('drops a closing 版权所有 after an English statement', () => {
    // The footer form of Chinese sites and apps ("… 版权所有" = "all rights reserved").
    expect(statements('Copyright © 2019 北京百度网讯科技有限公司 版权所有\n')).toEqual(['Copyright (c) 2019 北京百度网讯科技有限公司']);
  });

  it('reads 著作权归…所有 (copyright belongs to …) but not prose about copyright', () => {
    // LeetCode problem notices copied into solution files.
    const leetcode = '//著作权归领扣网络所有。商业转载请联系官方授权，非商业转载请注明出处。\n';
    expect(statements(leetcode)).toEqual(['著作权归领扣网络所有']);
    expect(holders(leetcode)).toEqual(['领扣网络']);
    // Blog excerpts: "the author" is no holder.
    expect(statements(' * 著作权归作者所有。商业转载请联系作者获得授权，非商业转载请注明出处。\n')).toEqual([]);
    // A README disclaimer and a licence summary: the words 版权/著作权 as nouns.
    expect(statements('3. **第三方工具版权**：外部调用的 FFmpeg 与模型 CLI 著作权归属于各自官方团队，用户需自行遵守其对应使用规范。\n')).toEqual([]);
    expect(statements('2. **版权合规**：开发者不对任何素材版权侵权争议承担法律责任。\n')).toEqual([]);
    expect(statements('//  Mud.Feishu 项目的版权、商标、专利和其他相关权利均受相应法律法规的保护。\n')).toEqual([]);
  });
});

describe('negations', () => {
  it('finds no statement in "not copyrighted"', () => {
    // MinGW / w32api public-domain headers.
    expect(detectCopyrights(' *  THIS SOFTWARE IS NOT COPYRIGHTED\n *\n *  This source code is offered for use in the public domain.\n').copyrights).toEqual([]);
    // zlib's zpipe.c example, as quoted by other projects.
    expect(statements(' * that is Not copyrighted -- provided to the public domain\n * Version 1.4  11 December 2005  Mark Adler\n')).toEqual([]);
    // A MODS XML record of a US government work.
    expect(statements('content of this document is not copyrighted.</accessCondition>\n')).toEqual([]);
  });
});

describe('holders not truncated or extended', () => {
  it('stops at the next field of an X.509 distinguished name', () => {
    // 3a3b02ce_0-a_b_ce.0 (the OISTE WISeKey root certificate, printed by openssl).
    const line = '        Issuer: C=CH, O=WISeKey, OU=Copyright (c) 2005, OU=OISTE Foundation Endorsed, CN=OISTE WISeKey Global Root GA CA\n';
    expect(statements(line)).toEqual(['Copyright (c) 2005, OU OISTE Foundation Endorsed']);
    expect(holders(line)).toEqual(['OISTE Foundation Endorsed']);
  });

  it('keeps a parenthesised affiliation, and unwraps a parenthesised list of people', () => {
    // winery's CodeHeaders.md template.
    expect(holders(' * Copyright (c) 2013 John Smith (University of Stuttgart).\n')).toEqual(['John Smith (University of Stuttgart)']);
    // libcdio10-libcdio.label.
    const videolan = 'Copyright (c) 1998-2001 VideoLAN (Johan Bilien <jobi@via.ecp.fr> and Gildas Bazin <gbazin@netcourrier.com>)\n';
    expect(statements(videolan)).toEqual(['Copyright (c) 1998-2001 VideoLAN Johan Bilien <jobi@via.ecp.fr> and Gildas Bazin <gbazin@netcourrier.com>']);
    expect(holders(videolan)).toEqual(['VideoLAN Johan Bilien and Gildas Bazin']);
    // ttf_malayalam_fonts-ttf_malayalam_fonts.copyright: the members on the next line.
    const rachana = '\tCopyright (C) 2005 <s>Rachana Akshara Vedi</s>\n\t\t\t   (<s>Chitrajakumar R</s>, <s>Hussain KH</s>, <s>Rajeev Sebastian</s>,\n\t\t\t   <s>Gangadharan N</s>)\n';
    expect(holders(rachana)).toEqual(['Rachana Akshara Vedi Chitrajakumar R, Hussain KH, Rajeev Sebastian, Gangadharan N']);
  });

  it('reads past a role in parentheses to the next holder', () => {
    // The "Name (Original Author), Name" form of MPL "Contributor(s):" lists, in a statement.
    const line = ' * Copyright (C) 2004 Thomas Davies (Original Author), Scott R Ladd\n';
    expect(statements(line)).toEqual(['Copyright (c) 2004 Thomas Davies (Original Author), Scott R Ladd']);
    expect(holders(line)).toEqual(['Thomas Davies, Scott R Ladd']);
  });

  it('keeps commas inside names and legal forms', () => {
    // A deMUSE source header ("Jr." after a comma).
    expect(holders(' * Copyright (c) 1998, 1999, 2000 by Ken C. Moellman, Jr.\n')).toEqual(['Ken C. Moellman, Jr.']);
  });

  it('joins a name wrapped after a particle ("de", "van")', () => {
    // debian_multi_names_on_one_line-libgdata.copyright.
    const text = 'Portions of this distribution are Copyright (c) 1997 <s>Theo de\n Raadt</s>. See the header for src/libical/vsnprintf.c for the full\n';
    expect(detectCopyrights(text).copyrights).toEqual([{ value: 'Copyright (c) 1997 Theo de Raadt', startLine: 1, endLine: 2 }]);
  });

  it('does not run into the next sentence or a field heading on the next line', () => {
    // debian_multi_names_on_one_line-libgdata.copyright.
    expect(holders('copyright 2002 <s>Andrea Campi</s>\nThe source file calendar/libical/src/libicalcap/Makefile.am is\n')).toEqual(['Andrea Campi']);
    expect(holders('Copyright:\n 2001 <s>Critical Path</s>\nAuthors:\n <s>Eric Busboom</s>\n')).toEqual(['Critical Path']);
  });

  it('keeps "as noted in the AUTHORS file" with the contributors', () => {
    // wizard_authors_file.txt; the header of ZeroMQ and its bindings.
    expect(holders('Copyright (c) 2020 Contributors as noted in the AUTHORS file\n')).toEqual(['Contributors as noted in the AUTHORS file']);
  });

  it('reads the list of holders under "Copyright by:"', () => {
    // texlive_lang_greek-texlive_lang_greek.copyright (Debian texlive packages).
    const text = 'Public License, version 2, and are under Copyright by:\n\n   <s>Norbert Preining <preining@logic.at></s> (2005-)\n   <s>Frank Küster <frank@kuesterei.ch></s> (2006-)\n\n';
    expect(holders(text)).toEqual(['Norbert Preining Frank Küster']);
    expect(detectCopyrights(text).copyrights[0]).toMatchObject({ startLine: 1, endLine: 4 });
  });

  it('reads "@" before an address as "at"', () => {
    // openoffice_org_report_builder_bin.copyright.
    expect(holders('Copyright: Copyright (C) 2004-2005 <s>Vladimir Berezniker @ http://public.xdi.org</s>\n')).toEqual(['Vladimir Berezniker']);
  });
});

describe('years and signs', () => {
  it('writes an en-dash range with a hyphen', () => {
    // streams.txt (the WHATWG Streams reference implementation).
    expect(statements('Copyright (c) 2013–2015 Streams Standard Reference Implementation Authors\n')).toEqual(['Copyright (c) 2013-2015 Streams Standard Reference Implementation Authors']);
  });

  it('reads a mis-decoded sign: "Â©" and "?"', () => {
    // red_hat_openoffice_org_report_builder_bin-…copyright (Liberation fonts licence).
    expect(statements(' Copyright Â© 2007 Red Hat, Inc. All rights reserved. LIBERATION is a trademark of Red Hat, Inc.\n')).toEqual(['Copyright (c) 2007 Red Hat, Inc.']);
    // openoffice_org_report_builder_bin.copyright (the Colt library).
    expect(holders('Copyright ? 1999 CERN - <s>European Organization for Nuclear Research</s>\n')).toEqual(['CERN - European Organization for Nuclear Research']);
  });

  it('does not take numbers outside any plausible year for years', () => {
    // invalid_copyright_year.py.
    expect(statements('# Copyright (C) RandomCompany 2990-2999\n')).toEqual(['Copyright (c) RandomCompany']);
  });

  it('keeps a trailing "(c) year" with the statement in binary strings', () => {
    // binary_lib-php_embed_lib.lib (strings of a COFF archive member header).
    const bin = '\u0000_php_embed_shutdown\u0000//              1103042908              0       Copyright nexB and others (c) 2012       `\u0000';
    expect(statements(bin)).toEqual(['Copyright nexB and others (c) 2012']);
  });
});

describe('licence prose', () => {
  it('does not read list item (c) of a licence as a statement', () => {
    // realcsl_v2_0-RealCSL_v.0 and attributionassurancelicense-AttributionAssuranceLicense.
    expect(statements('(c) TCK Use Restrictions.\n')).toEqual([]);
    expect(statements('(c) URL ("URL").\n')).toEqual([]);
  });

  it('reads "are copyright of <name>"', () => {
    // apache2_debian_trailing_name_missed-apache.label.
    const text = 'These icons are copyright of <s>Pete Harlow</s> and licensed under the Apache\n';
    expect(statements(text)).toEqual(['copyright of Pete Harlow']);
    expect(holders(text)).toEqual(['Pete Harlow']);
  });
});
