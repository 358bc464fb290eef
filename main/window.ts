// The main window, hardened (design.md §7). The options and every decision (may this page
// navigate? open this link outside? get this permission?) are pure, in window-policy.ts; this file
// wires them to Electron: the renderer runs sandboxed with context isolation and no Node, gets
// only the contract-shaped `window.desktop` from preload, and cannot navigate away, open windows,
// attach webviews or obtain device permissions.
import { BrowserWindow, shell, type Session, type WebContents } from 'electron';
import { decideNavigation, decideWindowOpen, isPermissionAllowed, MAIN_WINDOW_URL, mainWindowOptions, type ExternalDecision } from './window-policy.ts';

export interface MainWindowOptions {
  preloadPath: string;
  log?: (message: string) => void;
}

/** Links the renderer asks to open go to the system browser only when they are plain https. */
function openExternalIf(decision: ExternalDecision, url: string, log?: (message: string) => void): void {
  if (decision.openExternal) void shell.openExternal(url);
  else log?.(`已阻止打开外部链接：${url.slice(0, 200)}`);
}

/** Session-wide rules, applied once to the default session. */
export function hardenSession(session: Session): void {
  session.setPermissionRequestHandler((webContents, permission, callback) => callback(isPermissionAllowed(permission, webContents.getURL())));
  session.setPermissionCheckHandler((_webContents, permission, requestingOrigin) => isPermissionAllowed(permission, requestingOrigin));
}

/** Rules for every webContents the app ever creates (installed from app 'web-contents-created'). */
export function hardenWebContents(contents: WebContents, log?: (message: string) => void): void {
  contents.setWindowOpenHandler(({ url }) => {
    const decision = decideWindowOpen(url);
    openExternalIf(decision, url, log);
    return { action: decision.action };
  });
  const stay = (event: { preventDefault(): void }, url: string) => {
    const decision = decideNavigation(url);
    if (!decision.allow) {
      event.preventDefault();
      openExternalIf(decision, url, log);
    }
  };
  contents.on('will-navigate', stay);
  contents.on('will-redirect', stay);
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  const win = new BrowserWindow(mainWindowOptions(options.preloadPath));
  // The page's <title> must not replace the Chinese window title.
  win.on('page-title-updated', (event) => event.preventDefault());
  win.once('ready-to-show', () => win.show());
  void win.loadURL(MAIN_WINDOW_URL);
  return win;
}
