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

/** A catalogue price the customer portal offers (made in the dashboard: it may carry a key). */
export interface PortalPrice {
  unitAmount: number;
  interval: 'month' | 'year';
  productName: string;
  lookupKey?: string;
  metadata?: Record<string, string>;
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
   * [checkout.session.completed]; subscription mode → customer, subscription, first invoice
   * (paid by a payment intent linked through an InvoicePayment), returns
   * [customer.subscription.created, invoice.paid, checkout.session.completed]. `delayed` (payment
   * mode): a bank-debit-like method, the session completes unpaid until settleDelayedPayment.
   */
  completeCheckout(
    sessionId: string,
    buyer?: { email?: string; name?: string },
    /** `promotionCode`: the buyer types it in the hosted page's own field (allow_promotion_codes). */
    opts?: { delayed?: boolean; promotionCode?: string },
  ): SignedEvent[];
  /** A delayed payment settles: [checkout.session.async_payment_succeeded or _failed]. */
  settleDelayedPayment(sessionId: string, outcome: 'succeeded' | 'failed'): SignedEvent[];
  /** An open session passes its expiry unpaid: [checkout.session.expired]. */
  expireCheckout(sessionId: string): SignedEvent[];
  /**
   * The next billing period starts: returns [invoice.paid] (billing_reason 'subscription_cycle').
   * With 'failed' the card is declined: [invoice.payment_failed, customer.subscription.updated]
   * (past_due). A subscription set to cancel at period end is ended instead:
   * [customer.subscription.deleted].
   */
  renewSubscription(subscriptionId: string, outcome?: 'succeeded' | 'failed'): SignedEvent[];
  /**
   * Stripe retries an unpaid invoice: [invoice.paid, customer.subscription.updated (active)] or,
   * declined again, [invoice.payment_failed].
   */
  retryInvoice(invoiceId: string, outcome?: 'succeeded' | 'failed'): SignedEvent[];
  /** Refunds (fully by default) the charge behind a paid session: [charge.refunded]. */
  refundCheckout(sessionId: string, amountCents?: number): SignedEvent[];
  /**
   * Refunds (fully by default) the charge behind a payment: `ref` is a checkout session, an
   * invoice, a payment intent or a charge id. Returns [charge.refunded].
   */
  refundPayment(ref: string, amountCents?: number): SignedEvent[];
  /** The charge behind a payment (`ref` as for refundPayment): its id and payment intent. */
  chargeOf(ref: string): { id: string; paymentIntent: string };
  /**
   * The cardholder's bank disputes the charge behind a payment (fully by default; `inquiry` for
   * a warning that closes as warning_closed): [charge.dispute.created].
   */
  disputePayment(
    ref: string,
    opts?: { amountCents?: number; reason?: string; inquiry?: boolean },
  ): SignedEvent[];
  /** The dispute is decided: [charge.dispute.closed]. */
  closeDispute(disputeId: string, outcome: 'won' | 'lost' | 'warning_closed'): SignedEvent[];
  /** The customer portal sessions made so far, as Stripe answered them (billing-portal.ts). */
  portalSessions(): Array<Record<string, unknown>>;
  /**
   * In the customer portal, the customer switches to a catalogue price: [customer.subscription.
   * updated], plus [invoice.paid] (billing_reason 'subscription_update') when the interval changes.
   */
  portalSwitchPlan(subscriptionId: string, price: PortalPrice): SignedEvent[];
  /** In the portal, the customer cancels at the end of the period: [customer.subscription.updated]. */
  portalCancel(subscriptionId: string): SignedEvent[];
  /** In the portal, the customer adds a default card: [payment_method.attached, customer.updated]. */
  portalUpdatePaymentMethod(customerId: string): SignedEvent[];
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
