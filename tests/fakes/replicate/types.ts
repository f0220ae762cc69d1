/** The Replicate fake's public face (what tests see) and its internal state. */
import type { WebhookRequest } from '../../../server/domains/video/providers/types.ts';
import type {
  FakeJob,
  FakeRequestLog,
  SubmitFailure,
  VideoProviderFake,
} from '../video/control.ts';
import type { FakeVideoShape } from '../video/shape.ts';

export interface ReplicateFakeRequest extends FakeRequestLog {
  /** `api` (api.replicate.com) or `delivery` (replicate.delivery, where outputs live). */
  server: 'api' | 'delivery';
  /** The Authorization header as received, or null: the token must never reach `delivery`. */
  authorization: string | null;
  /** A create's Cancel-After header, or null. */
  cancelAfter?: string | null;
  /** A POST's body, parsed as JSON when it was JSON. */
  body?: unknown;
}

export type WebhookOptions = { tamper?: boolean; stale?: boolean };

export interface ReplicateFake extends VideoProviderFake {
  readonly provider: 'replicate';
  readonly requests: ReplicateFakeRequest[];
  /** The API token the fake accepts (REPLICATE_API_TOKEN). */
  readonly token: string;
  /** The default webhook's signing secret (`whsec_…`), as `GET /webhooks/default/secret` tells. */
  readonly webhookSecret: string;
  /** Base URL of the output host (the fake's replicate.delivery), another origin than `url`. */
  readonly deliveryUrl: string;
  /** Version id per served model, for `owner/name:version` route entries. */
  readonly versions: Record<string, string>;
  /** The `error` text of `[policy]` and `[fail]` predictions. */
  readonly policyError: string;
  readonly failError: string;
  /**
   * Each create answers this long after the prediction exists (0 by default): for a client whose
   * time limit runs out after sending, so the job exists but the answer is lost.
   */
  submitDelayMs: number;
  /**
   * Moves the fake's clock forward: Cancel-After deadlines and the one-hour output retention
   * follow it. Webhook timestamps stay on the real clock (the adapter checks them against its own).
   */
  advance(ms: number): void;
  /** Deletes every output file now (the delivery host answers 404); predictions still name them. */
  expireFiles(): void;
  signedWebhook(requestId: string, opts?: WebhookOptions): Promise<WebhookRequest>;
  deliverWebhook(requestId: string, opts?: WebhookOptions): Promise<number>;
}

export type Status = 'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled' | 'aborted';
export type Outcome = 'success' | 'policy' | 'fail' | 'hang';

/** A prediction as the fake keeps it (`polls`, `canceled` etc. are the FakeJob view). */
export interface Job extends FakeJob {
  outcome: Outcome;
  /** The version id, or 'hidden' when created through an official model's endpoint. */
  version: string;
  input: Record<string, unknown>;
  /** The video the prediction makes, as its input asked. */
  shape: FakeVideoShape;
  status: Status;
  createdAt: number;
  startedAt?: number;
  completedAt?: number;
  /** Cancel-After, as an absolute time on the fake's clock. */
  deadline?: number;
  output: string | null;
  error: string | null;
  dataRemoved: boolean;
  webhookEventsFilter?: string[];
}

export interface FakeState {
  fake: ReplicateFake;
  /** The fake's clock (real time plus `advance`). */
  now(): number;
  jobs: Map<string, Job>;
  /** Output files by the path they are served at on the delivery host. */
  files: Map<string, Job>;
  submitFailures: { count: number; failure: SubmitFailure };
  /** Held create answers, cleared on close. */
  timers: Set<NodeJS.Timeout>;
}
