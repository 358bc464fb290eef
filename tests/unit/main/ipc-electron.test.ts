// main/ipc/electron.ts, the Electron side of IPC, over a stand-in ipcMain (Electron's binary cannot
// be had here): every invoke checks its sender; preload's registration of a dropped file's path
// (FILES_CHOSEN_CHANNEL, sent synchronously) is taken from our window's top frame only, always
// answered, and is what lets uploads:start / review:open name that path — and nothing else.
import path from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { FILES_CHOSEN_CHANNEL } from '../../../contract/ipc/desktop-contract.ts';

type Handler = (event: unknown, payload: unknown) => unknown;
const electron = vi.hoisted(() => {
  const handlers = new Map<string, (event: unknown, payload: unknown) => unknown>();
  const listeners = new Map<string, (event: unknown, payload: unknown) => void>();
  const ipcMain = {
    handle: (channel: string, fn: (event: unknown, payload: unknown) => unknown) => handlers.set(channel, fn),
    removeHandler: (channel: string) => handlers.delete(channel),
    on: (channel: string, fn: (event: unknown, payload: unknown) => void) => listeners.set(channel, fn),
    removeListener: (channel: string, fn: unknown) => {
      if (listeners.get(channel) === fn) listeners.delete(channel);
    },
  };
  return { ipcMain, handlers, listeners };
});
vi.mock('electron', () => ({ ipcMain: electron.ipcMain }));

const { registerIpcHandlers } = await import('../../../main/ipc/electron.ts');
const { createDispatcher } = await import('../../../main/ipc/dispatcher.ts');
const { createHandlers } = await import('../../../main/ipc/handlers.ts');
const { createAppServices } = await import('../../../main/services/app-services.ts');
const { createVault } = await import('../../../main/services/vault.ts');
const { createMemoryStore } = await import('../../support/memory-store.ts');
const { fakePlatform, memoryKeyring } = await import('./fakes.ts');

const OUR_WINDOW = 7;
const ourContents = { id: OUR_WINDOW, isDestroyed: () => false };

/** An IPC event as Electron gives it: who sent it, from which frame; `returnValue` for sendSync. */
function eventFrom(sender = OUR_WINDOW, url = 'app://cairn/index.html#/desktop/review', mainFrame = true) {
  return { sender: { id: sender }, senderFrame: { url, parent: mainFrame ? null : {} }, returnValue: undefined as unknown };
}

describe('Electron IPC adapter', () => {
  let log: ReturnType<typeof vi.fn<(message: string) => void>>;
  let start: ReturnType<typeof vi.fn>;
  let dispose: () => void;

  beforeEach(() => {
    dispose?.();
    const services = createAppServices({ shell: 'electron', version: '0.1.0', dataDir: '/data', store: createMemoryStore(), vault: createVault({ backend: memoryKeyring() }), platform: fakePlatform('http://127.0.0.1:1') });
    const handlers = createHandlers(services);
    start = vi.fn(async ({ path: file }: { path: string }) => ({ localId: 'u1', uploadId: null, fileName: path.basename(file), sent: 0, total: 0, bytesPerSecond: 0, state: 'preparing' as const, error: null }));
    const dispatcher = createDispatcher({ ...handlers, uploads: { ...handlers.uploads, start } } as typeof handlers);
    log = vi.fn<(message: string) => void>();
    dispose = registerIpcHandlers({ dispatcher, trustedWebContents: () => [ourContents as never], log });
  });

  const invoke = (channel: string, payload: unknown, event = eventFrom()) => (electron.handlers.get(channel) as Handler)(event, payload);
  const choose = (file: unknown, event = eventFrom()) => {
    electron.listeners.get(FILES_CHOSEN_CHANNEL)!(event, file);
    return event.returnValue;
  };

  it('handles every invoke channel and refuses a sender that is not our window\'s app:// top frame', async () => {
    expect(electron.handlers.has('uploads:start')).toBe(true);
    expect(electron.handlers.has(FILES_CHOSEN_CHANNEL)).toBe(false);
    for (const event of [eventFrom(8), eventFrom(OUR_WINDOW, 'https://evil.example/'), eventFrom(OUR_WINDOW, 'app://cairn/', false)]) {
      expect(await invoke('app:info', {}, event)).toEqual({ ok: false, error: { code: 'forbidden-sender', message: '拒绝访问：调用来源不受信任' } });
    }
    expect(await invoke('app:info', {})).toMatchObject({ ok: true, value: { shell: 'electron' } });
  });

  it('uploads:start refuses a path the page names without the user having dropped or picked it', async () => {
    expect(await invoke('uploads:start', { path: path.resolve('/home/user/.ssh/id_ed25519') })).toEqual({
      ok: false,
      error: { code: 'forbidden-path', message: '只能上传本次运行中通过选择或拖放提供的文件，请重新选择' },
    });
    expect(await invoke('review:open', { path: path.resolve('/home/user/.config/Cairn/profiles.json') })).toMatchObject({ ok: false, error: { code: 'forbidden-path' } });
    expect(start).not.toHaveBeenCalled();
  });

  it('a drop registered by preload (our top frame) makes that path, and only it, usable', async () => {
    const dropped = path.resolve('/home/user/Downloads/shop-1.2.0.tar.gz');
    expect(choose(dropped)).toBe(true);
    expect(await invoke('uploads:start', { path: dropped })).toMatchObject({ ok: true, value: { fileName: 'shop-1.2.0.tar.gz' } });
    expect(start).toHaveBeenCalledOnce();
    expect(await invoke('uploads:start', { path: path.join(path.dirname(dropped), 'other.zip') })).toMatchObject({ ok: false, error: { code: 'forbidden-path' } });
  });

  it('a registration from anywhere else, or of something that is not an absolute path, is refused — and always answered', async () => {
    const secret = path.resolve('/etc/shadow');
    for (const event of [eventFrom(8), eventFrom(OUR_WINDOW, 'https://evil.example/'), eventFrom(OUR_WINDOW, 'app://cairn/', false)]) {
      expect(choose(secret, event)).toBe(false);
    }
    expect(log).toHaveBeenCalledWith(expect.stringContaining('拒绝了来自不受信任来源的文件登记'));
    for (const bad of ['relative/file.zip', '', 42, null, { path: secret }, `/${'a'.repeat(5000)}`]) expect(choose(bad)).toBe(false);
    expect(await invoke('uploads:start', { path: secret })).toMatchObject({ ok: false, error: { code: 'forbidden-path' } });
    expect(start).not.toHaveBeenCalled();
  });

  it('unregisters everything it registered', () => {
    dispose();
    expect(electron.handlers.size).toBe(0);
    expect(electron.listeners.has(FILES_CHOSEN_CHANNEL)).toBe(false);
    dispose = () => {};
  });
});
