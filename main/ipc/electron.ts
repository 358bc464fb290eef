// The Electron side of IPC and the only user of ipcMain. Each invoke channel of the contract gets
// an ipcMain.handle that checks the sender before handing the payload to the dispatcher (which
// validates it). Events from the services are sent to our window(s).
import { ipcMain, type IpcMainInvokeEvent, type WebContents } from 'electron';
import type { Dispatcher } from './dispatcher.ts';
import { ipcError } from './dispatcher.ts';
import { isTrustedSender } from './sender.ts';

export interface ElectronIpcOptions {
  dispatcher: Dispatcher;
  /** The webContents of our own windows (normally just the main window). */
  trustedWebContents: () => WebContents[];
  log?: (message: string) => void;
}

export function registerIpcHandlers(options: ElectronIpcOptions): () => void {
  const { dispatcher } = options;
  for (const channel of dispatcher.channels) {
    ipcMain.handle(channel, (event: IpcMainInvokeEvent, payload: unknown) => {
      const frame = event.senderFrame;
      const trusted = isTrustedSender(
        { webContentsId: event.sender.id, frameUrl: frame?.url ?? null, isMainFrame: !!frame && frame.parent === null },
        new Set(options.trustedWebContents().filter((wc) => !wc.isDestroyed()).map((wc) => wc.id)),
      );
      if (!trusted) {
        options.log?.(`拒绝了来自不受信任来源的 IPC 调用 ${channel}：${frame?.url ?? '(无)'}`);
        return ipcError('forbidden-sender', '拒绝访问：调用来源不受信任');
      }
      return dispatcher.dispatch(channel, payload);
    });
  }
  return () => {
    for (const channel of dispatcher.channels) ipcMain.removeHandler(channel);
  };
}

/** Forward a service event to every live window. */
export function sendToWindows(targets: WebContents[], channel: string, payload: unknown): void {
  for (const wc of targets) if (!wc.isDestroyed()) wc.send(channel, payload);
}
