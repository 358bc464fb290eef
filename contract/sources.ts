// Source types (getCodeType, spec doc 1 §3) declared once: the group the new-project form lists
// each under, whether the platform analyses it and as what kind of engine input, and what a user
// is told when it cannot be analysed yet. The task route (launching a run), the analysis job
// (which input the upload is) and the renderer's source select all read this table; nobody else
// keeps a list of codes.
import { CODE_TYPE_LABEL, labelOf, type CodeType } from './enums.ts';

/** What a source type's upload is to the engine. */
export type InputKind = 'source' | 'feature' | 'binary' | 'sbom' | 'excel';

/** The source select's groups, in the order the form shows them. */
export type SourceGroup = '本地上传' | '代码仓库' | '容器镜像' | '制品仓库' | '其他';

export interface SourceType {
  code: CodeType;
  group: SourceGroup;
  /** The engine input an upload of this type is; null while the platform cannot analyse it. */
  input: InputKind | null;
  /** What the user is told when a run of it is asked for; null when it can be analysed. */
  unsupported: string | null;
}

/** Why a source type cannot be analysed yet: container images wait for image analysis; remote sources for fetching. */
type Pending = 'image' | 'fetch';

const PENDING_MESSAGE: Record<Pending, (label: string) => string> = {
  image: (label) => `代码来源“${label}”的文件已保存，容器镜像分析将在后续版本提供，暂时无法发起分析`,
  fetch: (label) => `代码来源“${label}”暂不支持自动获取代码，将在后续版本提供，暂时无法发起分析；请改用本地上传`,
};

const analysed = (code: CodeType, group: SourceGroup, input: InputKind): SourceType => ({ code, group, input, unsupported: null });
const pending = (code: CodeType, group: SourceGroup, why: Pending): SourceType =>
  ({ code, group, input: null, unsupported: PENDING_MESSAGE[why](CODE_TYPE_LABEL[code]) });

/** Every getCodeType, in the form's order (group by group, each group in its own order). */
export const SOURCE_TYPES: readonly SourceType[] = [
  analysed(0, '本地上传', 'source'),
  analysed(9, '本地上传', 'feature'),
  analysed(16, '本地上传', 'binary'),
  analysed(30, '本地上传', 'sbom'),
  analysed(34, '本地上传', 'excel'),
  pending(12, '本地上传', 'image'),
  pending(32, '本地上传', 'image'),

  pending(2, '代码仓库', 'fetch'),
  pending(4, '代码仓库', 'fetch'),
  pending(7, '代码仓库', 'fetch'),
  pending(10, '代码仓库', 'fetch'),
  pending(1, '代码仓库', 'fetch'),
  pending(3, '代码仓库', 'fetch'),
  pending(8, '代码仓库', 'fetch'),
  pending(39, '代码仓库', 'fetch'),
  pending(40, '代码仓库', 'fetch'),
  pending(5, '代码仓库', 'fetch'),
  pending(11, '代码仓库', 'fetch'),
  pending(33, '代码仓库', 'fetch'),

  pending(13, '容器镜像', 'fetch'),
  pending(14, '容器镜像', 'fetch'),
  pending(15, '容器镜像', 'fetch'),
  pending(31, '容器镜像', 'fetch'),

  pending(35, '制品仓库', 'fetch'),
  pending(17, '制品仓库', 'fetch'),
  pending(18, '制品仓库', 'fetch'),
  pending(36, '制品仓库', 'fetch'),
  pending(37, '制品仓库', 'fetch'),

  pending(19, '其他', 'fetch'),
  pending(38, '其他', 'fetch'),
];

export interface SourceGroupEntry {
  label: SourceGroup;
  codes: readonly CodeType[];
}

/** The source select's groups with their codes, in display order (what the form lists). */
export const SOURCE_GROUPS: readonly SourceGroupEntry[] = (() => {
  const groups: Array<{ label: SourceGroup; codes: CodeType[] }> = [];
  for (const t of SOURCE_TYPES) {
    const last = groups.at(-1);
    if (last?.label === t.group) last.codes.push(t.code);
    else groups.push({ label: t.group, codes: [t.code] });
  }
  return groups;
})();

const BY_CODE = new Map<number, SourceType>(SOURCE_TYPES.map((t) => [t.code, t]));

/** The table's row of a getCodeType; undefined for a code the table does not know. */
export const sourceTypeOf = (code: number): SourceType | undefined => BY_CODE.get(code);

/** The engine input an upload of this source type is; null when the platform cannot analyse it. */
export const inputKindOf = (code: number): InputKind | null => BY_CODE.get(code)?.input ?? null;

/** Why a run of this source type cannot be launched yet; null when it can be analysed. */
export function unsupportedSource(code: number): string | null {
  const type = BY_CODE.get(code);
  if (type) return type.unsupported;
  return PENDING_MESSAGE.fetch(labelOf(CODE_TYPE_LABEL, code));
}
