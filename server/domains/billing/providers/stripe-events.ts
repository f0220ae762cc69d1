/**
 * Stripe's JSON, read once: the webhook events billing handles and the objects they carry
 * (checkout sessions, subscriptions, invoices, charges, disputes) become the typed values below,
 * so the webhook handler and the billing service never look inside Stripe's payloads. Readers
 * are lenient: a missing field gives null (or the fallback noted), never an exception.
 *
 * Since API 2025-03-31 an invoice no longer names the payment intent or charge that paid it; an
 * InvoicePayment does (`GET /v1/invoice_payments?invoice=…`). A paid invoice's payment is looked
 * up here, before the webhook's transaction opens, so a later refund or dispute of that charge
 * (which names only its payment intent) finds the invoice and its credits.
 */
import type Stripe from 'stripe';
import { planOfSubscription, readPeriodLine, type PricePlan } from './stripe-prices.ts';
import type { PaidCheckout, ProviderSubscription } from './types.ts';

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value && typeof value === 'object' ? (value as Json) : {});
const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);
/** An expandable field: the id itself, or the expanded object's id. */
const idOf = (value: unknown): string | null =>
  typeof value === 'string' ? value : str(obj(value).id);
const date = (epoch: unknown): Date | null =>
  typeof epoch === 'number' ? new Date(epoch * 1000) : null;

/** A checkout session as fulfillment needs it. */
export interface StripeCheckoutSession {
  id: string;
  /** Paid, or nothing to pay (a 100 % discount): ready to fulfil. */
  paid: boolean;
  paymentIntentId: string | null;
  invoiceId: string | null;
  subscriptionId: string | null;
  /** What the buyer pays after discounts, and the discount (null when absent). */
  amountTotalCents: number | null;
  discountCents: number | null;
  /** The promotion code applied, typed on our page or in Stripe's own field. */
  promotionCodeId: string | null;
}

/** How a charge, refund or dispute names the payment: its payment intent, else the charge. */
export interface StripePaymentRef {
  paymentIntentId: string | null;
  chargeId: string | null;
}

/** An invoice: whose subscription, why it was raised and the period it pays for. */
interface StripeInvoice {
  id: string;
  subscriptionId: string | null;
  /** 'subscription_create', 'subscription_cycle', 'manual', …; null when absent. */
  billingReason: string | null;
  /** The subscription's metadata as the invoice carries it (our checkout put the owner there). */
  metadata: Json;
  periodStart: Date | null;
  periodEnd: Date | null;
  amountPaidCents: number;
  /**
   * A subscription change's invoice (billing_reason 'subscription_update', e.g. a plan switched
   * to another interval in the customer portal): whether it bills a whole new period, not only
   * prorations, and the plan that period is priced at when it can be read (stripe-prices.ts).
   */
  startsPeriod: boolean;
  plan: PricePlan | null;
  /** The payment that paid it (invoice.paid only); null for an invoice with nothing to pay. */
  payment: StripePaymentRef | null;
}

/** A dispute (chargeback) of one of our charges. */
interface StripeDispute extends StripePaymentRef {
  id: string;
  chargeId: string;
  /** The disputed amount, in the charge's currency. */
  amountCents: number;
  /** needs_response, under_review, won, lost, warning_closed, … */
  status: string;
}

/** A refunded charge: what was paid and how much of it is refunded so far. */
interface StripeRefund {
  chargeId: string;
  paymentIntentId: string | null;
  amountCents: number;
  refundedCents: number;
  /** The running total before this refund (the event's previous_attributes); null if absent. */
  previousRefundedCents: number | null;
}

/** What each handled event type carries. */
interface HandledEventData {
  /** `paid` is null while the session is unpaid (a delayed payment method). */
  'checkout.session.completed': { paid: PaidCheckout | null };
  'checkout.session.async_payment_succeeded': { paid: PaidCheckout | null };
  /** The session ended unpaid: it expired, or its delayed payment failed. */
  'checkout.session.expired': { sessionId: string };
  'checkout.session.async_payment_failed': { sessionId: string };
  'invoice.paid': { invoice: StripeInvoice };
  'invoice.payment_failed': { invoice: StripeInvoice };
  'customer.subscription.created': { subscription: ProviderSubscription };
  'customer.subscription.updated': { subscription: ProviderSubscription };
  'customer.subscription.deleted': { subscription: ProviderSubscription };
  'charge.refunded': { refund: StripeRefund };
  'charge.dispute.created': { dispute: StripeDispute };
  'charge.dispute.closed': { dispute: StripeDispute };
}

export type HandledEventType = keyof HandledEventData;

/** A handled event, typed by its `type`. */
export type HandledEvent = {
  [T in HandledEventType]: { id: string; type: T } & HandledEventData[T];
}[HandledEventType];

/** The handled events of the type(s) `T`. */
export type EventOf<T extends HandledEventType> = Extract<HandledEvent, { type: T }>;

/** A verified webhook event. */
export interface StripeEvent {
  id: string;
  type: string;
  /** The event as Stripe sent it (stored in webhook_events). */
  payload: unknown;
  /** What billing acts on; null for a type it does not handle (stored and acknowledged). */
  handled: HandledEvent | null;
}

/**
 * Reads a subscription in the current API shape (period on its items) or the older one (period
 * at the top level). Without a period it starts now.
 */
export function readSubscription(object: unknown): ProviderSubscription {
  const sub = obj(object);
  const item = obj((obj(sub.items).data as unknown[] | undefined)?.[0]);
  const start = date(item.current_period_start) ?? date(sub.current_period_start) ?? new Date();
  const end = date(item.current_period_end) ?? date(sub.current_period_end) ?? start;
  return {
    id: String(sub.id),
    status: str(sub.status) ?? 'incomplete',
    periodStart: start,
    periodEnd: end,
    cancelAtPeriodEnd: sub.cancel_at_period_end === true,
    canceledAt: date(sub.canceled_at),
    metadata: (sub.metadata as Record<string, string> | undefined) ?? {},
    plan: planOfSubscription(sub),
  };
}

export function readCheckoutSession(object: unknown): StripeCheckoutSession {
  const session = obj(object);
  return {
    id: String(session.id),
    paid: session.payment_status === 'paid' || session.payment_status === 'no_payment_required',
    paymentIntentId: idOf(session.payment_intent),
    invoiceId: idOf(session.invoice),
    subscriptionId: idOf(session.subscription),
    amountTotalCents: typeof session.amount_total === 'number' ? session.amount_total : null,
    discountCents:
      typeof obj(session.total_details).amount_discount === 'number'
        ? Number(obj(session.total_details).amount_discount)
        : null,
    promotionCodeId:
      ((session.discounts as unknown[] | undefined) ?? [])
        .map((d) => idOf(obj(d).promotion_code))
        .find((id) => id !== null) ?? null,
  };
}

/** Reads an invoice in the current API shape (`parent.subscription_details`) or the older one. */
function readInvoice(object: unknown): StripeInvoice {
  const invoice = obj(object);
  const parent = obj(obj(invoice.parent).subscription_details);
  const legacy = obj(invoice.subscription_details);
  const change = invoice.billing_reason === 'subscription_update' ? readPeriodLine(invoice) : null;
  const period =
    change?.period ?? obj(obj((obj(invoice.lines).data as unknown[] | undefined)?.[0]).period);
  return {
    id: String(invoice.id),
    subscriptionId: idOf(parent.subscription) ?? idOf(invoice.subscription),
    billingReason: str(invoice.billing_reason),
    metadata: obj(parent.metadata ?? legacy.metadata),
    periodStart: date(period.start),
    periodEnd: date(period.end),
    amountPaidCents: Number(invoice.amount_paid ?? 0),
    startsPeriod: change?.startsPeriod ?? false,
    plan: change?.plan ?? null,
    payment: null,
  };
}

/** The payment of an InvoicePayment (`payment.payment_intent`, or `payment.charge`). */
function readInvoicePayment(object: unknown): StripePaymentRef | null {
  const payment = obj(obj(object).payment);
  const ref = { paymentIntentId: idOf(payment.payment_intent), chargeId: idOf(payment.charge) };
  return ref.paymentIntentId || ref.chargeId ? ref : null;
}

/** The payment that paid an invoice: from `payments` when the event includes it, else the API. */
export async function paymentOfInvoice(
  stripe: Stripe,
  invoice: unknown,
): Promise<StripePaymentRef | null> {
  const included = (obj(obj(invoice).payments).data as unknown[] | undefined) ?? [];
  const paid = (list: unknown[]) => list.find((p) => obj(p).status === 'paid');
  const fromEvent = paid(included);
  if (fromEvent) return readInvoicePayment(fromEvent);
  const listed = await stripe.invoicePayments.list({
    invoice: String(obj(invoice).id),
    status: 'paid',
    limit: 10,
  });
  const fromApi = paid(listed.data);
  return fromApi ? readInvoicePayment(fromApi) : null;
}

/** A dispute: its charge (and payment intent), the disputed amount and its status. */
function readDispute(object: unknown): StripeDispute {
  const dispute = obj(object);
  return {
    id: String(dispute.id),
    chargeId: idOf(dispute.charge) ?? '',
    paymentIntentId: idOf(dispute.payment_intent),
    amountCents: Number(dispute.amount ?? 0),
    status: str(dispute.status) ?? 'needs_response',
  };
}

function readRefund(object: unknown, previous: unknown): StripeRefund {
  const charge = obj(object);
  const before = obj(previous).amount_refunded;
  return {
    chargeId: String(charge.id),
    paymentIntentId: idOf(charge.payment_intent),
    amountCents: Number(charge.amount ?? 0),
    refundedCents: Number(charge.amount_refunded ?? 0),
    previousRefundedCents: typeof before === 'number' ? before : null,
  };
}

/** The Stripe calls reading an event may need (made before the webhook's transaction). */
export interface EventLookups {
  /** A paid session as fulfilment needs it (fetches the subscription's period). */
  paidCheckout(session: StripeCheckoutSession): Promise<PaidCheckout>;
  /** The payment that paid an invoice (see paymentOfInvoice). */
  invoicePayment(invoice: unknown): Promise<StripePaymentRef | null>;
}

/**
 * Reads a verified event. The Stripe calls it needs (`lookups`) happen here, before the caller
 * opens its transaction.
 */
export async function readEvent(event: Stripe.Event, lookups: EventLookups): Promise<StripeEvent> {
  const { id, type } = event;
  const object: unknown = event.data.object;
  const read = async (): Promise<HandledEvent | null> => {
    switch (type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded': {
        const session = readCheckoutSession(object);
        return { id, type, paid: session.paid ? await lookups.paidCheckout(session) : null };
      }
      case 'checkout.session.expired':
      case 'checkout.session.async_payment_failed':
        return { id, type, sessionId: readCheckoutSession(object).id };
      case 'invoice.paid': {
        const invoice = readInvoice(object);
        const paid = invoice.amountPaidCents > 0 && invoice.subscriptionId !== null;
        return {
          id,
          type,
          invoice: { ...invoice, payment: paid ? await lookups.invoicePayment(object) : null },
        };
      }
      case 'invoice.payment_failed':
        return { id, type, invoice: readInvoice(object) };
      case 'customer.subscription.created':
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted':
        return { id, type, subscription: readSubscription(object) };
      case 'charge.refunded':
        return { id, type, refund: readRefund(object, event.data.previous_attributes) };
      case 'charge.dispute.created':
      case 'charge.dispute.closed':
        return { id, type, dispute: readDispute(object) };
      default:
        return null;
    }
  };
  return { id, type, payload: event, handled: await read() };
}
