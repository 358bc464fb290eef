// The app:// protocol that serves dist/renderer/. A privileged standard+secure scheme gives the
// renderer a real origin (app://cairn) — needed for the IPC sender check, fetch and a CSP with
// 'self' — without a local HTTP server or file:// (which would grant access to the whole disk).
import { protocol } from 'electron';
import { APP_HOST, APP_SCHEME } from '../ipc/sender.ts';
import { SECURITY_HEADERS, readStatic } from '../static-files.ts';

/** Must run before app `ready`. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } },
  ]);
}

/** After `ready`: answer app://cairn/<path> from the renderer directory. */
export function serveRenderer(rendererDir: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    if (url.host !== APP_HOST || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return new Response('请求地址出错', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8', ...SECURITY_HEADERS } });
    }
    const found = await readStatic(rendererDir, url.pathname);
    if (!found) return new Response('请求地址出错', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8', ...SECURITY_HEADERS } });
    return new Response(new Uint8Array(found.body), { status: 200, headers: { 'Content-Type': found.type, ...SECURITY_HEADERS } });
  });
}
