// The Fastify app as a factory: opens and migrates the database, seeds it, and registers every
// contract call behind the guard. Tests call it in-process (app.inject); server.ts listens with it.
import path from 'node:path';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import { implementedCalls } from '../contract/api/index.ts';
import { loadCsrfSecret } from './auth/csrf.ts';
import { registerGuard } from './auth/guard.ts';
import { DEFAULT_LOGIN_RATE_LIMITS, type LoginRateLimits } from './auth/rate-limit.ts';
import type { DatabaseConfig, TrustProxy } from './config.ts';
import type { ServerContext } from './context.ts';
import { openDatabase } from './db/connect.ts';
import { migrateToLatest } from './db/migrations/index.ts';
import { refreshStaleRunLevels } from './db/repositories/level-counts.ts';
import { seed } from './db/seed.ts';
import { preparePrivateFolder } from './files/private.ts';
import { failInterruptedImports } from './kb/import.ts';
import { ImportQueue } from './kb/import-queue.ts';
import { KbSyncService, type KbSyncConfig } from './kb/sync-schedule.ts';
import { syncLicenseCatalogue } from './licenses/catalogue.ts';
import { lazySerializerFactory, lazyValidatorCompiler } from './plugins/schema-compilers.ts';
import { moveStoredUrlCredentials } from './services/url-credentials.ts';
import { registerErrorHandling } from './plugins/errors.ts';
import { loggerOptions } from './plugins/logging.ts';
import { registerOpenApi } from './plugins/openapi.ts';
import { componentHandlers } from './routes/component/index.ts';
import { knowledgeHandlers } from './routes/knowledge/index.ts';
import { licenseHandlers } from './routes/license/index.ts';
import { registerCalls, type HandlerIndex } from './routes/register.ts';
import { RunQueue } from './jobs/run-queue.ts';
import { ReportQueue } from './jobs/report-queue.ts';
import { registerUploadBodyParser } from './uploads/body-parser.ts';
import { sessionHandlers } from './routes/session/index.ts';
import { vulnerabilityHandlers } from './routes/vulnerability/index.ts';
import { uploadHandlers } from './routes/upload/index.ts';
import { subjectHandlers } from './routes/subject/index.ts';
import { taskHandlers } from './routes/task/index.ts';
import { resultHandlers } from './routes/result/index.ts';
import { reportHandlers } from './routes/report/index.ts';
import { projectTypeHandlers } from './routes/project-type/index.ts';
import { groupHandlers } from './routes/group/index.ts';
import { scanConfigHandlers } from './routes/scan-config/index.ts';
import { leakHandlers } from './routes/leak/index.ts';
import { userHandlers } from './routes/user/index.ts';
import { ldapHandlers } from './routes/ldap/index.ts';
import { accessHandlers } from './routes/access/index.ts';
import { tokenHandlers } from './routes/token/index.ts';
import { openApiLogHandlers } from './routes/open-api-log/index.ts';
import { OpenApiLogRecorder } from './services/open-api-log.ts';
import { registerOpenApiLog } from './plugins/open-api-log.ts';
import { roleHandlers } from './routes/role/index.ts';
import { statisticHandlers } from './routes/statistic/index.ts';
import { startUploadSweeper } from './uploads/sweep.ts';
import { productVersion } from './version.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The database and start-up settings, for tests and later plugins (jobs, workers). */
    cairn: ServerContext;
  }
}

export interface AppOptions {
  database: DatabaseConfig;
  /** Uploads and analysis work files; default: beside the SQLite file, or ./.cairn-data. */
  dataDir?: string;
  /** Analyses running at once in this process (0: this process runs none, e.g. tests). */
  scanConcurrency?: number;
  /** Password of the seeded `admin` account when it is first created. */
  adminPassword?: string;
  sessionTtlMinutes?: number;
  /** pino level; 'silent' turns logging off. */
  logLevel?: string;
  /** Where log lines go (default stdout); tests capture them here. */
  logStream?: { write(line: string): void };
  /** Largest accepted request body in bytes. */
  bodyLimit?: number;
  /** Refused logins allowed per address and per username (default DEFAULT_LOGIN_RATE_LIMITS). */
  loginRateLimits?: LoginRateLimits;
  /** Reverse proxies whose X-Forwarded-For names the client (default: none, the peer is the client). */
  trustProxy?: TrustProxy;
  version?: string;
  /** The CAIRN_KB_* mirror sync defaults (server/config.ts); settings saved in the app win over them. */
  kbSync?: KbSyncConfig | null;
}

/** Fastify's own reading of a hop count (its types leave the number out). */
const trustProxyOption = (trust: TrustProxy) =>
  (typeof trust === 'number' ? (_address: string, hop: number) => hop < trust : trust);

/** The queue logs through the app's logger once there is one. */
const silentUntilReady = { info() {}, warn() {}, error() {} };

const DEFAULT_BODY_LIMIT = 1024 * 1024;

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const dataDir = options.dataDir ?? (options.database.kind === 'sqlite' ? path.dirname(options.database.file) : path.resolve('.cairn-data'));
  // Owner-only (0700), and what an earlier version left in it tightened (files 0600): files/private.ts.
  preparePrivateFolder(dataDir);
  const { db, kind } = openDatabase(options.database);
  let context: ServerContext;
  let queue: RunQueue;
  let reports: ReportQueue;
  let kbImports: ImportQueue;
  let kbSync: KbSyncService;
  let openApiLog: OpenApiLogRecorder;
  try {
    await migrateToLatest(db, kind);
    await seed(db, { adminPassword: options.adminPassword ?? 'Cairn@123' });
    // Analyses and reports are jobs any platform process claims from the database (jobs/); a
    // knowledge-base import still runs in the process that accepted it, so one this process left at
    // 导入中 when it stopped is closed as failed now. (It closes every running import: with several
    // processes on one PostgreSQL, one starting up also fails another's import in progress.)
    await failInterruptedImports(db);
    await syncLicenseCatalogue(db);
    // Runs saved before the level counts were computed in one place get them (once).
    await refreshStaleRunLevels(db);
    // Addresses saved with user:password@ before credentials were split off on save lose them now.
    await moveStoredUrlCredentials(db, dataDir);
    queue = new RunQueue({ db, database: options.database, databaseKind: kind, dataDir, concurrency: options.scanConcurrency ?? 1, log: silentUntilReady });
    const version = options.version ?? productVersion();
    reports = new ReportQueue({ db, databaseKind: kind, dataDir, log: silentUntilReady, version });
    kbImports = new ImportQueue(db, silentUntilReady);
    const imports = kbImports;
    kbSync = new KbSyncService(db, { env: options.kbSync ?? null, dataDir, log: silentUntilReady, exclusive: (fn) => imports.exclusive(fn) });
    openApiLog = new OpenApiLogRecorder(db, silentUntilReady);
    context = {
      db,
      databaseKind: kind,
      dataDir,
      csrfSecret: await loadCsrfSecret(db),
      sessionTtlMinutes: options.sessionTtlMinutes ?? 480,
      loginRateLimits: options.loginRateLimits ?? DEFAULT_LOGIN_RATE_LIMITS,
      version,
      runs: queue,
      reports,
      kbImports,
      kbSync,
      openApiLog,
    };
  } catch (error) {
    await db.destroy();
    throw error;
  }

  const app = Fastify({
    logger: { ...loggerOptions(options.logLevel ?? 'info'), ...(options.logStream && { stream: options.logStream }) },
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    // Path parameters may be URL-encoded purls (recommendVersion/{id}); the router's 100-character
    // default would refuse ordinary Maven coordinates before any handler could answer.
    routerOptions: { maxParamLength: 3000 },
    // Closing must not wait on a client that stalled mid-upload (it resumes after the restart).
    forceCloseConnections: true,
    // request.ip (login throttling, audit rows) is the connection's peer unless a proxy is named.
    trustProxy: trustProxyOption(options.trustProxy ?? false),
    // Response schemas compile at a route's first answer, not all at start-up (plugins/schema-compilers.ts).
    schemaController: { compilersFactory: { buildSerializer: lazySerializerFactory } },
  }).withTypeProvider<TypeBoxTypeProvider>();
  queue!.setLogger(app.log);
  reports!.setLogger(app.log);
  kbImports!.setLogger(app.log);
  kbSync!.setLogger(app.log);
  openApiLog!.setLogger(app.log);
  // Analyses, report generation and the upload sweeper start once the app is ready and stop
  // before the database closes.
  let stopSweeper = () => {};
  app.addHook('onReady', async () => {
    await queue.start();
    await reports.start();
    stopSweeper = await startUploadSweeper(db, context.dataDir, app.log);
    await kbSync.start();
    await openApiLog.start();
  });
  app.addHook('onClose', async () => {
    stopSweeper();
    await openApiLog.stop();
    await kbSync.stop();
    await kbImports.stop();
    await queue.stop();
    await reports.stop();
    await db.destroy();
  });
  app.decorate('cairn', context);
  app.setValidatorCompiler(lazyValidatorCompiler);

  registerErrorHandling(app);
  registerUploadBodyParser(app);
  await app.register(cookie);
  // Uploads stream to disk under per-call limits (the handler sets the file size); these caps
  // only bound what an upload may carry besides its one file.
  await app.register(multipart, { limits: { files: 1, fields: 10, fieldSize: 64 * 1024, parts: 12, headerPairs: 100 } });
  await registerOpenApi(app, context.version, db);
  registerGuard(app, context);
  registerOpenApiLog(app, openApiLog!);
  const handlers: HandlerIndex = new Map([
    ...sessionHandlers(context),
    ...vulnerabilityHandlers(context),
    ...knowledgeHandlers(context),
    ...componentHandlers(context),
    ...licenseHandlers(context),
    ...uploadHandlers(context),
    ...subjectHandlers(context),
    ...taskHandlers(context),
    ...resultHandlers(context),
    ...reportHandlers(context),
    ...projectTypeHandlers(context),
    ...groupHandlers(context),
    ...scanConfigHandlers(context),
    ...leakHandlers(context),
    ...userHandlers(context),
    ...ldapHandlers(context),
    ...accessHandlers(context),
    ...tokenHandlers(context),
    ...openApiLogHandlers(context),
    ...roleHandlers(context),
    ...statisticHandlers(context),
  ]);
  registerCalls(app, implementedCalls, handlers);
  return app;
}
