/**
 * E2E: the production build served by the real app (server/main.ts) on a random port, driven
 * in Debian's Chromium (never a downloaded browser).
 */
import { defineConfig, devices } from '@playwright/test';
import { E2E_SAMPLE_CACHE_DIR } from './tests/e2e/site-pages.ts';

// Chosen once in the runner process; workers inherit it through the environment.
process.env.E2E_PORT ??= String(20_000 + Math.floor(Math.random() * 20_000));
const port = Number(process.env.E2E_PORT);
const baseURL = `http://127.0.0.1:${port}`;

const chromium = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-background-networking',
    '--disable-gpu',
    '--disable-dev-shm-usage',
  ],
};

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
    },
  ],
  webServer: {
    command: 'node tests/e2e/serve.ts',
    // The site's first 200, not the API's: the server listens before its first build is live.
    url: `${baseURL}/`,
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: process.env.E2E_DATA_DIR ?? '.test-output/e2e-data',
      PUBLIC_SITE_URL: baseURL,
      LOG_LEVEL: 'warn',
      // Only the clips the specs need are rendered (tests/e2e/serve.ts), into a cache of their
      // own, so every other clip is pending whatever a developer's shared cache holds.
      SAMPLE_CLIPS: 'off',
      SAMPLE_CACHE_DIR: E2E_SAMPLE_CACHE_DIR,
      NODE_ENV: 'development',
      // The local renderer fails these prompts on purpose (the failure path e2e test).
      LOCAL_RENDER_FAIL_PATTERN: '^FAIL:',
      BLOG_EDITORS: 'editor@e2e.example',
      // The admin dashboard e2e signs in with these (tests/e2e/admin.spec.ts).
      ADMIN_USERNAME: 'admin',
      ADMIN_PASSWORD: 'e2e-admin-password-123',
    },
  },
});
