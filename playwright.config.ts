/**
 * E2E: the production build served by the real app (server/main.ts) on a random port, driven
 * in Debian's Chromium (never a downloaded browser).
 */
import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';
import { E2E_READY_PATH, e2eServerEnv } from './tests/e2e/server-env.ts';

// Chosen once in the runner process; workers inherit it through the environment.
process.env.E2E_PORT ??= String(20_000 + Math.floor(Math.random() * 20_000));
const port = Number(process.env.E2E_PORT);
const baseURL = `http://127.0.0.1:${port}`;

/**
 * Debian's headless shell (package chromium-headless-shell) when it is installed: the same
 * Chromium build without the browser's UI layers, what Playwright itself runs for headless tests
 * by default; the same pages cost it about a third less CPU than the full browser's headless
 * mode. Else the full browser. CHROMIUM_PATH picks another.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const chromium = {
  executablePath:
    process.env.CHROMIUM_PATH ??
    (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium'),
  args: [
    '--no-sandbox',
    '--disable-background-networking',
    '--disable-gpu',
    '--disable-dev-shm-usage',
  ],
};

/** Specs that measure time in the page: they run alone, after the rest. */
const TIMED_SPECS = /first-tap\.spec\.ts$/;

export default defineConfig({
  testDir: 'tests/e2e',
  // Tests of one file spread over both workers too: the long page-walking specs (axe, layout)
  // no longer queue behind each other.
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  outputDir: '.test-output/playwright',
  // Traces are recorded only when a failed test is retried: recording every test costs CPU in
  // a phase that is CPU-bound on two cores.
  use: { baseURL, trace: 'on-first-retry', launchOptions: chromium },
  projects: [
    {
      name: 'desktop',
      use: {
        ...devices['Desktop Chrome'],
        viewport: { width: 1280, height: 800 },
        launchOptions: chromium,
      },
      testIgnore: TIMED_SPECS,
    },
    {
      // Timed at a 4x CPU slowdown (first-tap.spec.ts: effects within 500 ms of hydration, INP):
      // run last and one at a time, so the other worker's pages do not take the core they time.
      name: 'timed',
      use: { ...devices['Desktop Chrome'], launchOptions: chromium },
      testMatch: TIMED_SPECS,
      dependencies: ['desktop'],
      fullyParallel: false,
    },
  ],
  webServer: {
    command: 'node tests/e2e/serve.ts',
    url: `${baseURL}${E2E_READY_PATH}`,
    timeout: 240_000,
    // `npm test` starts the server beside Vitest and says so (scripts/test.ts); else a server
    // already on the port would be another run's.
    reuseExistingServer: process.env.E2E_SERVER_STARTED === String(port),
    stdout: 'ignore',
    stderr: 'pipe',
    env: e2eServerEnv(port),
  },
});
