/**
 * buildApp(config) → a ready Fastify instance. Tests call it and use `inject`; server/main.ts
 * adds `listen`. Dependencies with outside effects (database, Google, mailer) can be passed in.
 */
import path from 'node:path';
import multipart from '@fastify/multipart';
import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type RouteOptions,
} from 'fastify';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { ConfigError, type Config } from './config.ts';
import { accessPlugin, declareScopeAccess } from './core/access.ts';
import { authPlugin, type SessionAndUser } from './core/auth.ts';
import { LOCK_KEYS, openDatabase, type Database } from './core/db.ts';
import { createUserCache, type UserCache } from './core/user-cache.ts';
import {
  acquireEmbeddedLock,
  EmbeddedDatabaseInUseError,
  lockHolderName,
} from './core/embedded-lock.ts';
import { AppError, errorsPlugin, frameworkErrorHandler } from './core/errors.ts';
import { createOutboxMailer, createSmtpMailer, type Mailer } from './core/mailer.ts';
import { logStream } from './core/log.ts';
import { requestInputPlugin } from './core/request-input.ts';
import { apiSecurityHeaders, securityPlugin } from './core/security.ts';
import {
  loadLiveRelease,
  staticSitePlugin,
  type LiveRelease,
} from './domains/site-build/static-site.ts';
import { HealthResponse } from './contracts/common.ts';
import { createGoogleIdentity } from './domains/accounts/google-identity.ts';
import { accountsRoutes } from './domains/accounts/routes.ts';
import { createOperations } from './domains/admin/operations.ts';
import { adminRoutes } from './domains/admin/routes.ts';
import { createAdminService } from './domains/admin/service.ts';
import { createAccountsService, type GoogleVerifier } from './domains/accounts/service.ts';
import { creditsRoutes } from './domains/credits/routes.ts';
import { createCreditsService } from './domains/credits/service.ts';
import { createLocalCheckoutProvider } from './domains/billing/providers/local-checkout.ts';
import { createStripeProvider, type StripeProvider } from './domains/billing/providers/stripe.ts';
import { billingRoutes } from './domains/billing/routes.ts';
import { createBillingService, type BillingService } from './domains/billing/service.ts';
import { createStripeWebhookHandler } from './domains/billing/webhooks.ts';
import { createMediaStore, type MediaStore } from './domains/video/media.ts';
import { videoRoutes } from './domains/video/routes.ts';
import { createVideoService } from './domains/video/service.ts';
import { blogRoutes } from './domains/blog/routes.ts';
import { dataApiRoutes } from './domains/data-api/routes.ts';
import { createDataApiService } from './domains/data-api/service.ts';
import { createBlogService, type BlogService } from './domains/blog/service.ts';
import { createPublisher, type Publisher } from './domains/site-build/publisher.ts';
import { postsSnapshotPath, writePostsSnapshot } from './domains/site-build/posts-snapshot.ts';
import { createSiteBuilder, PROJECT_ROOT, type SiteBuilder } from './domains/site-build/service.ts';
import {
  openSampleLibrary,
  type SampleLibrary,
  type SampleRenderer,
} from './domains/site-build/samples.ts';
import { samplesRoutes } from './domains/site-build/samples-routes.ts';

export interface AppDeps {
  database?: Database;
  google?: GoogleVerifier;
  mailer?: Mailer;
  /** Auth routes allowed per minute per client address. */
  authRateLimit?: number;
  /** A Stripe adapter built by the test (pointing at tests/fakes/stripe.ts). */
  stripe?: StripeProvider;
  /** Debounce between a public content change and its rebuild. */
  publishDebounceMs?: number;
  /** false: no hourly scheduled grants (tests run them by hand). */
  scheduler?: boolean;
  /** Where logs go (default stdout); tests capture them here. */
  logStream?: NodeJS.WritableStream;
  /** The admin sign-in's clock (tests move it past a lockout). */
  now?: () => Date;
  /** Sees every route as it is registered (tests build their route tables from it). */
  onRoute?: (route: RouteOptions) => void;
  /** Renders the site's sample clips (default: the local ffmpeg renderer). */
  sampleRenderer?: SampleRenderer;
}

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    siteRelease: LiveRelease;
    userCache: UserCache<SessionAndUser>;
    media: MediaStore;
    blog: BlogService;
    publisher: Publisher;
    siteBuilder: SiteBuilder | null;
    /** The site's sample clips; main.ts renders the missing ones in the background. */
    samples: SampleLibrary;
    /** Writes the published-posts snapshot the static build reads. */
    writeSnapshot: () => Promise<void>;
  }
}

/** Pino redaction: credentials never reach the log. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-user-email"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.token',
  '*.credential',
  '*.authToken',
];

export async function buildApp(config: Config, deps: AppDeps = {}): Promise<FastifyInstance> {
  // JSON logs go to stdout asynchronously, batched (about a third of a public read's cost under
  // load when written line by line); a terminal gets readable lines (server/core/log.ts).
  const app = Fastify({
    logger: {
      level: config.logLevel,
      stream: deps.logStream ?? logStream(config.logFormat),
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      serializers: {
        // Never log query strings: reset tokens and passwords may travel in them.
        req: (req) => ({ method: req.method, url: req.url.split('?')[0], id: req.id }),
      },
    },
    logController: new AccessLog(),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', allErrors: false } },
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 200 },
    // Addresses the router refuses before any hook runs still answer in our shape and headers.
    // They are JSON, never a document: the API's headers.
    frameworkErrors: frameworkErrorHandler(() => apiSecurityHeaders(config.isProduction)),
  });
  if (deps.onRoute) app.addHook('onRoute', deps.onRoute);

  // PGlite takes no lock itself: one process per DATA_DIR/db (the admin CLI checks this lock).
  const embeddedLock =
    !deps.database && !config.databaseUrl ? await lockEmbeddedDatabase(config.dataDir) : null;
  const database = deps.database ?? (await openDatabase(config));
  if (!deps.database) await database.migrate();
  const release: LiveRelease = { files: new Set(), inlineScriptHashes: [], id: null };

  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('siteRelease', release);
  if (!deps.database) app.addHook('onClose', () => database.close());
  if (embeddedLock) {
    app.addHook('onListen', async () => {
      const address = app.server.address();
      if (address && typeof address === 'object') await embeddedLock.setPort(address.port);
    });
    app.addHook('onClose', () => embeddedLock.release());
  }

  const mailer =
    deps.mailer ??
    (config.mail.smtpUrl
      ? await createSmtpMailer(config.mail.smtpUrl, config.mail.from)
      : createOutboxMailer(path.join(config.dataDir, 'outbox'), config.mail.from));
  const google = deps.google ?? createGoogleIdentity(config.google);
  // Sessions and newest ledger rows in memory, dropped by the database's own change notices.
  const userCache = await createUserCache<SessionAndUser>(database);
  app.addHook('onClose', () => userCache.stop().catch(() => {}));
  app.decorate('userCache', userCache);
  const accounts = createAccountsService({ db: database.db, config, google, mailer, userCache });
  const credits = createCreditsService(database.db, userCache);
  const stripe = deps.stripe ?? (config.stripe ? createStripeProvider(config.stripe) : null);
  const billing = createBillingService({
    db: database.db,
    config,
    provider: stripe ?? createLocalCheckoutProvider(),
    log: app.log,
  });

  // First: every route registered after it must declare its access level (core/access.ts).
  await app.register(accessPlugin);
  await app.register(errorsPlugin);
  await app.register(securityPlugin, {
    production: config.isProduction,
    inlineScriptHashes: () => release.inlineScriptHashes,
  });
  await app.register(requestInputPlugin);
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) =>
      new AppError(
        429,
        'RATE_LIMITED',
        `Too many attempts. Please wait ${context.after} and try again.`,
      ),
  });
  await app.register(authPlugin, { authenticator: accounts.authenticator });
  // One file per request at most (a video's image, a blog image), 10 MB, a few small fields.
  await app.register(multipart, {
    limits: {
      fileSize: 10 * 1024 * 1024,
      files: 1,
      fields: 10,
      parts: 12,
      fieldSize: 16 * 1024,
      headerPairs: 100,
    },
  });

  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Veo3 Studio API',
        version: config.version,
        description: 'Sign-in, credits, payments, video generation and blog.',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      },
    },
  });
  // The docs are public; the UI plugin takes no route options, so its scope declares it.
  await app.register(async (scope) => {
    declareScopeAccess(scope, 'public');
    await scope.register(swaggerUi, { routePrefix: '/api/docs' });
  });

  const startedAt = Date.now();
  app.get(
    '/api/health',
    {
      config: { access: 'public' },
      schema: {
        tags: ['health'],
        summary: 'Liveness and database reachability',
        response: { 200: HealthResponse, 503: HealthResponse },
      },
    },
    async (_request, reply) => {
      const up = await database.ping();
      return reply.status(up ? 200 : 503).send({
        success: up,
        status: up ? 'ok' : 'degraded',
        database: up ? 'up' : 'down',
        version: config.version,
        uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
      });
    },
  );

  await app.register(accountsRoutes, {
    accounts,
    config,
    authRateLimit: deps.authRateLimit ?? config.authRateLimit,
  });
  await app.register(creditsRoutes, { credits });
  await app.register(billingRoutes, {
    billing,
    config,
    findUser: accounts.findUser,
    handleStripeWebhook: stripe
      ? createStripeWebhookHandler({ db: database.db, billing, stripe, log: app.log })
      : null,
  });
  if (deps.scheduler !== false) startScheduler(app, billing);

  const media = createMediaStore(config.dataDir);
  const video = createVideoService({
    db: database.db,
    uploadsDir: path.join(config.dataDir, 'uploads'),
    providerName: config.video.provider,
    deadlineMs: config.video.deadlineMs,
  });
  await app.register(videoRoutes, { video, mediaDir: media.dir });
  app.decorate('media', media);

  // The blog and the site builder: public content changes rebuild the static release.
  const snapshotPath = postsSnapshotPath(config.dataDir);
  const builder = config.serveSite
    ? createSiteBuilder({
        dataDir: config.dataDir,
        publicSiteUrl: config.publicSiteUrl,
        log: app.log,
        buildEnv: { BLOG_SNAPSHOT_PATH: snapshotPath },
        extraSources: [snapshotPath],
        onSwitch: () => loadLiveRelease(config.dataDir, release),
      })
    : null;
  let publisher: Publisher | null = null;
  const blog = createBlogService({
    db: database.db,
    uploadsDir: path.join(config.dataDir, 'uploads', 'blog'),
    onPublicChange: () => publisher?.schedule(),
  });
  const writeSnapshot = () => writePostsSnapshot(snapshotPath, () => blog.snapshot());
  publisher = createPublisher({
    builder,
    writeSnapshot,
    debounceMs: deps.publishDebounceMs ?? 1500,
    log: app.log,
    exclusive: (fn) => database.exclusive(LOCK_KEYS.siteBuild, fn),
  });
  await app.register(blogRoutes, {
    blog,
    publisher,
    uploadsDir: path.join(config.dataDir, 'uploads', 'blog'),
  });
  // The generic data API: posts written through it go through the blog service above.
  await app.register(dataApiRoutes, { dataApi: createDataApiService({ db: database.db, blog }) });
  app.decorate('blog', blog);
  app.decorate('publisher', publisher);
  app.decorate('siteBuilder', builder);
  app.decorate('writeSnapshot', writeSnapshot);

  const admin = createAdminService({
    db: database.db,
    config,
    ...(deps.now ? { now: deps.now } : {}),
  });
  const operations = createOperations({
    config,
    database,
    publisher,
    mediaDir: media.dir,
    startedAt,
  });
  await app.register(adminRoutes, {
    admin,
    operations,
    config,
    authRateLimit: deps.authRateLimit ?? config.authRateLimit,
  });

  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send({
      success: false,
      message: `There is no ${request.method} ${request.url.split('?')[0]} here. Check the address.`,
      code: 'NOT_FOUND',
    }),
  );

  // The site's sample clips, from the render cache (releases carry none).
  const samples = await openSampleLibrary({
    projectRoot: PROJECT_ROOT,
    log: app.log,
    ...(deps.sampleRenderer ? { render: deps.sampleRenderer } : {}),
    ...(config.samples.cacheDir ? { cacheDir: config.samples.cacheDir } : {}),
  });
  await app.register(samplesRoutes, { samples });
  app.decorate('samples', samples);

  if (config.serveSite) {
    await loadLiveRelease(config.dataDir, release);
    await app.register(staticSitePlugin, {
      dataDir: config.dataDir,
      release,
      // /blog/{slug} without a page of its own: an old slug redirects; a post published while
      // the rebuild is pending gets the article shell, which loads it from the API.
      fallback: async (urlPath: string) => {
        const match = /^\/blog\/([^/]+)$/.exec(urlPath);
        if (!match) return null;
        let slug: string;
        try {
          slug = decodeURIComponent(match[1]!);
        } catch {
          return null;
        }
        const found = await blog.resolveSlug(slug);
        if (found.redirectTo) return { redirect: `/blog/${encodeURIComponent(found.redirectTo)}` };
        return { file: 'blog/article-shell.html', status: found.published ? 200 : 404 };
      },
    });
  }

  await app.ready();
  return app;
}

async function lockEmbeddedDatabase(dataDir: string) {
  try {
    return await acquireEmbeddedLock(dataDir, 'server');
  } catch (error) {
    if (!(error instanceof EmbeddedDatabaseInUseError)) throw error;
    const who =
      error.holder.owner === 'server' ? 'another server' : lockHolderName(error.holder.owner);
    throw new ConfigError(
      `The embedded database in ${dataDir} is in use by ${who} (pid ${error.holder.pid}). Stop it, or use another DATA_DIR.`,
    );
  }
}

/** Hourly scheduled grants (yearly plans' monthly credits, local renewals); idempotent, so
 * several instances running it at once grant nothing twice. */
function startScheduler(app: FastifyInstance, billing: BillingService): void {
  const run = () =>
    billing
      .runScheduledGrants()
      .catch((err: unknown) => app.log.error({ err }, 'scheduled grants failed'));
  let timer: NodeJS.Timeout | null = null;
  app.addHook('onReady', async () => {
    void run();
    timer = setInterval(run, 60 * 60 * 1000);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });
}

/**
 * One access-log line per request, written when it is answered, instead of Fastify's two
 * ("incoming request" and "request completed"): half the logging work on every request.
 */
class AccessLog extends LogController {
  override incomingRequest() {}
  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply) {
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
