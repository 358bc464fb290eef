// Builds `window.desktop` from the IPC contract over any transport (Electron IPC in index.ts,
// HTTP in web.ts). No logic: one function per descriptor, in the contract's shape.
import { desktopContract, walkContract, type ContractTree, type DesktopApi, type IpcResult } from '../contract/ipc/desktop-contract.ts';

export interface DesktopTransport {
  invoke(channel: string, request: unknown): Promise<IpcResult<unknown>>;
  /** Subscribe to an event channel; returns the unsubscribe function. */
  on(channel: string, listener: (payload: unknown) => void): () => void;
}

export function buildDesktop<T extends ContractTree = typeof desktopContract>(transport: DesktopTransport, contract: T = desktopContract as unknown as T): DesktopApi<T> {
  const root: Record<string, unknown> = {};
  for (const { path, descriptor } of walkContract(contract)) {
    let node = root;
    for (const key of path.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
    const { channel } = descriptor;
    node[path[path.length - 1]!] = descriptor.kind === 'invoke'
      ? (request: unknown) => transport.invoke(channel, request)
      : (listener: (payload: unknown) => void) => transport.on(channel, listener);
  }
  return deepFreeze(root) as DesktopApi<T>;
}

function deepFreeze<T extends object>(value: T): T {
  for (const child of Object.values(value)) if (child && typeof child === 'object') deepFreeze(child);
  return Object.freeze(value);
}
