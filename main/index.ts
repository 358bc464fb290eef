// Electron main process: lifecycle only. Everything with behaviour lives in plain Node modules
// tested without Electron (services/, ipc/, window-policy.ts, static-files.ts); this file and
// electron/ wire Electron's pieces to them.
import { app, BrowserWindow, session, shell } from 'electron';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAppServices, type AppServices } from './services/app-services.ts';
import { pickFiles } from './electron/file-dialog.ts';
import { createLocalPlatform } from './services/local-platform.ts';
import { createKeyringBackend, createVault } from './services/vault.ts';
import { createDispatcher } from './ipc/dispatcher.ts';
import { createHandlers } from './ipc/handlers.ts';
import { registerIpcHandlers, sendToWindows } from './ipc/electron.ts';
import { registerAppScheme, serveRenderer } from './electron/protocol.ts';
import { createElectronStore } from './electron/store.ts';
import { createUtilitySpawner } from './electron/utility-spawner.ts';
import { createFeatureWriter } from './services/feature-writer.ts';
import { createMainWindow, hardenSession, hardenWebContents } from './window.ts';
import { builtPaths } from './built-paths.ts';

// Bundled to dist/main/index.js; preload, renderer and server are siblings under dist/.
const built = builtPaths(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'));
const log = (message: string) => console.log(message);

app.setName('Cairn');
// Sandbox every renderer, including any we did not create ourselves. (There is no `remote`
// module to disable: it was removed from Electron; nothing in main exposes one.)
app.enableSandbox();
// Privileged schemes can only be registered before `ready`.
registerAppScheme();

let mainWindow: BrowserWindow | null = null;
let services: AppServices | null = null;
let quitting = false;

// One instance per user: two apps would fight over the same platform data dir and store.
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (!mainWindow) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });

  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, log));

  app.whenReady().then(start, (err: unknown) => {
    console.error('Cairn 启动失败：', err);
    app.exit(1);
  });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  app.on('activate', () => {
    if (services && BrowserWindow.getAllWindows().length === 0) openWindow();
  });

  // Stop the embedded platform before exiting, so its database is closed cleanly.
  app.on('before-quit', (event) => {
    if (quitting || !services) return;
    event.preventDefault();
    quitting = true;
    void services.platform.stop().finally(() => app.quit());
  });
}

function openWindow(): void {
  mainWindow = createMainWindow({ preloadPath: built.preload, log });
  mainWindow.on('closed', () => (mainWindow = null));
}

async function start(): Promise<void> {
  const userData = app.getPath('userData');
  hardenSession(session.defaultSession);
  serveRenderer(built.renderer);

  const platform = createLocalPlatform({
    spawner: createUtilitySpawner(built.server),
    dataDir: path.join(userData, 'platform'),
    log,
  });
  services = createAppServices({
    shell: 'electron',
    version: app.getVersion(),
    dataDir: userData,
    store: createElectronStore(),
    vault: createVault({ backend: createKeyringBackend(), log }),
    platform,
    // The native open dialog, filtered per source type; the web host has none and the renderer
    // falls back to the browser's file input there.
    pickFiles: (request) => pickFiles(mainWindow, request),
    // Feature files are written by the engine in a utilityProcess of their own: main has no engine.
    writeFeature: createFeatureWriter(createUtilitySpawner(built.featureWriter, 'Cairn 特征文件'), { version: app.getVersion(), log }),
    // The report library opens its files with the system's programs.
    openPath: (file) => shell.openPath(file),
    showItemInFolder: (file) => shell.showItemInFolder(file),
  });

  const dispatcher = createDispatcher(createHandlers(services), {
    checkResponses: !app.isPackaged,
    onError: (channel, err) => console.error(`IPC ${channel} 出错：`, err),
  });
  const windows = () => (mainWindow && !mainWindow.isDestroyed() ? [mainWindow.webContents] : []);
  registerIpcHandlers({ dispatcher, trustedWebContents: windows, log });
  services.onEvent((channel, payload) => sendToWindows(windows(), channel, payload));

  // The window opens at once; the renderer shows the platform status while it starts.
  void platform.start();
  openWindow();
}
