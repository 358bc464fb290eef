// `npm run worker`: an analysis worker with no HTTP, for team servers that scale out. It shares
// the platform's PostgreSQL (DATABASE_URL) and data folder (CAIRN_DATA_DIR, a shared volume that
// holds the uploads) and claims queued runs like the platform itself does.
import pino from 'pino';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/connect.ts';
import { preparePrivateFolder } from './files/private.ts';
import { migrateToLatest } from './db/migrations/index.ts';
import { RunQueue } from './jobs/run-queue.ts';
import { ReportQueue } from './jobs/report-queue.ts';
import { loggerOptions } from './plugins/logging.ts';
import { productVersion } from './version.ts';

const config = loadConfig();
const log = pino(loggerOptions(config.logLevel));
if (config.database.kind !== 'postgres') {
  log.warn('工作进程需要与平台共用 PostgreSQL（DATABASE_URL）；使用 SQLite 时分析由平台进程自己完成');
}
// The shared data folder is owner-only (files/private.ts), as the platform makes it.
preparePrivateFolder(config.dataDir);
const { db, kind } = openDatabase(config.database);
await migrateToLatest(db, kind);
const queue = new RunQueue({ db, database: config.database, databaseKind: kind, dataDir: config.dataDir, concurrency: config.scanConcurrency, log });
await queue.start();
// Reports are jobs too: a worker sharing the data folder writes them where the platform serves them.
const reports = new ReportQueue({ db, databaseKind: kind, dataDir: config.dataDir, log, version: productVersion() });
await reports.start();
log.info({ worker: queue.worker, concurrency: config.scanConcurrency }, 'analysis worker started');

let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'analysis worker stopping');
  await queue.stop();
  await reports.stop();
  await db.destroy();
  process.exit(0);
};
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
