/**
 * The types the video worker and its two steps (submit-step.ts, poll-step.ts) share: the worker's
 * options and what a step is handed. Apart from worker.ts so the steps need not import the worker
 * that imports them.
 */
import type { VideoRouting } from '../../config-video.ts';
import type { Db } from '../../core/db.ts';
import type { VideoTaskRow } from '../../db/schema.ts';
import type { VideoMedia } from './media.ts';
import type { ExpectedVideo } from './result-check.ts';
import type { FailureKind } from './messages.ts';
import type { VideoProvider } from './providers/types.ts';
import { type ApiText } from '../../core/api-messages.ts';

export interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** A mode's route: provider names (keys of `providers`) and their model ids, in order. */
type WorkerRoute = ReadonlyArray<{ provider: string; model: string }>;

export interface WorkerOptions {
  db: Db;
  /** One adapter per provider name that a route names (or that still has tasks in flight). */
  providers: Record<string, VideoProvider>;
  /** Each mode's ordered route: tried in turn while no provider accepts the job. */
  routes: { text: WorkerRoute; image: WorkerRoute };
  /** VIDEO_ROUTE_POLICY and VIDEO_MAX_COST_USD; absent: as written, no cap. */
  routing?: VideoRouting;
  media: VideoMedia;
  log: Logger;
  /** Steps taken at once by this process (each mostly waits on a provider or the disk). */
  concurrency?: number;
  leaseMs?: number;
  /** Pause between two status checks of one job, per provider name. */
  pollIntervalMs?: number | ((provider: string) => number);
  /** Pause when no task is due. */
  idleMs?: number;
  /** How long a job is expected to take, for the progress bar when the provider reports none. */
  expectedMs?: number;
  /** The origin of the URLs in customers' webhook events (config.publicSiteUrl). */
  publicOrigin?: string;
  /** Origin for providers' completion webhooks; null: poll only. */
  webhookBase?: string | null;
  /** Submit failures in a row that open a provider's breaker, and for how long. */
  breaker?: { failures: number; openMs: number };
  /** Wait before the next submit round when every provider was busy and none said how long. */
  busyRetryMs?: number;
  /** The result check (default checkVideo); the bench wraps it to time it apart. */
  checkResult?: (file: string, expected: ExpectedVideo, signal?: AbortSignal) => Promise<unknown>;
  /** Told once per task this process finishes (server/core/metrics.ts videoTaskMetrics). */
  metrics?: {
    onFinished(task: VideoTaskRow, outcome: 'completed' | 'failed', failureKind?: string): void;
  };
}

/** What a step needs: the options, this worker's identity and its two ways to end a task. */
export interface StepContext {
  opts: WorkerOptions;
  owner: string;
  pollInterval(provider: string): number;
  fail(task: VideoTaskRow, kind: FailureKind, providerError?: string): Promise<void>;
  release(
    task: VideoTaskRow,
    next: { status: 'pending' | 'processing'; message: ApiText; waitMs: number; progress?: number },
  ): Promise<void>;
  checkResult(file: string, expected: ExpectedVideo, signal?: AbortSignal): Promise<unknown>;
  removeUpload(task: VideoTaskRow): Promise<void>;
}
