// preload/index.ts over stand-ins for Electron's sandboxed preload modules: the page gets the
// contract's functions plus files.pathFor, and pathFor tells main of a real File's path — with a
// synchronous message, so main knows it before the page can hand it to uploads:start.
import { describe, expect, it, vi } from 'vitest';
import { FILES_CHOSEN_CHANNEL, desktopContract } from '../../../contract/ipc/desktop-contract.ts';

const electron = vi.hoisted(() => {
  const exposed = new Map<string, unknown>();
  const order: string[] = [];
  const paths = new WeakMap<object, string>();
  return {
    exposed,
    order,
    paths,
    contextBridge: { exposeInMainWorld: (key: string, value: unknown) => exposed.set(key, value) },
    ipcRenderer: {
      invoke: vi.fn(async () => ({ ok: true, value: null })),
      on: vi.fn(),
      removeListener: vi.fn(),
      sendSync: vi.fn((channel: string, file: string) => {
        order.push(`sendSync ${channel} ${file}`);
        return true;
      }),
    },
    // Electron answers '' for a File the page made itself (no file on disk behind it).
    webUtils: { getPathForFile: (file: object) => paths.get(file) ?? '' },
  };
});
vi.mock('electron', () => ({ contextBridge: electron.contextBridge, ipcRenderer: electron.ipcRenderer, webUtils: electron.webUtils }));

await import('../../../preload/index.ts');
const desktop = electron.exposed.get('desktop') as { files: { pathFor(file: object): string }; uploads: { start(request: unknown): Promise<unknown> } };

describe('Electron preload', () => {
  it('registers a dropped file\'s path with main before handing it to the page', () => {
    const dropped = {};
    electron.paths.set(dropped, '/home/user/Downloads/app.zip');
    const found = desktop.files.pathFor(dropped);
    electron.order.push(`returned ${found}`);
    expect(electron.order).toEqual([`sendSync ${FILES_CHOSEN_CHANNEL} /home/user/Downloads/app.zip`, 'returned /home/user/Downloads/app.zip']);
  });

  it('registers nothing for a File with no path (made by the page)', () => {
    electron.ipcRenderer.sendSync.mockClear();
    expect(desktop.files.pathFor({})).toBe('');
    expect(electron.ipcRenderer.sendSync).not.toHaveBeenCalled();
  });

  it('gives the page no way to register a path it names: only contract calls and pathFor', async () => {
    expect(Object.keys(desktop.files)).toEqual(['pathFor']);
    expect(Object.keys(desktop).sort()).toEqual([...Object.keys(desktopContract), 'files'].sort());
    await desktop.uploads.start({ path: '/etc/passwd' });
    expect(electron.ipcRenderer.invoke).toHaveBeenLastCalledWith('uploads:start', { path: '/etc/passwd' });
    expect(electron.ipcRenderer.sendSync).not.toHaveBeenCalledWith(FILES_CHOSEN_CHANNEL, '/etc/passwd');
  });
});
