/**
 * The billing portal and the payments list (issue 37, item 2): the "Manage billing" action asks
 * for a portal address (Stripe's customer portal, or our own billing page in local mode), and the
 * billing page lists the signed-in user's payments. Schemas: server/contracts/billing-portal.ts.
 */
import type { BillingCycle } from '../billing.ts';
import type { Ok } from './common.ts';

/** `POST /api/stripe/portal`: where to come back to (a path of this site; default: the referring page). */
export type PortalRequest = {
  return_url?: string;
};

export type PortalResponse = Ok<{
  /** Stripe's customer portal, or the local billing page (local mode). */
  url: string;
  provider: 'stripe' | 'local';
}>;

/** One payment: a paid checkout (a pack, or a plan's first period) or a renewal invoice. */
export type BillingPayment = {
  /** `checkout:<id>` or `invoice:<id>`. */
  id: string;
  type: 'subscription' | 'credits';
  /** The plan or pack id. */
  item_id: string;
  /** A plan's cycle; null for a pack. */
  billing_cycle: BillingCycle | null;
  /** What was charged, after any discount, in minor units (cents). */
  amount_cents: number;
  /** What a promotion code took off (0: none). */
  discount_cents: number;
  /** ISO code, lower case (usd). */
  currency: string;
  /** ISO 8601 time of the payment. */
  paid_at: string;
  /** The receipt's number and where to read it, when a receipt was made for this payment. */
  receipt_number: string | null;
  receipt_url: string | null;
};

export type BillingPaymentsPage = Ok<{
  payments: BillingPayment[];
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  next_cursor: string | null;
  has_more: boolean;
}>;

/** Whether the user has anything to manage: a Stripe customer, or any paid payment. */
export type BillingSummary = Ok<{
  has_billing_history: boolean;
  provider: 'stripe' | 'local';
}>;
