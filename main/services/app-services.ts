// The main-process services wired together, the same in Electron and in the web host. The two
// hosts differ only in what they inject: the store (electron-store / conf), the keychain backend,
// the platform spawner (utilityProcess / child_process) and the shell name.
import { EventEmitter } from 'node:events';
import type { Static } from 'typebox';
import { desktopContract, type AppInfo, type EventDescriptor, type ProfilesState } from '../../contract/ipc/desktop-contract.ts';
import { createApiClients, type ApiClients } from './api-clients.ts';
import { createProfiles, type ProfilesService } from './profiles.ts';
import { createSession, type SessionService } from './session.ts';
import type { LocalPlatform } from './local-platform.ts';
import type { KeyValueStore } from './store.ts';
import type { Vault } from './vault.ts';
import path from 'node:path';
import { createUploads, type UploadsService } from './uploads.ts';
import type { FeatureWriter } from './feature-writer.ts';
import { DesktopError } from './errors.ts';
import { createReportLibrary, type ReportLibrary } from './report-library.ts';
import { createReview, readForReview, REVIEW_MSG } from './review/index.ts';
import { preparePrivateFolder } from './private-files.ts';
import type { ReviewDocument } from '../../contract/ipc/desktop-contract.ts';

/** What review:pick offers in the native dialog. */
export const REVIEW_PICK_REQUEST = { extensions: ['.pdf', '.docx', '.xlsx', '.json', '.xml', '.zip', '.swidtag'], filterName: '报告与 SBOM' };

export interface AppServicesOptions {
  shell: AppInfo['shell'];
  version: string;
  /** The app's data dir (Electron userData / CAIRN_HOME). */
  dataDir: string;
  store: KeyValueStore;
  vault: Vault;
  platform: LocalPlatform;
  apiTimeoutMs?: number;
  /** Writes a folder's feature file in a process of its own (feature-writer.ts); without it a feature upload is refused. */
  writeFeature?: FeatureWriter;
  /** Native file dialog of the Electron host; the web host has none. */
  pickFiles?: (request: Static<typeof desktopContract.uploads.pick.request>) => Promise<string[]>;
  /**
   * The web host's staging folder: only paths under it may be uploaded or reviewed, and the staged
   * copies go once used. (In both hosts a path must also be one the user chose this session: the
   * IPC dispatcher checks that before any service runs, main/ipc/chosen-paths.ts.)
   */
  uploadRoots?: string[];
  /** Electron's shell.openPath / shell.showItemInFolder for the report library; the web host has neither. */
  openPath?: (file: string) => Promise<string>;
  showItemInFolder?: (file: string) => void;
}

/** Temp files of uploads (folder zips, the web host's staged files), under the app's data dir. */
export const uploadTempDir = (dataDir: string): string => path.join(dataDir, 'upload-temp');

export type EventListener = (channel: string, payload: unknown) => void;

export interface AppServices {
  appInfo(): AppInfo;
  profiles: ProfilesService;
  vault: Vault;
  clients: ApiClients;
  session: SessionService;
  platform: LocalPlatform;
  uploads: UploadsService;
  library: ReportLibrary;
  /** A library entry (`id`) or a local file (`path`) read for offline review. */
  openReview(target: { id?: string; path?: string }): Promise<ReviewDocument>;
  pickFiles(request: Static<typeof desktopContract.uploads.pick.request>): Promise<string[]>;
  /** Remove a remote profile with its remembered password and session. */
  removeProfile(id: string): Promise<ProfilesState>;
  /** Every contract event, for the host to forward to its renderer(s). */
  onEvent(listener: EventListener): () => void;
  dispose(): void;
}

export function createAppServices(options: AppServicesOptions): AppServices {
  // Owner-only, and tightened when an earlier version left it open: private-files.ts.
  preparePrivateFolder(options.dataDir);
  const events = new EventEmitter();
  const emit = <P extends EventDescriptor>(descriptor: P, payload: Static<P['payload']>): void => {
    events.emit('event', descriptor.channel, payload);
  };
  const { platform, vault } = options;

  const profiles = createProfiles({ store: options.store, localUrl: () => platform.url(), localNotReadyMessage: () => platform.notReadyMessage() });
  const clients = createApiClients({
    profiles,
    localUrl: () => platform.url(),
    localNotReadyMessage: () => platform.notReadyMessage(),
    timeoutMs: options.apiTimeoutMs,
    onExpired: (profileId, message) => {
      // Only the active profile's renderer state is affected; a background profile just loses its cookies.
      if (profiles.active().id === profileId) emit(desktopContract.session.expired, { message });
    },
  });
  const session = createSession({ profiles, clients, vault });
  const uploadRoots = options.uploadRoots;
  const uploads = createUploads({
    client: () => clients.active().client,
    tempDir: uploadTempDir(options.dataDir),
    emit: (progress) => emit(desktopContract.uploads.progress, progress),
    allowedRoots: uploadRoots,
    writeFeature: options.writeFeature,
    // Staged copies exist only for their upload.
    removeSourceAfter: (source) => !!uploadRoots?.some((root) => path.resolve(source).startsWith(path.resolve(root) + path.sep)),
  });

  const library = createReportLibrary({
    dataDir: options.dataDir,
    active: () => clients.active(),
    forProfile: (profileId) => {
      const profile = profiles.get(profileId);
      return profile ? { profile, client: clients.forProfile(profile) } : null;
    },
    emit: (entry) => emit(desktopContract.library.progress, entry),
    openPath: options.openPath,
    showItemInFolder: options.showItemInFolder,
  });
  // The web host may only read what a page staged, and the staged copy goes once it is read.
  const isStaged = (file: string) => !!uploadRoots?.some((root) => path.resolve(file).startsWith(path.resolve(root) + path.sep));
  const review = createReview({ allowedRoots: uploadRoots, removeAfter: isStaged });

  const unsubscribe = [
    profiles.onChanged((state) => emit(desktopContract.profiles.changed, state)),
    platform.onStatus((status) => emit(desktopContract.platform.statusChanged, status)),
  ];

  return {
    appInfo: () => ({ version: options.version, shell: options.shell, platform: process.platform, dataDir: options.dataDir }),
    profiles,
    vault,
    clients,
    session,
    platform,
    uploads,
    library,
    async openReview(target) {
      if (target.id) {
        const entry = library.get(target.id);
        return readForReview(library.filePath(target.id), entry.fileName);
      }
      if (target.path) return review.openPath(target.path);
      throw new DesktopError('invalid-input', REVIEW_MSG.noTarget);
    },
    async pickFiles(request) {
      if (!options.pickFiles) throw new DesktopError('no-native-dialog', '当前环境没有系统文件对话框，请使用浏览器选择文件');
      return options.pickFiles(request);
    },
    async removeProfile(id) {
      const profile = profiles.get(id);
      const state = profiles.remove(id);
      if (profile) await session.discardProfile(profile);
      return state;
    },
    onEvent(listener) {
      events.on('event', listener);
      return () => events.off('event', listener);
    },
    dispose() {
      for (const off of unsubscribe) off();
      void uploads.dispose();
      void library.dispose();
      events.removeAllListeners();
    },
  };
}
