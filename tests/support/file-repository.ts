// Repositories served from files on loopback for the online-resolution tests: a Maven-layout
// repository or a PyPI simple index is a folder; every request is logged so a test can tell what
// was asked, and Basic credentials can be required.
import { readFile, stat } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

export interface FileRepository {
  url: string;
  requests: Array<{ path: string; authorization?: string }>;
  stop(): Promise<void>;
}

const TYPES: Record<string, string> = { '.pom': 'text/xml', '.xml': 'text/xml', '.html': 'text/html', '.json': 'application/json', '.metadata': 'text/plain' };

/** Serves `dir` at `http://127.0.0.1:<port>/<prefix>`; a folder answers its index.html. */
export async function serveFiles(dir: string, options: { prefix?: string; credentials?: { username: string; password: string } } = {}): Promise<FileRepository> {
  const prefix = `/${(options.prefix ?? '').replace(/^\/|\/$/g, '')}`.replace(/\/$/, '');
  const requests: FileRepository['requests'] = [];
  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      requests.push({ path: url.pathname, authorization: req.headers.authorization });
      if (options.credentials) {
        const want = `Basic ${Buffer.from(`${options.credentials.username}:${options.credentials.password}`).toString('base64')}`;
        if (req.headers.authorization !== want) { res.writeHead(401, { 'www-authenticate': 'Basic realm="test"' }).end(); return; }
      }
      if (!url.pathname.startsWith(prefix)) { res.writeHead(404).end(); return; }
      const rel = decodeURIComponent(url.pathname.slice(prefix.length));
      let file = path.join(dir, path.normalize(rel).replace(/^(\.\.[/\\])+/, ''));
      if (!file.startsWith(dir)) { res.writeHead(403).end(); return; }
      const info = await stat(file).catch(() => null);
      if (info?.isDirectory()) file = path.join(file, 'index.html');
      const body = await readFile(file).catch(() => null);
      if (!body) { res.writeHead(404).end(); return; }
      res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'content-length': body.length }).end(body);
    })().catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${prefix}/`,
    requests,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
