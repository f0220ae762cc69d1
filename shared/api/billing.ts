/**
 * Checkout and subscription shapes (spec 3 "Subscription status", "Payment request", "Payment
 * session response") the pricing page sends and reads. The catalogue is shared/billing.ts; the
 * schemas are in server/contracts/billing.ts.
 */
import type { BillingCycle } from '../billing.ts';
import type { Locale } from '../locales.ts';
import type { Ok } from './common.ts';

/** Spec 7 "POST /api/stripe/create-payment-intent" (it creates a hosted checkout session). */
export type PaymentRequest = {
  type: 'subscription' | 'credits';
  plan_id?: string;
  package_id?: string;
  billing_cycle?: BillingCycle;
  amount?: number;
  currency?: string;
  success_url: string;
  cancel_url: string;
  /** A promotion code the buyer entered (issue 37); case-insensitive. */
  promotion_code?: string;
  /** The language of the page the buyer is on (their receipts'); default from Accept-Language. */
  locale?: Locale;
};

export type PaymentSessionResponse = {
  success: true;
  url: string;
  sessionId: string;
};

export type SubscriptionInfo = {
  planId: string;
  billingCycle: BillingCycle;
  /** Epoch seconds. */
  currentPeriodEnd: number;
  status: string;
  /** Set to end when the period ends (a cancel in Stripe's customer portal): no renewal. */
  cancelAtPeriodEnd?: boolean;
};

export type CancelSubscriptionResponse = Ok<{ message: string }>;

/** Where a checkout stands, for the pricing page after the provider sends the buyer back. */
export type CheckoutStatusResponse = Ok<{
  sessionId: string;
  status: 'open' | 'paid' | 'canceled' | 'expired' | 'failed';
  type: 'subscription' | 'credits';
  credits: number;
  /** What was bought and for how much, so the page reports a confirmed payment once. */
  item_id: string;
  /** A plan's billing cycle; null for a credit pack. */
  billing_cycle: BillingCycle | null;
  /** The price charged, in currency units (29.9 is $29.90). */
  amount: number;
  /** ISO currency code, lower case (usd). */
  currency: string;
}>;
