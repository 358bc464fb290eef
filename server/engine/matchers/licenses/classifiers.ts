// PyPI's licence classifiers ("License :: OSI Approved :: MIT License") → the SPDX id each names.
// The complete list of `License ::` entries of pypa/trove-classifiers (src/trove_classifiers/
// __init__.py, the list PyPI accepts, deprecated ones included). A classifier that names no
// particular licence (Freeware, Other/Proprietary, Public Domain, DFSG approved) or one the SPDX
// list has no id for maps to null. `exact: false` marks a name that leaves the version open
// ("Apache Software License", "BSD License", "GNU General Public License (GPL)"): it is read the
// way Cairn reads the bare name elsewhere, at a lower confidence.

export interface ClassifierLicense {
  spdx: string;
  exact: boolean;
}

const E = (spdx: string): ClassifierLicense => ({ spdx, exact: true });
const OPEN = (spdx: string): ClassifierLicense => ({ spdx, exact: false });

/** The classifier's last part (after "License ::" and "OSI Approved ::") → its licence. */
export const TROVE_LICENSES: Readonly<Record<string, ClassifierLicense | null>> = {
  'Aladdin Free Public License (AFPL)': E('Aladdin'),
  'CC0 1.0 Universal (CC0 1.0) Public Domain Dedication': E('CC0-1.0'),
  'CeCILL-B Free Software License Agreement (CECILL-B)': E('CECILL-B'),
  'CeCILL-C Free Software License Agreement (CECILL-C)': E('CECILL-C'),
  'DFSG approved': null,
  'Eiffel Forum License (EFL)': OPEN('EFL-2.0'),
  'Free For Educational Use': null,
  'Free For Home Use': null,
  'Free To Use But Restricted': null,
  'Free for non-commercial use': null,
  'Freely Distributable': null,
  'Freeware': null,
  // The GUST font licence is the LPPL with GUST's own terms; the SPDX list has no id for it.
  'GUST Font License 1.0': null,
  'GUST Font License 2006-09-30': null,
  'Netscape Public License (NPL)': OPEN('NPL-1.1'),
  'Nokia Open Source License (NOKOS)': E('Nokia'),
  'OSI Approved': null,
  'Academic Free License (AFL)': OPEN('AFL-3.0'),
  'Apache Software License': OPEN('Apache-2.0'),
  'Apple Public Source License': OPEN('APSL-2.0'),
  'Artistic License': OPEN('Artistic-1.0-Perl'),
  'Attribution Assurance License': E('AAL'),
  'BSD License': OPEN('BSD-3-Clause'),
  'Blue Oak Model License (BlueOak-1.0.0)': E('BlueOak-1.0.0'),
  'Boost Software License 1.0 (BSL-1.0)': E('BSL-1.0'),
  'CEA CNRS Inria Logiciel Libre License, version 2.1 (CeCILL-2.1)': E('CECILL-2.1'),
  'CMU License (MIT-CMU)': E('MIT-CMU'),
  'Common Development and Distribution License 1.0 (CDDL-1.0)': E('CDDL-1.0'),
  'Common Public License': E('CPL-1.0'),
  'Eclipse Public License 1.0 (EPL-1.0)': E('EPL-1.0'),
  'Eclipse Public License 2.0 (EPL-2.0)': E('EPL-2.0'),
  'Educational Community License, Version 2.0 (ECL-2.0)': E('ECL-2.0'),
  'Eiffel Forum License': OPEN('EFL-2.0'),
  'European Union Public Licence 1.0 (EUPL 1.0)': E('EUPL-1.0'),
  'European Union Public Licence 1.1 (EUPL 1.1)': E('EUPL-1.1'),
  'European Union Public Licence 1.2 (EUPL 1.2)': E('EUPL-1.2'),
  'GNU Affero General Public License v3': E('AGPL-3.0-only'),
  'GNU Affero General Public License v3 or later (AGPLv3+)': E('AGPL-3.0-or-later'),
  'GNU Free Documentation License (FDL)': OPEN('GFDL-1.1-or-later'),
  // Without a version the GPL lets the recipient choose any version ever published (GPL §9/§14).
  'GNU General Public License (GPL)': OPEN('GPL-1.0-or-later'),
  'GNU General Public License v2 (GPLv2)': E('GPL-2.0-only'),
  'GNU General Public License v2 or later (GPLv2+)': E('GPL-2.0-or-later'),
  'GNU General Public License v3 (GPLv3)': E('GPL-3.0-only'),
  'GNU General Public License v3 or later (GPLv3+)': E('GPL-3.0-or-later'),
  'GNU Lesser General Public License v2 (LGPLv2)': E('LGPL-2.0-only'),
  'GNU Lesser General Public License v2 or later (LGPLv2+)': E('LGPL-2.0-or-later'),
  'GNU Lesser General Public License v3 (LGPLv3)': E('LGPL-3.0-only'),
  'GNU Lesser General Public License v3 or later (LGPLv3+)': E('LGPL-3.0-or-later'),
  'GNU Library or Lesser General Public License (LGPL)': OPEN('LGPL-2.0-or-later'),
  'Historical Permission Notice and Disclaimer (HPND)': E('HPND'),
  'IBM Public License': E('IPL-1.0'),
  'ISC License (ISCL)': E('ISC'),
  'MIT License': E('MIT'),
  'MIT No Attribution License (MIT-0)': E('MIT-0'),
  'MirOS License (MirOS)': E('MirOS'),
  'Motosoto License': E('Motosoto'),
  'Mozilla Public License 1.0 (MPL)': E('MPL-1.0'),
  'Mozilla Public License 1.1 (MPL 1.1)': E('MPL-1.1'),
  'Mozilla Public License 2.0 (MPL 2.0)': E('MPL-2.0'),
  'Mulan Permissive Software License v2 (MulanPSL-2.0)': E('MulanPSL-2.0'),
  'NASA Open Source Agreement v1.3 (NASA-1.3)': E('NASA-1.3'),
  'Nethack General Public License': E('NGPL'),
  'Nokia Open Source License': E('Nokia'),
  'Open Group Test Suite License': E('OGTSL'),
  'Open Software License 3.0 (OSL-3.0)': E('OSL-3.0'),
  'PostgreSQL License': E('PostgreSQL'),
  'Python License (CNRI Python License)': E('CNRI-Python'),
  'Python Software Foundation License': E('PSF-2.0'),
  'Qt Public License (QPL)': E('QPL-1.0'),
  'Ricoh Source Code Public License': E('RSCPL'),
  'SIL Open Font License 1.1 (OFL-1.1)': E('OFL-1.1'),
  'Sleepycat License': E('Sleepycat'),
  'Sun Public License': E('SPL-1.0'),
  'The Unlicense (Unlicense)': E('Unlicense'),
  'Universal Permissive License (UPL)': E('UPL-1.0'),
  'University of Illinois/NCSA Open Source License': E('NCSA'),
  'Vovida Software License 1.0': E('VSL-1.0'),
  'W3C License': E('W3C'),
  'Zero-Clause BSD (0BSD)': E('0BSD'),
  'Zope Public License': OPEN('ZPL-2.1'),
  'zlib/libpng License': E('Zlib'),
  'Other/Proprietary License': null,
  'Public Domain': null,
  'Repoze Public License': null,
  // Deprecated classifiers, still found in older packages.
  'Intel Open Source License': E('Intel'),
  'Jabber Open Source License': null,
  'MITRE Collaborative Virtual Workspace License (CVW)': null,
  'Sun Industry Standards Source License (SISSL)': E('SISSL'),
  'X.Net License': E('Xnet'),
};

const byLower = new Map(Object.entries(TROVE_LICENSES).map(([k, v]) => [k.toLowerCase().replace(/\s+/g, ' '), v]));

/**
 * The licence one `License :: …` classifier names: undefined when the text is not a known
 * classifier, null when it is one that names no particular licence.
 */
export function classifierLicense(classifier: string): ClassifierLicense | null | undefined {
  const parts = classifier.split('::').map((p) => p.trim());
  if (parts[0]?.toLowerCase() !== 'license' || parts.length < 2) return undefined;
  const name = parts.slice(parts[1]?.toLowerCase() === 'osi approved' && parts.length > 2 ? 2 : 1).join(' :: ');
  return byLower.get(name.toLowerCase().replace(/\s+/g, ' '));
}
