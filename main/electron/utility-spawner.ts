// The embedded platform as an Electron utilityProcess: a Node process managed by Electron (no
// separate Node install needed, shows up in the app's process metrics, dies with the app).
import { utilityProcess } from 'electron';
import { createInterface } from 'node:readline';
import type { PlatformSpawner } from '../services/local-platform.ts';

export function createUtilitySpawner(entry: string, serviceName = 'Cairn 本机平台'): PlatformSpawner {
  return {
    spawn(env, handlers) {
      const child = utilityProcess.fork(entry, [], {
        env: { ...process.env, ...env } as Record<string, string>,
        stdio: 'pipe',
        serviceName,
      });
      let exited = false;
      child.on('message', (message: unknown) => handlers.onMessage(message));
      child.on('exit', (code: number) => {
        exited = true;
        handlers.onExit(code, null);
      });
      if (child.stdout) createInterface({ input: child.stdout, crlfDelay: Infinity }).on('line', (line) => handlers.onOutput(line, 'stdout'));
      if (child.stderr) createInterface({ input: child.stderr, crlfDelay: Infinity }).on('line', (line) => handlers.onOutput(line, 'stderr'));
      return {
        get pid() {
          return child.pid ?? null;
        },
        send(message) {
          if (exited) return false;
          child.postMessage(message);
          return true;
        },
        kill(signal) {
          if (exited) return;
          // utilityProcess.kill() is SIGTERM on POSIX; the last resort needs the pid.
          if (signal === 'SIGKILL' && child.pid) {
            try {
              process.kill(child.pid, 'SIGKILL');
            } catch {}
          } else child.kill();
        },
      };
    },
  };
}
