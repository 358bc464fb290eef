// The web host's log file: what the embedded platform prints (its JSON request log, its start-up
// and shutdown lines) and the full stack of a failed bridge call go here, so that the terminal the
// user started `npm run web` in keeps to what a person reads: the launch address, the platform's
// state and errors in one line each. <home>/logs/web-host.log, private like the rest of the app
// data; the previous run's file is kept once as web-host.1.log when it has grown past 10 MiB.
import { existsSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';
import { makePrivateDirSync, privateWriteStream } from '../services/private-files.ts';

const KEEP_BYTES = 10 * 1024 * 1024;

export interface LogFile {
  readonly path: string;
  /** One line, stamped with the time. */
  write(line: string): void;
  close(): Promise<void>;
}

export function openLogFile(home: string): LogFile {
  const dir = path.join(home, 'logs');
  makePrivateDirSync(dir);
  const file = path.join(dir, 'web-host.log');
  if (existsSync(file) && statSync(file).size > KEEP_BYTES) renameSync(file, path.join(dir, 'web-host.1.log'));
  const stream = privateWriteStream(file, 'a');
  // A full disk or a removed folder must not stop the web host: the terminal still has the essentials.
  stream.on('error', () => {});
  return {
    path: file,
    write: (line) => void stream.write(`${new Date().toISOString()} ${line}\n`),
    close: () => new Promise((resolve) => stream.end(resolve)),
  };
}
