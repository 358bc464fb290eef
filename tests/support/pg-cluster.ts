// A throwaway PostgreSQL cluster for the integration suite: initdb into a temp dir, listen on
// loopback on a free port, trust auth, removed on stop. Uses Debian's postgresql binaries; as
// root (CI) it runs them as the `postgres` user, since PostgreSQL refuses to run as root.
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';

import { tmpdir } from 'node:os';
import { join } from 'node:path';

type Started = { ok: true; url: string; stop: () => void } | { ok: false; reason: string };

function pgBinDir(): string | null {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return null;
  const versions = readdirSync(base).filter((v) => existsSync(join(base, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(base, versions[0], 'bin') : null;
}

function freePort(): number {
  // Ask the kernel for a free port synchronously via a short child process.
  const out = execFileSync(process.execPath, ['-e', "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"]);
  return Number(String(out).trim());
}

export function startThrowawayPostgres(): Started {
  const bin = pgBinDir();
  if (!bin) return { ok: false, reason: '未安装 PostgreSQL（Debian: apt-get install postgresql）' };
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'cairn-pg-'));
  const data = join(dir, 'data');
  const port = freePort();
  const runAs = (cmd: string, args: string[]) =>
    asRoot ? spawnSync('runuser', ['-u', 'postgres', '--', cmd, ...args], { encoding: 'utf8' }) : spawnSync(cmd, args, { encoding: 'utf8' });
  if (asRoot) chownSync(dir, Number(execFileSync('id', ['-u', 'postgres']).toString()), Number(execFileSync('id', ['-g', 'postgres']).toString()));
  const init = runAs(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8']);
  if (init.status !== 0) return { ok: false, reason: `initdb 失败：${init.stderr}` };
  const opts = `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  const start = runAs(join(bin, 'pg_ctl'), ['-D', data, '-o', opts, '-l', join(dir, 'log'), '-w', 'start']);
  if (start.status !== 0) return { ok: false, reason: `pg_ctl start 失败：${start.stderr}${start.stdout}` };
  const stop = () => {
    runAs(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop']);
    rmSync(dir, { recursive: true, force: true });
  };
  return { ok: true, url: `postgres://postgres@127.0.0.1:${port}/postgres`, stop };
}
