// Electron preload: exposes `window.desktop` (built from the contract) over ipcRenderer. Runs in
// the sandbox, so it is bundled to CommonJS (dist/preload/index.cjs) and may only use the
// sandboxed subset of `electron`. ipcRenderer itself is never exposed: the page gets exactly the
// contract's functions and nothing that can send on an arbitrary channel.
import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
import type { DesktopFiles, IpcResult } from '../contract/ipc/desktop-contract.ts';
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

// The local path of a dropped or picked File (uploads): Electron's own call, nothing added.
const files: DesktopFiles = { pathFor: (file) => webUtils.getPathForFile(file as File) };

contextBridge.exposeInMainWorld('desktop', { ...desktop, files });
