// Transport-neutral IPC dispatch: the Electron adapter (electron.ts) and the web host's HTTP
// bridge both end here. A payload is validated against its descriptor's request schema BEFORE the
// handler runs, a local path in it must be one the user chose this session (chosen-paths.ts), and
// every outcome is data: `{ ok: true, value }` or `{ ok: false, error }`.
import type { Static } from 'typebox';
import { Compile } from 'typebox/compile';
import {
  desktopContract, walkContract,
  type DesktopContract, type EventDescriptor, type InvokeDescriptor, type IpcError, type IpcResult,
} from '../../contract/ipc/desktop-contract.ts';
import { isDesktopError } from '../services/errors.ts';
import { createChosenPaths, refusedPath, registerChosen, type ChosenPaths } from './chosen-paths.ts';
import { describeValidationErrors } from './validation.ts';

/** The handler tree: the contract's shape with a function at every invoke descriptor. */
export type HandlerTree<T> = {
  [K in keyof T as T[K] extends EventDescriptor ? never : K]: T[K] extends InvokeDescriptor<infer Req, infer Res>
    ? (request: Static<Req>) => Promise<Static<Res>> | Static<Res>
    : HandlerTree<T[K]>;
};
export type Handlers = HandlerTree<DesktopContract>;

export interface Dispatcher {
  /** Every invoke channel, e.g. `profiles:list`. */
  readonly channels: readonly string[];
  dispatch(channel: string, payload: unknown): Promise<IpcResult<unknown>>;
  /**
   * The paths the user chose in this session, the only ones a call may name. The dispatcher adds
   * what the native dialog answers; the hosts add Electron drops and the web host's staged files.
   */
  readonly chosenPaths: ChosenPaths;
}

export interface DispatcherOptions {
  /** Check handler results against the response schema (development and tests). */
  checkResponses?: boolean;
  /** Unexpected handler failures (bugs), for the log. */
  onError?: (channel: string, error: unknown) => void;
  /** Default: a new, empty registry for this dispatcher. */
  chosenPaths?: ChosenPaths;
}

export const ipcError = (code: string, message: string): { ok: false; error: IpcError } => ({ ok: false, error: { code, message } });

type AnyHandler = (request: unknown) => unknown;

export function createDispatcher(handlers: Handlers, options: DispatcherOptions = {}): Dispatcher {
  const routes = new Map<string, { request: ReturnType<typeof Compile>; response: ReturnType<typeof Compile>; handler: AnyHandler }>();
  for (const { path, descriptor } of walkContract(desktopContract)) {
    if (descriptor.kind !== 'invoke') continue;
    let node: unknown = handlers;
    for (const key of path) node = (node as Record<string, unknown> | undefined)?.[key];
    // The type of Handlers makes this unreachable; it guards against a cast in a test or host.
    if (typeof node !== 'function') throw new Error(`IPC 通道 ${descriptor.channel} 没有处理函数`);
    routes.set(descriptor.channel, { request: Compile(descriptor.request), response: Compile(descriptor.response), handler: node as AnyHandler });
  }

  const chosenPaths = options.chosenPaths ?? createChosenPaths();
  return {
    channels: [...routes.keys()],
    chosenPaths,
    async dispatch(channel, payload) {
      const route = typeof channel === 'string' ? routes.get(channel) : undefined;
      if (!route) return ipcError('unknown-channel', `未知的调用：${String(channel).slice(0, 100)}`);
      if (!route.request.Check(payload)) return ipcError('invalid-payload', describeValidationErrors(route.request.Errors(payload)));
      const refused = await refusedPath(chosenPaths, channel, payload);
      if (refused) return ipcError('forbidden-path', refused);
      try {
        const value = await route.handler(payload);
        if (options.checkResponses && !route.response.Check(value)) {
          options.onError?.(channel, new Error(`response of ${channel} does not match its schema: ${JSON.stringify(route.response.Errors(value).slice(0, 3))}`));
          return ipcError('invalid-response', '内部错误：返回的数据格式不正确');
        }
        registerChosen(chosenPaths, channel, value);
        return { ok: true, value };
      } catch (err) {
        if (isDesktopError(err)) return ipcError(err.code, err.message);
        options.onError?.(channel, err);
        return ipcError('internal', '操作失败：发生内部错误，请重试');
      }
    },
  };
}
