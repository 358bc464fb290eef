// Test helpers for the renderer: a fake bridge, a recording notifier, an in-memory localStorage.
import type { DesktopApi, IpcResult } from '../../../contract/ipc/desktop-contract.ts';
import type { SessionUser } from '../../../contract/api/session.ts';
import type { Notifier } from '../../../renderer/app/notifier.ts';

export const envelope = (code: number, message: string, data: unknown = null) => ({ ok: true as const, value: { code, message, data } });

export function fakeUser(over: Partial<SessionUser> = {}): SessionUser {
  return {
    userId: 7,
    username: 'analyst',
    name: '张三',
    roleName: '普通用户',
    roleCodes: [3],
    permissionPOS: [{ code: 'project:list' }, { code: 'risk:vul:list' }],
    dataPermissionEnum: 'SELF',
    updatedPwd: true,
    userType: 0,
    email: null,
    phone: null,
    passwordPolicy: { length: 8, uppercase: true, lowercase: true, digit: true, special: true },
    ...over,
  };
}

export interface RecordedCall {
  method: string;
  path: string;
  query?: unknown;
  body?: unknown;
}

/** A bridge whose api.call answers from `answer`; everything else is unused by these tests. */
export function fakeDesktop(answer: (req: RecordedCall) => IpcResult<unknown> | Promise<IpcResult<unknown>>) {
  const calls: RecordedCall[] = [];
  const unused = () => Promise.reject(new Error('not used in this test'));
  const noEvent = () => () => {};
  const api = {
    app: { info: unused },
    profiles: { list: unused, add: unused, update: unused, remove: unused, activate: unused, test: unused, changed: noEvent },
    session: { saved: unused, login: unused, logout: unused, forget: unused, expired: noEvent },
    api: {
      call: async (req: RecordedCall) => {
        calls.push(req);
        return answer(req);
      },
    },
    platform: { status: unused, restart: unused, statusChanged: noEvent },
    vault: { status: unused },
  } as unknown as DesktopApi;
  return { api, calls };
}

export function recordingNotifier() {
  const messages: Array<{ kind: keyof Notifier; message: string }> = [];
  const notifier: Notifier = {
    success: (message) => messages.push({ kind: 'success', message }),
    warning: (message) => messages.push({ kind: 'warning', message }),
    error: (message) => messages.push({ kind: 'error', message }),
  };
  return { notifier, messages };
}

/** A Storage in memory, installed as globalThis.localStorage for the duration of a test. */
export class MemoryStorage implements Storage {
  private map = new Map<string, string>();
  get length() {
    return this.map.size;
  }
  clear() {
    this.map.clear();
  }
  getItem(key: string) {
    return this.map.has(key) ? this.map.get(key)! : null;
  }
  key(index: number) {
    return [...this.map.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.map.delete(key);
  }
  setItem(key: string, value: string) {
    this.map.set(key, String(value));
  }
}

export function installMemoryStorage(): { storage: MemoryStorage; restore: () => void } {
  const storage = new MemoryStorage();
  const had = Object.getOwnPropertyDescriptor(globalThis, 'localStorage');
  Object.defineProperty(globalThis, 'localStorage', { value: storage, configurable: true, writable: true });
  return {
    storage,
    restore: () => {
      if (had) Object.defineProperty(globalThis, 'localStorage', had);
      else delete (globalThis as { localStorage?: Storage }).localStorage;
    },
  };
}
