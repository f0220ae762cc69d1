/** The Stripe fake's public shapes: the fake itself, its webhook deliveries and its request log. */

/** A v1 "snapshot" event exactly as Stripe serialises it into a webhook body. */
export interface StripeEventJson {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  data: { object: Record<string, unknown>; previous_attributes?: Record<string, unknown> };
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  type: string;
}

/** One webhook delivery: the event, the exact body bytes Stripe posts, and its Stripe-Signature. */
export interface SignedEvent {
  event: StripeEventJson;
  /** Raw request body; verify signatures against this string, never a re-serialisation. */
  payload: string;
  /** Value of the `Stripe-Signature` header. */
  header: string;
}

/** One API call the fake received (rejected ones included), oldest first. */
export interface StripeFakeRequest {
  method: string;
  /** Path without the query string, e.g. `/v1/checkout/sessions`. */
  path: string;
  /** Parsed (nested) params: the form body for POST, the query string for GET and DELETE. */
  body: Record<string, unknown>;
  idempotencyKey: string | null;
  stripeVersion: string | null;
}

export interface StripeFake {
  url: string;
  port: number;
  secretKey: string;
  webhookSecret: string;
  requests: StripeFakeRequest[];
  close(): Promise<void>;
  /**
   * The buyer pays the hosted page. Payment mode → payment_intent + charge, returns
   * [checkout.session.completed]; subscription mode → customer, subscription, first invoice,
   * returns [customer.subscription.created, invoice.paid, checkout.session.completed].
   */
  completeCheckout(sessionId: string, buyer?: { email?: string; name?: string }): SignedEvent[];
  /**
   * The next billing period starts: returns [invoice.paid] (billing_reason 'subscription_cycle').
   * A subscription set to cancel at period end is ended instead: [customer.subscription.deleted].
   */
  renewSubscription(subscriptionId: string): SignedEvent[];
  /** Refunds (fully by default) the charge behind a paid payment-mode session: [charge.refunded]. */
  refundCheckout(sessionId: string, amountCents?: number): SignedEvent[];
  /** Returns and clears the events produced by API calls (cancel, update, expire). */
  takeEvents(): SignedEvent[];
  /** Signs any event; override the timestamp or secret to forge stale or foreign deliveries. */
  sign(event: object, opts?: { timestamp?: number; secret?: string }): SignedEvent;
  /** Wraps an object in an event envelope as Stripe does. */
  event(
    type: string,
    object: object,
    previousAttributes?: Record<string, unknown>,
  ): StripeEventJson;
  /** POSTs a signed event to a webhook endpoint with the headers Stripe sends. */
  deliver(endpointUrl: string, signed: SignedEvent): Promise<Response>;
}
