/**
 * Builds the configured video provider and worker, shared by `npm start` (worker in-process) and
 * `npm run worker` (worker alone).
 */
import path from 'node:path';
import type { Config } from '../../config.ts';
import type { Db } from '../../core/db.ts';
import { createMediaStore } from './media.ts';
import { createGeminiVeoProvider } from './providers/gemini-veo.ts';
import { createLocalVideoProvider } from './providers/local.ts';
import type { VideoProvider } from './providers/types.ts';
import { IMAGE_MODEL, TEXT_MODEL } from '../../../shared/video.ts';
import { createVideoWorker } from './worker.ts';

interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export function createConfiguredProvider(config: Config): VideoProvider {
  if (config.video.provider === 'veo') {
    const { gemini } = config.video;
    return createGeminiVeoProvider({
      apiBase: gemini.apiBase,
      apiKey: gemini.apiKey,
      models: { [TEXT_MODEL]: gemini.textModel, [IMAGE_MODEL]: gemini.imageModel },
    });
  }
  return createLocalVideoProvider({
    jobsDir: path.join(config.dataDir, 'jobs'),
    failPattern: config.video.localFailPattern,
  });
}

export function createConfiguredWorker(
  config: Config,
  db: Db,
  log: Logger,
  provider = createConfiguredProvider(config),
) {
  const local = config.video.provider === 'local';
  return createVideoWorker({
    db,
    provider,
    media: createMediaStore(config.dataDir),
    uploadsDir: path.join(config.dataDir, 'uploads'),
    log,
    concurrency: config.video.concurrency,
    leaseMs: config.video.leaseMs,
    // The local renderer finishes in seconds; Veo takes minutes and bills by request.
    pollIntervalMs: config.video.pollMs || (local ? 300 : 5000),
    expectedMs: local ? 8000 : 5 * 60_000,
  });
}
