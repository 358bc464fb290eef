import { defineConfig } from '@playwright/test';

// End to end through the web host in Debian's Chromium (no Playwright browser download here).
export default defineConfig({
  testDir: 'tests/e2e',
  // Builds the platform when stale and makes the run's scratch folder (tests/e2e/global-setup.ts).
  globalSetup: './tests/e2e/global-setup.ts',
  outputDir: 'test-results/e2e-artifacts',
  timeout: 120_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e.json' }]],
  use: {
    locale: 'zh-CN',
    viewport: { width: 1440, height: 900 },
    screenshot: 'only-on-failure',
    // A failed test keeps its trace with the DOM snapshot of every step (and the failure
    // screenshot above); the trace's own screenshots, a JPEG of every frame the page paints, are
    // left out: they were about half of the whole run's CPU (roles: 20 s with them, 11 s without).
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: true, sources: true },
    launchOptions: {
      executablePath: process.env.CAIRN_CHROMIUM ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-quic'],
    },
  },
});
