// The typed bridge between the renderer and main. window.desktop's type is derived from this
// tree; preload walks it; main registers a handler per invoke descriptor. Each invoke takes one
// object argument and answers { ok: true, value } or { ok: false, error } (errors are data).
import { Type, type Static, type TSchema } from 'typebox';
import { Id, Nullable } from '../api/kit.ts';
import { SessionUserSchema } from '../api/session.ts';

export interface InvokeDescriptor<Req extends TSchema = TSchema, Res extends TSchema = TSchema> {
  kind: 'invoke';
  channel: string;
  request: Req;
  response: Res;
}
export interface EventDescriptor<P extends TSchema = TSchema> {
  kind: 'event';
  channel: string;
  payload: P;
}
export type Descriptor = InvokeDescriptor | EventDescriptor;
export interface ContractTree {
  [key: string]: Descriptor | ContractTree;
}

const invoke = <Req extends TSchema, Res extends TSchema>(channel: string, request: Req, response: Res): InvokeDescriptor<Req, Res> =>
  ({ kind: 'invoke', channel, request, response });
const event = <P extends TSchema>(channel: string, payload: P): EventDescriptor<P> => ({ kind: 'event', channel, payload });

export interface IpcError {
  /** Machine-readable reason, e.g. `invalid-payload`, `forbidden-sender`, `vault-unavailable`. */
  code: string;
  /** Chinese message for the user. */
  message: string;
}
export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: IpcError };

// ---- shapes

export const ProfileSchema = Type.Object({
  id: Type.String(),
  name: Type.String({ minLength: 1, maxLength: 100 }),
  /** `local` is the embedded platform ("本机"), started by the app on loopback. */
  kind: Type.Union([Type.Literal('local'), Type.Literal('remote')]),
  /** Base URL of a remote platform (http or https); empty for the local profile. */
  url: Type.String({ maxLength: 500 }),
  username: Nullable(Type.String({ maxLength: 100 })),
  /** Whether the password is kept in the OS keychain. */
  rememberPassword: Type.Boolean(),
  /** Accept a self-signed certificate for this server. */
  allowSelfSigned: Type.Boolean(),
  createdAt: Type.String(),
  lastUsedAt: Nullable(Type.String()),
});
export type Profile = Static<typeof ProfileSchema>;

export const ProfileInputSchema = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  url: Type.String({ minLength: 1, maxLength: 500 }),
  username: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
  allowSelfSigned: Type.Optional(Type.Boolean()),
});
export type ProfileInput = Static<typeof ProfileInputSchema>;

export const ProfilesStateSchema = Type.Object({ profiles: Type.Array(ProfileSchema), activeId: Type.String() });
export type ProfilesState = Static<typeof ProfilesStateSchema>;

export const ConnectionTestSchema = Type.Object({
  ok: Type.Boolean(),
  /** Round trip in milliseconds, when it answered. */
  latencyMs: Nullable(Type.Number()),
  message: Type.String(),
});
export type ConnectionTest = Static<typeof ConnectionTestSchema>;

const QueryValue = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Array(Type.Union([Type.String(), Type.Number()]))]);
export const ApiRequestSchema = Type.Object({
  method: Type.Union([Type.Literal('GET'), Type.Literal('POST'), Type.Literal('PUT'), Type.Literal('PATCH'), Type.Literal('DELETE')]),
  /** A filled path on the platform, starting with /api/, /cloneApi/ or /codeApi/. */
  path: Type.String({ pattern: '^/(api|cloneApi|codeApi)/', maxLength: 2000 }),
  query: Type.Optional(Type.Record(Type.String(), QueryValue)),
  body: Type.Optional(Type.Unknown()),
});
export type ApiRequest = Static<typeof ApiRequestSchema>;
export const EnvelopeAnySchema = Type.Object({ code: Type.Integer(), message: Type.String(), data: Type.Unknown(), field: Type.Optional(Type.String()) });

export const PlatformStatusSchema = Type.Object({
  state: Type.Union([Type.Literal('stopped'), Type.Literal('starting'), Type.Literal('running'), Type.Literal('crashed'), Type.Literal('failed')]),
  url: Nullable(Type.String()),
  pid: Nullable(Type.Integer()),
  restarts: Type.Integer(),
  message: Type.String(),
});
export type PlatformStatus = Static<typeof PlatformStatusSchema>;

export const VaultStatusSchema = Type.Object({
  available: Type.Boolean(),
  /** Name of the keychain backend, e.g. "Secret Service", or why none is usable. */
  backend: Type.String(),
  message: Type.String(),
});
export type VaultStatus = Static<typeof VaultStatusSchema>;

export const AppInfoSchema = Type.Object({
  version: Type.String(),
  /** `electron` in the desktop app, `web` in the web host. */
  shell: Type.Union([Type.Literal('electron'), Type.Literal('web')]),
  platform: Type.String(),
  dataDir: Type.String(),
});
export type AppInfo = Static<typeof AppInfoSchema>;

export const SavedLoginSchema = Type.Object({ username: Nullable(Type.String()), hasPassword: Type.Boolean() });
export const LoginRequestSchema = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 100 }),
  /** Omit to log in with the password kept in the keychain for this profile. */
  password: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  remember: Type.Boolean(),
});
export const LoginResultSchema = Type.Object({
  code: Type.Integer(),
  message: Type.String(),
  data: Nullable(SessionUserSchema),
  /** Set when the password could not be remembered (no keychain): the login itself succeeded. */
  vaultWarning: Nullable(Type.String()),
});
export type LoginResult = Static<typeof LoginResultSchema>;

/**
 * The states main's transfers (uploads, report downloads) share: `retrying`, the connection dropped
 * and it waits to try again (an upload with backoff, up to about a minute; a download from the bytes
 * already on disk), and how it ended.
 */
const TransferStates = [Type.Literal('retrying'), Type.Literal('done'), Type.Literal('failed'), Type.Literal('cancelled')] as const;

// ---- uploads (issue 6): local files streamed to the active platform in chunks by main/

export const UploadStateNameSchema = Type.Union([
  /** A dropped folder being packed into a zip before its upload starts. */
  Type.Literal('preparing'),
  Type.Literal('uploading'),
  Type.Literal('paused'),
  ...TransferStates,
]);
export type UploadStateName = Static<typeof UploadStateNameSchema>;

/**
 * A feature file the desktop writes of a folder (uploads:start with `feature`): while it is being
 * written, the files hashed so far (`included` and the rest null); once written, what went in.
 */
export const FeatureFileSummarySchema = Type.Object({
  /** Files listed with path, size and SHA-256, and their bytes. */
  files: Type.Number({ minimum: 0 }),
  bytes: Type.Number({ minimum: 0 }),
  /** Manifests, lockfiles and licence files whose content is in the feature file; null while writing. */
  included: Nullable(Type.Number({ minimum: 0 })),
  includedBytes: Nullable(Type.Number({ minimum: 0 })),
  /** What the writer could not read (an archive it could not unpack …); null while writing. */
  problems: Nullable(Type.Number({ minimum: 0 })),
});
export type FeatureFileSummary = Static<typeof FeatureFileSummarySchema>;

export const UploadProgressSchema = Type.Object({
  /** Main's id for this transfer (the platform's uploadId exists once it is created). */
  localId: Type.String(),
  uploadId: Nullable(Type.String()),
  /** Name on the platform (a folder gets `<folder>.zip`). */
  fileName: Type.String(),
  sent: Type.Number({ minimum: 0 }),
  total: Type.Number({ minimum: 0 }),
  bytesPerSecond: Type.Number({ minimum: 0 }),
  state: UploadStateNameSchema,
  /** Why it failed or is retrying, in Chinese. */
  error: Nullable(Type.String()),
  /** Present when a folder is sent as its feature file rather than zipped (`fileName` is `<folder>.cairn-feature.zip`). */
  feature: Type.Optional(FeatureFileSummarySchema),
});
export type UploadProgress = Static<typeof UploadProgressSchema>;

export const UploadPickRequestSchema = Type.Object({
  /** Extensions offered by the dialog, e.g. ['.zip', '.tar.gz']; empty or omitted: any file. */
  extensions: Type.Optional(Type.Array(Type.String({ pattern: '^\\.[A-Za-z0-9.]{1,20}$' }), { maxItems: 50 })),
  /** Name of the filter in the dialog, e.g. 源码压缩包. */
  filterName: Type.Optional(Type.String({ maxLength: 50 })),
  multiple: Type.Optional(Type.Boolean()),
  /** Pick folders instead of files (they are zipped before upload). */
  folders: Type.Optional(Type.Boolean()),
});
const LocalIdOnly = Type.Object({ localId: Type.String({ minLength: 1, maxLength: 100 }) });

// ---- report library and offline review (issue 7): downloads kept per server profile on disk,
// opened with no platform at all

export const LibraryFormatSchema = Type.Union([
  Type.Literal('pdf'), Type.Literal('word'), Type.Literal('excel'), Type.Literal('spdx'), Type.Literal('cyclonedx'), Type.Literal('swid'),
  /** CycloneDX VEX or OpenVEX exports. */
  Type.Literal('vex'),
  /** Component exports and anything else the platform hands out as a file. */
  Type.Literal('other'),
]);
export type LibraryFormat = Static<typeof LibraryFormatSchema>;

export const LibraryStateSchema = Type.Union([
  Type.Literal('downloading'),
  ...TransferStates,
  /** On disk, but its SHA-256 no longer matches the platform's: offer a new download. */
  Type.Literal('corrupt'),
]);
export type LibraryState = Static<typeof LibraryStateSchema>;

export const LibraryEntrySchema = Type.Object({
  id: Type.String(),
  profileId: Type.String(),
  profileName: Type.String(),
  /** The platform's report id (GET /api/report/download/{id}). */
  reportId: Type.Integer(),
  fileName: Type.String(),
  format: LibraryFormatSchema,
  subjectName: Type.String(),
  projectName: Type.String(),
  /** Task (run) id on the platform, when the report is a task's. */
  taskId: Nullable(Type.Integer()),
  /** When the platform generated it, and when it landed here (ISO). */
  generatedAt: Nullable(Type.String()),
  downloadedAt: Nullable(Type.String()),
  size: Type.Number({ minimum: 0 }),
  received: Type.Number({ minimum: 0 }),
  /** SHA-256 the platform announced (hex); checked after the last byte and on verify. */
  sha256: Nullable(Type.String()),
  state: LibraryStateSchema,
  error: Nullable(Type.String()),
});
export type LibraryEntry = Static<typeof LibraryEntrySchema>;

export const LibraryDownloadRequestSchema = Type.Object({
  reportId: Id(),
  fileName: Type.String({ minLength: 1, maxLength: 255 }),
  format: LibraryFormatSchema,
  subjectName: Type.Optional(Type.String({ maxLength: 400 })),
  projectName: Type.Optional(Type.String({ maxLength: 400 })),
  taskId: Type.Optional(Nullable(Type.Integer())),
  generatedAt: Type.Optional(Nullable(Type.String({ maxLength: 40 }))),
});
export type LibraryDownloadRequest = Static<typeof LibraryDownloadRequestSchema>;

const ReviewRowSchema = Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Null()]));
export const ReviewTableSchema = Type.Object({
  key: Type.String(),
  title: Type.String(),
  columns: Type.Array(Type.Object({ key: Type.String(), title: Type.String() })),
  rows: Type.Array(ReviewRowSchema),
});
export type ReviewTable = Static<typeof ReviewTableSchema>;

/** A report or SBOM read for offline review, by main, ready to show. */
export const ReviewDocumentSchema = Type.Union([
  /** PDF bytes for the in-app viewer. */
  Type.Object({ kind: Type.Literal('pdf'), fileName: Type.String(), base64: Type.String() }),
  /** CycloneDX / SPDX (or a VEX document): components, vulnerabilities and licences as tables. */
  Type.Object({
    kind: Type.Literal('sbom'),
    fileName: Type.String(),
    /** e.g. CycloneDX 1.6, SPDX 2.3, OpenVEX 0.2.0 */
    standard: Type.String(),
    name: Type.String(),
    tables: Type.Array(ReviewTableSchema),
  }),
  /** Excel: every sheet as a table. */
  Type.Object({ kind: Type.Literal('sheets'), fileName: Type.String(), tables: Type.Array(ReviewTableSchema) }),
  /** Word: sanitised HTML of the document body. */
  Type.Object({ kind: Type.Literal('html'), fileName: Type.String(), html: Type.String() }),
  /** SWID tag zip: one row per tag. */
  Type.Object({ kind: Type.Literal('swid'), fileName: Type.String(), tables: Type.Array(ReviewTableSchema) }),
]);
export type ReviewDocument = Static<typeof ReviewDocumentSchema>;

/**
 * Electron only, outside the contract (it takes a DOM File, which cannot cross IPC): preload adds
 * `window.desktop.files.pathFor(file)` = `webUtils.getPathForFile(file)` for dropped files.
 * The web host has no local paths; its pages stage browser files with the host instead.
 */
export interface DesktopFiles {
  pathFor(file: object): string;
}

/**
 * Preload to main, never exposed to the page: `files.pathFor` tells main (synchronously, before
 * the page can use it) the path of a real File the user dropped or picked, so that main accepts
 * it in `uploads:start` / `review:open` (main/ipc/chosen-paths.ts). Answers true once registered.
 */
export const FILES_CHOSEN_CHANNEL = 'files:chosen';

const Empty = Type.Object({});
const IdOnly = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

export const desktopContract = {
  app: {
    info: invoke('app:info', Empty, AppInfoSchema),
  },
  profiles: {
    list: invoke('profiles:list', Empty, ProfilesStateSchema),
    add: invoke('profiles:add', ProfileInputSchema, ProfileSchema),
    update: invoke('profiles:update', Type.Object({ id: Type.String(), patch: Type.Partial(ProfileInputSchema) }), ProfileSchema),
    remove: invoke('profiles:remove', IdOnly, ProfilesStateSchema),
    activate: invoke('profiles:activate', IdOnly, ProfilesStateSchema),
    test: invoke('profiles:test', Type.Object({ id: Type.Optional(Type.String()), url: Type.Optional(Type.String({ maxLength: 500 })) }), ConnectionTestSchema),
    changed: event('profiles:changed', ProfilesStateSchema),
  },
  session: {
    /** What the login form may prefill for the active profile. */
    saved: invoke('session:saved', Empty, SavedLoginSchema),
    login: invoke('session:login', LoginRequestSchema, LoginResultSchema),
    logout: invoke('session:logout', Empty, Type.Null()),
    /** Forget the remembered password of the active profile. */
    forget: invoke('session:forget', Empty, Type.Null()),
    /** The platform answered code 3: the renderer returns to login. */
    expired: event('session:expired', Type.Object({ message: Type.String() })),
  },
  api: {
    call: invoke('api:call', ApiRequestSchema, EnvelopeAnySchema),
  },
  platform: {
    status: invoke('platform:status', Empty, PlatformStatusSchema),
    restart: invoke('platform:restart', Empty, PlatformStatusSchema),
    /** Stop the embedded platform (work offline, free its memory); `restart` starts it again. */
    stop: invoke('platform:stop', Empty, PlatformStatusSchema),
    statusChanged: event('platform:status-changed', PlatformStatusSchema),
  },
  vault: {
    status: invoke('vault:status', Empty, VaultStatusSchema),
  },
  uploads: {
    /** Native open dialog (Electron); the web host answers `no-native-dialog` (the page uses <input type=file>). */
    pick: invoke('uploads:pick', UploadPickRequestSchema, Type.Array(Type.String())),
    /** Upload a local file or folder to the active platform; progress arrives as `uploads:progress`. */
    start: invoke('uploads:start', Type.Object({
      path: Type.String({ minLength: 1, maxLength: 4096 }),
      /**
       * A folder is sent as the feature file the desktop writes of it (its source stays here) instead
       * of a zip of it; `image`: the file or folder is a container image (docker save / OCI tar, OCI
       * layout folder) sent as its feature file (镜像特征文件: the layers stay here).
       */
      feature: Type.Optional(Type.Union([Type.Boolean(), Type.Literal('image')])),
      /** With `feature: 'image'`: the platform of a multi-platform image (`linux/arm64`); linux/amd64 or the only one when absent. */
      platform: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    }), UploadProgressSchema),
    cancel: invoke('uploads:cancel', LocalIdOnly, UploadProgressSchema),
    pause: invoke('uploads:pause', LocalIdOnly, UploadProgressSchema),
    /** Continue a paused or failed upload from what the platform already has. */
    resume: invoke('uploads:resume', LocalIdOnly, UploadProgressSchema),
    /** Every upload of this session (a screen that remounts re-attaches to its transfers). */
    list: invoke('uploads:list', Empty, Type.Array(UploadProgressSchema)),
    progress: event('uploads:progress', UploadProgressSchema),
  },
  library: {
    /** Every entry of every profile, newest first; `query` matches file, subject and project names. */
    list: invoke('library:list', Type.Object({ query: Type.Optional(Type.String({ maxLength: 200 })), profileId: Type.Optional(Type.String({ maxLength: 100 })) }), Type.Array(LibraryEntrySchema)),
    /** Download a platform report of the active profile into its library folder; progress arrives as `library:progress`. */
    download: invoke('library:download', LibraryDownloadRequestSchema, LibraryEntrySchema),
    /** Download an entry again (after a failure or a checksum mismatch), resuming what is on disk when it is intact. */
    retry: invoke('library:retry', IdOnly, LibraryEntrySchema),
    cancel: invoke('library:cancel', IdOnly, LibraryEntrySchema),
    /** Recompute the SHA-256 on disk; a mismatch marks the entry `corrupt`. */
    verify: invoke('library:verify', IdOnly, LibraryEntrySchema),
    /** Delete the local copy and its metadata (the platform's report is untouched). */
    remove: invoke('library:remove', IdOnly, Type.Null()),
    /** Open with the system's application for the file type (Electron); the web host answers `unsupported`. */
    openExternal: invoke('library:open-external', IdOnly, Type.Null()),
    /** Show the file in the system file manager (Electron); the web host answers `unsupported`. */
    reveal: invoke('library:reveal', IdOnly, Type.Null()),
    progress: event('library:progress', LibraryEntrySchema),
  },
  review: {
    /** Read a library entry (`id`) or any local file (`path`: a dropped or picked SBOM) for offline review. */
    open: invoke('review:open', Type.Object({ id: Type.Optional(Type.String({ maxLength: 100 })), path: Type.Optional(Type.String({ maxLength: 4096 })) }), ReviewDocumentSchema),
    /** Native open dialog for a report or SBOM file (Electron); the web host answers `no-native-dialog`. */
    pick: invoke('review:pick', Empty, Type.Array(Type.String())),
  },
} satisfies ContractTree;

export type DesktopContract = typeof desktopContract;

/** window.desktop, derived from the contract. */
export type DesktopApi<T = DesktopContract> = {
  [K in keyof T]: T[K] extends InvokeDescriptor<infer Req, infer Res>
    ? (request: Static<Req>) => Promise<IpcResult<Static<Res>>>
    : T[K] extends EventDescriptor<infer P>
      ? (listener: (payload: Static<P>) => void) => () => void
      : DesktopApi<T[K]>;
};

/** Every descriptor with its path in the tree, for preload, main and the web host. */
export function walkContract(tree: ContractTree = desktopContract, prefix: string[] = []): Array<{ path: string[]; descriptor: Descriptor }> {
  const out: Array<{ path: string[]; descriptor: Descriptor }> = [];
  for (const [key, value] of Object.entries(tree)) {
    if ('kind' in value && typeof value.kind === 'string') out.push({ path: [...prefix, key], descriptor: value as Descriptor });
    else out.push(...walkContract(value as ContractTree, [...prefix, key]));
  }
  return out;
}
