// Builds the server in-process on a fresh database: a SQLite file in a temp dir always, and a
// fresh PostgreSQL database too when CAIRN_TEST_PG_URL is set. Test files run the same
// assertions on each with describe.each(databases).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp, type AppOptions } from '../../../server/app.ts';
import { hashPassword } from '../../../server/auth/password.ts';
import type { DatabaseConfig } from '../../../server/config.ts';
import { createUser } from '../../../server/db/repositories/users.ts';
import { ROLE } from '../../../contract/permissions.ts';

export const ADMIN_PASSWORD = 'Cairn@123';

export interface TestDatabase {
  name: 'sqlite' | 'postgres';
  /** A database no other test file uses, and how to remove it. */
  create(): Promise<{ config: DatabaseConfig; drop(): Promise<void> }>;
}

const sqlite: TestDatabase = {
  name: 'sqlite',
  async create() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-test-'));
    return {
      config: { kind: 'sqlite', file: path.join(dir, 'cairn.db') },
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  },
};

const adminQuery = async (adminUrl: string, text: string) => {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
};

const postgres = (adminUrl: string): TestDatabase => ({
  name: 'postgres',
  async create() {
    const name = `cairn_test_${randomBytes(6).toString('hex')}`;
    await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return {
      config: { kind: 'postgres', url: url.toString() },
      drop: () => adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
    };
  },
});

const pgUrl = process.env.CAIRN_TEST_PG_URL?.trim();
export const databases: TestDatabase[] = pgUrl ? [sqlite, postgres(pgUrl)] : [sqlite];

export interface TestServer {
  app: FastifyInstance;
  database: DatabaseConfig;
  /** A browser-like client: keeps cookies, fetches and sends the CSRF token. */
  client(): TestClient;
  /** Adds a user whose password is already changed (updated_pwd true). */
  addUser(username: string, password: string, roleCodes?: number[]): Promise<number>;
  close(): Promise<void>;
}

/**
 * Test servers do not throttle logins (every test logs in from 127.0.0.1, many times): the tests
 * of the throttle itself pass their own `loginRateLimits`.
 */
const UNTHROTTLED = { perAddress: 0, perUsername: 0, windowSeconds: 60 };

export async function startServer(database: TestDatabase, options: Partial<AppOptions> = {}): Promise<TestServer> {
  const { config, drop } = await database.create();
  // Uploads and work folders of this server, in a temp folder on either database.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-test-data-'));
  const app = await buildApp({ database: config, dataDir, adminPassword: ADMIN_PASSWORD, logLevel: 'silent', loginRateLimits: UNTHROTTLED, ...options });
  return {
    app,
    database: config,
    client: () => createClient(app),
    addUser: async (username, password, roleCodes: number[] = [ROLE.ORDINARY_USER]) =>
      createUser(app.cairn.db, { username, name: username, passwordHash: await hashPassword(password), roleCodes, updatedPwd: true }),
    async close() {
      await app.close();
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Reply {
  status: number;
  body: { code: number; message: string; data: any };
  setCookies: string[];
  raw: LightMyRequestResponse;
}

export interface TestClient {
  cookies: Map<string, string>;
  csrfToken: string | undefined;
  /**
   * Sends the CSRF header on state-changing calls unless `csrf: false` or a header is given;
   * `remoteAddress` is the client's address as the server sees it (default 127.0.0.1).
   */
  request(options: { method: InjectOptions['method']; url: string; body?: unknown; headers?: Record<string, string>; csrf?: boolean; remoteAddress?: string }): Promise<Reply>;
  fetchCsrf(): Promise<string>;
  login(username: string, password: string): Promise<Reply>;
}

function createClient(app: FastifyInstance): TestClient {
  const client: TestClient = {
    cookies: new Map(),
    csrfToken: undefined,

    async request({ method, url, body, headers = {}, csrf = true, remoteAddress }) {
      const all: Record<string, string> = { ...headers };
      if (client.cookies.size && !('cookie' in all)) {
        all.cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
      }
      if (csrf && client.csrfToken && method !== 'GET' && !('x-csrf-token' in all)) all['x-csrf-token'] = client.csrfToken;
      const raw = await app.inject({ method, url, headers: all, ...(remoteAddress && { remoteAddress }), ...(body !== undefined && { payload: body as object }) });
      const setCookies = ([] as string[]).concat(raw.headers['set-cookie'] ?? []);
      for (const line of setCookies) {
        const [pair] = line.split(';');
        const [name, ...rest] = pair!.split('=');
        const value = rest.join('=');
        if (!value || /max-age=0/i.test(line)) client.cookies.delete(name!.trim());
        else client.cookies.set(name!.trim(), value);
      }
      return { status: raw.statusCode, body: raw.json(), setCookies, raw };
    },

    async fetchCsrf() {
      const reply = await client.request({ method: 'POST', url: '/api/csrf' });
      client.csrfToken = reply.body.data.token as string;
      return client.csrfToken;
    },

    async login(username, password) {
      if (!client.csrfToken) await client.fetchCsrf();
      return client.request({ method: 'POST', url: '/api/login', body: { username, password } });
    },
  };
  return client;
}

/**
 * The server of a describe block: started before its tests (ahead of the block's own beforeAll,
 * which may use it), closed after them. The answer stands for that server.
 */
export function useServer(database: TestDatabase, options: Partial<AppOptions> = {}): TestServer {
  let current: TestServer | undefined;
  beforeAll(async () => {
    current = await startServer(database, options);
  });
  afterAll(async () => {
    await current?.close();
    current = undefined;
  });
  const now = (): TestServer => {
    if (!current) throw new Error('useServer: the server is not running');
    return current;
  };
  return {
    get app() {
      return now().app;
    },
    get database() {
      return now().database;
    },
    client: () => now().client(),
    addUser: (username, password, roleCodes) => now().addUser(username, password, roleCodes),
    close: () => now().close(),
  };
}

/**
 * Adds a user (an ordinary user unless `roleCodes` says otherwise) and signs them in on a client of
 * their own: the user's id and the client. Throws when the login fails.
 */
export async function signIn(server: TestServer, username: string, password: string, roleCodes?: number[]): Promise<{ id: number; client: TestClient }> {
  const id = await server.addUser(username, password, roleCodes);
  const client = server.client();
  const reply = await client.login(username, password);
  if (reply.body.code !== 1) throw new Error(`${username} login failed: ${reply.body.message}`);
  return { id, client };
}

/** Signs in as admin and changes the initial password, so admin-only calls can be exercised. */
export async function adminClient(server: TestServer, newPassword = 'Cairn@456x'): Promise<TestClient> {
  const client = server.client();
  const first = await client.login('admin', ADMIN_PASSWORD);
  if (first.body.code === 1) {
    await client.request({ method: 'PATCH', url: '/api/user/modify', body: { oldPassword: ADMIN_PASSWORD, password: newPassword } });
  }
  const reply = await client.login('admin', newPassword);
  if (reply.body.code !== 1) throw new Error(`admin login failed: ${reply.body.message}`);
  return client;
}
