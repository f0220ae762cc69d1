/**
 * Process entry: read config, make sure a site release exists, build the app, listen, and shut
 * down gracefully on SIGTERM/SIGINT (stop accepting, finish requests, close the database).
 */
import { ConfigError, loadConfig, loadDotEnv } from './config.ts';
import { buildApp } from './app.ts';
import path from 'node:path';
import { PROJECT_ROOT } from './domains/site-build/service.ts';
import { loadLiveRelease } from './core/static-site.ts';
import { createConfiguredWorker } from './domains/video/setup.ts';
import { LOCK_KEYS } from './core/db.ts';

async function main(): Promise<void> {
  loadDotEnv();
  const config = loadConfig();
  const app = await buildApp(config);

  // Local mode's first start shows the sample articles (content/blog-seed); instances starting
  // together on one database take turns, so the second finds them and adds none.
  if (config.localMode) {
    const seeded = await app.database.exclusive(LOCK_KEYS.blogSeed, () =>
      app.blog.seedSamples(path.join(PROJECT_ROOT, 'content', 'blog-seed')),
    );
    if (seeded) app.log.info({ seeded }, 'sample blog articles added');
  }
  const manifest = await app.publisher.ensureCurrent();
  if (manifest) {
    await loadLiveRelease(config.dataDir, app.siteRelease);
    app.log.info({ release: manifest.id }, 'serving site release');
  }

  await app.listen({ port: config.port, host: config.host });

  const worker =
    config.video.worker === 'inline'
      ? createConfiguredWorker(config, app.database.db, app.log)
      : null;
  worker?.start();

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    // Stop claiming tasks and hand unfinished ones back to the queue, then close the server.
    Promise.resolve(worker?.stop())
      .then(() => app.close())
      .then(
        () => process.exit(0),
        (err: unknown) => {
          app.log.error({ err }, 'shutdown failed');
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
