// The OSADL open-source licence compatibility matrix (resources/osadl/matrixseqexpl.json, CC-BY-4.0,
// see resources/osadl/README.md) as the first source of conflict verdicts.
//
// Direction. OSADL's matrix is read "leading licence" (the row, `licenses[].name`) against
// "subordinate licence" (`licenses[].compatibilities[].name`): OSADL explains a cell as "may
// software under the subordinate licence be included in, and redistributed as part of, software
// under the leading licence?" (e.g. leading 0BSD, subordinate AGPL-3.0-only: "Software under a
// copyleft license such as the AGPL-3.0-only license normally cannot be redistributed under a
// non-copyleft license such as the 0BSD license" — No). That is exactly Cairn's question with the
// leading licence = the project's OUTBOUND licence and the subordinate licence = the component's
// INBOUND licence, so `lookup(outbound, inbound)` reads row `outbound`, column `inbound`.
//
// Verdicts. `Yes` / `Same` -> compatible, `No` -> incompatible: OSADL decides, and Cairn follows.
// `Check dependency` -> unknown with source OSADL: compatibility depends on how the component is
// combined (linked vs inserted, used under another GNU version first ...), which a scan cannot see,
// so the explanation says what to check. `Unknown` is no decision: Cairn's own model answers.
// OSADL's explanations are English and follow a small set of sentence patterns; each is rendered as a
// Chinese sentence here (a unit test checks every Yes / No / Check dependency cell is covered).
//
// Ids. OSADL names are SPDX ids (`GPL-2.0-only`, `GPL-2.0-or-later`, `GPL-2.0-only WITH
// Classpath-exception-2.0`) plus a few `LicenseRef-scancode-*` ids; they are matched case-insensitively.
// The engine hands in ids already normalised to that form (deprecated `GPL-2.0` -> `GPL-2.0-only`,
// `GPL-2.0+` -> `GPL-2.0-or-later`, deprecated `GPL-2.0-with-classpath-exception` -> `GPL-2.0-only
// WITH Classpath-exception-2.0`); see osadlIdOf in conflicts.ts.
import matrix from '../../../../resources/osadl/matrixseqexpl.json' with { type: 'json' };

type OsadlCompatibility = 'Yes' | 'No' | 'Unknown' | 'Same' | 'Check dependency';

interface MatrixFile {
  timestamp: string;
  licenses: { name: string; compatibilities: { name: string; compatibility: string; explanation: string }[] }[];
}

export interface OsadlCell {
  /** The leading (outbound) and subordinate (inbound) licence as OSADL spells them. */
  leading: string;
  subordinate: string;
  compatibility: OsadlCompatibility;
  /** OSADL's own English explanation (HTML entities decoded). */
  explanation: string;
}

const data = matrix as unknown as MatrixFile;

/** When OSADL published the shipped matrix (ISO date-time). */
export const OSADL_MATRIX_TIMESTAMP: string = data.timestamp;
/** Its date (YYYY-MM-DD), as the conflict tab and the reports name the version. */
export const OSADL_MATRIX_DATE: string = data.timestamp.slice(0, 10);

const decode = (text: string): string =>
  text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

const CELLS = new Map<string, Map<string, OsadlCell>>();
for (const row of data.licenses) {
  const cells = new Map<string, OsadlCell>();
  for (const cell of row.compatibilities) {
    cells.set(cell.name.toLowerCase(), {
      leading: row.name,
      subordinate: cell.name,
      compatibility: cell.compatibility as OsadlCompatibility,
      explanation: decode(cell.explanation),
    });
  }
  CELLS.set(row.name.toLowerCase(), cells);
}

/** Every licence the matrix holds, as OSADL spells it. */
export const OSADL_LICENSES: readonly string[] = data.licenses.map((row) => row.name);

const CANONICAL = new Map(OSADL_LICENSES.map((name) => [name.toLowerCase(), name]));

/** OSADL's spelling of an id (`gpl-2.0-only` -> `GPL-2.0-only`), or null when the matrix lacks it. */
export function osadlName(id: string): string | null {
  return CANONICAL.get(id.replace(/\s+/g, ' ').trim().toLowerCase()) ?? null;
}

/** The cell for a project under `outbound` taking in a component under `inbound`, or null. */
export function osadlCell(outbound: string, inbound: string): OsadlCell | null {
  return CELLS.get(outbound.toLowerCase())?.get(inbound.toLowerCase()) ?? null;
}

// ---- Chinese explanations --------------------------------------------------------------------------

const ID = '([A-Za-z0-9.+-]+(?: WITH [A-Za-z0-9.+-]+)?)';

/** The main sentence of OSADL's explanation, by pattern. {in} / {out}: inbound / outbound id. */
const MAIN: readonly [RegExp, (m: RegExpExecArray, cell: OsadlCell) => string][] = [
  [
    /^Non-copyleft licenses such as the .+ license and the .+ license are generally considered mutually compatible\.$/,
    (_m, c) => `${c.subordinate} 与 ${c.leading} 都是非 Copyleft 许可证，通常认为二者相互兼容，${c.subordinate} 组件可并入 ${c.leading} 项目（须保留其版权和许可声明）。`,
  ],
  [
    /^Software under a copyleft license such as the .+ license normally cannot be redistributed under a non-copyleft license such as the .+ license, except if it were explicitly permitted in the licenses\.$/,
    (_m, c) => `${c.subordinate} 是 Copyleft 许可证，其代码通常不能以非 Copyleft 的 ${c.leading} 再分发（除非许可证明确允许），二者不兼容。`,
  ],
  [
    /^Software under a copyleft license such as the .+ license normally cannot be redistributed under another copyleft license such as the .+ license, except if it were explicitly permitted in the licenses\.$/,
    (_m, c) => `${c.subordinate} 与 ${c.leading} 是两种不同的 Copyleft 许可证，${c.subordinate} 代码通常不能以 ${c.leading} 再分发（除非许可证明确允许），二者不兼容。`,
  ],
  [
    /^Software under a copyleft license such as the .+ cannot be redistributed under the .+ license even if the .+ were considered to have no copyleft clause\.$/,
    (_m, c) => `${c.subordinate} 是 Copyleft 许可证，即使认为 ${c.leading} 不含 Copyleft 条款，${c.subordinate} 代码也不能以 ${c.leading} 再分发，二者不兼容。`,
  ],
  [
    /^Compatibility of the .+ license with the .+ license is explicitly stated in the .+ license checklist\.$/,
    (_m, c) => `OSADL 的 ${c.leading} 许可证检查清单明确写明 ${c.subordinate} 与之兼容，${c.subordinate} 组件可并入 ${c.leading} 项目。`,
  ],
  [
    /^Incompatibility of the .+ license with the .+ license is explicitly stated in the .+ license checklist\.$/,
    (_m, c) => `OSADL 的 ${c.leading} 许可证检查清单明确写明 ${c.subordinate} 与之不兼容，${c.subordinate} 组件不能并入 ${c.leading} 项目。`,
  ],
  [
    /^Depending compatibility of the .+ license with the .+ license is explicitly stated in the .+ license checklist\.$/,
    (_m, c) => `OSADL 的 ${c.leading} 许可证检查清单写明 ${c.subordinate} 与之“有条件兼容”：是否兼容取决于组件与项目代码的结合方式，须人工确认。`,
  ],
];

const list = (text: string): string => text.replace(/, /g, '、').replace(/ or /g, ' 或 ');

/** OSADL's "Interpretation:" part, by pattern. */
const INTERPRETATION: readonly [RegExp, (m: RegExpExecArray) => string][] = [
  [
    new RegExp(`^${ID} licensed material must not be inserted into the code, but can be linked or combined with it\\.$`),
    (m) => `${m[1]} 授权的代码不得直接插入对方代码，二者只能作为各自独立的部分相互链接或组合（GPL-3.0 / AGPL-3.0 第 13 条）。`,
  ],
  [
    new RegExp(`^${ID} licensed material must be used under ${ID} and must not be inserted into the code, but can only be linked or combined with it\\.$`),
    (m) => `${m[1]} 授权的代码须改按 ${m[2]} 使用，且不得直接插入对方代码，二者只能作为各自独立的部分相互链接或组合。`,
  ],
  [
    /^(?:The )?(?:material that is licensed under )?([A-Za-z0-9.+ -]+?)(?: licensed material)? must first be (?:used|licensed) under (?:the ordinary )?(.+?)(?: license by removing the exception)? before (.+?) licensed material (?:becomes|may be made) compatible with it\.$/,
    (m) =>
      /removing the exception/.test(m[0])
        ? `须先去掉 ${m[1]} 的例外条款、改按普通的 ${m[2]} 授权，${m[3]} 组件才与之兼容。`
        : `${m[1]} 授权的代码须先改按 ${list(m[2] as string)} 使用，${m[3]} 组件才与之兼容。`,
  ],
  [
    new RegExp(`^${ID} licensed material must first be relicensed under ${ID} before compatibility with other GPL-2.0 licensed material can be established\\.$`),
    (m) => `${m[1]} 组件须先依其第 3 条改按 ${m[2]} 授权，才能与其他 GPL-2.0 代码兼容。`,
  ],
  [
    /^The (.+?) licensed material must first be used under (.+?) before compatibility with (.+?) is created\.$/,
    (m) => `${m[1]} 组件须先改按 ${list(m[2] as string)} 使用，才与 ${m[3]} 兼容。`,
  ],
  [
    /^The material licensed under (.+?) must first be used under (.+?) before compatibility is established with (.+?), which then acts as a so-called Secondary License$/,
    (m) => `${m[1]} 组件须先改按 ${m[2]} 使用，此后 ${m[3]} 作为其“次级许可证”才与之兼容。`,
  ],
  [
    /^The (.+?) material must first be uses under a higher GPL version, which then acts as a so-called Secondary License$/,
    (m) => `${m[1]} 项目须先改按更高版本的 GPL 使用，该版本作为 MPL-2.0 的“次级许可证”才与之兼容。`,
  ],
  [
    /^The final statement of the appended SSLeay License .+ can only be given for selected cases\.$/,
    () => 'OpenSSL 许可证所附 SSLeay 许可证的最后一句（“公开版本或衍生作品的许可与分发条款不得更改”）通常须视为 Copyleft 条款，但对此没有普遍共识，因此只能就个别情形给出建议。',
  ],
  [
    /^The requirement of the (.+?) license to provide a brief summary of the changes may definitely be seen as a further restriction/,
    (m) =>
      `${m[1]} 要求随源码和二进制提供修改摘要，这可能被视为目标许可证禁止附加的额外限制；另一种观点认为目标许可证要求公开完整源码，足以让人得出修改摘要，至少部分满足 ${m[1]} 的要求。`,
  ],
  [
    /^Review of a large number of use cases indicates that this compatibility can be considered to be generally tolerated\./,
    () => '对大量实际用例的审查表明这种组合被普遍接受；Eclipse 基金会也表示，MIT、BSD-3-Clause、Apache-2.0 等宽松许可证的组件可以并入 EPL-1.0 和 EPL-2.0 组件。',
  ],
  [
    /^When IBM, the original license steward of the (.+?), passed the stewardship to the Eclipse Foundation, the new version of the .+? was renamed ([A-Za-z0-9.-]+?)\.\s/,
    (m) => `${m[2]} 是 ${m[1]} 的后继版本（IBM 把 ${m[1]} 的管理权移交 Eclipse 基金会后更名为 ${m[2]}），通常认为可按新版本重新授权。`,
  ],
  [
    /^It is unclear whether "any portion of the software" assumes code changes .+ can only be given for selected cases\.$/,
    () => 'MS-PL 中“软件的任何部分”是否包括修改与新增代码、“符合本许可证的许可证”是否构成 Copyleft 条款均不明确，若不构成，Copyleft 义务将取决于交付方式，须逐案评估。',
  ],
];

/** What to check for a `Check dependency` cell, appended to its explanation. */
const CHECK_HINT =
  '请核对：该组件是作为独立作品（单独的库、模块或进程）通过动态链接、调用或分发组合与项目结合，还是其代码被复制、插入或静态链接进项目源码；若属后者，或无法满足上述改授权条件，则视为不兼容。';

function translateMain(text: string, cell: OsadlCell): string | null {
  for (const [pattern, render] of MAIN) {
    const m = pattern.exec(text);
    if (m) return render(m, cell);
  }
  return null;
}

function translateInterpretation(text: string): string | null {
  for (const [pattern, render] of INTERPRETATION) {
    const m = pattern.exec(text);
    if (m) return render(m);
  }
  return null;
}

/**
 * OSADL's explanation of a cell as Chinese (the source itself is named by the verdict's `source`);
 * null when a sentence follows no known pattern (then the caller falls back to a generic sentence).
 */
export function osadlExplanation(cell: OsadlCell): string | null {
  if (cell.compatibility === 'Same') return `组件与项目采用同一许可证 ${cell.leading}，可直接并入。`;
  const [main = '', interpretation] = cell.explanation.split(/\s*Interpretation:\s*/);
  const head = translateMain(main.trim(), cell);
  if (head === null) return null;
  let text = head;
  if (interpretation) {
    const note = translateInterpretation(interpretation.trim());
    if (note === null) return null;
    text += `解读：${note}`;
  }
  if (cell.compatibility === 'Check dependency') text += CHECK_HINT;
  return text;
}
