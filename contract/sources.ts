// Source types (getCodeType, spec doc 1 §3) declared once: the group the new-project form lists
// each under, whether the platform analyses it and as what kind of engine input, what a user is
// told when it cannot be analysed yet, and which files a local upload of it takes. The task route
// (launching a run), the analysis job (which input the upload is) and the renderer (the source
// selects, the upload's file filter, the form's notice and buttons) all read this table; nobody
// else keeps a list of codes.
import { CODE_TYPE_LABEL, labelOf, type CodeType } from './enums.ts';

/** What a source type's upload is to the engine. */
export type InputKind = 'source' | 'feature' | 'binary' | 'sbom' | 'excel';

/** The source select's groups, in the order the form shows them. */
export type SourceGroup = '本地上传' | '代码仓库' | '容器镜像' | '制品仓库' | '其他';

/** The files a local upload takes. */
export interface UploadFiles {
  /** The extensions file pickers offer (a dropped file is checked against them too). */
  extensions: readonly string[];
  /** Whether a dropped folder is taken (zipped before the upload). */
  folders: boolean;
}

export interface SourceType {
  code: CodeType;
  group: SourceGroup;
  /** The engine input an upload of this type is; null while the platform cannot analyse it. */
  input: InputKind | null;
  /** What the user is told, in the form and when a run of it is asked for; null when it can be analysed. */
  unsupported: string | null;
  /** The files a local upload of this type takes; null for a remote source (fetched, not uploaded). */
  upload: UploadFiles | null;
}

/** Why a source type cannot be analysed yet: container images wait for image analysis; remote sources for fetching. */
type Pending = 'image' | 'fetch';

const PENDING_MESSAGE: Record<Pending, (label: string) => string> = {
  image: (label) => `代码来源“${label}”的文件会随项目保存，容器镜像分析将在后续版本提供，暂时无法发起分析`,
  fetch: (label) => `代码来源“${label}”暂不支持自动获取代码，将在后续版本提供，暂时无法发起分析；请改用本地上传`,
};

const analysed = (code: CodeType, group: SourceGroup, input: InputKind, upload: UploadFiles | null = null): SourceType =>
  ({ code, group, input, unsupported: null, upload });
const pending = (code: CodeType, group: SourceGroup, why: Pending, upload: UploadFiles | null = null): SourceType =>
  ({ code, group, input: null, unsupported: PENDING_MESSAGE[why](CODE_TYPE_LABEL[code]), upload });

/**
 * File names that promise an archive: such a file must be one Cairn can read (checked by the
 * desktop before an upload and by the platform before a launch), whatever its source type.
 */
const ARCHIVE_NAME = /\.(zip|jar|war|ear|aar|apk|whl|egg|nupkg|hpi|jpi|sar|tar|tgz|tbz2?|txz|gz|bz2|xz|7z|crate)$/i;
export const isArchiveName = (name: string): boolean => ARCHIVE_NAME.test(name);

const ARCHIVES = ['.zip', '.jar', '.war', '.tar', '.tar.gz', '.tgz', '.tar.bz2', '.tar.xz', '.7z'];
/** Manifests and lockfiles the engine reads, by extension (names like go.mod end in .mod). */
const FEATURE_FILES = ['.json', '.lock', '.xml', '.txt', '.toml', '.mod', '.sum', '.gradle', '.kts', '.yaml', '.yml', '.csproj', '.config', '.cfg', '.gemspec', '.podspec'];
const BINARIES = ['.jar', '.war', '.ear', '.zip', '.apk', '.aar', '.whl', '.nupkg', '.gem', '.tgz', '.egg', '.exe', '.dll', '.so', '.deb', '.rpm'];
const SBOMS = ['.json', '.xml', '.spdx', '.spdx.json', '.yaml', '.yml', '.rdf', '.tv'];
const SHEETS = ['.xlsx', '.xls', '.csv'];
const IMAGE_ARCHIVES = ['.tar', '.tar.gz', '.tgz'];

const files = (extensions: readonly string[]): UploadFiles => ({ extensions, folders: false });
const filesOrFolder = (extensions: readonly string[]): UploadFiles => ({ extensions, folders: true });

/** Every getCodeType, in the form's order (group by group, each group in its own order). */
export const SOURCE_TYPES: readonly SourceType[] = [
  analysed(0, '本地上传', 'source', filesOrFolder(ARCHIVES)),
  analysed(9, '本地上传', 'feature', filesOrFolder([...FEATURE_FILES, ...ARCHIVES])),
  analysed(16, '本地上传', 'binary', files(BINARIES)),
  analysed(30, '本地上传', 'sbom', files(SBOMS)),
  analysed(34, '本地上传', 'excel', files(SHEETS)),
  pending(12, '本地上传', 'image', files(IMAGE_ARCHIVES)),
  pending(32, '本地上传', 'image', files([...IMAGE_ARCHIVES, '.json'])),

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
