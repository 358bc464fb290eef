// The Electron side of IPC and the only user of ipcMain. Each invoke channel of the contract gets
// an ipcMain.handle that checks the sender before handing the payload to the dispatcher (which
// validates it). Events from the services are sent to our window(s). Preload's `files.pathFor`
// registers the paths of files the user dropped or picked on FILES_CHOSEN_CHANNEL.
import { ipcMain, type IpcMainEvent, type IpcMainInvokeEvent, type WebContents } from 'electron';
import path from 'node:path';
import { FILES_CHOSEN_CHANNEL } from '../../contract/ipc/desktop-contract.ts';
import type { Dispatcher } from './dispatcher.ts';
import { ipcError } from './dispatcher.ts';
import { isTrustedSender } from './sender.ts';

export interface ElectronIpcOptions {
  dispatcher: Dispatcher;
  /** The webContents of our own windows (normally just the main window). */
  trustedWebContents: () => WebContents[];
  log?: (message: string) => void;
}

const MAX_PATH_LENGTH = 4096;

export function registerIpcHandlers(options: ElectronIpcOptions): () => void {
  const { dispatcher } = options;
  const trusted = (event: IpcMainInvokeEvent | IpcMainEvent): boolean => {
    const frame = event.senderFrame;
    return isTrustedSender(
      { webContentsId: event.sender.id, frameUrl: frame?.url ?? null, isMainFrame: !!frame && frame.parent === null },
      new Set(options.trustedWebContents().filter((wc) => !wc.isDestroyed()).map((wc) => wc.id)),
    );
  };

  for (const channel of dispatcher.channels) {
    ipcMain.handle(channel, (event: IpcMainInvokeEvent, payload: unknown) => {
      if (!trusted(event)) {
        options.log?.(`拒绝了来自不受信任来源的 IPC 调用 ${channel}：${event.senderFrame?.url ?? '(无)'}`);
        return ipcError('forbidden-sender', '拒绝访问：调用来源不受信任');
      }
      return dispatcher.dispatch(channel, payload);
    });
  }

  // Sent with sendSync by preload, so the path is registered before the page can hand it to a
  // call; the renderer waits for the answer, which is therefore always set.
  const onChosen = (event: IpcMainEvent, file: unknown) => {
    let registered = false;
    try {
      if (!trusted(event)) {
        options.log?.(`拒绝了来自不受信任来源的文件登记：${event.senderFrame?.url ?? '(无)'}`);
      } else if (typeof file === 'string' && file.length <= MAX_PATH_LENGTH && path.isAbsolute(file)) {
        dispatcher.chosenPaths.add(file);
        registered = true;
      }
    } finally {
      event.returnValue = registered;
    }
  };
  ipcMain.on(FILES_CHOSEN_CHANNEL, onChosen);

  return () => {
    for (const channel of dispatcher.channels) ipcMain.removeHandler(channel);
    ipcMain.removeListener(FILES_CHOSEN_CHANNEL, onChosen);
  };
}

/** Forward a service event to every live window. */
export function sendToWindows(targets: WebContents[], channel: string, payload: unknown): void {
  for (const wc of targets) if (!wc.isDestroyed()) wc.send(channel, payload);
}
