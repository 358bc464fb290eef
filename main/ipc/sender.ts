// Who may call main over IPC: only our own window's top frame, showing our own app:// origin.
// A page that got into the window some other way (a navigation we failed to stop, an iframe)
// must not reach the handlers even though it shares the preload bridge.
export const APP_SCHEME = 'app';
export const APP_HOST = 'cairn';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

export interface SenderInfo {
  webContentsId: number;
  /** URL of the frame that sent the message; null once the frame is gone. */
  frameUrl: string | null;
  /** True for the top frame of the page. */
  isMainFrame: boolean;
}

/** The origin check, written out because Node's URL gives custom schemes the opaque origin "null". */
export function isAppUrl(url: string | null | undefined): boolean {
  if (!url) return false;
  try {
    const parsed = new URL(url);
    return parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST && !parsed.username && !parsed.password;
  } catch {
    return false;
  }
}

export function isTrustedSender(sender: SenderInfo, trustedWebContentsIds: ReadonlySet<number>): boolean {
  return trustedWebContentsIds.has(sender.webContentsId) && sender.isMainFrame && isAppUrl(sender.frameUrl);
}
