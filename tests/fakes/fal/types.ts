/** The fal fake's public shapes: the fake itself and its request log. */
import type {
  VideoProvider,
  WebhookRequest,
} from '../../../server/domains/video/providers/types.ts';
import type { RetryPolicy } from '../../../server/domains/video/providers/http.ts';
import type { FakeRequestLog, VideoProviderFake } from '../video/control.ts';

export interface FalRequestLog extends FakeRequestLog {
  /** The queue API, the public CDN that serves results, or the REST host with the JWKS. */
  server: 'queue' | 'cdn' | 'rest';
  /** The `Authorization` header as received, or null: tests check the key stays with the queue. */
  authorization: string | null;
  /** The parsed JSON body of a submit. */
  body?: unknown;
}

export interface FalWebhookOptions {
  /** The body is changed after signing. */
  tamper?: boolean;
  /** Signed ten minutes ago (fal's verifiers allow 300 s). */
  stale?: boolean;
  /** Signed with a key that is not in the JWKS. */
  foreignKey?: boolean;
}

export interface FalFake extends VideoProviderFake {
  readonly provider: 'fal';
  /** FAL_KEY: what every queue call must send as `Authorization: Key <key>`. */
  readonly key: string;
  /** The CDN origin results point at (another origin than the queue, so no key goes there). */
  readonly cdnUrl: string;
  /** FAL_JWKS_URL. */
  readonly jwksUrl: string;
  readonly requests: FalRequestLog[];
  /** The raw texts fal gives for `[policy]` and `[fail]` jobs, for assertions. */
  readonly policyMessage: string;
  /**
   * Where a finished job's answer says the video is (default null: the CDN's file); a test points
   * it at an address of its own (a redirector, a huge or a non-MP4 body).
   */
  resultUrl: ((cdnFileUrl: string) => string) | null;
  readonly failureMessage: string;
  createAdapter(opts?: { retry?: RetryPolicy; fetchImpl?: typeof fetch }): VideoProvider;
  /**
   * The next `count` submits create their job (fal took them) but are never answered: the
   * adapter's time limit runs out after sending, the case that must not be resubmitted.
   */
  stallSubmits(count: number): void;
  /** Replaces the signing key; the JWKS then lists the new key instead of the old one. */
  rotateWebhookKey(): void;
  signedWebhook(requestId: string, opts?: FalWebhookOptions): Promise<WebhookRequest>;
  deliverWebhook(requestId: string, opts?: FalWebhookOptions): Promise<number>;
}
