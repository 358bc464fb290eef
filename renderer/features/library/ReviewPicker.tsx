// Choosing a file to review: drop it here or 选择文件. In Electron a dropped or picked file has a
// local path (preload's webUtils, or main's dialog through review.pick). In the web host a
// browser file has none: it is streamed to the host (/__desktop/files) first and the staged path
// is opened, the same way the upload drop zone works (renderer/common/uploads.ts).
import { useRef, useState, type ChangeEvent, type DragEvent } from 'react';
import { Button, Callout, Classes, Icon, Intent, Spinner, SpinnerSize } from '@blueprintjs/core';
import { useShell } from '../../api/desktopApi.ts';
import { DesktopError, desktopErrorMessage, invokeDesktop, localPathOf, stageBrowserFile } from '../../platform/desktop.ts';
import { libraryZh } from '../../i18n/library.ts';

const t = libraryZh.review;

/** What the native dialog and the browser's picker offer; anything else is refused by main with a reason. */
const REVIEW_ACCEPT = ['.pdf', '.docx', '.xlsx', '.json', '.xml', '.spdx', '.zip', '.swidtag'];

export function ReviewPicker({ onPath, busy, error }: { onPath: (path: string) => void; busy: string | null; error: string | null }) {
  const [over, setOver] = useState(false);
  const shell = useShell();
  const [problem, setProblem] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [staging, setStaging] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);

  /** A browser File to a local path: its own in Electron, a staged copy in the web host. */
  async function open(file: File) {
    setProblem(null);
    const local = localPathOf(file);
    if (local) return onPath(local);
    setStaging(file.name);
    try {
      onPath(await stageBrowserFile(file, crypto.randomUUID(), file.name));
    } catch (e) {
      setProblem(t.stageFailed(file.name, desktopErrorMessage(e, libraryZh.actionFailed)));
    } finally {
      setStaging(null);
    }
  }

  function onDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setOver(false);
    // DataTransfer is emptied once this handler returns: take entries and files now.
    const dropped = [...event.dataTransfer.items].filter((i) => i.kind === 'file').map((i) => ({ entry: i.webkitGetAsEntry(), file: i.getAsFile() }));
    const first = dropped[0];
    if (!first) return;
    if (first.entry?.isDirectory) return setProblem(t.folder(first.entry.name));
    if (!first.file) return setProblem(t.noPath(first.entry?.name ?? ''));
    void open(first.file);
    setNote(dropped.length > 1 ? t.onlyOne : null);
  }

  async function pick() {
    setProblem(null);
    if (shell !== 'electron') return input.current?.click();
    try {
      const [path] = await invokeDesktop((api) => api.review.pick({}));
      if (path) onPath(path);
    } catch (e) {
      if (e instanceof DesktopError && e.code === 'no-native-dialog') input.current?.click();
      else setProblem(desktopErrorMessage(e, libraryZh.actionFailed));
    }
  }

  function onInput(event: ChangeEvent<HTMLInputElement>) {
    setNote(null);
    const file = event.target.files?.[0];
    event.target.value = '';
    if (file) void open(file);
  }

  const working = staging ? t.reading(staging) : busy;
  const shown = problem ?? error;
  return (
    <div className="cairn-rv-picker">
      <div
        className={`cairn-rv-drop${over ? ' cairn-rv-drop-over' : ''}`}
        data-testid="review-drop-zone"
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
      >
        {working ? <Spinner size={SpinnerSize.STANDARD} /> : <Icon icon="document-open" size={40} intent={over ? Intent.PRIMARY : Intent.NONE} />}
        <div className="cairn-rv-drop-text">
          {working ?? (
            <>
              {t.dropHere}
              <Button variant="minimal" intent={Intent.PRIMARY} text={t.pick} onClick={() => void pick()} data-testid="review-pick" />
            </>
          )}
        </div>
        <div className={`${Classes.TEXT_MUTED} ${Classes.TEXT_SMALL}`}>{t.accepted}</div>
        <input ref={input} type="file" hidden accept={REVIEW_ACCEPT.join(',')} onChange={onInput} data-testid="review-file-input" />
      </div>
      {note && !shown ? (
        <Callout intent={Intent.WARNING} className="cairn-rv-error">
          {note}
        </Callout>
      ) : null}
      {shown ? (
        <Callout intent={Intent.DANGER} icon="error" title={t.openFailed} className="cairn-rv-error" data-testid="review-error">
          {shown}
        </Callout>
      ) : null}
    </div>
  );
}
