/**
 * What the video worker needs from a video generation provider (fal.ai, Replicate, Vertex AI,
 * the Gemini API, the local renderer, or a test double). Every adapter implements this and is
 * exercised by the one conformance suite (tests/api/video-providers.test.ts) against its fake.
 *
 * Kept stateless: a worker can crash between any two calls, so everything a later call needs
 * travels in the job id the worker stores on the task (an adapter may pack JSON into it, e.g.
 * fal's status/response/cancel URLs; keep it under 2 KB).
 *
 * Errors: a call that fails throws VideoProviderError (./errors.ts) whose `kind` tells the worker
 * what is safe to do next (retry later, fail over to the next route entry, fail and refund).
 */

import type { VideoOptions } from '../../../../shared/video-options.ts';

export type VideoMode = 'text' | 'image';

/** An image a job sends: the bytes and their type (PNG or JPEG, re-encoded by us). */
export interface JobImage {
  data: Buffer;
  mimeType: string;
}

export interface VideoJobInput {
  prompt: string;
  mode: VideoMode;
  /** The provider's own model id, from the route entry (e.g. `fal-ai/veo3.1`). */
  model: string;
  /** The first frame, required in image mode (a PNG re-encoded by us, at most 1920 px). */
  image?: JobImage;
  /**
   * The creative options (issue 35), always complete: DEFAULT_OPTIONS is the spec's clip. The
   * worker sends a job only to a route entry whose model can do all of them
   * (providers/capabilities.ts), and the adapter sends each in its provider's own field names,
   * choosing the model's variant endpoint where the provider has one per feature (fal's
   * `/fast`, `/first-last-frame-to-video`, `/reference-to-video`, `/extend-video`).
   */
  options: VideoOptions;
  /** Image mode with `options.lastFrame`: the frame the video ends on. */
  lastFrame?: JobImage;
  /** Text mode with `options.referenceImages` > 0: that many images of the subject. */
  referenceImages?: JobImage[];
  /**
   * `options.extend`: the finished video to continue (an MP4 of ours). The result is one clip:
   * this video followed by EXTEND_SECONDS more, with audio throughout.
   */
  sourceVideo?: { data: Buffer; mimeType: 'video/mp4'; durationSeconds: number };
  /** Our task id: for logs, idempotency keys and metadata where the provider takes them. */
  taskId: string;
  /**
   * Where the provider should POST completion (fal, Replicate), or undefined: then the worker
   * only polls. The URL carries nothing secret; the webhook is trusted by its signature.
   */
  webhookUrl?: string;
  /** When we stop waiting; a provider that takes a deadline (Replicate's Cancel-After) gets it. */
  deadlineAt: Date;
}

export type VideoJobState =
  /** Accepted, waiting for a runner; `position` when the provider says (0 = next). */
  | { state: 'queued'; position?: number }
  /** Generating; `progress` 0..1 when the provider reports it. */
  | { state: 'running'; progress?: number }
  /** Finished with a video; `costUsd` when the provider reports what it billed. */
  | { state: 'succeeded'; costUsd?: number }
  /**
   * Finished without a video. `kind`: `content_policy` when the provider's safety filter refused
   * the prompt or image, `provider` for anything else. `detail` is the provider's own text, for
   * logs and the admin view only: users see the worker's message for the kind.
   */
  | { state: 'failed'; kind: 'content_policy' | 'provider'; detail: string };

/** The facts a verified webhook carries: which job it is about (the worker then polls it). */
export interface WebhookNotice {
  /** Must equal what `submit` returned (or be found by `matchesJob`). */
  providerRequestId: string;
  /**
   * What names this delivery (Standard Webhooks `webhook-id`; fal: request id and signed
   * timestamp): the route takes each one once.
   */
  deliveryId?: string;
}

export interface WebhookRequest {
  headers: Record<string, string | string[] | undefined>;
  /** The body exactly as received: signatures are over these bytes. */
  rawBody: Buffer;
}

export interface VideoProvider {
  /** The route prefix: `fal`, `replicate`, `vertex`, `gemini`, `local`. */
  readonly name: string;
  /** Starts a job; returns the job id to store on the task (the whole state later calls need). */
  submit(input: VideoJobInput, signal?: AbortSignal): Promise<string>;
  /** One status check of a job (the worker polls on its own schedule, or when a webhook came). */
  poll(jobId: string, signal?: AbortSignal): Promise<VideoJobState>;
  /**
   * Copies the finished video to `destPath` (an .mp4 path on our disk), at once: some providers'
   * outputs expire within the hour. Write beside it and rename, so a half file never has the name.
   */
  download(jobId: string, destPath: string, signal?: AbortSignal): Promise<void>;
  /** Asks the provider to stop the job (deadline). Best effort; resolves if already finished. */
  cancel(jobId: string, signal?: AbortSignal): Promise<void>;
  /** The provider request id inside a job id (what webhooks and logs name). */
  requestIdOf(jobId: string): string;
  /**
   * Checks a webhook's signature and freshness; returns what it is about, or throws
   * VideoProviderError with kind `rejected` (bad or stale signature). Absent when the provider
   * has no webhooks (Vertex, Gemini, local): polling only.
   */
  verifyWebhook?(req: WebhookRequest): Promise<WebhookNotice>;
}
