// The standalone entry as a real process: announces its random port, serves HTTP, shuts down cleanly.
import { fork, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseConfig } from '../../../server/config.ts';
import { databases, type TestDatabase } from './harness.ts';

const ENTRY = path.resolve(import.meta.dirname, '../../../server/server.ts');

const envFor = (config: DatabaseConfig, dataDir: string): NodeJS.ProcessEnv => ({
  ...process.env,
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  CAIRN_DATA_DIR: dataDir,
  DATABASE_URL: config.kind === 'postgres' ? config.url : '',
});

/** Resolves with the announced URL from the first `{"event":"listening"}` line of stdout. */
function listeningUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      for (const line of buffer.split('\n')) {
        try {
          const event = JSON.parse(line) as { event?: string; url?: string };
          if (event.event === 'listening' && event.url) resolve(event.url);
        } catch {}
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited early with ${code}`)));
  });
}

describe.each(databases)('standalone server on $name', (database: TestDatabase) => {
  let config: DatabaseConfig;
  let drop: () => Promise<void>;
  let dataDir: string;
  beforeAll(async () => {
    ({ config, drop } = await database.create());
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-proc-'));
  });
  afterAll(async () => {
    await drop?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints its URL, serves real HTTP and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, [ENTRY], { env: envFor(config, dataDir), stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const url = await listeningUrl(child);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const health = await fetch(`${url}/api/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ code: 1, data: { status: 'ok', database: database.name } });

      const csrf = await fetch(`${url}/api/csrf`, { method: 'POST' });
      const cookie = csrf.headers.getSetCookie()[0]!.split(';')[0]!;
      const { data } = await csrf.json() as { data: { token: string } };
      const login = await fetch(`${url}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie, 'x-csrf-token': data.token },
        body: JSON.stringify({ username: 'admin', password: 'Cairn@123' }),
      });
      expect(await login.json()).toMatchObject({ code: 1, data: { username: 'admin', updatedPwd: false } });
      if (database.name === 'sqlite') expect(fs.existsSync(path.join(dataDir, 'cairn.db'))).toBe(true);

      child.kill('SIGTERM');
      const [code] = await once(child, 'exit');
      expect(code).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('announces over the fork IPC channel and stops on a shutdown message', async () => {
    const child = fork(ENTRY, [], { env: envFor(config, dataDir), execArgv: [], stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    try {
      const [message] = await once(child, 'message') as [{ type: string; url: string }];
      expect(message.type).toBe('listening');
      expect((await fetch(`${message.url}/api/health`)).status).toBe(200);
      child.send({ type: 'shutdown' });
      const [code] = await once(child, 'exit');
      expect(code).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});

describe('standalone server start-up failure', () => {
  it('reports why and exits 1 when the database cannot be reached', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-proc-'));
    try {
      const env = { ...envFor({ kind: 'postgres', url: 'postgres://nobody:nothing@127.0.0.1:1/none' }, dataDir) };
      const child = fork(ENTRY, [], { env, execArgv: [], stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
      const [message] = await once(child, 'message') as [{ type: string; message: string }];
      expect(message.type).toBe('error');
      expect(message.message).toMatch(/^平台启动失败：/);
      const [code] = child.exitCode === null ? await once(child, 'exit') : [child.exitCode];
      expect(code).toBe(1);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
