// A drop area with a 选择文件 button that uploads what it gets to the active platform through
// main (chunked, resumable), listing each file with its progress, size, speed, 取消 and 重试/继续.
// The same component works in Electron (native dialog, real paths) and in the web host (an
// <input type=file>, browser files staged through the host). See renderer/common/uploads.ts.
// Where a folder is taken as a feature file (`folders="feature"`, 特征文件), its button is
// 生成特征文件: the folder (picked or dropped) is turned into its feature file on this machine, the
// row says what went in (N 个清单/锁文件, M 个文件仅上传哈希), and only that file is uploaded.
// Where images are taken as feature files (`imageFeature`, 镜像特征文件), 生成特征文件 offers an
// image file or an OCI layout folder: the image is unpacked on this machine and only its feature
// file is uploaded; a dropped image file or folder goes the same way, a dropped .zip as it is.
import { useEffect, useRef, useState, type ChangeEvent, type DragEvent } from 'react';
import { Button, Callout, Classes, Icon, Intent, Menu, MenuItem, PopoverNext, ProgressBar } from '@blueprintjs/core';
import { formatFileSize } from '../../contract/format.ts';
import type { FeatureFileSummary } from '../../contract/ipc/desktop-contract.ts';
import { uploadZh as t } from '../i18n/upload.ts';
import { useShell } from '../api/desktopApi.ts';
import { invokeDesktop, DesktopError, localPathOf } from '../platform/desktop.ts';
import { filesOfEntry, hasAcceptedExtension, isActive, percentOf, useUploads, type BrowserFile, type UploadItem, type UploadedFile } from './uploads.ts';

export interface UploadDropZoneProps {
  /** Accepted extensions, e.g. ['.zip', '.tar.gz']; empty: any file. */
  accept: string[];
  multiple?: boolean;
  /** Folders may be dropped or picked: zipped before upload, or sent as their feature file. */
  folders?: false | 'zip' | 'feature';
  /** Container images (files with these extensions, and folders) are sent as the feature file the desktop writes of them. */
  imageFeature?: readonly string[];
  /** The platform such an image's feature file is written for (a multi-platform image); linux/amd64 or the only one when absent. */
  imagePlatform?: string;
  label?: string;
  onUploaded(file: UploadedFile): void;
  /** Told how many files are still on their way (staging, preparing, uploading, retrying). */
  onActive?(count: number): void;
  disabled?: boolean;
}

/** What a feature file row says: how far the writing is, then what went in. */
function featureLine(feature: FeatureFileSummary): string {
  if (feature.included === null) return t.featureWriting(feature.files, formatFileSize(feature.bytes));
  const hashed = feature.files - feature.included;
  return t.featureWritten(feature.included, formatFileSize(feature.includedBytes ?? 0), hashed) + (feature.problems ? t.featureProblems(feature.problems) : '');
}

const intentOf = (item: UploadItem): Intent =>
  item.state === 'done' ? Intent.SUCCESS : item.state === 'failed' ? Intent.DANGER : item.state === 'retrying' || item.state === 'paused' ? Intent.WARNING : Intent.PRIMARY;

export function UploadDropZone({ accept, multiple = false, folders = false, imageFeature, imagePlatform, label, onUploaded, onActive, disabled = false }: UploadDropZoneProps) {
  const { items, error, setError, addPaths, addBrowserFiles, cancel, resume, remove } = useUploads({ onUploaded });
  const active = items.filter(isActive).length;
  useEffect(() => onActive?.(active), [active, onActive]);
  const [over, setOver] = useState(false);
  const shell = useShell();
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const imageInput = useRef<HTMLInputElement>(null);
  /** The folder input was opened by 选择 OCI 镜像目录 (the web host answers through one folder input). */
  const imageFolderPick = useRef(false);
  const feature = folders === 'feature';
  const images = imageFeature ?? [];
  const image = images.length > 0;
  /** An image file (a docker save / OCI tar) sent as its feature file where images are taken so. */
  const isImageFile = (name: string) => image && !hasAcceptedExtension(name, accept) && hasAcceptedExtension(name, images);

  // The browser's webkitdirectory attribute is not in React's typings.
  useEffect(() => {
    folderInput.current?.setAttribute('webkitdirectory', '');
  }, [folders, image]);

  /** Keeps what may be uploaded here; says why anything else was left out. */
  function admit<T>(candidates: T[], nameOf: (c: T) => string, isFolder: (c: T) => boolean): T[] {
    const kept: T[] = [];
    for (const c of candidates) {
      if (isFolder(c) && !folders && !image) setError(t.folderNotAllowed(nameOf(c)));
      else if (!isFolder(c) && !hasAcceptedExtension(nameOf(c), accept) && !isImageFile(nameOf(c))) setError(t.unsupportedType(nameOf(c), [...accept, ...images].join('、')));
      else kept.push(c);
    }
    if (!multiple && kept.length > 1) {
      setError(t.onlyOne);
      return kept.slice(0, 1);
    }
    return kept;
  }

  function onDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setOver(false);
    if (disabled) return;
    // DataTransfer is emptied once this handler returns: take entries and files now.
    const dropped = [...event.dataTransfer.items].filter((i) => i.kind === 'file').map((i) => ({ entry: i.webkitGetAsEntry(), file: i.getAsFile() }));
    setError(null);
    const kept = admit(dropped, (d) => d.entry?.name ?? d.file?.name ?? '', (d) => !!d.entry?.isDirectory);
    void (async () => {
      const paths: string[] = [];
      const folderPaths: string[] = [];
      const imagePaths: string[] = [];
      const groups: BrowserFile[][] = [];
      const imageGroups: BrowserFile[][] = [];
      for (const { entry, file } of kept) {
        const local = file ? localPathOf(file) : null;
        // Where images are taken as feature files, a folder is an OCI layout and a .tar an image.
        const asImage = image && (!!entry?.isDirectory || isImageFile(entry?.name ?? file?.name ?? ''));
        if (local) (asImage ? imagePaths : entry?.isDirectory ? folderPaths : paths).push(local);
        else if (entry?.isDirectory) (asImage ? imageGroups : groups).push(await filesOfEntry(entry));
        else if (file) (asImage ? imageGroups : groups).push([{ file, relativePath: file.name }]);
        else setError(t.noPath(entry?.name ?? ''));
      }
      if (paths.length) await addPaths(paths);
      if (folderPaths.length) await addPaths(folderPaths, { feature });
      if (imagePaths.length) await addPaths(imagePaths, { feature: 'image', platform: imagePlatform });
      if (groups.length) await addBrowserFiles(groups, { feature });
      if (imageGroups.length) await addBrowserFiles(imageGroups, { feature: 'image', platform: imagePlatform });
    })();
  }

  async function pick(asFolders: boolean, asImage = false) {
    setError(null);
    const input = asFolders ? folderInput.current : asImage ? imageInput.current : fileInput.current;
    imageFolderPick.current = asImage && asFolders;
    if (shell !== 'electron') return input?.click();
    try {
      const paths = await invokeDesktop((api) => api.uploads.pick({ extensions: asImage ? [...images] : accept, multiple, folders: asFolders, filterName: asImage ? t.imageFilter : label }));
      const name = (p: string) => p.split(/[\\/]/).pop() ?? p;
      await addPaths(admit(paths, name, () => asFolders), { feature: asImage ? 'image' : feature && asFolders, platform: imagePlatform });
    } catch (e) {
      if (e instanceof DesktopError && e.code === 'no-native-dialog') input?.click();
      else setError(e instanceof Error ? e.message : String(e));
    }
  }

  function onInput(event: ChangeEvent<HTMLInputElement>, asFolders: boolean, asImage = false) {
    const files = [...(event.target.files ?? [])];
    event.target.value = '';
    setError(null);
    if (asImage) {
      void addBrowserFiles(admit(files, (f) => f.name, () => false).map((file) => [{ file, relativePath: file.name }]), { feature: 'image', platform: imagePlatform });
      return;
    }
    if (asFolders) {
      // One group per top folder (webkitRelativePath = folder/sub/name).
      const byTop = new Map<string, BrowserFile[]>();
      for (const file of files) {
        const relativePath = file.webkitRelativePath || file.name;
        const top = relativePath.split('/')[0]!;
        byTop.set(top, [...(byTop.get(top) ?? []), { file, relativePath }]);
      }
      void addBrowserFiles(admit([...byTop.values()], (g) => g[0]!.relativePath.split('/')[0]!, () => true), { feature: imageFolderPick.current ? 'image' : feature, platform: imagePlatform });
    } else {
      void addBrowserFiles(admit(files, (f) => f.name, () => false).map((file) => [{ file, relativePath: file.name }]));
    }
  }

  return (
    <div className="cairn-upload">
      <div
        className={`cairn-upload-zone${over ? ' cairn-upload-over' : ''}${disabled ? ' cairn-upload-disabled' : ''}`}
        data-testid="upload-drop-zone"
        onDragOver={(e) => {
          e.preventDefault();
          if (!disabled) setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        style={{
          border: `2px dashed ${over ? '#2d72d2' : '#abb3bf'}`,
          background: over ? 'rgba(45,114,210,0.08)' : undefined,
          borderRadius: 4,
          padding: '20px 16px',
          textAlign: 'center',
          opacity: disabled ? 0.6 : 1,
        }}
      >
        <Icon icon="cloud-upload" size={28} intent={over ? Intent.PRIMARY : Intent.NONE} />
        <div style={{ margin: '8px 0' }}>
          {label ? <strong style={{ marginRight: 8 }}>{label}</strong> : null}
          {t.dropHere}
          <Button minimal intent={Intent.PRIMARY} text={t.pickFiles} disabled={disabled} onClick={() => void pick(false)} />
          {folders ? (
            <Button
              minimal
              intent={Intent.PRIMARY}
              icon={feature ? 'shield' : undefined}
              text={feature ? t.writeFeature : t.pickFolder}
              title={feature ? t.writeFeatureTitle : undefined}
              disabled={disabled}
              onClick={() => void pick(true)}
            />
          ) : null}
          {image ? (
            <PopoverNext
              disabled={disabled}
              placement="bottom"
              content={(
                <Menu>
                  <MenuItem icon="document" text={t.pickImageFile} onClick={() => void pick(false, true)} data-testid="pick-image-file" />
                  <MenuItem icon="folder-open" text={t.pickImageFolder} onClick={() => void pick(true, true)} data-testid="pick-image-folder" />
                </Menu>
              )}
            >
              <Button minimal intent={Intent.PRIMARY} icon="shield" endIcon="caret-down" text={t.writeFeature} title={t.writeImageFeatureTitle} disabled={disabled} data-testid="write-image-feature" />
            </PopoverNext>
          ) : null}
        </div>
        <div className={`${Classes.TEXT_MUTED} ${Classes.TEXT_SMALL}`} style={{ overflowWrap: 'break-word' }}>
          {/* Line breaking never breaks before the dot of ".json", so without the zero-width
              spaces the list is one unbreakable run and the label itself is split. */}
          {accept.length ? t.accepted(accept.join('、\u200b')) : null}
          {folders ? ` ${feature ? t.featureFolderHint : t.dropFolderHint}` : null}
          {image ? ` ${t.imageFeatureHint(images.join('、\u200b'))}` : null}
        </div>
        <input ref={fileInput} type="file" hidden accept={accept.join(',')} multiple={multiple} onChange={(e) => onInput(e, false)} data-testid="upload-file-input" />
        {folders || image ? <input ref={folderInput} type="file" hidden multiple onChange={(e) => onInput(e, true)} data-testid="upload-folder-input" /> : null}
        {image ? <input ref={imageInput} type="file" hidden accept={images.join(',')} multiple={multiple} onChange={(e) => onInput(e, false, true)} data-testid="upload-image-input" /> : null}
      </div>

      {error ? <Callout intent={Intent.DANGER} style={{ marginTop: 8 }}>{error}</Callout> : null}

      {items.map((item) => (
        <div key={item.localId} className="cairn-upload-item" data-testid="upload-item" style={{ marginTop: 10 }}>
          <div style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
            <Icon icon={item.state === 'done' ? 'tick-circle' : item.state === 'failed' ? 'error' : 'document'} intent={intentOf(item)} />
            <span style={{ flex: 1, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} title={item.fileName}>{item.fileName}</span>
            <span className={`${Classes.TEXT_MUTED} ${Classes.TEXT_SMALL}`}>
              {formatFileSize(item.sent)} / {formatFileSize(item.total)}
              {item.state === 'uploading' && item.bytesPerSecond > 0 ? ` · ${t.speed(formatFileSize(item.bytesPerSecond))}` : ''}
              {` · ${item.feature && item.state === 'preparing' ? t.featurePreparing : t.states[item.state]}`}
            </span>
            <span style={{ minWidth: 40, textAlign: 'right' }}>{t.percent(percentOf(item))}</span>
            {(isActive(item) && item.state !== 'staging') || item.state === 'failed' || item.state === 'paused' ? <Button small minimal text={t.cancel} onClick={() => void cancel(item.localId)} /> : null}
            {item.state === 'failed' || item.state === 'paused' ? (
              <Button small minimal intent={Intent.PRIMARY} text={item.state === 'failed' ? t.retry : t.resume} onClick={() => void resume(item.localId)} />
            ) : null}
            {item.state === 'cancelled' ? <Button small minimal text={t.remove} onClick={() => remove(item.localId)} /> : null}
          </div>
          <ProgressBar
            intent={intentOf(item)}
            value={item.state === 'preparing' || item.state === 'staging' ? (item.total ? percentOf(item) / 100 : undefined) : percentOf(item) / 100}
            animate={isActive(item)}
            stripes={isActive(item)}
          />
          {/* How far the writing got means nothing once it failed or was cancelled. */}
          {item.feature && (item.feature.included !== null || item.state === 'preparing') ? (
            <div className={`${Classes.TEXT_MUTED} ${Classes.TEXT_SMALL}`} style={{ marginTop: 4 }} data-testid="upload-feature-summary">
              {featureLine(item.feature)}
            </div>
          ) : null}
          {item.error && item.state !== 'done' ? <div className={Classes.TEXT_SMALL} style={{ color: '#cd4246', marginTop: 4 }}>{item.error}</div> : null}
        </div>
      ))}
    </div>
  );
}
