// Test doubles shared by the main-process unit tests.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EventEmitter } from 'node:events';
import type { PlatformStatus } from '../../../contract/ipc/desktop-contract.ts';
import type { LocalPlatform } from '../../../main/services/local-platform.ts';
import type { KeyringBackend } from '../../../main/services/vault.ts';

/** An in-memory keychain; `available = false` makes every call fail like a missing Secret Service. */
export function memoryKeyring(available = true): KeyringBackend & { entries: Map<string, string>; available: boolean } {
  const entries = new Map<string, string>();
  const backend = {
    name: 'Secret Service',
    entries,
    available,
    async probe() {
      if (!backend.available) throw new Error('org.freedesktop.DBus.Error.ServiceUnknown: The name org.freedesktop.secrets was not provided by any .service files');
    },
    async get(service: string, account: string) {
      await backend.probe();
      return entries.get(`${service}/${account}`) ?? null;
    },
    async set(service: string, account: string, secret: string) {
      await backend.probe();
      entries.set(`${service}/${account}`, secret);
    },
    async delete(service: string, account: string) {
      await backend.probe();
      return entries.delete(`${service}/${account}`);
    },
  };
  return backend;
}

/** A LocalPlatform that never starts a process: tests set its URL and state directly. */
export function fakePlatform(url: string | null = null): LocalPlatform & { set(status: Partial<PlatformStatus>): void; restarts: number } {
  const emitter = new EventEmitter();
  let status: PlatformStatus = { state: url ? 'running' : 'stopped', url, pid: url ? 1234 : null, restarts: 0, message: url ? '本机平台运行中' : '本机平台未启动' };
  const api = {
    restarts: 0,
    set(next: Partial<PlatformStatus>) {
      status = { ...status, ...next };
      emitter.emit('status', { ...status });
    },
    status: () => ({ ...status }),
    url: () => (status.state === 'running' ? status.url : null),
    notReadyMessage: () => (status.state === 'running' ? '' : '本机平台正在启动，请稍候再试'),
    async start() {
      return { ...status };
    },
    async restart() {
      api.restarts++;
      api.set({ state: 'running', restarts: status.restarts + 1 });
      return { ...status };
    },
    async stop() {
      api.set({ state: 'stopped', url: null });
    },
    onStatus(listener: (s: PlatformStatus) => void) {
      emitter.on('status', listener);
      return () => emitter.off('status', listener);
    },
  };
  return api;
}

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Route = (req: RecordedRequest, res: ServerResponse) => unknown;

/** A tiny HTTP server on loopback: every request is recorded, then answered by `route`. */
export async function tinyServer(route: Route): Promise<{ url: string; requests: RecordedRequest[]; route: Route; close(): Promise<void> }> {
  const requests: RecordedRequest[] = [];
  const state = { route };
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
    const recorded = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
    requests.push(recorded);
    await state.route(recorded, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get route() {
      return state.route;
    },
    set route(next: Route) {
      state.route = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string | string[]> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}
