/**
 * The public API for developers (issue 36): the values the server, the site's /account/api page,
 * the docs and the tests share. Plain values and types only (the site imports it).
 *
 * - Keys: `vs_live_` + 32 random bytes in base62, shown once; only their SHA-256 is stored.
 * - Scopes name what a key may do; a /v1 route names the one it needs.
 * - Webhooks follow the Standard Webhooks specification (https://www.standardwebhooks.com/).
 */
import type { VideoOptionsData } from './video-options.ts';

/** Every full key starts with this; the stored prefix is this and the next 6 characters. */
export const API_KEY_PREFIX = 'vs_live_';
/** Characters of a key shown after creation (the prefix and 6 more): "vs_live_AbC123". */
export const API_KEY_SHOWN_LENGTH = API_KEY_PREFIX.length + 6;
/** Active (not revoked) keys one user may hold. */
export const MAX_API_KEYS = 10;
/** A key's name, as the user types it. */
export const MAX_API_KEY_NAME = 80;

export const API_SCOPES = ['videos:write', 'videos:read', 'credits:read'] as const;
export type ApiScope = (typeof API_SCOPES)[number];

/** Per key, unless the user's plan raises them (content/plans.json `api`). */
export const API_DEFAULT_LIMITS = { requestsPerMinute: 60, unfinishedVideos: 5 } as const;

/** `Idempotency-Key`: its longest form, and how long an answer is replayed. */
export const IDEMPOTENCY_KEY_MAX = 255;
export const IDEMPOTENCY_TTL_HOURS = 24;

/** `metadata` on a video: at most this many string pairs, each key and value this long. */
export const MAX_METADATA_PAIRS = 16;
export const MAX_METADATA_KEY = 40;
export const MAX_METADATA_VALUE = 500;

export const WEBHOOK_EVENTS = [
  'video.completed',
  'video.failed',
  'video.refunded',
  'credits.low',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

/** Signing secrets: `whsec_` + base64 of 24 random bytes (Standard Webhooks). */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
/** After a rotation the previous secret also signs for this long. */
export const WEBHOOK_ROTATION_OVERLAP_HOURS = 24;
/** Endpoints one user may register. */
export const MAX_WEBHOOK_ENDPOINTS = 10;
/** A delivery is retried for this long after its event, then given up. */
export const WEBHOOK_RETRY_HOURS = 24;
/** The first retry waits this long; each next one 4× longer (±20 % jitter), at most the cap. */
export const WEBHOOK_FIRST_RETRY_SECONDS = 5;
export const WEBHOOK_MAX_RETRY_SECONDS = 6 * 60 * 60;
/** An endpoint whose deliveries have failed for this long is disabled, and its owner mailed. */
export const WEBHOOK_DISABLE_AFTER_DAYS = 3;
/** `credits.low` fires when a balance falls below this, unless the endpoint sets another. */
export const DEFAULT_CREDITS_LOW_THRESHOLD = 50;

/** One key as the session API and /account/api show it (never the full key, but at creation). */
export interface ApiKeyInfo {
  id: string;
  name: string;
  /** "vs_live_AbC123" (API_KEY_SHOWN_LENGTH characters). */
  prefix: string;
  scopes: ApiScope[];
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** POST /api/account/api-keys: the new key, with the full secret this once. */
export interface CreatedApiKey extends ApiKeyInfo {
  key: string;
}

/** One webhook endpoint as the session API and /account/api show it (never its secret). */
export interface WebhookEndpointInfo {
  id: string;
  url: string;
  events: WebhookEventType[];
  credits_low_threshold: number;
  created_at: string;
  /** Set while the previous secret still signs (24 h after a rotation). */
  previous_secret_expires_at: string | null;
  /** Set when deliveries have failed since then (reset by a success). */
  failing_since: string | null;
  /** Set when it was disabled (failing for 3 days); the user re-enables by creating it again. */
  disabled_at: string | null;
}

/** POST /api/account/webhooks and .../rotate: the endpoint and its new secret, shown once. */
export interface WebhookEndpointWithSecret extends WebhookEndpointInfo {
  secret: string;
}

/** One attempt to deliver an event. */
export interface WebhookAttemptInfo {
  attempted_at: string;
  /** The HTTP status the endpoint answered, or null when none came (refused, timeout). */
  status_code: number | null;
  /** The first 1,000 characters of its answer, or why nothing came. */
  response: string;
  duration_ms: number;
}

/** One event's delivery to one endpoint (or to a request's `webhook_url`). */
export interface WebhookDeliveryInfo {
  id: string;
  /** The `webhook-id` header: the same on every attempt and on a resend. */
  event_id: string;
  event_type: WebhookEventType;
  /** The endpoint's URL, or the request's webhook_url. */
  url: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: WebhookAttemptInfo[];
  next_attempt_at: string | null;
  created_at: string;
  /** The JSON body as sent. */
  payload: string;
}

/** A video as /v1 answers it and as video.* webhook events carry it (`data`). */
export interface ApiVideo {
  id: string;
  object: 'video';
  status: 'pending' | 'processing' | 'completed' | 'failed';
  mode: 'text' | 'image';
  model: string;
  /** Null once the video was deleted. */
  prompt: string | null;
  /** The options as the API spells them. */
  options: VideoOptionsData;
  duration_seconds: number;
  credits_charged: number;
  /** The video this one extends. */
  extends_video_id: string | null;
  progress: number;
  /** Absolute URLs on our origin (/media/…), once completed. */
  result_url: string | null;
  poster_url: string | null;
  /** Why it failed (credits were refunded), or null. */
  error: { code: string; message: string } | null;
  metadata: Record<string, string>;
  created_at: string;
  completed_at: string | null;
  deleted: boolean;
}

/*
 * The session API behind /account/api (answers are `{ success: true, data }`):
 * - GET    /api/account/api-keys                      → ApiKeyList
 * - POST   /api/account/api-keys { name, scopes }     → 201 CreatedApiKey
 * - DELETE /api/account/api-keys/{id}                 → 204
 * - GET    /api/account/webhooks                      → WebhookList
 * - POST   /api/account/webhooks { url, events, credits_low_threshold? } → 201 WebhookEndpointWithSecret
 * - DELETE /api/account/webhooks/{id}                 → 204
 * - POST   /api/account/webhooks/{id}/rotate          → WebhookEndpointWithSecret
 * - POST   /api/account/webhooks/request-secret       → RequestSecretWithSecret (create or rotate)
 * - GET    /api/account/webhooks/{id}/deliveries?cursor=&limit= → DeliveryPage (the url-null row's id
 *          lists the deliveries to requests' own webhook_url)
 * - POST   /api/account/webhooks/deliveries/{id}/resend → WebhookDeliveryInfo
 * - GET    /api/admin/users/{id}/api-keys (admin)     → ApiKeyList
 * - DELETE /api/admin/api-keys/{id} (admin)           → 204
 */
export interface ApiKeyList {
  items: ApiKeyInfo[];
  /** MAX_API_KEYS: active keys allowed. */
  max: number;
}

/** The user's signing secret for events of requests that carry their own webhook_url. */
export interface RequestSecretInfo {
  /** The row's id (its deliveries: GET /api/account/webhooks/{id}/deliveries). */
  id: string;
  created_at: string;
  previous_secret_expires_at: string | null;
}

export interface RequestSecretWithSecret extends RequestSecretInfo {
  secret: string;
}

export interface WebhookList {
  items: WebhookEndpointInfo[];
  request_secret: RequestSecretInfo | null;
}

export interface DeliveryPage {
  items: WebhookDeliveryInfo[];
  next_cursor: string | null;
}
