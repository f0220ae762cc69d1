/**
 * Outside services' libraries load only when their adapter is configured (issue 33, item 3): a
 * default `npm start` (local adapters, embedded PGlite) neither imports nor builds with the S3
 * client, Stripe, Redis, the PostgreSQL driver, Google's libraries, SMTP or a hosted video
 * provider's adapter, each of which costs start-up time. Each case runs server/app.ts in a fresh
 * process (tests/helpers/loaded-modules.ts) and reads which packages and files it loaded.
 */
import { describe, it } from 'vitest';
import { PROJECT_ROOT, runScript } from '../helpers/process.ts';

interface Loaded {
  packages: string[];
  files: string[];
}

async function loadedBy(env: Record<string, string>) {
  const result = await runScript('tests/helpers/loaded-modules.ts', [JSON.stringify(env)], {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? PROJECT_ROOT,
  });
  if (result.code !== 0)
    throw new Error(`loaded-modules.ts exited ${result.code}:\n${result.stderr}`);
  return JSON.parse(result.stdout) as { afterImport: Loaded; afterBuild: Loaded };
}

/** Loaded only by the adapter that needs it (each is tens to hundreds of milliseconds). */
const ADAPTER_PACKAGES = [
  '@aws-sdk/client-s3',
  '@aws-sdk/lib-storage',
  '@aws-sdk/s3-request-presigner',
  'stripe',
  'ioredis',
  'pg',
  'jose',
  'google-auth-library',
  'nodemailer',
  // Image uploads and the pending-clip poster load it on first use.
  'sharp',
];

/** The hosted providers' adapters (their descriptors, index.ts, are always loaded). */
const HOSTED_ADAPTERS = ['fal', 'replicate', 'vertex', 'gemini'].map(
  (name) => `server/domains/video/providers/${name}/adapter.ts`,
);

const among = (loaded: Loaded, wanted: string[]) =>
  wanted.filter((name) => loaded.packages.includes(name) || loaded.files.includes(name));

// Concurrent: each case waits mostly on its own process (PGlite's first start).
describe.concurrent('which libraries a start loads', () => {
  it('the default local start: no outside service adapter, only the embedded database driver', async ({
    expect,
  }) => {
    const { afterImport, afterBuild } = await loadedBy({});
    // The import loads no database driver: building the app picks the one configured.
    expect(among(afterImport, ['@electric-sql/pglite', 'pg'])).toEqual([]);
    expect(among(afterImport, [...ADAPTER_PACKAGES, ...HOSTED_ADAPTERS])).toEqual([]);
    expect(among(afterBuild, [...ADAPTER_PACKAGES, ...HOSTED_ADAPTERS])).toEqual([]);
    // What every start needs is there (the recorder sees both imports and requires).
    expect(among(afterBuild, ['fastify', '@electric-sql/pglite', 'drizzle-orm'])).toEqual([
      'fastify',
      '@electric-sql/pglite',
      'drizzle-orm',
    ]);
    expect(afterBuild.files).toContain('server/domains/video/providers/local/adapter.ts');
  }, 120_000);

  it('a start with hosted adapters configured: exactly their libraries', async ({ expect }) => {
    const { afterImport, afterBuild } = await loadedBy({
      S3_BUCKET: 'veo3-lazy-imports',
      // Nothing is contacted: building the app only presigns a URL (for the CSP's media origin).
      S3_ENDPOINT: 'http://127.0.0.1:9',
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: 'lazy',
      S3_SECRET_ACCESS_KEY: 'imports',
      STRIPE_SECRET_KEY: 'sk_test_lazy_imports',
      STRIPE_WEBHOOK_SECRET: 'whsec_lazy_imports',
      // A refused connection: the app starts with rate limits off, as it does when Redis is down.
      REDIS_URL: 'redis://127.0.0.1:9',
      VIDEO_ROUTE_TEXT: 'fal:fal-ai/veo3.1',
      FAL_KEY: 'lazy:imports',
    });
    expect(among(afterImport, [...ADAPTER_PACKAGES, ...HOSTED_ADAPTERS])).toEqual([]);
    expect(among(afterBuild, [...ADAPTER_PACKAGES, ...HOSTED_ADAPTERS])).toEqual([
      '@aws-sdk/client-s3',
      '@aws-sdk/lib-storage',
      '@aws-sdk/s3-request-presigner',
      'stripe',
      'ioredis',
      'server/domains/video/providers/fal/adapter.ts',
    ]);
  }, 120_000);
});
