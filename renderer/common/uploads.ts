// Uploads from the renderer's side: one hook for both hosts. In Electron a dropped or picked file
// has a local path (webUtils via preload) and main streams it to the platform. In the web host a
// browser File has no path: it is first streamed to the host (staged), and the staged path then
// goes through the same `uploads:start`. Progress comes from main's `uploads:progress` events.
// A folder may be sent as its feature file (`feature`): main writes it on this machine (the web
// host is on loopback, so a staged folder does not leave it either) and uploads only that.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { UploadProgress } from '../../contract/ipc/desktop-contract.ts';
import { desktop, desktopErrorMessage, invokeDesktop, localPathOf, stageBrowserFile } from '../platform/desktop.ts';
import { uploadZh } from '../i18n/upload.ts';

/** What the list shows: main's progress, or a browser file still being staged (web host). */
export type UploadItem = Omit<UploadProgress, 'state'> & { state: UploadProgress['state'] | 'staging' };

export interface UploadedFile {
  uploadId: string;
  fileName: string;
  size: number;
}

/** A browser file with its path inside a dropped folder (`folder/sub/name`), or just its name. */
export interface BrowserFile {
  file: File;
  relativePath: string;
}

/** `.tar.gz` style extensions, lower case; true when `accept` is empty. */
export function hasAcceptedExtension(name: string, accept: readonly string[]): boolean {
  if (accept.length === 0) return true;
  const lower = name.toLowerCase();
  return accept.some((ext) => lower.endsWith(ext.toLowerCase()));
}

export const percentOf = (item: Pick<UploadItem, 'sent' | 'total'>): number =>
  item.total > 0 ? Math.min(100, Math.floor((item.sent * 100) / item.total)) : 0;

export const isActive = (item: UploadItem): boolean => ['staging', 'preparing', 'uploading', 'retrying'].includes(item.state);

/** Every file under a dropped folder entry (web host), with paths relative to the drop. */
export async function filesOfEntry(entry: FileSystemEntry, prefix = ''): Promise<BrowserFile[]> {
  const here = prefix ? `${prefix}/${entry.name}` : entry.name;
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
    return [{ file, relativePath: here }];
  }
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  const children: FileSystemEntry[] = [];
  // readEntries answers in batches (100 in Chromium) until an empty one.
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) break;
    children.push(...batch);
  }
  const nested = await Promise.all(children.map((child) => filesOfEntry(child, here)));
  return nested.flat();
}

let stagingSeq = 0;

export interface AddOptions {
  /**
   * Folders are sent as the feature file the desktop writes of them, not zipped; `image`: files and
   * folders are container images, sent as the feature file the desktop writes of them (镜像特征文件).
   */
  feature?: boolean | 'image';
  /** With `feature: 'image'`: the platform of a multi-platform image; linux/amd64 or the only one when absent. */
  platform?: string;
}

/** What uploads:start is asked for a path: a folder's feature file, an image's, or the path itself. */
type StartFeature = boolean | 'image';

export interface UseUploadsOptions {
  onUploaded(file: UploadedFile): void;
}

export function useUploads({ onUploaded }: UseUploadsOptions) {
  const [items, setItems] = useState<UploadItem[]>([]);
  const [error, setError] = useState<string | null>(null);
  const mine = useRef(new Set<string>());
  const reported = useRef(new Set<string>());
  const onUploadedRef = useRef(onUploaded);
  onUploadedRef.current = onUploaded;

  /** Events of transfers whose start answer has not arrived yet (the event may overtake it). */
  const early = useRef(new Map<string, UploadProgress>());

  /** Puts `item` in place of the row with its id (or of `replaces`), else appends it. */
  const upsert = useCallback((item: UploadItem, replaces?: string) => {
    setItems((list) => {
      const at = list.findIndex((x) => x.localId === item.localId || (replaces !== undefined && x.localId === replaces));
      if (at < 0) return [...list, item];
      const old = list[at];
      return list.filter((x) => x === old || (x.localId !== item.localId && x.localId !== replaces)).map((x) => (x === old ? item : x));
    });
  }, []);

  const receive = useCallback((progress: UploadProgress) => {
    upsert(progress);
    if (progress.state === 'done' && progress.uploadId && !reported.current.has(progress.localId)) {
      reported.current.add(progress.localId);
      onUploadedRef.current({ uploadId: progress.uploadId, fileName: progress.fileName, size: progress.total });
    }
  }, [upsert]);

  useEffect(() => desktop().uploads.progress((progress) => {
    if (mine.current.has(progress.localId)) return receive(progress);
    // Not ours, or ours before start() answered: keep the latest, a few dozen at most.
    early.current.set(progress.localId, progress);
    if (early.current.size > 50) early.current.delete(early.current.keys().next().value!);
  }), [receive]);

  const startPath = useCallback(async (path: string, replaces?: string, feature: StartFeature = false, platform?: string) => {
    const started = await invokeDesktop((api) => api.uploads.start(feature === 'image' && platform ? { path, feature, platform } : feature ? { path, feature } : { path }));
    mine.current.add(started.localId);
    upsert(started, replaces);
    const later = early.current.get(started.localId);
    early.current.delete(started.localId);
    if (later) receive(later);
  }, [upsert, receive]);

  /** Electron: local paths (from the dialog or a drop); `feature`: folders (or images) sent as their feature files. */
  const addPaths = useCallback(async (paths: string[], { feature = false, platform }: AddOptions = {}) => {
    setError(null);
    for (const path of paths) {
      try {
        await startPath(path, undefined, feature, platform);
      } catch (e) {
        setError(desktopErrorMessage(e, uploadZh.states.failed));
      }
    }
  }, [startPath]);

  /** Browser files: by path in Electron, staged through the host in the web host. A group sharing a folder is one upload. */
  const addBrowserFiles = useCallback(async (groups: BrowserFile[][], { feature = false, platform }: AddOptions = {}) => {
    setError(null);
    for (const group of groups) {
      const first = group[0];
      if (!first) continue;
      const top = first.relativePath.split('/')[0]!;
      const isFolder = first.relativePath.includes('/');
      const local = !isFolder ? localPathOf(first.file) : null;
      // An image (file or folder) always goes as its feature file; a folder as its feature file or a zip.
      const asFeature: StartFeature = feature === 'image' ? 'image' : feature && isFolder;
      try {
        if (local) {
          await startPath(local, undefined, asFeature, platform);
          continue;
        }
        const placeholder = `staging-${++stagingSeq}`;
        const total = group.reduce((sum, f) => sum + f.file.size, 0);
        const featureName = `${top.replace(/\.(tar\.gz|tgz|tar)$/i, '')}.cairn-feature.zip`;
        const staged: UploadItem = { localId: placeholder, uploadId: null, fileName: asFeature ? featureName : isFolder ? `${top}.zip` : top, sent: 0, total, bytesPerSecond: 0, state: 'staging', error: null };
        upsert(staged);
        const batch = crypto.randomUUID();
        let path = '';
        let sent = 0;
        for (const { file, relativePath } of group) {
          path = await stageBrowserFile(file, batch, relativePath);
          sent += file.size;
          upsert({ ...staged, sent });
        }
        await startPath(path, placeholder, asFeature, platform);
      } catch (e) {
        setError(uploadZh.stageFailed(top, desktopErrorMessage(e, uploadZh.states.failed)));
        setItems((list) => list.filter((x) => x.state !== 'staging' || !x.fileName.startsWith(top)));
      }
    }
  }, [startPath, upsert]);

  const act = useCallback(async (localId: string, action: 'cancel' | 'resume') => {
    setError(null);
    try {
      const progress = await invokeDesktop((api) => (action === 'cancel' ? api.uploads.cancel({ localId }) : api.uploads.resume({ localId })));
      upsert(progress);
    } catch (e) {
      setError(desktopErrorMessage(e, uploadZh.states.failed));
    }
  }, [upsert]);

  const remove = useCallback((localId: string) => setItems((list) => list.filter((x) => x.localId !== localId)), []);

  return { items, error, setError, addPaths, addBrowserFiles, cancel: (id: string) => act(id, 'cancel'), resume: (id: string) => act(id, 'resume'), remove };
}
