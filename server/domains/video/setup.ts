/**
 * Builds the configured provider adapters and the worker, shared by `npm start` (worker
 * in-process) and `npm run worker` (worker alone). Every provider a route names gets an adapter,
 * and so does every other provider whose credentials are set: a job accepted before a route
 * change is still followed to its end.
 */
import path from 'node:path';
import type { MediaStore } from '../../core/media-store/types.ts';
import type { Config } from '../../config.ts';
import { routedProviders, type VideoProviderName } from '../../config-video.ts';
import type { Db } from '../../core/db.ts';
import { videoTaskMetrics, type Metrics } from '../../core/metrics.ts';
import { createVideoMedia } from './media.ts';
import { createFalProvider } from './providers/fal.ts';
import { createGeminiProvider } from './providers/gemini.ts';
import { createLocalVideoProvider } from './providers/local.ts';
import { createReplicateProvider } from './providers/replicate.ts';
import type { VideoProvider } from './providers/types.ts';
import { createVertexProvider } from './providers/vertex.ts';
import { createVideoWorker, type Logger } from './worker.ts';

/** Each provider's adapter from config, or null when its credentials are not set. */
const BUILDERS: Record<VideoProviderName, (config: Config) => VideoProvider | null> = {
  local: (config) =>
    createLocalVideoProvider({
      jobsDir: path.join(config.dataDir, 'jobs'),
      failPattern: config.video.localFailPattern,
    }),
  fal: ({ video: { fal } }) =>
    fal.key
      ? createFalProvider({ key: fal.key, queueUrl: fal.queueUrl, jwksUrl: fal.jwksUrl })
      : null,
  replicate: ({ video: { replicate } }) =>
    replicate.token
      ? createReplicateProvider({
          token: replicate.token,
          apiUrl: replicate.apiUrl,
          ...(replicate.webhookSecret ? { webhookSecret: replicate.webhookSecret } : {}),
        })
      : null,
  vertex: ({ video: { vertex } }) =>
    vertex.project && vertex.keyFile
      ? createVertexProvider({
          project: vertex.project,
          location: vertex.location,
          keyFile: vertex.keyFile,
          storageUrl: vertex.storageUrl,
          ...(vertex.apiUrl ? { apiUrl: vertex.apiUrl } : {}),
          ...(vertex.outputGcsUri ? { outputGcsUri: vertex.outputGcsUri } : {}),
        })
      : null,
  gemini: ({ video: { gemini } }) =>
    gemini.apiKey ? createGeminiProvider({ apiKey: gemini.apiKey, apiBase: gemini.apiBase }) : null,
};

/** The adapters by provider name: every routed one (config checked their credentials) and any other that is configured. */
export function createConfiguredProviders(config: Config): Record<string, VideoProvider> {
  const routed = routedProviders(config.video);
  const providers: Record<string, VideoProvider> = {};
  for (const name of Object.keys(BUILDERS) as VideoProviderName[]) {
    if (name === 'local' && !routed.has('local')) continue;
    const adapter = BUILDERS[name](config);
    if (adapter) providers[name] = adapter;
  }
  return providers;
}

/** Default pause between two status checks: the local renderer takes seconds, Veo minutes. */
export function pollIntervalFor(config: Config) {
  return (provider: string) =>
    config.video.pollMs || (provider === 'local' ? 300 : config.video.webhookBase ? 15_000 : 5000);
}

export function createConfiguredWorker(
  config: Config,
  db: Db,
  log: Logger,
  store: MediaStore,
  providers = createConfiguredProviders(config),
  metrics?: Metrics,
) {
  const localOnly = [...routedProviders(config.video)].every((p) => p === 'local');
  return createVideoWorker({
    db,
    providers,
    routes: config.video.routes,
    media: createVideoMedia(store, config.dataDir),
    log,
    concurrency: config.video.concurrency,
    leaseMs: config.video.leaseMs,
    pollIntervalMs: pollIntervalFor(config),
    expectedMs: localOnly ? 8000 : 3 * 60_000,
    webhookBase: config.video.webhookBase,
    breaker: config.video.breaker,
    ...(metrics ? { metrics: videoTaskMetrics(metrics) } : {}),
  });
}
