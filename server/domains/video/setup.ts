/**
 * Builds the configured provider adapters and the worker, shared by `npm start` (worker
 * in-process) and `npm run worker` (worker alone). Every provider a route names gets an adapter,
 * and so does every other provider whose credentials are set: a job accepted before a route
 * change is still followed to its end.
 */
import type { MediaStore } from '../../core/media-store/types.ts';
import type { Config } from '../../config.ts';
import { routedProviders } from '../../config-video.ts';
import type { Db } from '../../core/db.ts';
import { videoTaskMetrics, type Metrics } from '../../core/metrics.ts';
import { createVideoMedia } from './media.ts';
import { PROVIDER_METRICS_LABELS, PROVIDERS, providerByName } from './providers/index.ts';
import type { VideoProvider } from './providers/types.ts';
import { createVideoWorker, type Logger } from './worker.ts';

/**
 * The adapters by provider name: every routed one (config checked their credentials) and any
 * other that is configured. Only these adapters' modules are loaded (descriptor `create`).
 */
export async function createConfiguredProviders(
  config: Config,
): Promise<Record<string, VideoProvider>> {
  const routed = routedProviders(config.video);
  const wanted = PROVIDERS.filter((descriptor) => {
    const settings = config.video.providers[descriptor.name];
    return routed.has(descriptor.name) || descriptor.configured(settings);
  });
  const adapters = await Promise.all(
    wanted.map((descriptor) =>
      descriptor.create(config.video.providers[descriptor.name], {
        dataDir: config.dataDir,
        outbound: config.outbound,
        maxResultBytes: config.video.maxResultBytes,
      }),
    ),
  );
  return Object.fromEntries(wanted.map((descriptor, i) => [descriptor.name, adapters[i]!]));
}

/** Default pause between two status checks: the local renderer takes seconds, Veo minutes. */
function pollIntervalFor(config: Config) {
  return (provider: string) =>
    config.video.pollMs ||
    providerByName(provider)?.pollMs ||
    (config.video.webhookBase ? 15_000 : 5000);
}

export function createConfiguredWorker(
  config: Config,
  db: Db,
  log: Logger,
  store: MediaStore,
  /** The app's `videoProviders`, or createConfiguredProviders(config) for a worker alone. */
  providers: Record<string, VideoProvider>,
  metrics?: Metrics,
) {
  // The slowest routed provider sets the queue's estimate.
  const expectedMs = Math.max(
    ...[...routedProviders(config.video)].map((p) => providerByName(p)!.expectedMs),
  );
  return createVideoWorker({
    db,
    providers,
    routes: config.video.routes,
    routing: config.video.routing,
    media: createVideoMedia(store, config.dataDir),
    log,
    concurrency: config.video.concurrency,
    leaseMs: config.video.leaseMs,
    pollIntervalMs: pollIntervalFor(config),
    expectedMs,
    webhookBase: config.video.webhookBase,
    publicOrigin: config.publicSiteUrl,
    breaker: config.video.breaker,
    ...(metrics ? { metrics: videoTaskMetrics(metrics, PROVIDER_METRICS_LABELS) } : {}),
  });
}
