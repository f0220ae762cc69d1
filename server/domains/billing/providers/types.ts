/** What the billing service needs from a payment provider (Stripe, or our local checkout). */
import type { BillingCycle } from '../../../../shared/billing.ts';

interface CheckoutRequest {
  userId: string;
  email: string;
  kind: 'subscription' | 'credits';
  itemId: string;
  itemName: string;
  billingCycle: BillingCycle | null;
  /** What the buyer pays: the list price less `discount`. */
  amountCents: number;
  currency: string;
  credits: number;
  /** A promotion code entered on our page (issue 37): cents off, and its id at the provider. */
  discount: { cents: number; providerCodeId: string | null } | null;
  /** The language of the page the buyer came from (shared/locales.ts). */
  locale: string;
  successUrl: string;
  cancelUrl: string;
  /** The buyer's customer at the provider, reused by every checkout (null: none there). */
  customerId: string | null;
}

/** A session the provider opened: where to send the buyer, and until when it takes payment. */
export interface ProviderSession {
  id: string;
  url: string;
  expiresAt: Date | null;
}

/** A checkout the buyer has paid, as the fulfillment function needs it. */
export interface PaidCheckout {
  sessionId: string;
  paymentIntentId: string | null;
  subscription: ProviderSubscription | null;
  /** The first invoice of a subscription checkout: its id keys the first period's credits. */
  invoiceId: string | null;
  /**
   * What the buyer paid after discounts, the discount, and the provider's id of the promotion
   * code applied (ours, or one typed in the provider's own field); absent: the checkout row's.
   */
  amountPaidCents?: number | null;
  discountCents?: number | null;
  promotionCodeId?: string | null;
}

/** A promotion code to make at the provider (issue 37): a one-off coupon and its code. */
interface ProviderPromotion {
  code: string;
  percentOff: number | null;
  amountOffCents: number | null;
  currency: string;
  firstPurchaseOnly: boolean;
  maxRedemptions: number | null;
  expiresAt: Date | null;
  /** Our code's id (metadata, and the idempotency of a retried creation). */
  id: string;
}

export interface ProviderSubscription {
  id: string;
  status: string;
  periodStart: Date;
  periodEnd: Date;
  cancelAtPeriodEnd: boolean;
  canceledAt: Date | null;
  metadata: Record<string, string>;
  /** The plan its price is (Stripe: providers/stripe-prices.ts); absent or null when unknown. */
  plan?: { planId: string; billingCycle: BillingCycle } | null;
}

export type ProviderSessionState =
  { status: 'open' } | { status: 'expired' } | { status: 'paid'; paid: PaidCheckout };

export interface CheckoutProvider {
  readonly name: 'stripe' | 'local';
  /** The buyer's customer at the provider, made once per user (null: the provider has none). */
  createCustomer(user: { userId: string; email: string }): Promise<string | null>;
  createSession(request: CheckoutRequest): Promise<ProviderSession>;
  /** The provider's view of a session (Stripe: an API call; local: not needed). */
  retrieveSession(id: string): Promise<ProviderSessionState>;
  /**
   * Stops an open session from taking payment. A session that can no longer be expired answers
   * its state instead: 'expired' already, or 'paid' / still 'open' when the buyer completed it.
   */
  expireSession(id: string): Promise<ProviderSessionState>;
  cancelSubscription(id: string): Promise<void>;
  /** Refunds what the subscription's latest invoice charged, once however often it is asked. */
  refundSubscription(id: string): Promise<void>;
  /** Makes a promotion code's coupon and code at the provider; null: the provider keeps none. */
  createPromotion(
    promotion: ProviderPromotion,
  ): Promise<{ couponId: string; promotionCodeId: string } | null>;
  /** Turns a promotion code on or off at the provider. */
  setPromotionActive(promotionCodeId: string, active: boolean): Promise<void>;
}
