// The hardened main window (design.md §7): its options and the decisions its handlers make, read
// without Electron from main/window-policy.ts, and where the built preload lies.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtPaths } from '../../../main/built-paths.ts';
import { decideNavigation, decideWindowOpen, isPermissionAllowed, MAIN_WINDOW_URL, mainWindowOptions, WINDOW_TITLE } from '../../../main/window-policy.ts';
import { OUTPUTS, root } from '../../../scripts/build.ts';

describe('main window options', () => {
  const options = mainWindowOptions('/app/dist/preload/index.cjs');
  const web = options.webPreferences!;

  it('isolates and sandboxes the renderer, with no Node anywhere', () => {
    expect(web.contextIsolation).toBe(true);
    expect(web.sandbox).toBe(true);
    expect(web.nodeIntegration).toBe(false);
    expect(web.nodeIntegrationInWorker).toBe(false);
    expect(web.nodeIntegrationInSubFrames).toBe(false);
  });

  it('keeps web security and refuses insecure content, webviews and experimental features', () => {
    expect(web.webSecurity).toBe(true);
    expect(web.allowRunningInsecureContent).toBe(false);
    expect(web.webviewTag).toBe(false);
    expect(web.experimentalFeatures).toBe(false);
    expect(web.navigateOnDragDrop).toBe(false);
    expect(web.safeDialogs).toBe(true);
  });

  it('has no spellchecker, as before', () => {
    expect(web.spellcheck).toBe(false);
  });

  it('loads the preload it is given and nothing else; the built preload is the one scripts/build.ts writes', () => {
    expect(web.preload).toBe('/app/dist/preload/index.cjs');
    const built = builtPaths(path.join(root, 'dist'));
    expect(mainWindowOptions(built.preload).webPreferences!.preload).toBe(OUTPUTS.preload);
    expect(built.server).toBe(OUTPUTS.server);
    expect(built.renderer).toBe(path.dirname(OUTPUTS.renderer));
  });

  it('sets nothing else in webPreferences (a new option must be added here on purpose)', () => {
    expect(Object.keys(web).sort()).toEqual(
      ['allowRunningInsecureContent', 'contextIsolation', 'experimentalFeatures', 'navigateOnDragDrop', 'nodeIntegration', 'nodeIntegrationInSubFrames', 'nodeIntegrationInWorker', 'preload', 'safeDialogs', 'sandbox', 'spellcheck', 'webSecurity', 'webviewTag'].sort(),
    );
  });

  it('keeps its Chinese title and opens hidden, on the app:// page', () => {
    expect(options.title).toBe(WINDOW_TITLE);
    expect(options.show).toBe(false);
    expect(MAIN_WINDOW_URL).toBe('app://cairn/index.html');
  });
});

describe('navigation', () => {
  it('allows app://cairn only', () => {
    expect(decideNavigation('app://cairn/index.html')).toEqual({ allow: true });
    expect(decideNavigation('app://cairn/index.html#/project/list')).toEqual({ allow: true });
  });

  it('stops any other navigation; a safe https link goes to the system browser instead', () => {
    expect(decideNavigation('https://nvd.nist.gov/vuln/detail/CVE-2021-44228')).toEqual({ allow: false, openExternal: true });
    for (const url of ['http://example.com/', 'http://127.0.0.1:8080/', 'https://localhost/', 'file:///etc/passwd', 'app://other/', 'app://u:p@cairn/', 'javascript:alert(1)', 'data:text/html,x', 'about:blank', 'not a url']) {
      expect(decideNavigation(url), url).toEqual({ allow: false, openExternal: false });
    }
  });
});

describe('new windows', () => {
  it('are always denied; only checked https links are opened outside', () => {
    expect(decideWindowOpen('https://github.com/advisories/GHSA-jfh8-c2jp-5v3q')).toEqual({ action: 'deny', openExternal: true });
    for (const url of ['app://cairn/index.html', 'http://example.com/', 'https://user:pw@example.com/', 'smb://host/share', 'ms-settings:', '']) {
      expect(decideWindowOpen(url), url).toEqual({ action: 'deny', openExternal: false });
    }
  });
});

describe('permissions', () => {
  it('grant only clipboard writes, only to our own page', () => {
    expect(isPermissionAllowed('clipboard-sanitized-write', 'app://cairn/index.html')).toBe(true);
    expect(isPermissionAllowed('clipboard-sanitized-write', 'https://evil.example/')).toBe(false);
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal', 'fullscreen', 'usb']) {
      expect(isPermissionAllowed(permission, 'app://cairn/index.html'), permission).toBe(false);
    }
  });
});
