import { describe, expect, it, vi } from 'vitest';
import { desktopContract, walkContract, type IpcResult } from '../../../contract/ipc/desktop-contract.ts';
import { buildDesktop, type DesktopTransport } from '../../../preload/build-desktop.ts';

function recordingTransport() {
  const listeners = new Map<string, (payload: unknown) => void>();
  const transport: DesktopTransport & { invoked: Array<[string, unknown]>; unsubscribed: string[] } = {
    invoked: [],
    unsubscribed: [],
    invoke: vi.fn(async (channel: string, request: unknown): Promise<IpcResult<unknown>> => {
      transport.invoked.push([channel, request]);
      return { ok: true, value: `answer of ${channel}` };
    }),
    on: vi.fn((channel: string, listener: (payload: unknown) => void) => {
      listeners.set(channel, listener);
      return () => {
        transport.unsubscribed.push(channel);
        listeners.delete(channel);
      };
    }),
  };
  return { transport, listeners };
}

describe('buildDesktop', () => {
  it('creates one function per descriptor, in the shape of the contract', () => {
    const { transport } = recordingTransport();
    const desktop = buildDesktop(transport) as unknown as Record<string, Record<string, unknown>>;
    for (const { path } of walkContract(desktopContract)) {
      expect(typeof desktop[path[0]!]![path[1]!], path.join('.')).toBe('function');
    }
    expect(Object.keys(desktop).sort()).toEqual(Object.keys(desktopContract).sort());
  });

  it('invoke functions send the request on their channel and return the transport answer', async () => {
    const { transport } = recordingTransport();
    const desktop = buildDesktop(transport);
    expect(await desktop.profiles.add({ name: 'A', url: 'https://a.example' })).toEqual({ ok: true, value: 'answer of profiles:add' });
    expect(await desktop.app.info({})).toEqual({ ok: true, value: 'answer of app:info' });
    expect(transport.invoked).toEqual([
      ['profiles:add', { name: 'A', url: 'https://a.example' }],
      ['app:info', {}],
    ]);
  });

  it('event functions subscribe on their channel and return the unsubscribe function', () => {
    const { transport, listeners } = recordingTransport();
    const desktop = buildDesktop(transport);
    const seen: unknown[] = [];
    const off = desktop.session.expired((payload) => seen.push(payload));
    listeners.get('session:expired')!({ message: '登录已失效' });
    expect(seen).toEqual([{ message: '登录已失效' }]);
    off();
    expect(transport.unsubscribed).toEqual(['session:expired']);
    desktop.platform.statusChanged(() => {});
    expect(transport.on).toHaveBeenLastCalledWith('platform:status-changed', expect.any(Function));
  });

  it('is frozen: the page cannot swap a function for its own', () => {
    const desktop = buildDesktop(recordingTransport().transport) as unknown as { app: Record<string, unknown> };
    expect(Object.isFrozen(desktop)).toBe(true);
    expect(() => {
      desktop.app.info = () => 'hijacked';
    }).toThrow();
  });
});
