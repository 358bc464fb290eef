import { defineConfig } from 'vitest/config';

// Two projects: unit (pure code, mirrors source paths) and integration (server in-process and
// over HTTP, on SQLite and, when CAIRN_TEST_PG_URL is set, PostgreSQL).
export default defineConfig({
  test: {
    projects: [
      // 20 s: the unit files that unpack real packages or spawn a tool run far slower on a loaded
      // two-core CI machine; a hang still fails.
      { test: { name: 'unit', include: ['tests/unit/**/*.test.ts', 'tests/unit/**/*.test.tsx'], environment: 'node', testTimeout: 20_000 } },
      // Two files at a time: each builds its own server on its own database (a SQLite file, a
      // PostgreSQL database of its own), so files share nothing but the machine; most of a file's
      // time is spent waiting on a database, a child process or a socket.
      { test: { name: 'integration', include: ['tests/integration/**/*.test.ts'], environment: 'node', testTimeout: 30_000, hookTimeout: 60_000, fileParallelism: true, maxWorkers: 2 } },
    ],
  },
});
