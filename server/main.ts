/**
 * Process entry: read config, start the site's build (it needs no data, so it runs while the app
 * loads and the database migrates), build the app, listen, then bring the site up in the
 * background (the API answers at once; on a first start `/` and the other pages that show no
 * post answer as soon as that build is live, the blog's pages seconds later, and every page
 * answers 503 "being built" before), render missing sample clips at low priority, and shut down
 * gracefully on SIGTERM/SIGINT. The app and the modules it pulls in are imported after the
 * site's build started: loading them takes seconds the build does not wait for.
 */
import { enableCompileCache } from 'node:module';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { ConfigError, describeAdapters, loadConfig, loadDotEnv, type Config } from './config.ts';
import type { AppDeps } from './app-deps.ts';
import { logFfmpeg } from './core/ffmpeg.ts';
import type * as OpenFiles from './core/open-files.ts';
import { PROJECT_ROOT, prepareSite, type PreparedSite } from './domains/site-build/service.ts';

// Node keeps the compiled (and type-stripped) code of every module loaded from here on in its
// cache directory: a second start loads the app's modules without compiling them again.
enableCompileCache();

export interface RunningServer {
  app: FastifyInstance;
  /** The port it listens on (config.port, or the one the kernel chose for 0). */
  port: number;
  /** Settles when the site is live and the sample clips are rendered (or the server stops). */
  background: Promise<void>;
  /** Stops the background work and the worker, then closes the app. */
  stop(): Promise<void>;
}

/** Everything `npm start` does short of signal handling: tests start the real server with it. */
export async function startServer(config: Config, deps: AppDeps = {}): Promise<RunningServer> {
  const startedAt = performance.now();
  const prepared = prepareSiteAhead(config, deps);
  try {
    return await startApp(config, deps, startedAt, prepared);
  } catch (error) {
    prepared?.cancel();
    throw error;
  }
}

/**
 * The site's build, started before the app when this instance builds and serves its own site
 * with `astro build` (not with SITE_PUBLISH=s3, where the bucket may hold a current release, nor
 * with a test's stand-in renderer). Null otherwise.
 */
function prepareSiteAhead(config: Config, deps: AppDeps): PreparedSite | null {
  if (!config.serveSite || config.scale.sitePublish === 's3' || deps.siteRenderer) return null;
  return prepareSite({ dataDir: config.dataDir, publicSiteUrl: config.publicSiteUrl });
}

async function startApp(
  config: Config,
  deps: AppDeps,
  startedAt: number,
  prepared: PreparedSite | null,
): Promise<RunningServer> {
  const [{ buildApp }, { createConfiguredWorker }, { LOCK_KEYS }, { serveMetrics }, openFiles] =
    await Promise.all([
      import('./app.ts'),
      import('./domains/video/setup.ts'),
      import('./core/db.ts'),
      import('./core/metrics.ts'),
      import('./core/open-files.ts'),
    ]);
  const app = await buildApp(config, deps);
  const adapters = describeAdapters(config);
  const local = Object.keys(adapters).filter((concern) => adapters[concern]!.startsWith('local'));
  app.log.info(
    { adapters },
    `mode: ${config.env}, ${local.length ? `local adapters for ${local.join(', ')}` : 'no local adapters'}`,
  );
  app.log.info({ dataDir: config.dataDir }, `data directory: ${config.dataDir}`);
  // Chosen now; its version line follows when `ffmpeg -version` answers (not worth the wait).
  void logFfmpeg(config, app.log);
  capConnections(app, config, openFiles);

  // Local mode's first start shows the sample articles (content/blog-seed); instances starting
  // together on one database take turns, so the second finds them and adds none.
  if (config.localMode) {
    const seeded = await app.database.exclusive(LOCK_KEYS.blogSeed, () =>
      app.blog.seedSamples(path.join(PROJECT_ROOT, 'content', 'blog-seed')),
    );
    if (seeded) app.log.info({ seeded }, 'sample blog articles added');
  }

  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  app.log.info(
    { url: config.publicSiteUrl },
    `listening on http://${config.host}:${port} (public URL ${config.publicSiteUrl})`,
  );

  // METRICS_PORT: the scraper's own listener, no token (the app's /metrics needs METRICS_TOKEN).
  // Opened before the worker starts: a port in use stops the start with nothing left running.
  const metricsServer = config.metrics.port
    ? await serveMetrics(app.metrics, config.metrics.port, config.host)
    : null;
  if (metricsServer) app.log.info(`metrics on http://${config.host}:${metricsServer.port}/metrics`);

  const worker =
    config.video.worker === 'inline'
      ? createConfiguredWorker(
          config,
          app.database.db,
          app.log,
          app.mediaStore,
          app.videoProviders,
          app.metrics,
        )
      : null;
  worker?.start();
  // Customers' webhooks (issue 36): every instance sends the outbox (claims are exclusive).
  app.webhookDispatcher.start();
  // Receipt emails (issue 37): every instance mails the outbox (claims are exclusive).
  app.receiptSender.start();

  const closing = new AbortController();
  const background = bringSiteUp(app, config, closing.signal, startedAt, prepared);
  return {
    app,
    port,
    background,
    async stop() {
      // From here the balancer sees this instance as not ready and stops sending requests.
      app.beginDraining();
      closing.abort();
      // Stop claiming tasks and hand unfinished ones back to the queue, then close the server.
      await worker?.stop();
      await app.webhookDispatcher.stop();
      await app.receiptSender.stop();
      await background;
      await metricsServer?.close();
      await app.close();
    },
  };
}

/**
 * Caps open connections (MAX_CONNECTIONS, or sized to the open-file limit) so descriptors remain
 * for the database and files however many clients connect; Node closes the ones over the cap.
 */
function capConnections(
  app: FastifyInstance,
  config: Config,
  { openFileLimits, connectionCapFor }: typeof OpenFiles,
): void {
  const limits = openFileLimits();
  // Without /proc the limit is unknown: assume the common 1024.
  const soft = limits?.soft ?? 1024;
  const maxConnections = config.http.maxConnections ?? connectionCapFor(soft);
  app.server.maxConnections = maxConnections;
  const low = soft < MIN_OPEN_FILES;
  app.log[low ? 'warn' : 'info'](
    { openFiles: limits, maxConnections },
    `open-file limit ${limits ? soft : 'unknown'}; at most ${maxConnections} connections at once` +
      (low ? ` (raise the hard limit to ${MIN_OPEN_FILES} or more: docs/deployment.md)` : ''),
  );
}

/** Below this many descriptors a burst of clients can starve the database and file reads. */
const MIN_OPEN_FILES = 4096;

/**
 * Makes the live release current when this instance builds the site (building it when missing
 * or stale, from the build `prepared` ahead when it fits, retrying a failed build while the API
 * keeps serving), then renders the sample clips missing from the cache, one at a time at the
 * lowest CPU priority.
 */
async function bringSiteUp(
  app: FastifyInstance,
  config: Config,
  signal: AbortSignal,
  startedAt: number,
  prepared: PreparedSite | null,
): Promise<void> {
  if (!app.siteBuilder) {
    // Another server builds the pages (`npm run dev`: Astro's dev server reads this snapshot).
    await app.writeSnapshot().catch((err: unknown) => {
      app.log.error({ err }, 'could not write the published-posts snapshot');
    });
  } else {
    // SITE_PUBLISH=s3: from the bucket when it holds a release of these sources, else built here
    // and published (also by an instance that does not serve the site itself).
    // Stopping the server stops the build started ahead too (a no-op once it was taken).
    const stopPrepared = () => prepared?.cancel();
    signal.addEventListener('abort', stopPrepared, { once: true });
    const manifest = await app.publisher
      .ensureCurrentRetrying({ signal, ...(prepared ? { prepared } : {}) })
      .finally(() => {
        signal.removeEventListener('abort', stopPrepared);
        prepared?.cancel(); // not taken (the server stopped first): not needed
      });
    if (!manifest) return;
    const sinceStartMs = Math.round(performance.now() - startedAt);
    if (config.serveSite) {
      const { loadLiveRelease } = await import('./domains/site-build/static-site.ts');
      await loadLiveRelease(config.dataDir, app.siteRelease);
      app.log.info({ release: manifest.id, sinceStartMs }, `site ready at ${config.publicSiteUrl}`);
    } else {
      app.log.info({ release: manifest.id, sinceStartMs }, 'site release live in the bucket');
    }
  }
  // An API-only instance (SERVE_SITE=false) serves the clips already in the cache, renders none.
  if (!config.serveSite || !config.samples.render || signal.aborted) return;
  await app.samples.renderMissing({ lowPriority: true, signal }).catch((err: unknown) => {
    if (!signal.aborted) app.log.error({ err }, 'sample clip rendering stopped');
  });
}

async function main(): Promise<void> {
  loadDotEnv();
  const server = await startServer(loadConfig());
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    server.app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    server.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        server.app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

if (import.meta.main) {
  main().catch((error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  });
}
