// Starts the platform as a Node child process (web host, tests): `child_process.fork` of
// server/server.ts, which Node 24 runs directly (type stripping). The IPC channel carries the
// listening and shutdown messages; stdout/stderr are read line by line.
import { fork } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { PlatformChild, PlatformSpawner } from './local-platform.ts';

export interface NodeSpawnerOptions {
  /** Absolute path of the entry (server/server.ts, or a built dist/server/server.js). */
  entry: string;
  cwd?: string;
  /** Node binary; the current one by default. */
  execPath?: string;
  execArgv?: string[];
}

export function createNodeSpawner(options: NodeSpawnerOptions): PlatformSpawner {
  return {
    spawn(env, handlers) {
      const child = fork(options.entry, [], {
        cwd: options.cwd,
        execPath: options.execPath,
        execArgv: options.execArgv ?? [],
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
        serialization: 'json',
      });
      let exited = false;
      const finish = (code: number | null, signal: string | null) => {
        if (exited) return;
        exited = true;
        handlers.onExit(code, signal);
      };
      child.on('message', (message) => handlers.onMessage(message));
      child.on('exit', (code, signal) => finish(code, signal));
      // A fork that fails to start at all reports 'error' without 'exit'.
      child.on('error', (err) => {
        handlers.onOutput(`进程错误：${err.message}`, 'stderr');
        if (child.exitCode === null && child.signalCode === null && child.pid === undefined) finish(null, null);
      });
      if (child.stdout) createInterface({ input: child.stdout, crlfDelay: Infinity }).on('line', (line) => handlers.onOutput(line, 'stdout'));
      if (child.stderr) createInterface({ input: child.stderr, crlfDelay: Infinity }).on('line', (line) => handlers.onOutput(line, 'stderr'));
      const handle: PlatformChild = {
        pid: child.pid ?? null,
        send(message) {
          if (!child.connected) return false;
          try {
            return child.send(message as object);
          } catch {
            return false;
          }
        },
        kill(signal) {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
        },
      };
      return handle;
    },
  };
}
