// main/window.ts wires window-policy.ts to Electron. Electron's binary cannot be had here, so the
// few Electron objects it touches are stand-ins recording what was asked of them.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mainWindowOptions } from '../../../main/window-policy.ts';

const electron = vi.hoisted(() => {
  const windows: Array<{ options: unknown; url: string | null; on: ReturnType<typeof vi.fn>; once: ReturnType<typeof vi.fn> }> = [];
  class BrowserWindow {
    options: unknown;
    url: string | null = null;
    on = vi.fn();
    once = vi.fn();
    constructor(options: unknown) {
      this.options = options;
      windows.push(this);
    }
    loadURL(url: string) {
      this.url = url;
      return Promise.resolve();
    }
  }
  return { BrowserWindow, windows, shell: { openExternal: vi.fn(async () => {}) } };
});
vi.mock('electron', () => ({ BrowserWindow: electron.BrowserWindow, shell: electron.shell }));

const { createMainWindow, hardenSession, hardenWebContents } = await import('../../../main/window.ts');

type Listener = (event: { preventDefault(): void }, url: string) => void;

function fakeContents() {
  const listeners = new Map<string, Listener>();
  let openHandler: ((details: { url: string }) => { action: string }) | null = null;
  const contents = {
    setWindowOpenHandler: (fn: typeof openHandler) => (openHandler = fn),
    on: (name: string, fn: Listener) => listeners.set(name, fn),
  };
  const fire = (name: string, url: string) => {
    const event = { preventDefault: vi.fn() };
    listeners.get(name)!(event, url);
    return event.preventDefault.mock.calls.length > 0;
  };
  return { contents, fire, open: (url: string) => openHandler!({ url }), listeners };
}

beforeEach(() => {
  electron.shell.openExternal.mockClear();
  electron.windows.length = 0;
});

describe('createMainWindow', () => {
  it('opens a BrowserWindow with exactly the hardened options on app://cairn/index.html', () => {
    createMainWindow({ preloadPath: '/app/dist/preload/index.cjs' });
    const [win] = electron.windows;
    expect(win!.options).toEqual(mainWindowOptions('/app/dist/preload/index.cjs'));
    expect(win!.url).toBe('app://cairn/index.html');
    expect(win!.on).toHaveBeenCalledWith('page-title-updated', expect.any(Function));
  });
});

describe('hardenWebContents', () => {
  it('lets app:// navigations through and stops every other one, opening only safe https outside', () => {
    const log = vi.fn();
    const { contents, fire } = fakeContents();
    hardenWebContents(contents as never, log);
    for (const name of ['will-navigate', 'will-redirect']) {
      expect(fire(name, 'app://cairn/index.html#/home'), name).toBe(false);
      expect(fire(name, 'http://example.com/'), name).toBe(true);
      expect(fire(name, 'https://nvd.nist.gov/'), name).toBe(true);
    }
    expect(electron.shell.openExternal.mock.calls).toEqual([['https://nvd.nist.gov/'], ['https://nvd.nist.gov/']]);
    expect(log).toHaveBeenCalledWith('已阻止打开外部链接：http://example.com/');
  });

  it('denies every new window and refuses webviews', () => {
    const { contents, fire, open } = fakeContents();
    hardenWebContents(contents as never);
    expect(open('https://github.com/advisories')).toEqual({ action: 'deny' });
    expect(open('file:///etc/passwd')).toEqual({ action: 'deny' });
    expect(electron.shell.openExternal.mock.calls).toEqual([['https://github.com/advisories']]);
    expect(fire('will-attach-webview', 'app://cairn/')).toBe(true);
  });
});

describe('hardenSession', () => {
  it('answers permission requests and checks from the policy', () => {
    let request: ((wc: { getURL(): string }, permission: string, callback: (ok: boolean) => void) => void) | null = null;
    let check: ((wc: unknown, permission: string, origin: string) => boolean) | null = null;
    hardenSession({ setPermissionRequestHandler: (fn: typeof request) => (request = fn), setPermissionCheckHandler: (fn: typeof check) => (check = fn) } as never);
    const answers: boolean[] = [];
    request!({ getURL: () => 'app://cairn/index.html' }, 'clipboard-sanitized-write', (ok) => answers.push(ok));
    request!({ getURL: () => 'app://cairn/index.html' }, 'media', (ok) => answers.push(ok));
    request!({ getURL: () => 'https://evil.example/' }, 'clipboard-sanitized-write', (ok) => answers.push(ok));
    expect(answers).toEqual([true, false, false]);
    expect(check!(null, 'clipboard-sanitized-write', 'app://cairn')).toBe(true);
    expect(check!(null, 'geolocation', 'app://cairn')).toBe(false);
  });
});
