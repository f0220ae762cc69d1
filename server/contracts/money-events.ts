/**
 * The money events of issue 37 (types only): a confirmed payment, a renewal, a refund, a
 * dispute's outcome. Billing records each in its own transaction (domains/billing/money-events.ts);
 * the receipts outbox and the credits domain's value of a credit read them.
 */
import type { Locale } from '../../shared/locales.ts';

interface EventBase {
  userId: string;
  /** Minor units (cents for USD) and the provider's lower-case currency code. */
  amountCents: number;
  currency: string;
  /** The language of the page the customer bought from (checkout_sessions.locale). */
  locale: Locale;
  /** When it happened at the provider (or now). */
  at: Date;
}

/** What was bought: a pack, or a plan for a cycle. */
export interface PurchasedItem {
  type: 'credits' | 'subscription';
  /** The pack's or plan's id (shared pricing). */
  id: string;
  billingCycle?: 'monthly' | 'yearly' | undefined;
}

export type MoneyEvent =
  | (EventBase & {
      kind: 'payment';
      checkoutId: string;
      item: PurchasedItem;
      /** What a promotion code took off (0: none), and the code as the customer entered it. */
      discountCents: number;
      promotionCode?: string | undefined;
      /** Credits granted now. */
      credits: number;
      /**
       * Credits the money buys in all (a yearly plan's payment buys twelve months of credits,
       * granted month by month): what the credit value divides the amount by.
       */
      creditsBought: number;
    })
  | (EventBase & {
      kind: 'renewal';
      invoiceId: string;
      subscriptionId: string;
      item: PurchasedItem;
      discountCents: number;
      credits: number;
      creditsBought: number;
    })
  | (EventBase & {
      kind: 'refund';
      /** The provider's refund id (re_…), or the checkout/invoice id with a counter locally. */
      refundId: string;
      /** The refunded payment: "checkout:<id>" or "invoice:<id>". */
      paymentKey: string;
      item: PurchasedItem;
      /** amountCents is the amount refunded now; credits taken back off the balance. */
      creditsTakenBack: number;
      /** Of the credits the refunded money had bought: what no longer counts as bought. */
      creditsUnbought: number;
    })
  | (EventBase & {
      kind: 'dispute_won' | 'dispute_lost';
      disputeId: string;
      paymentKey: string;
      item: PurchasedItem;
      /** Credits held while it was open (released if won, kept if lost). */
      creditsHeld: number;
      /** Lost: of the credits the disputed money had bought, what no longer counts as bought. */
      creditsUnbought: number;
    });
