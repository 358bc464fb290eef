// What the main window may do (design.md §7), as data and pure decisions so that they are tested in
// Node without Electron (tests/unit/main/window-policy.test.ts). window.ts only wires them to
// BrowserWindow, the session and each webContents.
import type { BrowserWindowConstructorOptions } from 'electron';
import { isSafeExternalUrl } from './external-url.ts';
import { APP_ORIGIN, isAppUrl } from './ipc/sender.ts';

export const WINDOW_TITLE = 'Cairn 软件成分分析';

/** The page the main window opens, served by the app:// protocol (main/electron/protocol.ts). */
export const MAIN_WINDOW_URL = `${APP_ORIGIN}/index.html`;

/**
 * The main window's options. The renderer is untrusted content as far as main is concerned: it
 * runs sandboxed with context isolation and no Node, gets only the contract-shaped
 * `window.desktop` from the preload, and cannot attach webviews or navigate by dropping a file.
 */
export function mainWindowOptions(preloadPath: string): BrowserWindowConstructorOptions {
  return {
    title: WINDOW_TITLE,
    width: 1440,
    height: 900,
    minWidth: 1024,
    minHeight: 640,
    show: false,
    backgroundColor: '#f6f7f9',
    webPreferences: {
      preload: preloadPath,
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
  };
}

/** What happens to a link the page would open in the system browser instead. */
export interface ExternalDecision {
  /** Hand it to shell.openExternal: only plain https to a real host (external-url.ts). */
  openExternal: boolean;
}

/**
 * A navigation or redirect of a page (will-navigate, will-redirect). In-app routing uses the
 * history API and never navigates; a real navigation is allowed only within app://cairn, and a
 * link elsewhere goes to the system browser when it is safe to.
 */
export function decideNavigation(url: string): { allow: true } | ({ allow: false } & ExternalDecision) {
  if (isAppUrl(url)) return { allow: true };
  return { allow: false, openExternal: isSafeExternalUrl(url) };
}

/** window.open and target=_blank links: never a new window; safe links go to the system browser. */
export function decideWindowOpen(url: string): { action: 'deny' } & ExternalDecision {
  return { action: 'deny', openExternal: isSafeExternalUrl(url) };
}

/**
 * Device and browser permissions. Copying text (component ids, CVE numbers) is the one capability
 * the UI needs, and only our own page gets it; everything else — camera, geolocation,
 * notifications, USB, ... — is refused.
 */
export function isPermissionAllowed(permission: string, origin: string): boolean {
  return permission === 'clipboard-sanitized-write' && isAppUrl(origin);
}
