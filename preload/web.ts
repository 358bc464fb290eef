// The web host's `window.desktop`: the same contract-built object as in Electron, over HTTP to
// the web host on loopback. Bundled as an IIFE (dist/web/desktop.js) and loaded before the app.
// Calls are POST /__desktop/invoke/<channel>; events arrive on one EventSource.
import type { IpcResult } from '../contract/ipc/desktop-contract.ts';
import { buildDesktop } from './build-desktop.ts';

const unreachable = (message: string): IpcResult<unknown> => ({ ok: false, error: { code: 'bridge-unreachable', message } });

async function invoke(channel: string, request: unknown): Promise<IpcResult<unknown>> {
  let res: Response;
  try {
    res = await fetch(`/__desktop/invoke/${encodeURIComponent(channel)}`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(request ?? null),
    });
  } catch {
    return unreachable('无法连接 Cairn 网页模式的宿主进程，请确认启动它的终端仍在运行');
  }
  try {
    return (await res.json()) as IpcResult<unknown>;
  } catch {
    return unreachable(`Cairn 网页模式宿主返回了无法识别的应答（HTTP ${res.status}）`);
  }
}

const listeners = new Map<string, Set<(payload: unknown) => void>>();
let source: EventSource | null = null;

function on(channel: string, listener: (payload: unknown) => void): () => void {
  if (!source) {
    // EventSource reconnects by itself if the host restarts.
    source = new EventSource('/__desktop/events');
    source.onmessage = (message) => {
      let event: { channel?: unknown; payload?: unknown };
      try {
        event = JSON.parse(String(message.data)) as typeof event;
      } catch {
        return;
      }
      if (typeof event.channel === 'string') for (const fn of listeners.get(event.channel) ?? []) fn(event.payload);
    };
  }
  let set = listeners.get(channel);
  if (!set) listeners.set(channel, (set = new Set()));
  set.add(listener);
  return () => {
    set.delete(listener);
  };
}

Object.defineProperty(globalThis, 'desktop', { value: buildDesktop({ invoke, on }), enumerable: true, configurable: false, writable: false });
