/**
 * What every video provider fake offers a test (tests/fakes/<name>/, one per hosted provider), so
 * one conformance suite (tests/api/video-providers.test.ts) drives them all alike.
 *
 * Outcomes are chosen by markers in the prompt, so concurrent tasks each get their own:
 * - `[policy]`: the provider's safety filter refuses (where and how the real provider does it:
 *   on submit, in the status, or on the result);
 * - `[fail]`: the generation fails at the provider (a model/runner error);
 * - `[hang]`: the job never finishes (for deadlines and cancel);
 * - anything else: succeeds after `pollsUntilDone` status checks with the test video
 *   (tests/fakes/video/test-video.ts: a real 8 s MP4 with audio; see `video`).
 */
import type {
  VideoProvider,
  WebhookRequest,
} from '../../../server/domains/video/providers/types.ts';
import type { OutboundPolicy } from '../../../server/core/outbound.ts';
import type { RetryPolicy } from '../../../server/domains/video/providers/http.ts';
import type { VideoProviderName } from '../../../server/domains/video/providers/index.ts';
import type { FakeVideoShape } from './shape.ts';

/** A registered provider's name (PROVIDERS): each hosted one has a fake. */
export type FakeProviderName = VideoProviderName;

export interface FakeJob {
  /** The provider's request / prediction / operation / interaction id. */
  requestId: string;
  /** The model id the submit named (path or body). */
  model: string;
  prompt: string;
  /** How the first frame came, when one did (e.g. 'data-uri', 'base64', 'url'), and its type. */
  image?: { form: string; mimeType: string; bytes: number };
  /** The completion webhook URL the submit asked for, if any. */
  webhookUrl?: string;
  /** Status checks so far. */
  polls: number;
  canceled: boolean;
}

export interface FakeRequestLog {
  method: string;
  /** Path and query as received. */
  path: string;
  /** What the fake answered. */
  status: number;
}

export type SubmitFailure =
  { status: 429; retryAfterSeconds?: number } | { status: 500 | 502 | 503 };

export interface VideoProviderFake {
  readonly provider: FakeProviderName;
  /** Base URL of the fake's API (what the adapter's base-URL variable is set to). */
  readonly url: string;
  /**
   * Environment for the app's config that routes to this fake: credentials and base URLs
   * (FAL_KEY + FAL_QUEUE_URL + FAL_JWKS_URL, ...). Does not include VIDEO_ROUTE_*.
   */
  readonly env: Record<string, string>;
  /** The fake's servers, for an adapter built directly (OUTBOUND_ALLOW_HOSTS is in `env`). */
  readonly outbound: OutboundPolicy;
  /** Current model ids this fake serves for our two modes (it answers 404 for unknown ones). */
  readonly models: { text: string; image: string };
  /** The adapter, built as config would build it, pointed at this fake. */
  createAdapter(opts?: { retry?: RetryPolicy; fetchImpl?: typeof fetch }): VideoProvider;
  /** Accepted jobs in submit order: exactly one per job the provider would bill. */
  readonly jobs: FakeJob[];
  /** Every request received, in order. */
  readonly requests: FakeRequestLog[];
  /** Status checks a job needs before it finishes (default 1). */
  pollsUntilDone: number;
  /**
   * What finished jobs serve: by default the test video in the shape the job asked for
   * (./shape.ts; the spec's clip is `testVideo()`, 8 s with audio); tests swap in a bad one.
   */
  video: (shape?: FakeVideoShape) => Promise<Buffer>;
  /** The next `count` submits are answered with this error, before any job is created. */
  failSubmits(count: number, failure: SubmitFailure): void;
  /** For providers with webhooks: the signed completion webhook for a job, as it would arrive. */
  signedWebhook?(
    requestId: string,
    opts?: { tamper?: boolean; stale?: boolean },
  ): Promise<WebhookRequest>;
  /** POSTs that webhook to the job's webhookUrl; resolves our server's HTTP status. */
  deliverWebhook?(requestId: string, opts?: { tamper?: boolean; stale?: boolean }): Promise<number>;
  close(): Promise<void>;
}
