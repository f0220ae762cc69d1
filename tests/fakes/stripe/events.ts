/**
 * Webhook events for the Stripe fake: the v1 snapshot envelope, the signed delivery Stripe posts,
 * and `previous_attributes` for updates.
 */
import Stripe from 'stripe';
import { newId, nowSeconds } from './ids.ts';
import type { Json } from './form.ts';
import type { RequestContext, StripeStore } from './state.ts';
import type { SignedEvent, StripeEventJson } from './types.ts';

export function event(
  store: StripeStore,
  type: string,
  object: object,
  previousAttributes?: Record<string, unknown>,
  request: RequestContext | null = null,
): StripeEventJson {
  return {
    id: newId('evt'),
    object: 'event',
    api_version: store.apiVersion,
    created: nowSeconds(),
    // Snapshot: later mutations of the stored object must not leak into a sent event.
    data: {
      object: structuredClone(object) as Record<string, unknown>,
      ...(previousAttributes ? { previous_attributes: previousAttributes } : {}),
    },
    livemode: false,
    pending_webhooks: 1,
    request: { id: request?.requestId ?? null, idempotency_key: request?.idempotencyKey ?? null },
    type,
  };
}

export function sign(
  store: StripeStore,
  evt: object,
  opts: { timestamp?: number; secret?: string } = {},
): SignedEvent {
  // Stripe posts pretty-printed JSON (two-space indent); the signature covers these exact bytes.
  const payload = JSON.stringify(evt, null, 2);
  const header = Stripe.webhooks.generateTestHeaderString({
    payload,
    secret: opts.secret ?? store.webhookSecret,
    timestamp: opts.timestamp ?? nowSeconds(),
  });
  return { event: evt as StripeEventJson, payload, header };
}

/** Signs an event of the store's and queues it for `takeEvents()`, as API calls do. */
export function queueEvent(
  store: StripeStore,
  type: string,
  object: object,
  previousAttributes: Record<string, unknown> | undefined,
  request: RequestContext,
): void {
  store.pending.push(sign(store, event(store, type, object, previousAttributes, request)));
}

/** POSTs a signed event to a webhook endpoint with the headers Stripe sends. */
export function deliver(endpointUrl: string, signed: SignedEvent): Promise<Response> {
  return fetch(endpointUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
      'stripe-signature': signed.header,
      'cache-control': 'no-cache',
      accept: '*/*; q=0.5, application/xml',
    },
    body: signed.payload,
  });
}

/** Stripe's `previous_attributes`: the old value of every top-level field that changed. */
export function diffTopLevel(before: Json, after: Json): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(before)) {
    if (JSON.stringify(v) === JSON.stringify(after[k])) continue;
    if (k === 'metadata' && typeof v === 'object' && v !== null) {
      // For metadata Stripe lists only the keys that changed (null for keys that were added).
      const oldMeta = v as Record<string, string>;
      const newMeta = (after[k] ?? {}) as Record<string, string>;
      const changed: Record<string, string | null> = {};
      for (const key of new Set([...Object.keys(oldMeta), ...Object.keys(newMeta)])) {
        if (oldMeta[key] !== newMeta[key]) changed[key] = oldMeta[key] ?? null;
      }
      out[k] = changed;
    } else {
      out[k] = v;
    }
  }
  return out;
}
