/**
 * The e2e server, in one place: playwright.config.ts starts tests/e2e/serve.ts with these
 * settings, and `npm test` starts the same server beside Vitest (scripts/test.ts) so that
 * Playwright finds it live instead of waiting for its first site build.
 */
import { E2E_SAMPLE_CACHE_DIR } from './site-pages.ts';

/**
 * The whole site's first 200, not the API's nor the home page's: the server listens before its
 * first build is live, and a first start serves `/` before the blog's pages (the feed).
 */
export const E2E_READY_PATH = '/rss.xml';

/** The data directory the e2e server runs on (relative to the project), as the specs read it. */
const e2eDataDir = () => process.env.E2E_DATA_DIR ?? '.test-output/e2e-data';

/** The environment the e2e server runs with, listening on 127.0.0.1:`port`. */
export function e2eServerEnv(port: number): Record<string, string> {
  const baseURL = `http://127.0.0.1:${port}`;
  return {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: e2eDataDir(),
    PUBLIC_SITE_URL: baseURL,
    LOG_LEVEL: 'warn',
    // Every spec signs in through /api/auth/local from 127.0.0.1: at the default 30 a minute a
    // fast machine's run is refused sign-ins mid-way (seen: 4 specs failed on a 5-minute CI run).
    // The limit itself is tested in tests/api.
    AUTH_RATE_LIMIT_PER_MINUTE: '10000',
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
    // The webhook e2e (account-api.spec.ts) registers the e2e server's own address as an endpoint.
    OUTBOUND_ALLOW_HOSTS: `127.0.0.1:${port}`,
  };
}
