// `npm test`: typecheck, lint, unit, integration (SQLite and PostgreSQL), end to end.
// It provisions what the suites need and is not already there: a throwaway PostgreSQL cluster
// (from Debian's postgresql binaries) and a D-Bus session with an unlocked gnome-keyring for the
// real-keychain tests. On CI (CI=true) a missing PostgreSQL or keychain is a failure, not a skip.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { startThrowawayPostgres } from '../tests/support/pg-cluster.ts';

const onCi = process.env.CI === 'true';
const only = process.argv.slice(2); // e.g. `npm test -- unit integration`
const wanted = (step: string) => only.length === 0 || only.includes(step);

// Re-run inside a private D-Bus session with gnome-keyring, so the vault tests use a real keychain.
if (!process.env.CAIRN_TEST_IN_DBUS && existsSync('/usr/bin/dbus-run-session') && existsSync('/usr/bin/gnome-keyring-daemon')) {
  const inner = 'echo -n cairn-test | gnome-keyring-daemon --unlock --components=secrets --daemonize >/dev/null && exec "$0" "$@"';
  const r = spawnSync('dbus-run-session', ['--', 'sh', '-c', inner, process.execPath, ...process.execArgv, import.meta.filename, ...only], {
    stdio: 'inherit',
    env: { ...process.env, CAIRN_TEST_IN_DBUS: '1', CAIRN_TEST_KEYRING: '1' },
  });
  process.exit(r.status ?? 1);
}
if (!process.env.CAIRN_TEST_KEYRING) {
  const msg = '未找到 dbus-run-session 或 gnome-keyring-daemon：跳过真实钥匙串测试（Debian: apt-get install gnome-keyring dbus）';
  if (onCi) { console.error(msg); process.exit(1); }
  console.warn(msg);
}

const run = (title: string, cmd: string, args: string[], env: NodeJS.ProcessEnv = {}) => {
  console.log(`\n=== ${title}: ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  if (r.status !== 0) fail(title, r.status);
};

function fail(title: string, status: number | null): never {
  console.error(`\n✗ ${title} 失败（退出码 ${status}）`);
  process.exit(status ?? 1);
}

type FileResult = { name: string; status: string; assertionResults: Array<{ status: string; fullName: string }> };
const fileResults = (report: string): FileResult[] =>
  existsSync(report) ? (JSON.parse(readFileSync(report, 'utf8')) as { testResults: FileResult[] }).testResults : [];

/**
 * Runs a Vitest project. A test process that dies (a native crash, the OOM killer) leaves its
 * file's remaining tests 'pending' and Vitest names no file: those files are listed, and when
 * nothing else failed they run once more on their own; the step passes only if they pass then.
 */
function runVitest(project: 'unit' | 'integration', env: NodeJS.ProcessEnv = {}): void {
  const title = project;
  console.log(`\n=== ${title}: npx ${vitest(project).join(' ')}`);
  const first = spawnSync('npx', vitest(project), { stdio: 'inherit', env: { ...process.env, ...env } });
  if (first.status === 0) return;
  const results = fileResults(reports[project]);
  const unfinished = results.filter((f) => f.assertionResults.some((a) => a.status === 'pending'));
  const failed = results.filter((f) => f.status !== 'passed' || f.assertionResults.some((a) => a.status === 'failed'));
  for (const f of [...failed, ...unfinished]) {
    const bad = f.assertionResults.filter((a) => a.status === 'failed' || a.status === 'pending');
    console.error(`\n未完成的测试文件：${path.relative(process.cwd(), f.name)}（${bad.length} 项未通过或未运行）`);
    for (const a of bad.slice(0, 5)) console.error(`  ${a.status === 'failed' ? '失败' : '未运行'}：${a.fullName}`);
  }
  if (failed.length || !unfinished.length) fail(title, first.status);
  const files = unfinished.map((f) => path.relative(process.cwd(), f.name));
  console.error(`\n测试进程意外退出，单独重跑一次：${files.join(' ')}`);
  const again = spawnSync('npx', [...vitest(project, reports.rerun), ...files], { stdio: 'inherit', env: { ...process.env, ...env } });
  if (again.status !== 0) fail(`${title}（重跑）`, again.status);
}

if (wanted('typecheck')) run('typecheck', 'npm', ['run', '-s', 'typecheck']);
if (wanted('lint')) run('lint', 'npm', ['run', '-s', 'lint']);
// Each runner also writes a JSON report, so the closing line can count every test that ran.
const reports = { unit: 'test-results/unit.json', integration: 'test-results/integration.json', rerun: 'test-results/rerun.json', e2e: 'test-results/e2e.json' };
mkdirSync('test-results', { recursive: true });
for (const file of Object.values(reports)) rmSync(file, { force: true });
const vitest = (project: 'unit' | 'integration', report = reports[project]) => ['vitest', 'run', '--project', project, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`];

if (wanted('unit')) runVitest('unit');

if (wanted('integration')) {
  let pgUrl = process.env.CAIRN_TEST_PG_URL;
  let stopPg: (() => void) | undefined;
  if (!pgUrl) {
    const pg = startThrowawayPostgres();
    if (pg.ok) { pgUrl = pg.url; stopPg = pg.stop; }
    else {
      const msg = `无法启动 PostgreSQL，集成测试只在 SQLite 上运行：${pg.reason}`;
      if (onCi) { console.error(msg); process.exit(1); }
      console.warn(msg);
    }
  }
  try {
    runVitest('integration', pgUrl ? { CAIRN_TEST_PG_URL: pgUrl } : {});
  } finally {
    stopPg?.();
  }
}

if (wanted('e2e')) run('e2e', 'npm', ['run', '-s', 'test:e2e']);

function counts(): { passed: number; failed: number; skipped: number } {
  const total = { passed: 0, failed: 0, skipped: 0 };
  for (const file of [reports.unit, reports.integration, reports.rerun]) {
    if (!existsSync(file)) continue;
    const r = JSON.parse(readFileSync(file, 'utf8')) as { numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number };
    total.passed += r.numPassedTests; total.failed += r.numFailedTests; total.skipped += r.numPendingTests + r.numTodoTests;
  }
  if (existsSync(reports.e2e)) {
    const r = JSON.parse(readFileSync(reports.e2e, 'utf8')) as { stats: { expected: number; unexpected: number; skipped: number; flaky: number } };
    total.passed += r.stats.expected + r.stats.flaky; total.failed += r.stats.unexpected; total.skipped += r.stats.skipped;
  }
  return total;
}
const { passed, failed, skipped } = counts();
console.log('\n✓ 全部测试通过');
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
