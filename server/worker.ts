/**
 * `npm run worker`: the video worker on its own. Against PostgreSQL any number of workers (and
 * `npm start` instances with their inline worker) share the queue; tasks are claimed with
 * FOR UPDATE SKIP LOCKED, so none is done twice. The embedded PGlite database allows one process
 * only, so there the worker runs inside `npm start`.
 */
import pino from 'pino';
import { ConfigError, loadConfig, loadDotEnv } from './config.ts';
import { countingCommits } from './core/after-commit.ts';
import { openDatabase } from './core/db.ts';
import { logFfmpeg } from './core/ffmpeg.ts';
import { logStream } from './core/log.ts';
import { createMediaStore } from './core/media-store/index.ts';
import { createMetrics, serveMetrics } from './core/metrics.ts';
import { addQueueGauges } from './domains/video/queue-metrics.ts';
import { createConfiguredProviders, createConfiguredWorker } from './domains/video/setup.ts';

async function main(): Promise<void> {
  loadDotEnv();
  const config = loadConfig();
  if (!config.databaseUrl) {
    throw new ConfigError(
      'npm run worker needs DATABASE_URL (PostgreSQL). The embedded database allows one process, and `npm start` already runs the worker inside it.',
    );
  }
  const log = pino({ level: config.logLevel, name: 'video-worker' }, logStream(config.logFormat));
  await logFfmpeg(config, log);
  const database = await openDatabase(config);
  await database.migrate();
  // A separate worker reports its own finished tasks (and the shared queue) on METRICS_PORT.
  const metrics = createMetrics({ processMetrics: true });
  // Its refunds are counted too (credits granted), once their transactions commit.
  const db = countingCommits(database.db, metrics);
  addQueueGauges(metrics, db);
  // Its own METRICS_PORT: beside `npm start` on one host, give each process a different one.
  const metricsServer = config.metrics.port
    ? await serveMetrics(metrics, config.metrics.port, config.host)
    : null;
  if (metricsServer) log.info(`metrics on http://${config.host}:${metricsServer.port}/metrics`);
  // Results and image-mode uploads: the same store as the API instances (S3_BUCKET on several machines).
  const store = createMediaStore(config);
  const providers = await createConfiguredProviders(config);
  const worker = createConfiguredWorker(config, db, log, store, providers, metrics);
  worker.start();
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'worker shutting down');
    worker
      .stop()
      .then(() => metricsServer?.close())
      .then(() => store.close())
      .then(() => database.close())
      .then(
        () => process.exit(0),
        (err: unknown) => {
          log.error({ err }, 'worker shutdown failed');
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
