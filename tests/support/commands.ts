// Whether a command-line tool some tests lean on (tar, pdftotext, openssl, soffice, zip) is
// installed: the tests that need one are skipped without it.
import { spawnSync } from 'node:child_process';

/** True when `command …args` runs and exits 0 (`hasCommand('tar', '--version')`). */
export const hasCommand = (command: string, ...args: string[]): boolean => spawnSync(command, args, { stdio: 'ignore' }).status === 0;
