/**
 * buildApp(config) → a ready Fastify instance (tests `inject`; main.ts adds `listen`): core plugins,
 * then one plugin per domain with its config and services; outside effects come in as AppDeps.
 */
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from './app-deps.ts';
import type { Config } from './config.ts';
import { accessPlugin } from './core/access.ts';
import { apiDocsPlugin, apiSpecPlugin } from './core/api-docs.ts';
import { databasePlugin } from './core/database-plugin.ts';
import { errorsPlugin, notFoundHandler } from './core/errors.ts';
import { healthPlugin } from './core/health.ts';
import { mediaStorePlugin } from './core/media-store/plugin.ts';
import { createMetrics, metricsPlugin } from './core/metrics.ts';
import { rateLimitPlugin } from './core/rate-limit.ts';
import { requestInputPlugin } from './core/request-input.ts';
import { securityPlugin } from './core/security.ts';
import { createServer } from './core/server.ts';
import { accountsPlugin } from './domains/accounts/plugin.ts';
import { adminPlugin } from './domains/admin/plugin.ts';
import { apiPlugin } from './domains/api/plugin.ts';
import { billingPlugin } from './domains/billing/plugin.ts';
import { blogPlugin } from './domains/blog/plugin.ts';
import { creditsPlugin } from './domains/credits/plugin.ts';
import { dataApiPlugin } from './domains/data-api/plugin.ts';
import { privacyPlugin } from './domains/privacy/plugin.ts';
import { emptyLiveRelease, siteBuildPlugin, sitePlugin } from './domains/site-build/plugin.ts';
import { PROVIDER_METRICS_LABELS as providerLabels, videoPlugin } from './domains/video/plugin.ts';

export async function buildApp(config: Config, deps: AppDeps = {}): Promise<FastifyInstance> {
  const app = createServer(config, deps.logStream);
  if (deps.onRoute) app.addHook('onRoute', deps.onRoute);
  const { google, mailer, stripe, scheduler, publishDebounceMs, now, sampleRenderer } = deps;
  const authRateLimit = deps.authRateLimit ?? config.authRateLimit;
  const startedAt = Date.now();
  const release = emptyLiveRelease();

  // Made first: transactions through app.database.db count the credits they moved.
  const metrics = createMetrics({ processMetrics: config.env !== 'test' });
  await app.register(databasePlugin, { config, database: deps.database, metrics });
  const { database, userCache } = app;
  const db = database.db;
  // First of the rest: every route registered after it must declare its access level.
  await app.register(accessPlugin);
  // Next: its onResponse hook times every later route.
  await app.register(metricsPlugin, { token: config.metrics.token, metrics, providerLabels });
  await app.register(errorsPlugin);
  await app.register(mediaStorePlugin, { config, store: deps.mediaStore });
  const inlineScriptHashes = () => release.inlineScriptHashes;
  const security = { inlineScriptHashes, mediaOrigins: app.mediaOrigins };
  await app.register(securityPlugin, { production: config.isProduction, ...security });
  await app.register(requestInputPlugin);
  await app.register(rateLimitPlugin, { db, redisUrl: config.scale.redisUrl });
  await app.register(apiSpecPlugin, { version: config.version, routes: config.apiDocs });
  // Accounts register the auth plugin: every later route knows its caller.
  await app.register(accountsPlugin, { config, db, userCache, authRateLimit, google, mailer });
  await app.register(apiDocsPlugin);
  await app.register(healthPlugin, { database, version: config.version, startedAt });
  await app.register(creditsPlugin, { db, userCache });
  await app.register(billingPlugin, { config, db, accounts: app.accounts, stripe, scheduler });
  await app.register(videoPlugin, { config, db });
  await app.register(privacyPlugin, { db, billing: app.billing, authRateLimit });
  await app.register(apiPlugin, { config, db, now }); // /v1, keys and webhooks (issue 36)
  // The blog, next, schedules rebuilds through the publisher; builds read its posts later.
  const { siteRenderer, releasePollMs } = deps;
  const siteBuild = { publishDebounceMs, siteRenderer, releasePollMs, posts: () => app.blog };
  await app.register(siteBuildPlugin, { config, database, release, ...siteBuild });
  await app.register(blogPlugin, { config, db, publisher: app.publisher });
  await app.register(dataApiPlugin, { db, blog: app.blog });
  const { accounts, credits, publisher, mediaStore } = app;
  const services = { accounts, credits, publisher, mediaStore, startedAt, authRateLimit, now };
  await app.register(adminPlugin, { config, database, ...services });

  app.setNotFoundHandler(notFoundHandler);
  await app.register(sitePlugin, { config, release, posts: app.blog, sampleRenderer });
  await app.ready();
  return app;
}
