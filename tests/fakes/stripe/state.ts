/**
 * The Stripe fake's stored state: the internal shape of each object (render* functions in the
 * resource modules produce the wire JSON) and the store one running fake keeps them in.
 */
import Stripe from 'stripe';
import { randomToken } from './ids.ts';
import type { SignedEvent, StripeFakeRequest } from './types.ts';

export const INTERVALS = ['day', 'month', 'week', 'year'] as const;
export type Interval = (typeof INTERVALS)[number];

export interface PriceState {
  id: string;
  productId: string;
  productName: string;
  currency: string;
  unitAmount: number;
  recurring: { interval: Interval; intervalCount: number } | null;
  taxBehavior: string;
  created: number;
  /** A catalogue price made in the dashboard (the portal's plan switch): active, keyed, tagged. */
  active?: boolean;
  lookupKey?: string | null;
  metadata?: Record<string, string>;
}

export interface LineItemState {
  id: string;
  price: PriceState;
  quantity: number;
  description: string;
}

/** A promotion code applied to a session (promotions.ts): its coupon and the amount off. */
export interface SessionDiscount {
  promotionCode: string | null;
  coupon: string;
  amount: number;
}

export interface SessionState {
  id: string;
  created: number;
  expiresAt: number;
  mode: 'payment' | 'subscription';
  status: 'open' | 'complete' | 'expired';
  paymentStatus: 'unpaid' | 'paid';
  lineItems: LineItemState[];
  currency: string;
  amountTotal: number;
  customerParam: string | null;
  customerCreation: 'always' | 'if_required' | null;
  customerEmail: string | null;
  clientReferenceId: string | null;
  metadata: Record<string, string>;
  successUrl: string;
  cancelUrl: string | null;
  locale: string | null;
  allowPromotionCodes: boolean | null;
  /** A promotion code applied (promotions.ts); amountTotal is after it. */
  discount?: SessionDiscount | null;
  billingAddressCollection: string | null;
  subscriptionData: { metadata: Record<string, string>; description: string | null };
  paymentIntentData: {
    metadata: Record<string, string>;
    description: string | null;
    receiptEmail: string | null;
  };
  customer: string | null;
  customerDetails: { email: string; name: string } | null;
  subscription: string | null;
  invoice: string | null;
  paymentIntent: string | null;
}

export interface CustomerState {
  id: string;
  created: number;
  email: string | null;
  name: string | null;
  metadata: Record<string, string>;
  invoicePrefix: string;
  invoiceCount: number;
}

export interface SubscriptionItemState {
  id: string;
  created: number;
  price: PriceState;
  quantity: number;
}

export interface SubscriptionState {
  id: string;
  created: number;
  customer: string;
  currency: string;
  description: string | null;
  metadata: Record<string, string>;
  items: SubscriptionItemState[];
  interval: Interval;
  intervalCount: number;
  /** Billing anchor; period k runs from anchor + k intervals to anchor + k+1 intervals. */
  anchor: number;
  periodIndex: number;
  /** past_due: a renewal invoice is unpaid (Stripe retries it). */
  status: 'active' | 'past_due' | 'canceled';
  cancelAtPeriodEnd: boolean;
  cancelAt: number | null;
  canceledAt: number | null;
  endedAt: number | null;
  cancellation: { comment: string | null; feedback: string | null; reason: string | null };
  latestInvoice: string | null;
  defaultPaymentMethod: string;
}

export interface InvoiceState {
  id: string;
  number: string;
  created: number;
  customer: string;
  customerEmail: string | null;
  customerName: string | null;
  subscription: string;
  subscriptionMetadata: Record<string, string>;
  billingReason: 'subscription_create' | 'subscription_cycle' | 'subscription_update';
  /** open: finalized, not paid yet (a failed attempt leaves it open); paid. */
  status: 'open' | 'paid';
  attemptCount: number;
  paidAt: number | null;
  currency: string;
  periodStart: number;
  periodEnd: number;
  lines: Array<{
    id: string;
    item: SubscriptionItemState;
    amount: number;
    period: { start: number; end: number };
  }>;
  total: number;
}

export interface PaymentIntentState {
  id: string;
  created: number;
  amount: number;
  currency: string;
  customer: string | null;
  description: string | null;
  metadata: Record<string, string>;
  receiptEmail: string | null;
  latestCharge: string;
  paymentMethod: string;
  /** processing: a delayed method (bank debit) not settled yet. */
  status: 'processing' | 'requires_payment_method' | 'succeeded';
}

export interface ChargeState {
  id: string;
  created: number;
  amount: number;
  amountRefunded: number;
  currency: string;
  customer: string | null;
  description: string | null;
  metadata: Record<string, string>;
  paymentIntent: string;
  paymentMethod: string;
  billingEmail: string;
  billingName: string;
  receiptEmail: string | null;
  status: 'pending' | 'failed' | 'succeeded';
  disputed: boolean;
}

/** The link between an invoice and the payment intent that pays it (API 2025-03-31 and later). */
export interface InvoicePaymentState {
  id: string;
  created: number;
  invoice: string;
  paymentIntent: string;
  amount: number;
  currency: string;
  status: 'open' | 'paid';
  paidAt: number | null;
}

export interface DisputeState {
  id: string;
  created: number;
  charge: string;
  paymentIntent: string | null;
  amount: number;
  currency: string;
  reason: string;
  status: 'needs_response' | 'warning_needs_response' | 'won' | 'lost' | 'warning_closed';
}

export interface RequestContext {
  requestId: string;
  idempotencyKey: string | null;
}

/** Everything one running fake knows: its keys, the objects it made, the events it owes. */
export interface StripeStore {
  secretKey: string;
  webhookSecret: string;
  apiVersion: string;
  /** The fake's base URL, set once its server listens. */
  url: string;
  requests: StripeFakeRequest[];
  sessions: Map<string, SessionState>;
  customers: Map<string, CustomerState>;
  subscriptions: Map<string, SubscriptionState>;
  invoices: Map<string, InvoiceState>;
  paymentIntents: Map<string, PaymentIntentState>;
  charges: Map<string, ChargeState>;
  invoicePayments: Map<string, InvoicePaymentState>;
  disputes: Map<string, DisputeState>;
  /** Idempotency-Key → first request and its answer, replayed for retries as Stripe does. */
  idempotency: Map<
    string,
    { method: string; path: string; rawBody: string; status: number; body: string }
  >;
  /** Events produced by API calls (cancel, update, expire), until `takeEvents()`. */
  pending: SignedEvent[];
}

export function createStore(): StripeStore {
  return {
    secretKey: `sk_test_fake_${randomToken(24)}`,
    webhookSecret: `whsec_${randomToken(32)}`,
    apiVersion: Stripe.API_VERSION,
    url: '',
    requests: [],
    sessions: new Map(),
    customers: new Map(),
    subscriptions: new Map(),
    invoices: new Map(),
    paymentIntents: new Map(),
    charges: new Map(),
    invoicePayments: new Map(),
    disputes: new Map(),
    idempotency: new Map(),
    pending: [],
  };
}
