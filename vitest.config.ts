import { defineConfig } from 'vitest/config';

// Two projects: unit (pure code, mirrors source paths) and integration (server in-process and
// over HTTP, on SQLite and, when CAIRN_TEST_PG_URL is set, PostgreSQL).
export default defineConfig({
  test: {
    projects: [
      // 20 s: the unit files that unpack real packages or spawn a tool run far slower on a loaded
      // two-core CI machine; a hang still fails.
      { test: { name: 'unit', include: ['tests/unit/**/*.test.ts', 'tests/unit/**/*.test.tsx'], environment: 'node', testTimeout: 20_000 } },
      { test: { name: 'integration', include: ['tests/integration/**/*.test.ts'], environment: 'node', testTimeout: 30_000, hookTimeout: 60_000, fileParallelism: false } },
    ],
  },
});
