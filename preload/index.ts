// Electron preload: exposes `window.desktop` (built from the contract) over ipcRenderer. Runs in
// the sandbox, so it is bundled to CommonJS (dist/preload/index.cjs) and may only use the
// sandboxed subset of `electron`. ipcRenderer itself is never exposed: the page gets exactly the
// contract's functions and nothing that can send on an arbitrary channel.
import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
import { FILES_CHOSEN_CHANNEL, type DesktopFiles, type IpcResult } from '../contract/ipc/desktop-contract.ts';
import { buildDesktop } from './build-desktop.ts';

const desktop = buildDesktop({
  invoke: (channel, request) =>
    (ipcRenderer.invoke(channel, request) as Promise<IpcResult<unknown>>).catch(
      (): IpcResult<unknown> => ({ ok: false, error: { code: 'ipc-failed', message: '与主进程通信失败，请重启 Cairn' } }),
    ),
  on(channel, listener) {
    // The event object (with its `sender`) stays on this side of the bridge.
    const handler = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
    ipcRenderer.on(channel, handler);
    return () => {
      ipcRenderer.removeListener(channel, handler);
    };
  },
});

// The local path of a dropped or picked File: Electron's own call. Only a File the user gave the
// page (a drop, a file input) has one, so main is told of it here, synchronously, and accepts it
// in uploads:start and review:open; a path the page merely names is refused there.
const files: DesktopFiles = {
  pathFor(file) {
    const found = webUtils.getPathForFile(file as File);
    if (found) ipcRenderer.sendSync(FILES_CHOSEN_CHANNEL, found);
    return found;
  },
};

contextBridge.exposeInMainWorld('desktop', { ...desktop, files });
