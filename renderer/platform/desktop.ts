// The only reader of window.desktop (design §2). Everything else in the renderer goes through the
// functions exported here, so the bridge can be swapped in tests and checked once at start-up.
import type { DesktopApi, DesktopFiles, IpcError, IpcResult } from '../../contract/ipc/desktop-contract.ts';
import { zh } from '../i18n/zh-CN.ts';

declare global {
  interface Window {
    desktop?: DesktopApi;
  }
}

export type { DesktopApi };

let override: DesktopApi | null = null;

/** Tests and the web host's harness may install a bridge explicitly. */
export function installDesktop(api: DesktopApi | null): void {
  override = api;
}

/** The bridge, or null when the page was opened without the desktop client or the web host. */
export function findDesktop(): DesktopApi | null {
  if (override) return override;
  const w = (globalThis as { window?: Window }).window;
  return w?.desktop ?? null;
}

export const hasDesktop = (): boolean => findDesktop() !== null;

/** The bridge; throws when it is missing (main.tsx checks first and shows an error screen). */
export function desktop(): DesktopApi {
  const api = findDesktop();
  if (!api) throw new DesktopError({ code: 'bridge-missing', message: zh.app.bridgeMissing });
  return api;
}

/** An `{ ok: false }` answer of the bridge, as an exception carrying the Chinese message. */
export class DesktopError extends Error {
  readonly code: string;
  constructor(error: IpcError) {
    super(error.message);
    this.name = 'DesktopError';
    this.code = error.code;
  }
}

/** `{ ok: true, value }` -> value; `{ ok: false, error }` -> throws DesktopError. */
function unwrap<T>(result: IpcResult<T>): T {
  if (result.ok) return result.value;
  throw new DesktopError(result.error);
}

/** Calls a bridge function and unwraps its result; a rejected IPC promise becomes a DesktopError. */
export async function invokeDesktop<T>(run: (api: DesktopApi) => Promise<IpcResult<T>>): Promise<T> {
  let result: IpcResult<T>;
  try {
    result = await run(desktop());
  } catch (e) {
    if (e instanceof DesktopError) throw e;
    throw new DesktopError({ code: 'bridge-failed', message: e instanceof Error && e.message ? e.message : zh.app.bridgeError });
  }
  return unwrap(result);
}

/** Message of anything thrown by a bridge call, for the screens. */
export const desktopErrorMessage = (e: unknown, fallback: string): string =>
  e instanceof Error && e.message ? e.message : fallback;

// ---- files for uploads

/** Electron: the local path of a File the user dropped or picked (a folder too); null in the web host. */
export function localPathOf(file: File): string | null {
  const api = findDesktop() as (DesktopApi & { files?: DesktopFiles }) | null;
  const found = api?.files?.pathFor(file);
  return found ? found : null;
}

/**
 * Web host: streams a browser File to the host (the body is the File itself, read from disk by the
 * browser as it is sent), staged under `batch` at `relativePath` (`name` or `folder/sub/name`).
 * Answers the local path to hand to `uploads.start`: the file, or the folder it belongs to.
 */
export async function stageBrowserFile(file: File, batch: string, relativePath: string, signal?: AbortSignal): Promise<string> {
  const query = new URLSearchParams({ batch, path: relativePath });
  let result: IpcResult<{ path: string }>;
  try {
    const res = await fetch(`/__desktop/files?${query.toString()}`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/octet-stream' },
      body: file,
      signal,
    });
    result = (await res.json()) as IpcResult<{ path: string }>;
  } catch (e) {
    throw new DesktopError({ code: 'bridge-failed', message: e instanceof Error && e.message ? e.message : zh.app.bridgeError });
  }
  return unwrap(result).path;
}
