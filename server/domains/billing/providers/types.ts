/** What the billing service needs from a payment provider (Stripe, or our local checkout). */
import type { BillingCycle } from '../../../../shared/billing.ts';

export interface CheckoutRequest {
  userId: string;
  email: string;
  kind: 'subscription' | 'credits';
  itemId: string;
  itemName: string;
  billingCycle: BillingCycle | null;
  amountCents: number;
  currency: string;
  credits: number;
  successUrl: string;
  cancelUrl: string;
}

/** A checkout the buyer has paid, as the fulfillment function needs it. */
export interface PaidCheckout {
  sessionId: string;
  paymentIntentId: string | null;
  subscription: ProviderSubscription | null;
  /** The first invoice of a subscription checkout: its id keys the first period's credits. */
  invoiceId: string | null;
}

export interface ProviderSubscription {
  id: string;
  status: string;
  periodStart: Date;
  periodEnd: Date;
  cancelAtPeriodEnd: boolean;
  canceledAt: Date | null;
  metadata: Record<string, string>;
}

export type ProviderSessionState =
  { status: 'open' } | { status: 'expired' } | { status: 'paid'; paid: PaidCheckout };

export interface CheckoutProvider {
  readonly name: 'stripe' | 'local';
  createSession(request: CheckoutRequest): Promise<{ id: string; url: string }>;
  /** The provider's view of a session (Stripe: an API call; local: not needed). */
  retrieveSession(id: string): Promise<ProviderSessionState>;
  cancelSubscription(id: string): Promise<void>;
}
