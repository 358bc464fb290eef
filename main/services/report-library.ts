// The desktop report library: reports downloaded from any server profile, kept on disk so they can
// be opened with no platform at all. Layout: `<dataDir>/library/<profileId>/<entryId>/` holding
// the file, its `<file>.part` while it downloads, and `entry.json` (the LibraryEntry, written
// atomically). The library is only ever changed by the user here: deleting a report on the
// platform leaves the local copy alone (nothing listens for that on purpose).
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Compile } from 'typebox/compile';
import { download as downloadCall } from '../../contract/api/report.ts';
import { fillPath } from '../../contract/api/define.ts';
import { LibraryEntrySchema, type LibraryDownloadRequest, type LibraryEntry, type LibraryState, type Profile } from '../../contract/ipc/desktop-contract.ts';
import type { ApiClient } from './api-client.ts';
import { DOWNLOAD_MSG, DownloadFailed, downloadToPart, sha256OfFile, type DownloadTiming } from './downloads.ts';
import { DesktopError } from './errors.ts';
import { makePrivateDir, writePrivateFile } from './private-files.ts';

export const LIBRARY_MSG = {
  unknown: '找不到该报告（可能已从报告库中删除）',
  corrupt: '文件已损坏或不完整，请重新下载',
  checksum: '下载的文件校验失败（SHA-256 与平台不一致），请重新下载',
  interrupted: '下载在应用退出时中断，可点击“重试”继续',
  profileGone: '该报告所属的服务器配置已删除，无法重新下载',
  notReady: '该报告尚未下载完成',
  unsupported: '网页版无法调用系统程序，请在桌面客户端中使用',
  openFailed: (reason: string) => `无法打开文件：${reason}`,
  failed: (reason: string) => `下载失败：${reason}`,
} as const;

export interface ReportLibraryOptions {
  /** The app's data dir; the library lives in `<dataDir>/library`. */
  dataDir: string;
  /** The active profile and its client (a download starts there). */
  active: () => { profile: Profile; client: ApiClient };
  /** A saved profile and its client, or null once the profile is removed (retries). */
  forProfile: (profileId: string) => { profile: Profile; client: ApiClient } | null;
  emit: (entry: LibraryEntry) => void;
  /** Electron's shell.openPath (answers an error text, '' when it worked); absent in the web host. */
  openPath?: (file: string) => Promise<string>;
  /** Electron's shell.showItemInFolder; absent in the web host. */
  showItemInFolder?: (file: string) => void;
  timing?: DownloadTiming;
  /** Least time between two progress events of one download while bytes flow. */
  progressIntervalMs?: number;
  now?: () => Date;
}

export interface ReportLibrary {
  list(filter?: { query?: string; profileId?: string }): LibraryEntry[];
  get(id: string): LibraryEntry;
  /** Path of a finished entry's file (for review). */
  filePath(id: string): string;
  download(request: LibraryDownloadRequest): Promise<LibraryEntry>;
  retry(id: string): Promise<LibraryEntry>;
  cancel(id: string): Promise<LibraryEntry>;
  verify(id: string): Promise<LibraryEntry>;
  remove(id: string): Promise<null>;
  openExternal(id: string): Promise<null>;
  reveal(id: string): Promise<null>;
  /** Resolves when the entry's current download has stopped (tests, shutdown). */
  settled(id: string): Promise<LibraryEntry>;
  /** HTTP statuses of the last run's answers (tests: a resume answered 206). */
  statuses(id: string): number[];
  dispose(): Promise<void>;
}

/** entry.json: the entry plus what only the library needs. */
interface StoredEntry extends LibraryEntry {
  addedAt: string;
  etag: string | null;
}

interface Item {
  dir: string;
  stored: StoredEntry;
  controller: AbortController | null;
  running: Promise<void> | null;
  /** entry.json writes, one after another. */
  saving: Promise<void>;
  lastEmit: number;
  statuses: number[];
}

const checkEntry = Compile(LibraryEntrySchema);
const ENTRY_FILE = 'entry.json';
const SAFE_ID = /^[A-Za-z0-9_-]{1,100}$/;
const ACTIVE: LibraryState[] = ['downloading', 'retrying'];

/** A file name safe on every OS: no separators, reserved characters, trailing dots or reserved device names. */
function safeFileName(name: string, fallback: string): string {
  // eslint-disable-next-line no-control-regex
  let clean = name.replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_').replace(/^[.\s]+|[.\s]+$/g, '');
  if (/^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i.test(clean)) clean = `_${clean}`;
  // Leave room for `.part` within the 255-byte limit of most file systems.
  while (Buffer.byteLength(clean) > 200) clean = [...clean].slice(0, -1).join('');
  return clean || fallback;
}

const publicEntry = (stored: StoredEntry): LibraryEntry => {
  const { addedAt: _addedAt, etag: _etag, ...entry } = stored;
  return { ...entry };
};

export function createReportLibrary(options: ReportLibraryOptions): ReportLibrary {
  const root = path.join(options.dataDir, 'library');
  const now = () => (options.now?.() ?? new Date()).toISOString();
  const progressIntervalMs = options.progressIntervalMs ?? 250;
  const items = new Map<string, Item>();

  const fileOf = (item: Item) => path.join(item.dir, item.stored.fileName);
  const partOf = (item: Item) => `${fileOf(item)}.part`;

  let loaded = false;

  /**
   * What an earlier run left, read on first use: every entry.json that still reads as an entry.
   * A download that was running when the app quit is resumable, so it becomes `failed` with a
   * retry offered.
   */
  function load(): void {
    if (loaded) return;
    loaded = true;
    if (!existsSync(root)) return;
    for (const profileDir of readdirSync(root, { withFileTypes: true })) {
      if (!profileDir.isDirectory() || !SAFE_ID.test(profileDir.name)) continue;
      for (const entryDir of readdirSync(path.join(root, profileDir.name), { withFileTypes: true })) {
        if (!entryDir.isDirectory() || !SAFE_ID.test(entryDir.name)) continue;
        const dir = path.join(root, profileDir.name, entryDir.name);
        let stored: StoredEntry;
        try {
          stored = JSON.parse(readFileSync(path.join(dir, ENTRY_FILE), 'utf8')) as StoredEntry;
        } catch {
          continue;
        }
        if (!checkEntry.Check(publicEntry(stored)) || stored.id !== entryDir.name || stored.profileId !== profileDir.name) continue;
        if (stored.fileName !== safeFileName(stored.fileName, '')) continue;
        stored.addedAt ??= stored.downloadedAt ?? now();
        stored.etag ??= null;
        const item: Item = { dir, stored, controller: null, running: null, saving: Promise.resolve(), lastEmit: 0, statuses: [] };
        if (ACTIVE.includes(stored.state)) {
          stored.state = 'failed';
          stored.error = LIBRARY_MSG.interrupted;
          void save(item);
        }
        items.set(stored.id, item);
      }
    }
  }

  function save(item: Item): Promise<void> {
    const data = JSON.stringify(item.stored, null, 2);
    // Write a temp file, then rename over entry.json: a crash leaves the old or the new, never half.
    item.saving = item.saving.then(async () => {
      if (!existsSync(item.dir)) return;
      const tmp = path.join(item.dir, `${ENTRY_FILE}.${randomUUID()}.tmp`);
      await writePrivateFile(tmp, data);
      await rename(tmp, path.join(item.dir, ENTRY_FILE));
    }).catch(() => {});
    return item.saving;
  }

  function emit(item: Item): void {
    item.lastEmit = Date.now();
    options.emit(publicEntry(item.stored));
  }

  function setState(item: Item, state: LibraryState, error: string | null = null): void {
    item.stored.state = state;
    item.stored.error = error;
    void save(item);
    emit(item);
  }

  function get(id: string): Item {
    load();
    const item = items.get(id);
    if (!item) throw new DesktopError('not-found', LIBRARY_MSG.unknown);
    return item;
  }

  /** One run: download into .part, check the SHA-256, then rename; the final name only ever holds a whole file. */
  async function run(item: Item, client: ApiClient, signal: AbortSignal): Promise<void> {
    const entry = item.stored;
    setState(item, 'downloading');
    const part = partOf(item);
    const outcome = await downloadToPart({
      client,
      path: fillPath(downloadCall.path, { id: entry.reportId }),
      partFile: part,
      etag: entry.etag,
      size: entry.size > 0 ? entry.size : null,
      signal,
      onHeaders: ({ size, sha256, etag }) => {
        if (size !== null) entry.size = size;
        entry.sha256 = sha256 ?? entry.sha256;
        entry.etag = etag;
        void save(item);
      },
      onProgress: (received) => {
        entry.received = received;
        if (Date.now() - item.lastEmit >= progressIntervalMs) emit(item);
      },
      onRetrying: (message) => setState(item, 'retrying', message),
      onResumed: () => setState(item, 'downloading'),
    }, options.timing);
    item.statuses = outcome.statuses;
    if (signal.aborted) return;
    entry.size = outcome.size;
    entry.received = outcome.size;
    const actual = await sha256OfFile(part);
    if (!entry.sha256 || actual !== entry.sha256) {
      // Kept as .part so nothing half-checked ever carries the report's name; a retry starts over.
      setState(item, 'corrupt', entry.sha256 ? LIBRARY_MSG.checksum : LIBRARY_MSG.failed(DOWNLOAD_MSG.noChecksum));
      return;
    }
    await rename(part, fileOf(item));
    entry.downloadedAt = now();
    setState(item, 'done');
  }

  function launch(item: Item, client: ApiClient): void {
    const controller = new AbortController();
    item.controller = controller;
    item.running = run(item, client, controller.signal).then(
      () => {},
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const message = error instanceof DownloadFailed ? error.message : LIBRARY_MSG.failed(error instanceof Error ? error.message : String(error));
        setState(item, 'failed', error instanceof DownloadFailed ? LIBRARY_MSG.failed(message) : message);
      },
    ).finally(() => {
      if (item.controller === controller) item.controller = null;
    });
  }

  async function stop(item: Item): Promise<void> {
    item.controller?.abort();
    await item.running;
  }

  async function restart(item: Item): Promise<LibraryEntry> {
    const owner = options.forProfile(item.stored.profileId);
    if (!owner) throw new DesktopError('profile-gone', LIBRARY_MSG.profileGone);
    await item.running;
    const part = partOf(item);
    // A .part that failed its checksum (or anything after `corrupt`) cannot be trusted: start over.
    if (item.stored.state === 'corrupt') {
      await rm(part, { force: true });
      item.stored.etag = null;
    }
    const partSize = (await stat(part).catch(() => null))?.size ?? 0;
    item.stored.received = partSize;
    item.stored.profileName = owner.profile.name;
    launch(item, owner.client);
    return publicEntry(item.stored);
  }

  async function finishedFile(id: string): Promise<string> {
    const item = get(id);
    const file = fileOf(item);
    if (item.stored.state !== 'done' || !(await stat(file).catch(() => null))?.isFile()) throw new DesktopError('not-ready', LIBRARY_MSG.notReady);
    return file;
  }

  return {
    list(filter = {}) {
      load();
      const query = filter.query?.trim().toLowerCase() ?? '';
      return [...items.values()]
        .map((item) => item.stored)
        .filter((e) => !filter.profileId || e.profileId === filter.profileId)
        .filter((e) => !query || [e.fileName, e.subjectName, e.projectName].some((text) => text.toLowerCase().includes(query)))
        .sort((a, b) => (b.downloadedAt ?? b.addedAt).localeCompare(a.downloadedAt ?? a.addedAt) || b.addedAt.localeCompare(a.addedAt))
        .map(publicEntry);
    },

    get: (id) => publicEntry(get(id).stored),

    filePath(id) {
      const item = get(id);
      if (item.stored.state !== 'done') throw new DesktopError('not-ready', LIBRARY_MSG.notReady);
      return fileOf(item);
    },

    async download(request) {
      load();
      const { profile, client } = options.active();
      // One entry per report and profile: downloading it again resumes or reuses that entry.
      const existing = [...items.values()].find((item) => item.stored.profileId === profile.id && item.stored.reportId === request.reportId);
      if (existing) {
        if (ACTIVE.includes(existing.stored.state) || existing.stored.state === 'done') return publicEntry(existing.stored);
        return restart(existing);
      }
      if (!SAFE_ID.test(profile.id)) throw new DesktopError('invalid-input', '服务器配置标识无效');
      const id = randomUUID();
      const dir = path.join(root, profile.id, id);
      await makePrivateDir(dir);
      const stored: StoredEntry = {
        id,
        profileId: profile.id,
        profileName: profile.name,
        reportId: request.reportId,
        fileName: safeFileName(request.fileName, `report-${request.reportId}`),
        format: request.format,
        subjectName: request.subjectName ?? '',
        projectName: request.projectName ?? '',
        taskId: request.taskId ?? null,
        generatedAt: request.generatedAt ?? null,
        downloadedAt: null,
        size: 0,
        received: 0,
        sha256: null,
        state: 'downloading',
        error: null,
        addedAt: now(),
        etag: null,
      };
      const item: Item = { dir, stored, controller: null, running: null, saving: Promise.resolve(), lastEmit: 0, statuses: [] };
      items.set(id, item);
      await save(item);
      launch(item, client);
      return publicEntry(stored);
    },

    async retry(id) {
      const item = get(id);
      if (ACTIVE.includes(item.stored.state)) return publicEntry(item.stored);
      return restart(item);
    },

    async cancel(id) {
      const item = get(id);
      if (!ACTIVE.includes(item.stored.state)) return publicEntry(item.stored);
      await stop(item);
      // The .part stays: a retry continues from it.
      setState(item, 'cancelled');
      return publicEntry(item.stored);
    },

    async verify(id) {
      const item = get(id);
      if (item.stored.state !== 'done' && item.stored.state !== 'corrupt') return publicEntry(item.stored);
      const file = fileOf(item);
      const info = await stat(file).catch(() => null);
      const whole = !!info?.isFile() && info.size === item.stored.size;
      const ok = whole && !!item.stored.sha256 && (await sha256OfFile(file)) === item.stored.sha256;
      if (ok) {
        if (item.stored.state !== 'done') setState(item, 'done');
      } else {
        setState(item, 'corrupt', LIBRARY_MSG.corrupt);
      }
      await item.saving;
      return publicEntry(item.stored);
    },

    async remove(id) {
      const item = get(id);
      await stop(item);
      items.delete(id);
      await item.saving;
      await rm(item.dir, { recursive: true, force: true });
      return null;
    },

    async openExternal(id) {
      if (!options.openPath) throw new DesktopError('unsupported', LIBRARY_MSG.unsupported);
      const reason = await options.openPath(await finishedFile(id));
      if (reason) throw new DesktopError('open-failed', LIBRARY_MSG.openFailed(reason));
      return null;
    },

    async reveal(id) {
      if (!options.showItemInFolder) throw new DesktopError('unsupported', LIBRARY_MSG.unsupported);
      options.showItemInFolder(await finishedFile(id));
      return null;
    },

    async settled(id) {
      const item = get(id);
      await item.running;
      await item.saving;
      return publicEntry(item.stored);
    },

    statuses: (id) => [...get(id).statuses],

    async dispose() {
      for (const item of items.values()) {
        await stop(item);
        await item.saving;
      }
    },
  };
}
