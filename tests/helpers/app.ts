/** Builds the real app on a clean test database, with a temporary DATA_DIR and quiet logs. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../server/app-deps.ts';
import { buildApp } from '../../server/app.ts';
import { loadConfig, type Config } from '../../server/config.ts';
import { hashPassword } from '../../server/core/passwords.ts';
import { hashToken } from '../../server/core/tokens.ts';
import { sessions } from '../../server/db/schema.ts';
import { createTestDatabase, type DatabaseKind, type TestDatabase } from './database.ts';

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  database: TestDatabase;
  dataDir: string;
  close(): Promise<void>;
}

/** A config for tests: local mode, no static site, silent logs, DATA_DIR in a temp folder. */
export function testConfig(dataDir: string, env: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    SERVE_SITE: 'false',
    LOG_LEVEL: 'silent',
    PUBLIC_SITE_URL: 'http://localhost:4321',
    ...env,
  });
}

/**
 * The settings production refuses to start without, none of which a test contacts (override
 * GOOGLE_CLIENT_ID with a fake's, add SERVE_SITE and so on as the test needs).
 */
export const PRODUCTION_ENV: Record<string, string> = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://unused.invalid/db',
  GOOGLE_CLIENT_ID: 'unused.apps.googleusercontent.com',
  PUBLIC_SITE_URL: 'https://veo3studio.app',
  SMTP_URL: 'smtp://mail.invalid:25',
  STRIPE_SECRET_KEY: 'sk_test_unused',
  STRIPE_WEBHOOK_SECRET: 'whsec_unused',
  VIDEO_ROUTE_TEXT: 'fal:fal-ai/veo3.1',
  VIDEO_ROUTE_IMAGE: 'fal:fal-ai/veo3.1/image-to-video',
  FAL_KEY: 'unused',
  FAL_USER_ID: 'unused',
};

/** The operator account every test app has (override ADMIN_* in `env` to change or drop it). */
export const TEST_ADMIN = { username: 'ops', password: 'correct horse battery staple' };
/** Hashed once per test file: scrypt is deliberately slow. */
const testAdminHash = hashPassword(TEST_ADMIN.password);

export async function createTestApp(
  kind: DatabaseKind,
  opts: { env?: Record<string, string>; deps?: Omit<AppDeps, 'database'> } = {},
): Promise<TestApp> {
  return buildTestApp(await createTestDatabase(kind), {
    ...opts,
    env: {
      ADMIN_USERNAME: TEST_ADMIN.username,
      ADMIN_PASSWORD_HASH: await testAdminHash,
      ...opts.env,
    },
  });
}

/**
 * The real app on a database the caller opened (createTestApp's, or the bench's own), with a
 * temporary DATA_DIR; `close` disposes of all three.
 */
export async function buildTestApp(
  database: TestDatabase,
  opts: { env?: Record<string, string>; deps?: Omit<AppDeps, 'database'> } = {},
): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'veo3-test-'));
  const config = testConfig(dataDir, opts.env);
  let app: FastifyInstance;
  try {
    app = await buildApp(config, { authRateLimit: 1000, scheduler: false, ...opts.deps, database });
  } catch (error) {
    await database.dispose();
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    app,
    config,
    database,
    dataDir,
    async close() {
      await app.close();
      await database.dispose();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Signs in through the local form and returns the bearer token and user. */
export async function signInLocal(app: FastifyInstance, email = 'ann@example.com', name = 'Ann') {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/local',
    payload: { name, email },
  });
  if (res.statusCode !== 200) throw new Error(`local sign-in failed: ${res.body}`);
  const body = res.json() as { data: { token: string; user: { id: string; email: string } } };
  return body.data;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The signed-in user's credit balance, as GET /api/credits/balance reports it. */
export async function creditBalance(app: FastifyInstance, token: string): Promise<number> {
  const res = await app.inject({ url: '/api/credits/balance', headers: bearer(token) });
  return (res.json() as { data: { total_credits: number } }).data.total_credits;
}

/** Signs in through the real admin sign-in (POST /api/auth/admin-login) as TEST_ADMIN. */
export async function signInAdmin(app: FastifyInstance): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/admin-login',
    payload: TEST_ADMIN,
    remoteAddress: '10.9.9.9',
  });
  if (res.statusCode !== 200) throw new Error(`admin sign-in failed: ${res.body}`);
  return (res.json() as { data: { token: string } }).data.token;
}

/**
 * Flags an existing customer session as an administrator's, as only the admin sign-in does in
 * the app. Kept for tests that need one token to be both a customer's and an admin's; new tests
 * use `signInAdmin`.
 */
export async function makeAdmin(t: TestApp, token: string): Promise<void> {
  await t.database.db
    .update(sessions)
    .set({ isAdmin: true })
    .where(eq(sessions.tokenHash, hashToken(token)));
}
