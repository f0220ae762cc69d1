/**
 * The public API's tables (issue 36), re-exported by schema.ts: developers' keys, the answers
 * kept for `Idempotency-Key`, webhook endpoints, and the outbox of events with their deliveries
 * and each attempt (server/core/webhook-outbox.ts writes events; domains/api delivers them).
 */
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { at, createdAt } from './columns.ts';
import { ownerId } from './users-schema.ts';

/** A developer's key. Only its SHA-256 is stored; a revoked key stays, for the log and admin. */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey(),
    userId: ownerId(),
    name: text('name').notNull(),
    /** "vs_live_" and the next 6 characters: what the user sees to tell keys apart. */
    prefix: text('prefix').notNull(),
    /** SHA-256 (hex) of the full key: the lookup of every /v1 request. */
    keyHash: text('key_hash').notNull().unique(),
    /** shared/public-api.ts API_SCOPES. */
    scopes: text('scopes').array().notNull(),
    createdAt: createdAt(),
    /** Written at most once a minute per key (a write per request would be a hot row). */
    lastUsedAt: at('last_used_at'),
    revokedAt: at('revoked_at'),
  },
  (t) => [index('api_keys_user_idx').on(t.userId, t.createdAt)],
);

/**
 * An `Idempotency-Key` of one API key: `in_flight` while its request runs (held until
 * locked_until, so a crashed request's key can be taken over), then `done` with the answer, which
 * is replayed until expires_at. The answer is written in the same transaction as what it did (a
 * video's charge and task), so a replay never charges again.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    apiKeyId: uuid('api_key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** SHA-256 of method, path and body: the same key with another request is refused. */
    requestHash: text('request_hash').notNull(),
    status: text('status', { enum: ['in_flight', 'done'] }).notNull(),
    responseStatus: integer('response_status'),
    responseBody: jsonb('response_body'),
    lockedUntil: at('locked_until'),
    createdAt: createdAt(),
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.apiKeyId, t.key] }),
    index('idempotency_keys_expires_idx').on(t.expiresAt),
  ],
);

/**
 * Where a user's events go. `url` null is the user's one row whose secret signs the events of
 * requests that name their own `webhook_url`. Secrets are kept as issued (signing needs them).
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey(),
    userId: ownerId(),
    url: text('url'),
    /** shared/public-api.ts WEBHOOK_EVENTS. */
    events: text('events').array().notNull(),
    creditsLowThreshold: integer('credits_low_threshold').notNull().default(50),
    secret: text('secret').notNull(),
    /** After a rotation: the previous secret, which also signs until its expiry. */
    previousSecret: text('previous_secret'),
    previousSecretExpiresAt: at('previous_secret_expires_at'),
    /** The first failure since the last success; 3 days of failing disables the endpoint. */
    failingSince: at('failing_since'),
    disabledAt: at('disabled_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('webhook_endpoints_user_idx').on(t.userId),
    // The admin overview's endpoints disabled in the last 24 hours.
    index('webhook_endpoints_disabled_idx')
      .on(t.disabledAt)
      .where(sql`${t.disabledAt} is not null`),
  ],
);

/**
 * One event for a customer's webhooks, as signed and sent: the body is kept as text so every
 * attempt signs the same bytes. (Not `webhook_events`: that table holds the events Stripe and the
 * video providers send us.)
 */
export const customerWebhookEvents = pgTable(
  'customer_webhook_events',
  {
    /** The `webhook-id` header. */
    id: uuid('id').primaryKey(),
    userId: ownerId(),
    type: text('type').notNull(),
    payload: text('payload').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('customer_webhook_events_created_idx').on(t.createdAt)],
);

/** One event to one endpoint (or to a request's webhook_url, under the user's url-null row). */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey(),
    eventId: uuid('event_id')
      .notNull()
      .references(() => customerWebhookEvents.id, { onDelete: 'cascade' }),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    /** Where it goes: the endpoint's URL when the event happened, or the request's webhook_url. */
    url: text('url').notNull(),
    status: text('status', { enum: ['pending', 'delivered', 'failed'] })
      .notNull()
      .default('pending'),
    attemptCount: integer('attempt_count').notNull().default(0),
    nextAttemptAt: at('next_attempt_at'),
    /** A sender holds it until then (a crashed sender's delivery is taken over after). */
    lockedUntil: at('locked_until'),
    createdAt: createdAt(),
  },
  (t) => [
    index('webhook_deliveries_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.createdAt, t.id),
    index('webhook_deliveries_event_idx').on(t.eventId),
  ],
);

/** Every attempt of a delivery: what the endpoint answered, shown to the user. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attemptedAt: at('attempted_at').notNull().defaultNow(),
    statusCode: integer('status_code'),
    /** The first 1,000 characters of the answer, or why none came. */
    response: text('response').notNull(),
    durationMs: integer('duration_ms').notNull(),
    /** What the attempt led to: delivered, another try scheduled, or given up. */
    outcome: text('outcome', { enum: ['delivered', 'retried', 'failed'] }).notNull(),
  },
  (t) => [
    index('webhook_attempts_delivery_idx').on(t.deliveryId, t.attemptedAt),
    // The admin overview's counts of the last 24 hours by outcome (an index-only range scan).
    index('webhook_attempts_attempted_idx').on(t.attemptedAt, t.outcome),
  ],
);

export type ApiKeyRow = typeof apiKeys.$inferSelect;
export type IdempotencyKeyRow = typeof idempotencyKeys.$inferSelect;
export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
