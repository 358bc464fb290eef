// Serving the built renderer (dist/renderer/) safely, shared by Electron's app:// protocol and
// the web host: no path traversal, no symlink escape, correct content types, a strict CSP.
import { readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * The renderer's Content-Security-Policy. Scripts only from our own origin (no inline, no eval);
 * inline styles are allowed because Blueprint positions popovers with style attributes.
 */
export const RENDERER_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-src 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers every renderer response carries. */
export const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': RENDERER_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.eot': 'application/vnd.ms-fontobject',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.pdf': 'application/pdf',
};

const contentTypeOf = (file: string): string => TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';

/** The decoded path segments, or null when the path tries to climb out or smuggle separators. */
function safeSegments(pathname: string): string[] | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const segments = decoded.split('/').filter((s) => s !== '');
  if (segments.some((s) => s === '..' || s === '.' || /^[a-zA-Z]:$/.test(s))) return null;
  return segments;
}

const isSafeUrlPath = (pathname: string): boolean => safeSegments(pathname) !== null;

/**
 * The file under `root` that a URL path names, or null when it does not exist or would leave
 * `root` (`..` segments, encoded or not, backslashes, NUL, symlinks pointing outside).
 */
async function resolveStaticFile(root: string, pathname: string): Promise<string | null> {
  const segments = safeSegments(pathname);
  if (!segments) return null;
  if (segments.length === 0) segments.push('index.html');
  let realRoot: string;
  try {
    realRoot = await realpath(root);
  } catch {
    return null;
  }
  const candidate = path.join(realRoot, ...segments);
  try {
    const real = await realpath(candidate);
    if (real !== realRoot && !real.startsWith(realRoot + path.sep)) return null;
    return (await stat(real)).isFile() ? real : null;
  } catch {
    return null;
  }
}

/** A path that looks like a client-side route (no file extension) falls back to index.html. */
const isRouteLike = (pathname: string): boolean => !path.posix.extname(pathname) && !pathname.startsWith('/assets/');

export interface StaticFile {
  file: string;
  type: string;
  body: Buffer;
}

/** Read the file for a URL path, with the SPA fallback to index.html for route-like paths. */
export async function readStatic(root: string, pathname: string): Promise<StaticFile | null> {
  if (!isSafeUrlPath(pathname)) return null;
  let file = await resolveStaticFile(root, pathname);
  if (!file && isRouteLike(pathname)) file = await resolveStaticFile(root, '/index.html');
  if (!file) return null;
  return { file, type: contentTypeOf(file), body: await readFile(file) };
}
