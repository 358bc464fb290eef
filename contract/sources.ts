// Source types (getCodeType, spec doc 1 §3) declared once: the group the source selects list each
// under (what is analysed: 源码 / 容器镜像 / 二进制 / SBOM / 清单) and its name there (where it comes
// from; the spec's duplicate codes are aliases of one source), whether the platform analyses it and as what kind of engine input, what a user is
// told when it cannot be analysed yet, and which files a local upload of it takes. The task route
// (launching a run), the analysis job (which input the upload is) and the renderer (the source
// selects, the upload's file filter, the form's notice and buttons) all read this table; nobody
// else keeps a list of codes.
import { CODE_TYPE_LABEL, labelOf, type CodeType } from './enums.ts';

/** What a source type's upload is to the engine. */
export type InputKind = 'source' | 'feature' | 'binary' | 'sbom' | 'excel' | 'image';

/** The source select's groups: what is analysed (kind), in the order the selects show them. */
export type SourceGroup = '源码' | '容器镜像' | '二进制' | 'SBOM' | '清单';

/** The files a local upload takes. */
export interface UploadFiles {
  /** The extensions file pickers offer (a dropped file is checked against them too). */
  extensions: readonly string[];
  /**
   * Whether a dropped or picked folder is taken, and as what: `zip`, packed into a zip before the
   * upload; `feature`, sent as the feature file the desktop writes of it (its manifests, lockfiles
   * and licence files, every other file only hashed: the source stays on the machine).
   */
  folders: false | 'zip' | 'feature';
  /**
   * 镜像特征文件: the image files (docker save tar, OCI layout tar) and OCI layout folders the
   * desktop writes the feature file of (生成特征文件: the image is unpacked on this machine, only
   * what the analysis reads is sent); absent for other types.
   */
  imageFeature?: readonly string[];
}

export interface SourceType {
  code: CodeType;
  group: SourceGroup;
  /** The option's name within its group (where the source comes from): 本地上传, Git, 公共仓库 … */
  name: string;
  /**
   * Another code of the same source (the spec gives Git 2, 4, 7, 10 and so on): not offered for a
   * new choice (the first code is), shown only as a stored value, and matched by the filters.
   */
  aliasOf: CodeType | null;
  /** The engine input an upload of this type is; null while the platform cannot analyse it. */
  input: InputKind | null;
  /** What the user is told, in the form and when a run of it is asked for; null when it can be analysed. */
  unsupported: string | null;
  /** The files a local upload of this type takes; null for a remote source (fetched, not uploaded). */
  upload: UploadFiles | null;
}

/** Why a source type cannot be analysed yet: remote sources wait for fetching. */
type Pending = 'fetch';

const PENDING_MESSAGE: Record<Pending, (label: string) => string> = {
  fetch: (label) => `代码来源“${label}”暂不支持自动获取代码，将在后续版本提供，暂时无法发起分析；请改用本地上传`,
};

const analysed = (code: CodeType, group: SourceGroup, name: string, input: InputKind, upload: UploadFiles | null = null): SourceType =>
  ({ code, group, name, aliasOf: null, input, unsupported: null, upload });
const pending = (code: CodeType, group: SourceGroup, name: string, why: Pending, upload: UploadFiles | null = null, aliasOf: CodeType | null = null): SourceType =>
  ({ code, group, name, aliasOf, input: null, unsupported: PENDING_MESSAGE[why](CODE_TYPE_LABEL[code]), upload });
const alias = (code: CodeType, of: CodeType, group: SourceGroup, name: string): SourceType => pending(code, group, name, 'fetch', null, of);

/**
 * File names that promise an archive: such a file must be one Cairn can read (checked by the
 * desktop before an upload and by the platform before a launch), whatever its source type.
 */
const ARCHIVE_NAME = /\.(zip|jar|war|ear|aar|apk|whl|egg|nupkg|hpi|jpi|sar|tar|tgz|tbz2?|txz|gz|bz2|xz|7z|crate)$/i;
export const isArchiveName = (name: string): boolean => ARCHIVE_NAME.test(name);

const ARCHIVES = ['.zip', '.jar', '.war', '.tar', '.tar.gz', '.tgz', '.tar.bz2', '.tar.xz', '.7z'];
/** Manifests and lockfiles the engine reads, by extension (names like go.mod end in .mod). */
const FEATURE_FILES = ['.json', '.lock', '.xml', '.txt', '.toml', '.mod', '.sum', '.gradle', '.kts', '.yaml', '.yml', '.csproj', '.config', '.cfg', '.gemspec', '.podspec'];
const BINARIES = ['.jar', '.war', '.ear', '.zip', '.apk', '.aar', '.hpi', '.jpi', '.whl', '.nupkg', '.gem', '.tgz', '.egg', '.exe', '.dll', '.so', '.dylib', '.deb', '.udeb', '.ipk', '.rpm'];
const SBOMS = ['.json', '.xml', '.spdx', '.spdx.json', '.yaml', '.yml', '.rdf', '.tv', '.jsonld', '.textproto', '.txtpb', '.pb', '.ttl'];
const SHEETS = ['.xlsx', '.xls', '.csv'];
const IMAGE_ARCHIVES = ['.tar', '.tar.gz', '.tgz'];

const files = (extensions: readonly string[]): UploadFiles => ({ extensions, folders: false });
const filesOrFolder = (extensions: readonly string[]): UploadFiles => ({ extensions, folders: 'zip' });
const filesOrFeatureOfFolder = (extensions: readonly string[]): UploadFiles => ({ extensions, folders: 'feature' });

/** Every getCodeType, in the selects' order (group by group: what is analysed, then where from). */
export const SOURCE_TYPES: readonly SourceType[] = [
  analysed(0, '源码', '本地上传', 'source', filesOrFolder(ARCHIVES)),
  pending(2, '源码', 'Git', 'fetch'),
  alias(4, 2, '源码', 'Git'),
  alias(7, 2, '源码', 'Git'),
  alias(10, 2, '源码', 'Git'),
  pending(1, '源码', 'SVN', 'fetch'),
  alias(3, 1, '源码', 'SVN'),
  alias(8, 1, '源码', 'SVN'),
  pending(39, '源码', 'Mercurial', 'fetch'),
  alias(40, 39, '源码', 'Mercurial'),
  pending(5, '源码', 'TFVC', 'fetch'),
  pending(11, '源码', '版本控制服务器', 'fetch'),
  pending(33, '源码', '配置管理服务器', 'fetch'),
  pending(35, '源码', '制品仓库A', 'fetch'),
  pending(19, '源码', 'FTP', 'fetch'),

  analysed(12, '容器镜像', '本地镜像文件', 'image', files(IMAGE_ARCHIVES)),
  // A feature file written of an image (cairn feature <image>, or the desktop's 生成特征文件 of an image file or OCI folder).
  analysed(32, '容器镜像', '镜像特征文件', 'image', { extensions: ['.zip'], folders: false, imageFeature: IMAGE_ARCHIVES }),
  // Registries (OCI distribution API): pulled by the run (server/jobs/execute-run.ts), nothing uploaded.
  analysed(13, '容器镜像', '公共仓库', 'image'),
  analysed(31, '容器镜像', '私有仓库', 'image'),
  analysed(14, '容器镜像', '制品仓库A', 'image'),
  analysed(15, '容器镜像', '制品仓库B', 'image'),

  analysed(16, '二进制', '本地上传', 'binary', files(BINARIES)),
  pending(17, '二进制', '制品仓库A', 'fetch'),
  pending(18, '二进制', '制品仓库B', 'fetch'),
  pending(36, '二进制', 'SVN', 'fetch'),
  alias(37, 36, '二进制', 'SVN'),
  pending(38, '二进制', 'FTP', 'fetch'),

  analysed(30, 'SBOM', 'SBOM 文件', 'sbom', files(SBOMS)),

  analysed(9, '清单', '特征文件（清单与锁文件）', 'feature', filesOrFeatureOfFolder([...FEATURE_FILES, ...ARCHIVES])),
  analysed(34, '清单', 'Excel 组件清单', 'excel', files(SHEETS)),
];

export interface SourceGroupEntry {
  label: SourceGroup;
  codes: readonly CodeType[];
}

/** The source select's groups with the codes offered (aliases left out), in display order. */
export const SOURCE_GROUPS: readonly SourceGroupEntry[] = (() => {
  const groups: Array<{ label: SourceGroup; codes: CodeType[] }> = [];
  for (const t of SOURCE_TYPES) {
    if (t.aliasOf !== null) continue;
    const last = groups.at(-1);
    if (last?.label === t.group) last.codes.push(t.code);
    else groups.push({ label: t.group, codes: [t.code] });
  }
  return groups;
})();

const BY_CODE = new Map<number, SourceType>(SOURCE_TYPES.map((t) => [t.code, t]));

/** The table's row of a getCodeType; undefined for a code the table does not know. */
export const sourceTypeOf = (code: number): SourceType | undefined => BY_CODE.get(code);

/** The codes of one source: the code itself and its aliases (a filter on Git matches 2, 4, 7 and 10). */
export function sameSourceCodes(code: number): CodeType[] {
  const main = BY_CODE.get(code)?.aliasOf ?? code;
  return SOURCE_TYPES.filter((t) => t.code === main || t.aliasOf === main).map((t) => t.code);
}

/** The engine input an upload of this source type is; null when the platform cannot analyse it. */
export const inputKindOf = (code: number): InputKind | null => BY_CODE.get(code)?.input ?? null;

/** Why a run of this source type cannot be launched yet; null when it can be analysed. */
export function unsupportedSource(code: number): string | null {
  const type = BY_CODE.get(code);
  if (type) return type.unsupported;
  return PENDING_MESSAGE.fetch(labelOf(CODE_TYPE_LABEL, code));
}
