// The peers the benchmarks compare Cairn against, installed where the repository never sees them:
// cdxgen into a cache folder on first use (`npm install --prefix`, never by the project's `npm ci`),
// Debian's licensecheck from apt (the bench says how when it is missing). Shared by
// compare.bench.ts and peers.bench.ts.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

/** Outside the repository: $CAIRN_BENCH_CACHE, else the user's cache folder. */
export const benchCache = process.env.CAIRN_BENCH_CACHE ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(homedir(), '.cache'), 'cairn-bench');

/** cdxgen's pinned version lives in bench/cdxgen/package.json; the install goes to the cache. */
export function ensureCdxgen(): string {
  const prefix = path.join(benchCache, 'cdxgen');
  const bin = path.join(prefix, 'node_modules/@cyclonedx/cdxgen/bin/cdxgen.js');
  if (existsSync(bin)) return bin;
  mkdirSync(prefix, { recursive: true });
  copyFileSync(path.join(import.meta.dirname, 'cdxgen', 'package.json'), path.join(prefix, 'package.json'));
  console.log(`首次使用：安装 cdxgen 到 ${prefix} …`);
  // Optional plug-in binaries (fetched from GitHub at install) are left out; offline runs don't need them.
  execFileSync('npm', ['install', '--prefix', prefix, '--omit=optional', '--no-audit', '--no-fund'], { stdio: 'inherit' });
  return bin;
}

/**
 * cdxgen run offline with its documented switches: no dependency installation, no licence
 * fetching, no banner; `--no-babel` skips its JavaScript usage analysis (an extra our scan doesn't do).
 */
export const CDXGEN_ARGS = ['--no-install-deps', '--no-babel'];
export const CDXGEN_ENV = { FETCH_LICENSE: 'false', CDXGEN_NO_BANNER: 'true' };

/** Debian's licensecheck, or undefined with the way to install it printed. */
export function licensecheck(): string | undefined {
  const found = spawnSync('licensecheck', ['--version'], { encoding: 'utf8' });
  if (found.status === 0) return 'licensecheck';
  console.log('未找到 licensecheck：以 root 运行 apt-get install licensecheck（Debian 软件包）后重试；许可证对比已跳过');
  return undefined;
}
