// The licence compatibility model (data only; the evaluation is in conflicts.ts).
//
// Question answered: may a component under the INBOUND licence be combined into, and distributed
// with, a project released under the OUTBOUND licence? The answer comes from three layers, tried in
// order for one concrete inbound licence version against one concrete outbound licence version:
//   1. WITH-exceptions (EXCEPTIONS) that grant extra permissions (linking, runtime, OpenSSL ...);
//   2. explicit PAIR_RULES for the well-known special cases, which override the categories;
//   3. CATEGORY_RULES, a complete matrix over inbound category x outbound category.
// Every rule carries a one-sentence Chinese explanation (a template: {in} / {out} are the concrete
// licence ids, {product} names a non-open outbound product, {restriction} is the licence's own
// restriction phrase). Conditions of a `compatible` verdict (dynamic linking, keep file-level
// licence ...) are spelled out in the explanation instead of adding a fourth verdict, so the API
// keeps its verdicts (compatible, incompatible, check, unknown); `conditional` ranks such rules below unconditional ones
// when the engine picks among OR alternatives.
//
// Sources for the pair rules: the FSF licence list and GPL compatibility matrix, the MPL-2.0 /
// EPL-2.0 secondary-licence clauses, the EUPL-1.2 appendix, Creative Commons' compatible-licence
// declaration for BY-SA 4.0 -> GPL-3.0, and the GPL-3.0 / AGPL-3.0 section 13 combination clauses.

/**
 * `check`: the OSADL matrix's "Check dependency" — compatible or not depending on how the component
 * is combined with the project (linked, a separate program, …); the explanation says what to check.
 */
export type Verdict = 'compatible' | 'incompatible' | 'check' | 'unknown';

export type LicenseCategory =
  | 'public-domain'
  | 'permissive'
  | 'weak-copyleft-file'
  | 'weak-copyleft-library'
  | 'strong-copyleft'
  | 'network-copyleft'
  | 'non-commercial'
  | 'restricted'
  | 'proprietary';

export interface LicenseEntry {
  category: LicenseCategory;
  /** GNU licences exist in SPDX only as `-only` / `-or-later`; the key is the bare version. */
  gnu?: true;
  /** Version family (ordered, oldest first) used to expand `-or-later` and `+`. */
  family?: string;
  /** The licence's own restriction, a predicate phrase used by the non-commercial/restricted rules. */
  restriction?: string;
  /** Not an SPDX licence id (deliberately modelled anyway). */
  nonSpdx?: true;
}

// Keys are concrete licences: SPDX ids, except that the GNU family uses the bare version
// (`GPL-2.0`) because `-only` / `-or-later` are parsed into (version, orLater) by the engine.
export const LICENSES: Readonly<Record<string, LicenseEntry>> = {
  // Public-domain-ish: no conditions worth tracking (no attribution required).
  Unlicense: { category: 'public-domain' },
  'CC0-1.0': { category: 'public-domain' },
  '0BSD': { category: 'public-domain' },
  'MIT-0': { category: 'public-domain' },
  WTFPL: { category: 'public-domain' },
  'CC-PDDC': { category: 'public-domain' },

  // Permissive: keep the copyright and licence notices.
  MIT: { category: 'permissive' },
  'Apache-2.0': { category: 'permissive', family: 'Apache' },
  'Apache-1.1': { category: 'permissive', family: 'Apache' },
  'Apache-1.0': { category: 'permissive', family: 'Apache' },
  'BSD-1-Clause': { category: 'permissive' },
  'BSD-2-Clause': { category: 'permissive' },
  'BSD-2-Clause-Patent': { category: 'permissive' },
  'BSD-3-Clause': { category: 'permissive' },
  'BSD-3-Clause-Clear': { category: 'permissive' },
  'BSD-4-Clause': { category: 'permissive' },
  ISC: { category: 'permissive' },
  Zlib: { category: 'permissive' },
  'BSL-1.0': { category: 'permissive' },
  PostgreSQL: { category: 'permissive' },
  'Python-2.0': { category: 'permissive' },
  'PSF-2.0': { category: 'permissive' },
  X11: { category: 'permissive' },
  'Artistic-1.0': { category: 'permissive', family: 'Artistic' },
  'Artistic-2.0': { category: 'permissive', family: 'Artistic' },
  Ruby: { category: 'permissive' },
  'CC-BY-3.0': { category: 'permissive', family: 'CC-BY' },
  'CC-BY-4.0': { category: 'permissive', family: 'CC-BY' },
  'AFL-3.0': { category: 'permissive' },
  'Unicode-DFS-2016': { category: 'permissive' },
  'Unicode-3.0': { category: 'permissive' },
  'BlueOak-1.0.0': { category: 'permissive' },
  'UPL-1.0': { category: 'permissive' },
  NCSA: { category: 'permissive' },
  OpenSSL: { category: 'permissive' },
  'SSLeay-standalone': { category: 'permissive' },
  'libpng-2.0': { category: 'permissive' },
  Libpng: { category: 'permissive' },
  curl: { category: 'permissive' },
  Beerware: { category: 'permissive' },
  'MulanPSL-2.0': { category: 'permissive' },
  ICU: { category: 'permissive' },
  HPND: { category: 'permissive' },
  W3C: { category: 'permissive' },
  'bzip2-1.0.6': { category: 'permissive' },
  'PHP-3.01': { category: 'permissive' },

  // Weak copyleft, file level: modified files stay under the licence, the larger work may not.
  'MPL-1.1': { category: 'weak-copyleft-file', family: 'MPL' },
  'MPL-2.0': { category: 'weak-copyleft-file', family: 'MPL' },
  'MPL-2.0-no-copyleft-exception': { category: 'weak-copyleft-file' },
  'EPL-1.0': { category: 'weak-copyleft-file', family: 'EPL' },
  'EPL-2.0': { category: 'weak-copyleft-file', family: 'EPL' },
  'CDDL-1.0': { category: 'weak-copyleft-file', family: 'CDDL' },
  'CDDL-1.1': { category: 'weak-copyleft-file', family: 'CDDL' },
  'CPL-1.0': { category: 'weak-copyleft-file' },
  'MS-PL': { category: 'weak-copyleft-file' },
  'MS-RL': { category: 'weak-copyleft-file' },
  'OFL-1.1': { category: 'weak-copyleft-file' },
  'APSL-2.0': { category: 'weak-copyleft-file' },

  // Weak copyleft, library level: linking is fine, the library itself stays LGPL.
  'LGPL-2.0': { category: 'weak-copyleft-library', gnu: true, family: 'LGPL' },
  'LGPL-2.1': { category: 'weak-copyleft-library', gnu: true, family: 'LGPL' },
  'LGPL-3.0': { category: 'weak-copyleft-library', gnu: true, family: 'LGPL' },

  // Strong copyleft: the whole combined work takes the licence.
  'GPL-1.0': { category: 'strong-copyleft', gnu: true, family: 'GPL' },
  'GPL-2.0': { category: 'strong-copyleft', gnu: true, family: 'GPL' },
  'GPL-3.0': { category: 'strong-copyleft', gnu: true, family: 'GPL' },
  'EUPL-1.1': { category: 'strong-copyleft', family: 'EUPL' },
  'EUPL-1.2': { category: 'strong-copyleft', family: 'EUPL' },
  'CECILL-2.1': { category: 'strong-copyleft' },
  'CC-BY-SA-3.0': { category: 'strong-copyleft', family: 'CC-BY-SA' },
  'CC-BY-SA-4.0': { category: 'strong-copyleft', family: 'CC-BY-SA' },

  // Network copyleft: offering the software as a network service already triggers source disclosure.
  'AGPL-3.0': { category: 'network-copyleft', gnu: true, family: 'AGPL' },
  'SSPL-1.0': { category: 'network-copyleft' },
  'OSL-3.0': { category: 'network-copyleft' },

  // Non-commercial and otherwise restricted (not open source).
  'CC-BY-NC-3.0': { category: 'non-commercial', restriction: '禁止商业用途' },
  'CC-BY-NC-4.0': { category: 'non-commercial', restriction: '禁止商业用途' },
  'CC-BY-NC-SA-4.0': { category: 'non-commercial', restriction: '禁止商业用途' },
  'CC-BY-NC-ND-4.0': { category: 'non-commercial', restriction: '禁止商业用途且禁止演绎' },
  'PolyForm-Noncommercial-1.0.0': { category: 'non-commercial', restriction: '只允许非商业目的使用' },
  JSON: { category: 'restricted', restriction: '附加了“用于善而非恶（Good, not Evil）”的使用限制' },
  'Commons-Clause': { category: 'restricted', nonSpdx: true, restriction: '禁止出售该软件或以其功能为主要价值的收费服务' },
  'BUSL-1.1': { category: 'restricted', restriction: '在变更日期之前限制生产环境使用（以附加使用授权为准）' },
  'Elastic-2.0': { category: 'restricted', restriction: '禁止将软件作为托管或管理服务提供且不得绕过许可证密钥功能' },
  'CC-BY-ND-4.0': { category: 'restricted', restriction: '禁止演绎（不得修改或改编）' },
  'PolyForm-Small-Business-1.0.0': { category: 'restricted', restriction: '只允许小型企业使用' },

  // The closed-source marker (outbound `LicenseRef-proprietary`, `NONE`, `UNLICENSED`).
  'LicenseRef-proprietary': { category: 'proprietary', nonSpdx: true },
};

/** Version families, oldest first: `-or-later` / `+` may pick any later member. */
export const FAMILIES: Readonly<Record<string, readonly string[]>> = {
  GPL: ['GPL-1.0', 'GPL-2.0', 'GPL-3.0'],
  LGPL: ['LGPL-2.0', 'LGPL-2.1', 'LGPL-3.0'],
  AGPL: ['AGPL-3.0'],
  Apache: ['Apache-1.0', 'Apache-1.1', 'Apache-2.0'],
  Artistic: ['Artistic-1.0', 'Artistic-2.0'],
  MPL: ['MPL-1.1', 'MPL-2.0'],
  EPL: ['EPL-1.0', 'EPL-2.0'],
  CDDL: ['CDDL-1.0', 'CDDL-1.1'],
  EUPL: ['EUPL-1.1', 'EUPL-1.2'],
  'CC-BY': ['CC-BY-3.0', 'CC-BY-4.0'],
  'CC-BY-SA': ['CC-BY-SA-3.0', 'CC-BY-SA-4.0'],
};

/** Every licence id the model answers for, as written in SPDX expressions (GNU ones as -only/-or-later). */
export const MODELLED_LICENSES: readonly string[] = Object.entries(LICENSES).flatMap(([id, entry]) =>
  entry.gnu ? [`${id}-only`, `${id}-or-later`] : [id],
);

/** Ids in MODELLED_LICENSES that are deliberately not SPDX licence ids. */
export const NON_SPDX_LICENSES: readonly string[] = Object.entries(LICENSES)
  .filter(([, entry]) => entry.nonSpdx)
  .map(([id]) => id);

// Selectors used by rules: a concrete licence key, `@<category>`, `@gnu` (GPL/LGPL/AGPL, every
// version), `@open` (any open-source category), `@closed` (proprietary, non-commercial, restricted)
// or `*`.
export interface CompatRule {
  id: string;
  inbound: readonly string[];
  outbound: readonly string[];
  verdict: Verdict;
  /** A compatible verdict that holds only under the condition stated in the explanation. */
  conditional?: true;
  explanation: string;
}

const GNU_V2 = ['GPL-1.0', 'GPL-2.0', 'LGPL-2.0', 'LGPL-2.1'];
const GNU_V3 = ['GPL-3.0', 'LGPL-3.0', 'AGPL-3.0'];

export const SAME_LICENSE_RULE: CompatRule = {
  id: 'same-license',
  inbound: ['*'],
  outbound: ['*'],
  verdict: 'compatible',
  explanation: '组件与项目采用同一许可证 {in}，可直接并入。',
};

export const PAIR_RULES: readonly CompatRule[] = [
  {
    id: 'apache2-gpl2',
    inbound: ['Apache-2.0'],
    outbound: GNU_V2,
    verdict: 'incompatible',
    explanation: 'Apache-2.0 的专利终止与赔偿条款被 {out} 视为额外限制，二者不兼容（GPL-3.0 才兼容 Apache-2.0）。',
  },
  {
    id: 'apache2-gpl3',
    inbound: ['Apache-2.0'],
    outbound: GNU_V3,
    verdict: 'compatible',
    explanation: 'GPL-3.0 系列接受 Apache-2.0 的专利条款，Apache-2.0 代码可以单向并入 {out} 项目（组合作品以 {out} 分发）。',
  },
  {
    id: 'mulanpsl2-gpl2',
    inbound: ['MulanPSL-2.0'],
    outbound: GNU_V2,
    verdict: 'incompatible',
    explanation: '木兰宽松许可证 MulanPSL-2.0 的专利授权终止条款被 {out} 视为额外限制，二者不兼容（与 GPL-3.0 兼容）。',
  },
  {
    id: 'advertising-clause-gpl',
    inbound: ['BSD-4-Clause', 'OpenSSL', 'SSLeay-standalone', 'Apache-1.0', 'Apache-1.1', 'PHP-3.01'],
    outbound: ['@gnu'],
    verdict: 'incompatible',
    explanation: '{in} 的广告条款（宣传材料须致谢原作者、限制使用其名称）是 {out} 不允许的额外限制，二者不兼容。',
  },
  {
    id: 'artistic1-gpl',
    inbound: ['Artistic-1.0'],
    outbound: ['@gnu'],
    verdict: 'incompatible',
    explanation: 'FSF 认为 Artistic-1.0 条款含糊、与 {out} 不兼容（Perl 模块通常以 Artistic-1.0-Perl OR GPL-1.0-or-later 双授权，可改选 GPL）。',
  },
  {
    id: 'patent-termination-gpl',
    inbound: ['AFL-3.0', 'OSL-3.0'],
    outbound: ['@gnu'],
    verdict: 'incompatible',
    explanation: '{in} 的专利终止条款（起诉任何专利侵权即终止授权）是 {out} 不允许的额外限制，二者不兼容。',
  },
  {
    id: 'gpl2only-gpl3',
    inbound: ['GPL-2.0'],
    outbound: ['GPL-3.0', 'AGPL-3.0'],
    verdict: 'incompatible',
    explanation: 'GPL-2.0-only 不允许升级到 3.0 版，而 {out} 要求整个作品以 3.0 版授权，二者不兼容（GPL-2.0-or-later 则可以）。',
  },
  {
    id: 'gpl3-gpl2only',
    inbound: ['GPL-3.0', 'AGPL-3.0'],
    outbound: ['GPL-1.0', 'GPL-2.0'],
    verdict: 'incompatible',
    explanation: '{in} 的附加要求（专利授权、反技术保护措施等）超出 {out} 的范围，{in} 代码不能并入只能以 {out} 分发的项目。',
  },
  {
    id: 'lgpl2-gpl',
    inbound: ['LGPL-2.0', 'LGPL-2.1'],
    outbound: ['GPL-2.0', 'GPL-3.0'],
    verdict: 'compatible',
    explanation: '{in} 第 3 条允许将其代码改按 GPL-2.0 或更高版本授权，因此可以并入 {out} 项目。',
  },
  {
    id: 'lgpl2-agpl3',
    inbound: ['LGPL-2.0', 'LGPL-2.1'],
    outbound: ['AGPL-3.0'],
    verdict: 'compatible',
    explanation: '{in} 可改按 GPL-3.0 授权，再依 AGPL-3.0 第 13 条与 AGPL-3.0 代码组合，因此可以并入 AGPL-3.0 项目。',
  },
  {
    id: 'lgpl3-gpl3',
    inbound: ['LGPL-3.0'],
    outbound: ['GPL-3.0', 'AGPL-3.0'],
    verdict: 'compatible',
    explanation: 'LGPL-3.0 本身就是 GPL-3.0 加上额外许可，可以直接并入 {out} 项目。',
  },
  {
    id: 'lgpl3-gpl2',
    inbound: ['LGPL-3.0'],
    outbound: GNU_V2,
    verdict: 'incompatible',
    explanation: 'LGPL-3.0 建立在 GPL-3.0 之上，与只能以 {out} 分发的项目不兼容（FSF 兼容性矩阵：即使只是链接该库也不行）。',
  },
  {
    id: 'agpl3-gpl3',
    inbound: ['AGPL-3.0'],
    outbound: ['GPL-3.0'],
    verdict: 'compatible',
    conditional: true,
    explanation: 'GPL-3.0 第 13 条允许把 GPL-3.0 代码与 AGPL-3.0 代码组合成一个作品，但 AGPL-3.0 部分通过网络提供服务时须公开源码的义务仍然有效。',
  },
  {
    id: 'gpl3-agpl3',
    inbound: ['GPL-3.0'],
    outbound: ['AGPL-3.0'],
    verdict: 'compatible',
    explanation: 'AGPL-3.0 第 13 条允许与 GPL-3.0 代码组合，GPL-3.0 部分保持原授权，整个作品可以 AGPL-3.0 分发。',
  },
  {
    id: 'agpl3-lgpl',
    inbound: ['AGPL-3.0'],
    outbound: ['LGPL-2.0', 'LGPL-2.1', 'LGPL-3.0'],
    verdict: 'incompatible',
    explanation: 'AGPL-3.0 只能通过第 13 条与 GPL-3.0 组合，不能并入以 {out} 授权的库。',
  },
  {
    id: 'mpl2-secondary-license',
    inbound: ['MPL-2.0'],
    outbound: ['GPL-2.0', 'GPL-3.0', 'LGPL-2.1', 'LGPL-3.0', 'AGPL-3.0'],
    verdict: 'compatible',
    conditional: true,
    explanation:
      'MPL-2.0 第 3.3 条把 {out} 列为次级许可证，组合作品可以 {out} 分发（除非作者声明“与次级许可证不兼容”），MPL 文件本身仍须以 MPL-2.0 提供源码。',
  },
  {
    id: 'mpl2-no-copyleft-exception-gpl',
    inbound: ['MPL-2.0-no-copyleft-exception'],
    outbound: ['@gnu'],
    verdict: 'incompatible',
    explanation: '作者声明该 MPL-2.0 代码“与次级许可证不兼容”，因此不能借 MPL-2.0 第 3.3 条并入 {out} 项目。',
  },
  {
    id: 'mpl1-gpl',
    inbound: ['MPL-1.1'],
    outbound: ['@gnu'],
    verdict: 'incompatible',
    explanation: 'MPL-1.1 的附加条款与 {out} 冲突，二者不兼容（MPL-2.0 才通过次级许可证条款兼容 GPL）。',
  },
  {
    id: 'epl1-cpl-gpl',
    inbound: ['EPL-1.0', 'CPL-1.0'],
    outbound: ['@gnu'],
    verdict: 'incompatible',
    explanation: '{in} 的文件级 Copyleft、专利报复与法律选择条款是 {out} 不允许的额外限制，二者不兼容。',
  },
  {
    id: 'epl2-gpl',
    inbound: ['EPL-2.0'],
    outbound: ['@gnu'],
    verdict: 'incompatible',
    explanation:
      'EPL-2.0 默认与 {out} 不兼容，只有原作者在附录 A 中声明 GPL-2.0 或更高版本为次级许可证时才能组合（此时表达式应写作 EPL-2.0 OR GPL-2.0-or-later 等）。',
  },
  {
    id: 'cddl-gpl',
    inbound: ['CDDL-1.0', 'CDDL-1.1'],
    outbound: ['@gnu'],
    verdict: 'incompatible',
    explanation: '{in} 的文件级 Copyleft 与专利、法律选择条款是 {out} 不允许的额外限制，二者不兼容（ZFS 不能并入 Linux 内核即为此例）。',
  },
  {
    id: 'ms-gpl',
    inbound: ['MS-PL', 'MS-RL'],
    outbound: ['@gnu'],
    verdict: 'incompatible',
    explanation: '{in} 要求以源码形式分发时只能使用 {in}，这与 {out} 冲突，二者不兼容。',
  },
  {
    id: 'apsl2-gpl',
    inbound: ['APSL-2.0'],
    outbound: ['@gnu'],
    verdict: 'incompatible',
    explanation: 'FSF 认定 APSL-2.0 与 {out} 不兼容（其专利终止与法律选择条款构成额外限制）。',
  },
  {
    id: 'ofl-bundling',
    inbound: ['OFL-1.1'],
    outbound: ['@weak-copyleft-library', '@strong-copyleft', '@network-copyleft'],
    verdict: 'compatible',
    conditional: true,
    explanation: 'OFL-1.1 允许字体与任何软件捆绑分发，只要字体作为独立文件保持 OFL-1.1 授权且不单独出售，因此可随 {out} 项目分发。',
  },
  {
    id: 'eupl12-compatible-list',
    inbound: ['EUPL-1.2'],
    outbound: ['GPL-2.0', 'GPL-3.0', 'AGPL-3.0', 'LGPL-2.1', 'LGPL-3.0', 'MPL-2.0', 'EPL-1.0', 'OSL-3.0', 'CECILL-2.1', 'CC-BY-SA-3.0'],
    verdict: 'compatible',
    conditional: true,
    explanation: 'EUPL-1.2 附录把 {out} 列为兼容许可证，与 {out} 代码组合的作品可以 {out} 分发。',
  },
  {
    id: 'eupl11-compatible-list',
    inbound: ['EUPL-1.1'],
    outbound: ['GPL-2.0', 'OSL-3.0', 'CPL-1.0', 'EPL-1.0'],
    verdict: 'compatible',
    conditional: true,
    explanation: 'EUPL-1.1 附录把 {out} 列为兼容许可证，与 {out} 代码组合的作品可以 {out} 分发。',
  },
  {
    id: 'cecill21-gpl',
    inbound: ['CECILL-2.1'],
    outbound: ['GPL-2.0', 'GPL-3.0', 'AGPL-3.0'],
    verdict: 'compatible',
    explanation: 'CECILL-2.1 第 5.3.4 条允许将其代码与 {out} 代码组合并以 {out} 分发。',
  },
  {
    id: 'cc-by-sa4-gpl3',
    inbound: ['CC-BY-SA-4.0'],
    outbound: ['GPL-3.0'],
    verdict: 'compatible',
    explanation: '知识共享组织已把 GPL-3.0 列为 CC-BY-SA-4.0 的兼容许可证，BY-SA 4.0 内容可以单向并入 GPL-3.0 项目（反之不行）。',
  },
  {
    id: 'gpl3-cc-by-sa4',
    inbound: ['GPL-3.0'],
    outbound: ['CC-BY-SA-4.0'],
    verdict: 'incompatible',
    explanation: '兼容是单向的：CC-BY-SA-4.0 内容可以并入 GPL-3.0 作品，但 GPL-3.0 代码不能以 CC-BY-SA-4.0 分发。',
  },
  {
    id: 'cc-by-sa3-gpl',
    inbound: ['CC-BY-SA-3.0'],
    outbound: ['@gnu'],
    verdict: 'incompatible',
    explanation: 'CC-BY-SA-3.0 没有 GPL 兼容条款，不能并入 {out} 项目（只有 4.0 版可单向并入 GPL-3.0）。',
  },
  {
    id: 'cc-by-sa3-to-4',
    inbound: ['CC-BY-SA-3.0'],
    outbound: ['CC-BY-SA-4.0'],
    verdict: 'compatible',
    explanation: 'CC-BY-SA-3.0 允许演绎作品采用含相同要素的更高版本，因此可以并入 CC-BY-SA-4.0 作品。',
  },
  {
    id: 'sspl-open',
    inbound: ['SSPL-1.0'],
    outbound: ['@open'],
    verdict: 'incompatible',
    explanation: 'SSPL-1.0 要求以服务形式提供软件时公开整个服务栈（含管理、监控等配套软件）的源码，未被 OSI 认可为开源许可证，与 {out} 不兼容。',
  },
];

export const CATEGORY_RULES: readonly CompatRule[] = [
  {
    id: 'category:public-domain->closed',
    inbound: ['@public-domain'],
    outbound: ['@closed'],
    verdict: 'compatible',
    explanation: '{in} 属于公有领域类许可证，几乎不附加任何义务，可用于{product}。',
  },
  {
    id: 'category:public-domain->open',
    inbound: ['@public-domain'],
    outbound: ['*'],
    verdict: 'compatible',
    explanation: '{in} 属于公有领域类许可证，几乎不附加任何义务，可并入 {out} 项目。',
  },
  {
    id: 'category:permissive->closed',
    inbound: ['@permissive'],
    outbound: ['@closed'],
    verdict: 'compatible',
    explanation: '{in} 是宽松许可证，只要求保留版权和许可声明，可用于{product}。',
  },
  {
    id: 'category:permissive->open',
    inbound: ['@permissive'],
    outbound: ['*'],
    verdict: 'compatible',
    explanation: '{in} 是宽松许可证，只要求保留版权和许可声明，可并入 {out} 项目。',
  },
  {
    id: 'category:file-copyleft->closed',
    inbound: ['@weak-copyleft-file'],
    outbound: ['@closed'],
    verdict: 'compatible',
    conditional: true,
    explanation: '{in} 是文件级弱 Copyleft 许可证，可与闭源代码组合用于{product}，但修改过的 {in} 文件须继续以 {in} 公开源码。',
  },
  {
    id: 'category:file-copyleft->file-level',
    inbound: ['@weak-copyleft-file'],
    outbound: ['@public-domain', '@permissive', '@weak-copyleft-file'],
    verdict: 'compatible',
    conditional: true,
    explanation: '{in} 是文件级弱 Copyleft 许可证，其文件须保持 {in} 授权，可作为独立文件与 {out} 项目组合分发。',
  },
  {
    id: 'category:file-copyleft->copyleft',
    inbound: ['@weak-copyleft-file'],
    outbound: ['*'],
    verdict: 'incompatible',
    explanation: '{in} 要求其文件保持 {in} 授权，而 {out} 要求整个作品采用 {out}，二者不兼容。',
  },
  {
    id: 'category:library-copyleft->closed',
    inbound: ['@weak-copyleft-library'],
    outbound: ['@closed'],
    verdict: 'compatible',
    conditional: true,
    explanation: '{in} 是库级弱 Copyleft 许可证，动态链接时可用于{product}，但须允许用户替换该库，修改该库本身须公开源码。',
  },
  {
    id: 'category:library-copyleft->open',
    inbound: ['@weak-copyleft-library'],
    outbound: ['*'],
    verdict: 'compatible',
    conditional: true,
    explanation: '{in} 是库级弱 Copyleft 许可证，动态链接时可用：该库保持 {in} 授权，{out} 项目其余代码不受影响。',
  },
  {
    id: 'category:strong-copyleft->closed',
    inbound: ['@strong-copyleft'],
    outbound: ['@closed'],
    verdict: 'incompatible',
    explanation: '{in} 是强 Copyleft 许可证，基于它的组合或衍生作品整体都须以 {in} 公开源码，不能用于{product}。',
  },
  {
    id: 'category:strong-copyleft->open',
    inbound: ['@strong-copyleft'],
    outbound: ['*'],
    verdict: 'incompatible',
    explanation: '{in} 要求整个组合作品以 {in} 授权，项目无法保持 {out} 授权，二者不兼容。',
  },
  {
    id: 'category:network-copyleft->closed',
    inbound: ['@network-copyleft'],
    outbound: ['@closed'],
    verdict: 'incompatible',
    explanation: '{in} 是网络 Copyleft 许可证，即使只通过网络提供服务也须公开整个作品的源码，不能用于{product}。',
  },
  {
    id: 'category:network-copyleft->open',
    inbound: ['@network-copyleft'],
    outbound: ['*'],
    verdict: 'incompatible',
    explanation: '{in} 要求整个组合作品以 {in} 授权并在网络服务中公开源码，项目无法保持 {out} 授权，二者不兼容。',
  },
  {
    id: 'category:non-commercial->non-commercial',
    inbound: ['@non-commercial'],
    outbound: ['@non-commercial'],
    verdict: 'unknown',
    explanation: '{in} 与 {out} 都限制商业使用，能否组合取决于各自的署名与相同方式共享条款，需人工评估。',
  },
  {
    id: 'category:non-commercial->closed',
    inbound: ['@non-commercial'],
    outbound: ['@closed'],
    verdict: 'incompatible',
    explanation: '{in} {restriction}，不能用于{product}的商业分发。',
  },
  {
    id: 'category:non-commercial->open',
    inbound: ['@non-commercial'],
    outbound: ['*'],
    verdict: 'incompatible',
    explanation: '{in} {restriction}，这与开源许可证 {out} 保障的使用自由相冲突，二者不兼容。',
  },
  {
    id: 'category:restricted->closed',
    inbound: ['@restricted'],
    outbound: ['@closed'],
    verdict: 'unknown',
    explanation: '{in} {restriction}，能否用于{product}取决于实际使用场景，需法务评估。',
  },
  {
    id: 'category:restricted->open',
    inbound: ['@restricted'],
    outbound: ['*'],
    verdict: 'incompatible',
    explanation: '{in} {restriction}，不符合开源定义，不能并入以 {out} 授权的开源项目。',
  },
  {
    id: 'category:proprietary->copyleft',
    inbound: ['@proprietary'],
    outbound: ['@weak-copyleft-library', '@strong-copyleft', '@network-copyleft'],
    verdict: 'incompatible',
    explanation: '专有组件的源码不能按 {out} 的要求公开，二者不兼容（除非该组件属于 GPL 的“系统库”例外）。',
  },
  {
    id: 'category:proprietary->other',
    inbound: ['@proprietary'],
    outbound: ['*'],
    verdict: 'unknown',
    explanation: '专有组件能否随项目分发取决于其商业授权合同，需法务确认。',
  },
];

export type ExceptionEffect = 'linking' | 'runtime' | 'output' | 'syscall' | 'llvm' | 'foss' | 'openssl';

export interface ExceptionEntry {
  effect: ExceptionEffect;
  /** Used when the exception decides the verdict; {in} is the base licence, {exception} the exception id. */
  explanation: string;
}

// WITH-exceptions only ever add permissions, so the engine evaluates the base licence as well and
// keeps the better answer; exceptions not listed here fall back to the base licence.
const LINKING = '{in} WITH {exception} 允许与任何许可证的代码链接（含静态链接）后分发，只有修改该组件本身才须按 {in} 公开源码，可用于{product}。';
export const EXCEPTIONS: Readonly<Record<string, ExceptionEntry>> = {
  'Classpath-exception-2.0': { effect: 'linking', explanation: LINKING },
  'OpenJDK-assembly-exception-1.0': { effect: 'linking', explanation: LINKING },
  'WxWindows-exception-3.1': { effect: 'linking', explanation: LINKING },
  'GPL-3.0-linking-exception': { effect: 'linking', explanation: LINKING },
  'GPL-3.0-linking-source-exception': { effect: 'linking', explanation: LINKING },
  'LGPL-3.0-linking-exception': { effect: 'linking', explanation: LINKING },
  'OCaml-LGPL-linking-exception': { effect: 'linking', explanation: LINKING },
  'GCC-exception-3.1': {
    effect: 'runtime',
    explanation: '{exception} 允许经合格编译过程生成的目标代码与该运行时库组合后以任意许可证分发（可用于{product}），只有修改运行时库本身仍受 {in} 约束。',
  },
  'GCC-exception-2.0': {
    effect: 'runtime',
    explanation: '{exception} 允许把该库链接进可执行文件后以任意许可证分发（可用于{product}），只有修改库本身仍受 {in} 约束。',
  },
  'Bison-exception-2.2': {
    effect: 'output',
    explanation: '{exception} 允许 Bison 生成的解析器源码以任意许可证分发（可用于{product}），但工具本身仍受 {in} 约束。',
  },
  'Autoconf-exception-3.0': {
    effect: 'output',
    explanation: '{exception} 允许 Autoconf 生成的 configure 脚本以任意许可证分发（可用于{product}），但工具本身仍受 {in} 约束。',
  },
  'Autoconf-exception-2.0': {
    effect: 'output',
    explanation: '{exception} 允许 Autoconf 生成的 configure 脚本以任意许可证分发（可用于{product}），但工具本身仍受 {in} 约束。',
  },
  'Linux-syscall-note': {
    effect: 'syscall',
    explanation: '{exception} 声明通过系统调用使用内核服务的用户态程序不属于内核的衍生作品，因此可用于{product}（只使用内核头文件与系统调用时）。',
  },
  'LLVM-exception': {
    effect: 'llvm',
    explanation: 'LLVM-exception 允许在与 GPL-2.0 代码组合时放弃 Apache-2.0 中与之冲突的专利与赔偿条款，因此可以并入 {out} 项目。',
  },
  'Universal-FOSS-exception-1.0': {
    effect: 'foss',
    explanation: '{exception} 允许与任何 OSI 或 FSF 认可的开源许可证代码组合，因此可以并入 {out} 项目。',
  },
  'openvpn-openssl-exception': {
    effect: 'openssl',
    explanation: '项目许可证附带 {exception}，明确允许链接以 {in} 授权的 OpenSSL/SSLeay 代码，因此兼容。',
  },
  'x11vnc-openssl-exception': {
    effect: 'openssl',
    explanation: '项目许可证附带 {exception}，明确允许链接以 {in} 授权的 OpenSSL/SSLeay 代码，因此兼容。',
  },
  'vsftpd-openssl-exception': {
    effect: 'openssl',
    explanation: '项目许可证附带 {exception}，明确允许链接以 {in} 授权的 OpenSSL/SSLeay 代码，因此兼容。',
  },
  'cryptsetup-OpenSSL-exception': {
    effect: 'openssl',
    explanation: '项目许可证附带 {exception}，明确允许链接以 {in} 授权的 OpenSSL/SSLeay 代码，因此兼容。',
  },
};

/** Inbound licences an outbound OpenSSL exception covers. */
export const OPENSSL_LICENSES: readonly string[] = ['OpenSSL', 'SSLeay-standalone'];

/** Messages for answers that come from no rule (unknown licences, parse failures, missing data). */
export const MESSAGES = {
  unparseableInbound: '组件许可证表达式“{text}”无法按 SPDX 语法解析，需先规范化后再评估。',
  unparseableOutbound: '项目许可证表达式“{text}”无法按 SPDX 语法解析，需先规范化后再评估。',
  unknownInbound: '{text} 不在兼容性模型中（罕见或非标准许可证），需人工评估其条款。',
  licenseRefInbound: '{text} 是自定义许可证（LicenseRef），兼容性取决于其具体条款，需人工评估。',
  unknownOutbound: '项目许可证 {text} 不在兼容性模型中，无法判断兼容性，需人工评估。',
  noAssertionOutbound: '项目未声明对外许可证（NOASSERTION），无法判断兼容性。',
  noLicenseInbound: '组件未声明许可证（{text}），默认保留所有权利，需取得作者授权或经法务评估后才能使用。',
} as const;
