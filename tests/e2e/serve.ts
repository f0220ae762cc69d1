/**
 * Starts the app for Playwright exactly as `npm start` does, on a clean database and a fresh
 * site: the server listens before its build is live and serves the release it has meanwhile,
 * and a release left by an earlier run shows that run's posts (each run rebuilds anyway, since
 * the seeded posts' dates change). Playwright starts when the whole site answers
 * (E2E_READY_PATH, tests/e2e/server-env.ts).
 *
 * Sample clips: the server renders none (SAMPLE_CLIPS=off, tests/e2e/server-env.ts), so every
 * other clip stays pending and the pending state is what those pages show. The clips the specs
 * play or fetch (the first gallery clip and the landing pages' samples) are rendered here first,
 * into the e2e server's own cache (SAMPLE_CACHE_DIR), once per checkout.
 *
 * Playwright starts it (playwright.config.ts), unless `npm test` has started it already, beside
 * Vitest, and Playwright finds it live (reuseExistingServer).
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { prerenderE2eSamples } from './prerender-samples.ts';
import { e2eServerEnv } from './server-env.ts';

// `npm test` starts it beside Vitest with only E2E_PORT (scripts/test.ts): the settings
// playwright.config.ts would give it.
if (!process.env.PORT) Object.assign(process.env, e2eServerEnv(Number(process.env.E2E_PORT)));

const dataDir = path.resolve(process.env.DATA_DIR ?? '.test-output/e2e-data');
for (const dir of ['db', 'outbox', 'site'])
  rmSync(path.join(dataDir, dir), { recursive: true, force: true });

await prerenderE2eSamples();

const { startServer } = await import('../../server/main.ts');
const { loadConfig } = await import('../../server/config.ts');
const server = await startServer(loadConfig());
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => void server.stop().finally(() => process.exit(0)));
}
