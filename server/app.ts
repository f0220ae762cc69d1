/**
 * buildApp(config) → a ready Fastify instance. Tests call it and use `inject`; server/main.ts
 * adds `listen`. It only composes: the core plugins, then one plugin per domain, each given its
 * config and the services it uses. Dependencies with outside effects can be passed in (AppDeps).
 */
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from './app-deps.ts';
import type { Config } from './config.ts';
import { accessPlugin } from './core/access.ts';
import { apiDocsPlugin, apiSpecPlugin } from './core/api-docs.ts';
import { databasePlugin } from './core/database-plugin.ts';
import { errorsPlugin, notFoundHandler } from './core/errors.ts';
import { healthPlugin } from './core/health.ts';
import { metricsPlugin } from './core/metrics.ts';
import { rateLimitPlugin } from './core/rate-limit.ts';
import { requestInputPlugin } from './core/request-input.ts';
import { securityPlugin } from './core/security.ts';
import { createServer } from './core/server.ts';
import { multipartPlugin } from './core/uploads.ts';
import { accountsPlugin } from './domains/accounts/plugin.ts';
import { adminPlugin } from './domains/admin/plugin.ts';
import { billingPlugin } from './domains/billing/plugin.ts';
import { blogPlugin } from './domains/blog/plugin.ts';
import { creditsPlugin } from './domains/credits/plugin.ts';
import { dataApiPlugin } from './domains/data-api/plugin.ts';
import { emptyLiveRelease, siteBuildPlugin, sitePlugin } from './domains/site-build/plugin.ts';
import { videoPlugin } from './domains/video/plugin.ts';

export type { AppDeps } from './app-deps.ts';

export async function buildApp(config: Config, deps: AppDeps = {}): Promise<FastifyInstance> {
  const app = createServer(config, deps.logStream);
  if (deps.onRoute) app.addHook('onRoute', deps.onRoute);
  const { google, mailer, stripe, scheduler, publishDebounceMs, now, sampleRenderer } = deps;
  const authRateLimit = deps.authRateLimit ?? config.authRateLimit;
  const startedAt = Date.now();
  const release = emptyLiveRelease();

  await app.register(databasePlugin, { config, database: deps.database });
  const { database, userCache } = app;
  const db = database.db;
  // First of the rest: every route registered after it must declare its access level.
  await app.register(accessPlugin);
  // Next: its onResponse hook times every later route. Process metrics only for a real server.
  const processMetrics = config.env !== 'test';
  await app.register(metricsPlugin, { token: config.metrics.token, processMetrics });
  await app.register(errorsPlugin);
  const inlineScriptHashes = () => release.inlineScriptHashes;
  await app.register(securityPlugin, { production: config.isProduction, inlineScriptHashes });
  await app.register(requestInputPlugin);
  await app.register(rateLimitPlugin);
  await app.register(multipartPlugin);
  await app.register(apiSpecPlugin, { version: config.version });

  // Accounts register the auth plugin: every later route knows its caller.
  await app.register(accountsPlugin, { config, db, userCache, authRateLimit, google, mailer });
  await app.register(apiDocsPlugin);
  await app.register(healthPlugin, { database, version: config.version, startedAt });
  await app.register(creditsPlugin, { db, userCache });
  await app.register(billingPlugin, { config, db, accounts: app.accounts, stripe, scheduler });
  await app.register(videoPlugin, { config, db });
  // The blog, next, schedules rebuilds through the publisher; builds read its posts later.
  const posts = () => app.blog;
  await app.register(siteBuildPlugin, { config, database, release, posts, publishDebounceMs });
  await app.register(blogPlugin, { config, db, publisher: app.publisher });
  await app.register(dataApiPlugin, { db, blog: app.blog });
  const { accounts, credits, publisher, media } = app;
  const services = { accounts, credits, publisher, mediaDir: media.dir };
  await app.register(adminPlugin, { config, database, ...services, startedAt, authRateLimit, now });

  app.setNotFoundHandler(notFoundHandler);
  await app.register(sitePlugin, { config, release, posts: app.blog, sampleRenderer });
  await app.ready();
  return app;
}
