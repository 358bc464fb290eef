// The new-project / edit-project form as plain data (spec doc 1 §3 fields, §4 defaults and rules):
// its initial state, which fields each getCodeType shows, the batch import's guess of a file's type,
// validation, and the body of POST/PUT /api/analysis and PATCH /api/project/{projectId}. Which types
// there are, in which groups, whether they are analysed and which files an upload takes are the
// contract's table (contract/sources.ts). Pure functions, tested in Node.
import type { CallBody, CallData } from '../../../../contract/api/define.ts';
import type { imageCheck, ProjectForm, projectForm } from '../../../../contract/api/task.ts';
import {
  ANALYSIS_MODE_ORDER,
  isAnalysisModeOffered,
  CODE_TYPE_LABEL,
  CONFIG_MANAGEMENT_CODE_TYPE,
  NEW_PROJECT_DEFAULTS,
  VCS_SERVER_CODE_TYPE,
  defaultCodeType,
  extraFieldsOf,
  isContainerRegistryType,
  isFtpType,
  isImageRepositoryType,
  isImageUploadType,
  isLocalUploadType,
  isRemoteVcsType,
  isTimingDisabled,
  joinAnalysisModes,
  labelOf,
  parseAnalysisModes,
  sshTypeWhenEditing,
  takesImagePlatform,
  type SshAuthType,
} from '../../../../contract/enums.ts';
import { SOURCE_TYPES, sourceTypeOf, type InputKind, type UploadFiles } from '../../../../contract/sources.ts';
import { validateCaPemText, validateImagePlatform, validateProjectName } from '../../../../contract/validation.ts';
import { zh } from '../../../i18n/zh-CN.ts';

/** Text inputs of the remote source types, by the spec's field names. */
const TEXT_FIELDS = [
  'codeName', 'svnGitUri', 'gitBranchName', 'svnGitUserName', 'svnGitPwd', 'token',
  'imageNameTag', 'imageUsername', 'imagePassword',
  'fireFlyIp', 'fireFlyPort', 'fireFlyProj', 'fireFlyLabel', 'fireFlyBranchName', 'fireFlyUserName', 'fireFlyPassWord',
  'ftpIp', 'ftpFilePath', 'ftpUserName', 'ftpPassWord',
  'stream', 'pvob', 'vob',
] as const;
export type TextField = (typeof TEXT_FIELDS)[number];

/** Write-only secrets: left empty when editing means "keep the stored one". */
export const SECRET_FIELDS: readonly TextField[] = ['svnGitPwd', 'token', 'imagePassword', 'fireFlyPassWord', 'ftpPassWord'];

/** The completed upload holding a local-upload project's input. */
export interface UploadedFile {
  uploadId: string;
  fileName: string;
  size: number;
}

/** Cairn's options of a container registry project (contract/enums.ts REGISTRY_OPTION_FIELDS). */
export interface RegistryOptionsState {
  /** PEM text of the registry's CA; empty: the system's roots only. */
  caPem: string;
  /** 允许 HTTP. */
  insecure: boolean;
  /** `os/arch[/variant]`; empty: the default (linux/amd64). */
  platform: string;
}

export interface TimingState {
  enableTiming: boolean;
  cronType: number;
  week: number;
  month: number;
  time: string;
  interval: number;
  /** cronType 4: 0 by days of the month, 1..5 the nth (5 = last) weekday weekDays[0]. */
  weekFlag: number;
  days: number[];
  weekDays: number[];
}

export interface ProjectFormState {
  subjectId: number | null;
  versionId: number | null;
  projectName: string;
  getCodeType: number;
  analysisModes: number[];
  projectTags: string[];
  retentionAudit: boolean;
  outboundLicense: string;
  upload: UploadedFile | null;
  text: Record<TextField, string>;
  fireFlySsl: boolean;
  ftpSsl: boolean;
  /** 1 key, 2 password (remote VCS types). */
  sshType: SshAuthType;
  sshId: number | null;
  artifactoryAuthType: number;
  registry: RegistryOptionsState;
  timing: TimingState;
  /** Edit form only: what the platform holds, so empty password inputs and an unchanged upload keep it. */
  stored?: StoredFacts;
}

/** What an edited project already holds (GET /api/project/{projectId}). */
export interface StoredFacts {
  projectId: number;
  getCodeType: number;
  /** Secret inputs with a stored value (the answer's hasSvnGitPwd-style flags). */
  secrets: readonly TextField[];
  uploadId: string | null;
}

/** Analysis modes a new project starts with: dependency analysis, licence text, licence/copyright. */
export const DEFAULT_ANALYSIS_MODES: readonly number[] = [1, 4, 7];
const DEFAULT_TIME = '02:00';

/** localStorage key of the last getCodeType chosen (spec §4: the new form starts with it). */
export const LAST_CODE_TYPE_KEY = 'cairn.project.lastCodeType';

export function initialTiming(): TimingState {
  return {
    enableTiming: NEW_PROJECT_DEFAULTS.enableTiming,
    cronType: NEW_PROJECT_DEFAULTS.cronType,
    week: NEW_PROJECT_DEFAULTS.week,
    month: 1,
    time: DEFAULT_TIME,
    interval: 1,
    weekFlag: 0,
    days: [1],
    weekDays: [1],
  };
}

const emptyText = (): Record<TextField, string> =>
  Object.fromEntries(TEXT_FIELDS.map((f) => [f, f === 'gitBranchName' ? NEW_PROJECT_DEFAULTS.gitBranchName : ''])) as Record<TextField, string>;

/** A new project's form (spec §4 defaults; getCodeType = the last stored choice, else 9). */
export function initialForm(opts: { subjectId?: number | null; lastCodeType?: string | number | null } = {}): ProjectFormState {
  return {
    subjectId: opts.subjectId ?? null,
    versionId: null,
    projectName: '',
    getCodeType: defaultCodeType(opts.lastCodeType ?? null),
    analysisModes: [...DEFAULT_ANALYSIS_MODES],
    projectTags: [],
    retentionAudit: NEW_PROJECT_DEFAULTS.retentionAudit,
    outboundLicense: '',
    upload: null,
    text: emptyText(),
    fireFlySsl: false,
    ftpSsl: false,
    sshType: 2,
    sshId: null,
    artifactoryAuthType: NEW_PROJECT_DEFAULTS.artifactoryAuthType,
    registry: { caPem: '', insecure: false, platform: '' },
    timing: initialTiming(),
  };
}

// ---- source types -------------------------------------------------------------------------------
// The groups, their order, whether a type is analysed and the files an upload takes are the
// contract's table (contract/sources.ts); the form and the task list's filter list SOURCE_GROUPS.

/**
 * The option text of a getCodeType within its group (the select's optgroup names the kind): where
 * it comes from (本地上传, Git, 公共仓库 …), never its code; the label for a code the table lacks.
 */
export function codeTypeOptionLabel(code: number): string {
  return sourceTypeOf(code)?.name ?? labelOf(CODE_TYPE_LABEL, code);
}

/** What the form shows for the source of a getCodeType. */
export type SourceKind = 'upload' | 'vcs' | 'image' | 'vcsServer' | 'ftp' | 'configManagement';

export function sourceKindOf(code: number): SourceKind {
  if (isLocalUploadType(code)) return 'upload';
  if (isImageRepositoryType(code)) return 'image';
  if (code === VCS_SERVER_CODE_TYPE) return 'vcsServer';
  if (isFtpType(code)) return 'ftp';
  if (code === CONFIG_MANAGEMENT_CODE_TYPE) return 'configManagement';
  return 'vcs';
}

/** The text inputs shown for a getCodeType (extraFieldsOf, without the non-text ones). */
export function textFieldsOf(code: number): TextField[] {
  const extra = extraFieldsOf(code);
  const fields = TEXT_FIELDS.filter((f) => extra.includes(f));
  // Remote sources carry a display name of the code and, for Git-like sources, an access token.
  if (isRemoteVcsType(code)) return ['codeName', ...fields];
  return fields;
}

/** Inputs that must be filled before a remote source can be stored. */
export function requiredFieldsOf(code: number): TextField[] {
  switch (sourceKindOf(code)) {
    case 'vcs': return ['svnGitUri'];
    case 'image': return ['imageNameTag'];
    case 'vcsServer': return ['fireFlyIp', 'fireFlyProj'];
    case 'ftp': return ['ftpIp', 'ftpFilePath'];
    case 'configManagement': return ['stream', 'pvob'];
    default: return [];
  }
}

// ---- files of the local-upload types ------------------------------------------------------------

/** The files a local-upload type takes (contract/sources.ts); none for a remote source. */
export const uploadFilesOf = (code: number): UploadFiles => sourceTypeOf(code)?.upload ?? { extensions: [], folders: false };

/** Every extension a local-upload type takes: what the batch import's picker offers. */
export const ALL_UPLOAD_EXTENSIONS: readonly string[] = [...new Set(SOURCE_TYPES.flatMap((t) => t.upload?.extensions ?? []))];

/** Whether a file name ends with one of the extensions (case-insensitive). */
function hasExtension(fileName: string, extensions: readonly string[]): boolean {
  const lower = fileName.toLowerCase();
  return extensions.some((ext) => lower.endsWith(ext));
}

/** Longest known extension of a file name ('.tar.gz' before '.gz'), or ''. */
function extensionOf(fileName: string): string {
  const lower = fileName.toLowerCase();
  const multi = ['.tar.gz', '.tar.bz2', '.tar.xz', '.spdx.json', '.cdx.json', '.bom.json', '.cdx.xml', '.bom.xml'];
  const m = multi.find((ext) => lower.endsWith(ext));
  if (m) return m;
  const dot = lower.lastIndexOf('.');
  return dot > 0 ? lower.slice(dot) : '';
}

const SBOM_HINT = /(sbom|bom|spdx|cyclonedx|cdx)/i;
const MANIFEST_NAMES = new Set([
  'package.json', 'package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock', 'pnpm-lock.yaml', 'pom.xml', 'build.gradle',
  'build.gradle.kts', 'go.mod', 'go.sum', 'requirements.txt', 'pipfile.lock', 'poetry.lock', 'pdm.lock', 'uv.lock',
  'cargo.lock', 'composer.lock', 'gemfile.lock', 'packages.config', 'packages.lock.json', 'conan.lock', 'pubspec.lock',
  'mix.lock', 'podfile.lock', 'package.resolved',
  'conanfile.txt', 'conanfile.py', 'rebar.lock', 'setup.py', 'setup.cfg', 'paket.lock', 'bun.lockb',
]);

const ARCHIVES = ['.zip', '.tar', '.tar.gz', '.tgz', '.tar.bz2', '.tar.xz', '.7z'];
const SBOM_FILES = ['.spdx', '.spdx.json', '.cdx.json', '.bom.json', '.cdx.xml', '.bom.xml', '.rdf', '.tv', '.jsonld', '.textproto', '.txtpb'];
const BINARY_FILES = ['.jar', '.war', '.ear', '.apk', '.aar', '.whl', '.nupkg', '.gem', '.egg', '.exe', '.dll', '.so', '.deb', '.rpm'];

/** What a dropped file most likely is to the engine: a manifest or lockfile, a sheet, an SBOM, a binary artefact, any other archive. */
function guessInput(fileName: string): InputKind | null {
  const base = fileName.split(/[\\/]/).pop() ?? fileName;
  const lower = base.toLowerCase();
  if (MANIFEST_NAMES.has(lower)) return 'feature';
  const ext = extensionOf(lower);
  if (uploadFilesOf(uploadTypeOf('excel')).extensions.includes(ext)) return 'excel';
  if (SBOM_FILES.includes(ext)) return 'sbom';
  if ((ext === '.json' || ext === '.xml' || ext === '.yaml' || ext === '.yml') && SBOM_HINT.test(lower)) return 'sbom';
  if (BINARY_FILES.includes(ext)) return 'binary';
  if (ARCHIVES.includes(ext)) return 'source';
  if (ext === '.json' || ext === '.xml') return 'sbom';
  return null;
}

/** The local-upload type whose upload is this engine input (the contract's table). */
function uploadTypeOf(input: InputKind): number {
  const type = SOURCE_TYPES.find((t) => t.upload && t.input === input);
  if (!type) throw new Error(`no local-upload type for ${input}`);
  return type.code;
}

/** The getCodeType a dropped file most likely is (batch import): the upload type of its guessed input; null when unknown. */
export function guessCodeType(fileName: string): number | null {
  const input = guessInput(fileName);
  return input ? uploadTypeOf(input) : null;
}

const FORBIDDEN = /[*?"<>|；《》\s]+/g;

/** A project name from a file name: the extension dropped, forbidden symbols and spaces as '-'. */
export function projectNameFromFile(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? fileName;
  const ext = extensionOf(base);
  const stem = ext && base.length > ext.length ? base.slice(0, base.length - ext.length) : base;
  return stem.replace(FORBIDDEN, '-').replace(/^-+|-+$/g, '').slice(0, 400) || 'project';
}

// ---- timing -------------------------------------------------------------------------------------

/** The timing inputs a cron type shows. */
export function timingFieldsOf(cronType: number, weekFlag = 0): Array<'month' | 'week' | 'interval' | 'weekFlag' | 'days' | 'weekDays' | 'weekDay' | 'time'> {
  switch (cronType) {
    case 1: return ['month', 'time'];
    case 2: return ['week', 'time'];
    case 3: return ['time'];
    case 4: return weekFlag > 0 ? ['interval', 'weekFlag', 'weekDay', 'time'] : ['interval', 'weekFlag', 'days', 'time'];
    case 5: return ['interval', 'weekDays', 'time'];
    case 6: return ['interval', 'time'];
    default: return ['time'];
  }
}

/** The timing part of the body: only the fields its cron type reads; nothing when disabled. */
export function timingBody(timing: TimingState, code: number): Pick<ProjectForm, 'enableTiming' | 'cronType' | 'week' | 'month' | 'time' | 'interval' | 'weekFlag' | 'days' | 'weekDays'> {
  if (isTimingDisabled(code) || !timing.enableTiming) return { enableTiming: false };
  const fields = timingFieldsOf(timing.cronType, timing.weekFlag);
  const out: ReturnType<typeof timingBody> = { enableTiming: true, cronType: timing.cronType, time: timing.time };
  if (fields.includes('month')) out.month = timing.month;
  if (fields.includes('week')) out.week = timing.week;
  if (fields.includes('interval')) out.interval = timing.interval;
  if (fields.includes('weekFlag')) out.weekFlag = timing.weekFlag;
  if (fields.includes('days')) out.days = [...timing.days].sort((a, b) => a - b);
  if (fields.includes('weekDays')) out.weekDays = [...timing.weekDays].sort((a, b) => a - b);
  if (fields.includes('weekDay')) out.weekDays = [timing.weekDays[0] ?? 1];
  return out;
}

// ---- validation and body ------------------------------------------------------------------------

export type FormErrors = Partial<Record<'subjectId' | 'projectName' | 'upload' | 'analysisModes' | 'timing' | 'imageCaPem' | 'imagePlatform' | TextField, string>>;

const FORM_MESSAGES = zh.project.form;

/**
 * Errors of the form, by field; empty when it may be sent. `editing`: the subject is fixed. The
 * edit form is prefilled with the stored source and upload, so the same fields are required.
 */
export function validateForm(form: ProjectFormState, fieldLabel: (f: TextField) => string, editing = false): FormErrors {
  const errors: FormErrors = {};
  if (!editing && !form.subjectId) errors.subjectId = FORM_MESSAGES.subjectRequired;
  const name = validateProjectName(form.projectName);
  if (name) errors.projectName = name;
  if (isLocalUploadType(form.getCodeType) && !form.upload) errors.upload = FORM_MESSAGES.uploadRequired;
  if (form.analysisModes.length === 0) errors.analysisModes = FORM_MESSAGES.modesRequired;
  for (const f of requiredFieldsOf(form.getCodeType)) {
    if (!form.text[f].trim()) errors[f] = FORM_MESSAGES.required(fieldLabel(f));
  }
  if (takesImagePlatform(form.getCodeType)) {
    const platform = validateImagePlatform(form.registry.platform);
    if (platform) errors.imagePlatform = platform;
  }
  if (isContainerRegistryType(form.getCodeType)) {
    const pem = validateCaPemText(form.registry.caPem);
    if (pem) errors.imageCaPem = pem;
  }
  const t = form.timing;
  if (!isTimingDisabled(form.getCodeType) && t.enableTiming) {
    if (t.cronType === 5 && t.weekDays.length === 0) errors.timing = FORM_MESSAGES.weekDaysRequired;
    if (t.cronType === 4 && t.weekFlag === 0 && t.days.length === 0) errors.timing = FORM_MESSAGES.daysRequired;
  }
  return errors;
}

const orderedModes = (modes: readonly number[]): number[] =>
  (ANALYSIS_MODE_ORDER as readonly number[]).filter((m) => modes.includes(m));

/** The body of POST /api/analysis (and, with taskId added, of PUT). Only the type's own fields travel. */
export function buildBody(form: ProjectFormState, opts: { editing?: boolean } = {}): ProjectForm {
  const code = form.getCodeType;
  const body: ProjectForm = {
    subjectId: form.subjectId ?? 0,
    versionId: form.versionId,
    projectName: form.projectName.trim(),
    getCodeType: code,
    analysisModes: joinAnalysisModes(orderedModes(form.analysisModes)),
    projectTags: form.projectTags.map((t) => t.trim()).filter(Boolean).join(','),
    retentionAudit: form.retentionAudit,
    outboundLicense: form.outboundLicense.trim(),
    ...timingBody(form.timing, code),
  };
  if (isLocalUploadType(code)) {
    // The stored upload of an unchanged type is not sent again (it may be another user's upload,
    // which the platform only accepts as a new input from its owner or a domain admin).
    const kept = form.stored && form.upload?.uploadId === form.stored.uploadId && code === form.stored.getCodeType;
    if (form.upload && !(opts.editing && kept)) body.uploadId = form.upload.uploadId;
    // An uploaded image's platform (empty: linux/amd64, or its only one; clears a stored choice).
    if (isImageUploadType(code)) body.imagePlatform = form.registry.platform.trim();
    return body;
  }
  const bag = body as Record<string, unknown>;
  for (const f of textFieldsOf(code)) {
    const value = form.text[f].trim();
    // Passwords are write-only: an empty one keeps the stored password on edit (the platform
    // ignores empty secrets). Other inputs are prefilled, so an emptied one is cleared.
    if (value === '' && opts.editing && SECRET_FIELDS.includes(f)) continue;
    bag[f] = value;
  }
  const kind = sourceKindOf(code);
  if (kind === 'vcs') {
    body.sshType = opts.editing ? (sshTypeWhenEditing(code, form.sshType) ?? form.sshType) : form.sshType;
    if (body.sshType === 1) {
      body.sshId = form.sshId;
      delete bag.svnGitPwd;
    }
    if (!opts.editing && isRemoteVcsType(code) && !body.gitBranchName) body.gitBranchName = NEW_PROJECT_DEFAULTS.gitBranchName;
  }
  if (kind === 'image') body.artifactoryAuthType = form.artifactoryAuthType;
  if (isContainerRegistryType(code)) Object.assign(body, registryBody(form.registry));
  if (kind === 'vcsServer') body.fireFlySsl = form.fireFlySsl;
  if (kind === 'ftp') body.ftpSsl = form.ftpSsl;
  return body;
}

/** The registry options as the platform takes them (empty text clears a stored value). */
function registryBody(r: RegistryOptionsState): Pick<ProjectForm, 'imageCaPem' | 'imageInsecure' | 'imagePlatform'> {
  return { imageCaPem: r.caPem.trim(), imageInsecure: r.insecure, imagePlatform: r.platform.trim() };
}

/**
 * The body of the 校验 call (POST /api/analysis/imageCheck) for a container registry form; an
 * edited project names itself so an empty password uses the stored one.
 */
export function imageCheckBody(form: ProjectFormState): ImageCheckBody {
  const password = form.text.imagePassword;
  return {
    getCodeType: form.getCodeType,
    ...(form.stored && form.stored.getCodeType === form.getCodeType && { projectId: form.stored.projectId }),
    imageNameTag: form.text.imageNameTag.trim(),
    imageUsername: form.text.imageUsername.trim(),
    ...(password !== '' && { imagePassword: password }),
    ...registryBody(form.registry),
  };
}
export type ImageCheckBody = CallBody<typeof imageCheck>;

/** A stored project as GET /api/project/{projectId} answers it. */
export type StoredProject = CallData<typeof projectForm>;

/** The answer's flag for a secret input: svnGitPwd -> hasSvnGitPwd. */
const secretFlagOf = (f: TextField): string => `has${f[0]!.toUpperCase()}${f.slice(1)}`;

const numberOr = (v: unknown, fallback: number): number => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);
const intList = (v: unknown, fallback: number[]): number[] =>
  Array.isArray(v) ? v.filter((x): x is number => Number.isInteger(x)) : fallback;

/**
 * The edit form of a stored project: every source field and the timing prefilled, passwords empty
 * (their flags kept in `stored`), the current upload kept; sshType follows the editing rule (spec §4).
 */
export function formFromProject(p: StoredProject): ProjectFormState {
  const base = initialForm({ subjectId: p.subjectId, lastCodeType: p.getCodeType });
  const src = p.source;
  // a mode the engine does not run yet cannot be chosen (contract/enums.ts isAnalysisModeOffered)
  const modes = parseAnalysisModes(p.analysisModes).filter(isAnalysisModeOffered);
  const text = { ...base.text };
  for (const f of TEXT_FIELDS) {
    const v = src[f];
    if (!SECRET_FIELDS.includes(f) && (typeof v === 'string' || typeof v === 'number')) text[f] = String(v);
  }
  const storedSsh = src.sshType === 1 || src.sshType === 2 ? src.sshType : base.sshType;
  const timing: TimingState = {
    enableTiming: !isTimingDisabled(p.getCodeType) && p.timing.enableTiming,
    cronType: numberOr(p.timing.cronType, base.timing.cronType),
    week: numberOr(p.timing.week, base.timing.week),
    month: numberOr(p.timing.month, base.timing.month),
    time: p.timing.time ?? base.timing.time,
    interval: numberOr(p.timing.interval, base.timing.interval),
    weekFlag: numberOr(p.timing.weekFlag, base.timing.weekFlag),
    days: intList(p.timing.days, base.timing.days),
    weekDays: intList(p.timing.weekDays, base.timing.weekDays),
  };
  return {
    ...base,
    getCodeType: p.getCodeType,
    versionId: p.versionId,
    projectName: p.projectName,
    analysisModes: modes.length ? modes : [...DEFAULT_ANALYSIS_MODES],
    projectTags: p.projectTags.split(',').map((t) => t.trim()).filter(Boolean),
    retentionAudit: p.retentionAudit,
    outboundLicense: p.outboundLicense ?? '',
    upload: p.upload ? { ...p.upload } : null,
    text,
    fireFlySsl: src.fireFlySsl === true,
    ftpSsl: src.ftpSsl === true,
    sshType: sshTypeWhenEditing(p.getCodeType, storedSsh) ?? storedSsh,
    sshId: typeof src.sshId === 'number' ? src.sshId : null,
    artifactoryAuthType: numberOr(src.artifactoryAuthType, base.artifactoryAuthType),
    registry: {
      caPem: typeof src.imageCaPem === 'string' ? src.imageCaPem : '',
      insecure: src.imageInsecure === true,
      platform: typeof src.imagePlatform === 'string' ? src.imagePlatform : '',
    },
    timing,
    stored: {
      projectId: p.projectId,
      getCodeType: p.getCodeType,
      secrets: SECRET_FIELDS.filter((f) => src[secretFlagOf(f)] === true),
      uploadId: p.upload?.uploadId ?? null,
    },
  };
}

/** Switching the source type: timing is switched off for local-upload types; a kept upload is dropped when its file does not fit. */
export function withCodeType(form: ProjectFormState, code: number): ProjectFormState {
  const upload = form.upload && isLocalUploadType(code) && hasExtension(form.upload.fileName, uploadFilesOf(code).extensions) ? form.upload : null;
  return {
    ...form,
    getCodeType: code,
    upload,
    timing: isTimingDisabled(code) ? { ...form.timing, enableTiming: false } : form.timing,
  };
}

/** Analysis modes as the comma list the platform stores, in the spec's display order. */
export const joinModes = (modes: readonly number[]): string => joinAnalysisModes(orderedModes(modes));
