// A real npm registry on loopback for the online-resolution tests: verdaccio (an npm
// devDependency) started with a throwaway config and storage, one user added through the registry's
// own API, and package tarballs published to it with `npm publish --registry`. stop() ends the
// process and removes the folder.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './registry.ts';

const run = promisify(execFile);

export interface TestNpmRegistry {
  url: string;
  /** Publishes a tarball (a path) as the registry's user. */
  publish(tarball: string): Promise<void>;
  stop(): Promise<void>;
}

/** verdaccio's command: the project's devDependency, or CAIRN_VERDACCIO when set. */
export function verdaccioBin(): string {
  return process.env.CAIRN_VERDACCIO ?? path.resolve('node_modules/.bin/verdaccio');
}

export async function startVerdaccio(): Promise<TestNpmRegistry> {
  const bin = verdaccioBin();
  if (!existsSync(bin)) throw new Error(`找不到 verdaccio（${bin}）：请运行 npm install（它是 devDependency）`);
  const dir = mkdtempSync(path.join(tmpdir(), 'cairn-verdaccio-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  writeFileSync(path.join(dir, 'config.yaml'), [
    `storage: ${path.join(dir, 'storage')}`,
    'auth:',
    '  htpasswd:',
    `    file: ${path.join(dir, 'htpasswd')}`,
    '    max_users: 10',
    'uplinks: {}',
    'packages:',
    "  '@*/*':",
    '    access: $all',
    '    publish: $authenticated',
    "  '**':",
    '    access: $all',
    '    publish: $authenticated',
    'log: { type: stdout, format: pretty, level: warn }',
    '',
  ].join('\n'));
  // Run by this Node (verdaccio needs a newer one than a plain `node` on PATH may be).
  const child: ChildProcess = spawn(process.execPath, [realpathSync(bin), '--config', path.join(dir, 'config.yaml'), '--listen', `127.0.0.1:${port}`], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_ENV: 'production' } });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => { output += d.toString(); });
  child.stderr?.on('data', (d: Buffer) => { output += d.toString(); });
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`verdaccio 已退出：${output}`);
      const up = await fetch(`${url}-/ping`).then((r) => r.ok).catch(() => false);
      if (up) break;
      if (Date.now() > deadline) throw new Error(`verdaccio 未能启动：${output}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const added = await fetch(`${url}-/user/org.couchdb.user:cairn`, {
      method: 'PUT', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'cairn', password: 'cairn-test-password', type: 'user', roles: [], date: new Date().toISOString() }),
    });
    const token = ((await added.json()) as { token?: string }).token;
    if (!token) throw new Error(`verdaccio 未能创建用户（HTTP ${added.status}）`);
    const npmrc = path.join(dir, '.npmrc');
    writeFileSync(npmrc, `//127.0.0.1:${port}/:_authToken=${token}\n`);
    return {
      url,
      async publish(tarball: string) {
        await run('npm', ['publish', tarball, '--registry', url, '--userconfig', npmrc, '--ignore-scripts', '--no-audit', '--tag', 'latest'], { cwd: dir, env: { ...process.env, npm_config_cache: path.join(dir, 'npm-cache') } });
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
