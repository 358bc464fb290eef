// The main window, hardened (design.md §7). The renderer is untrusted content as far as main is
// concerned: it runs sandboxed with context isolation and no Node, gets only the contract-shaped
// `window.desktop` from preload, and cannot navigate away, open windows, attach webviews or
// obtain device permissions.
import { BrowserWindow, shell, type Session, type WebContents } from 'electron';
import { isSafeExternalUrl } from './external-url.ts';
import { APP_ORIGIN, isAppUrl } from './ipc/sender.ts';

export const WINDOW_TITLE = 'Cairn 软件成分分析';

export interface MainWindowOptions {
  preloadPath: string;
  log?: (message: string) => void;
}

/** Links the renderer asks to open go to the system browser only when they are plain https. */
function openExternalIfSafe(url: string, log?: (message: string) => void): void {
  if (isSafeExternalUrl(url)) void shell.openExternal(url);
  else log?.(`已阻止打开外部链接：${url.slice(0, 200)}`);
}

/** Session-wide rules, applied once to the default session. */
export function hardenSession(session: Session): void {
  // Copying text (component ids, CVE numbers) is the one capability the UI needs; everything
  // else — camera, geolocation, notifications, USB, ... — is refused.
  const allowed = (permission: string, origin: string) => permission === 'clipboard-sanitized-write' && isAppUrl(origin);
  session.setPermissionRequestHandler((webContents, permission, callback) => callback(allowed(permission, webContents.getURL())));
  session.setPermissionCheckHandler((_webContents, permission, requestingOrigin) => allowed(permission, requestingOrigin));
}

/** Rules for every webContents the app ever creates (installed from app 'web-contents-created'). */
export function hardenWebContents(contents: WebContents, log?: (message: string) => void): void {
  contents.setWindowOpenHandler(({ url }) => {
    openExternalIfSafe(url, log);
    return { action: 'deny' };
  });
  const stay = (event: { preventDefault(): void }, url: string) => {
    // In-app routing does not navigate (history API); a real navigation away is never wanted.
    if (!isAppUrl(url)) {
      event.preventDefault();
      openExternalIfSafe(url, log);
    }
  };
  contents.on('will-navigate', stay);
  contents.on('will-redirect', stay);
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  const win = new BrowserWindow({
    title: WINDOW_TITLE,
    width: 1440,
    height: 900,
    minWidth: 1024,
    minHeight: 640,
    show: false,
    backgroundColor: '#f6f7f9',
    webPreferences: {
      preload: options.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      safeDialogs: true,
    },
  });
  // The page's <title> must not replace the Chinese window title.
  win.on('page-title-updated', (event) => event.preventDefault());
  win.once('ready-to-show', () => win.show());
  void win.loadURL(`${APP_ORIGIN}/index.html`);
  return win;
}
