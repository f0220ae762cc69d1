/**
 * Stripe adapter: hosted Checkout Sessions (mode=payment for packs, mode=subscription with
 * recurring price_data for plans), subscription cancel, and signed webhook verification.
 * Amounts come from content/plans.json through the billing service, never from the client.
 * Stripe's JSON is read in stripe-events.ts; what leaves this adapter is typed. The SDK (two
 * hundred modules) is imported when an adapter is made, so a start without Stripe never loads it.
 */
import { createHash } from 'node:crypto';
import type Stripe from 'stripe';
import {
  paymentOfInvoice,
  readCheckoutSession,
  readEvent,
  readSubscription,
  type StripeCheckoutSession,
  type StripeEvent,
} from './stripe-events.ts';
import type {
  CheckoutProvider,
  PaidCheckout,
  ProviderSessionState,
  ProviderSubscription,
} from './types.ts';

/** Stripe's tolerance for webhook timestamps, in seconds. */
const WEBHOOK_TOLERANCE_SECONDS = 300;

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** A test double's base URL (tests/fakes/stripe/); null in production. */
  apiBase: URL | null;
}

async function createStripeClient(settings: StripeSettings): Promise<Stripe> {
  const { default: Stripe } = await import('stripe');
  return new Stripe(settings.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    ...(settings.apiBase
      ? {
          host: settings.apiBase.hostname,
          port: Number(
            settings.apiBase.port || (settings.apiBase.protocol === 'https:' ? 443 : 80),
          ),
          protocol: settings.apiBase.protocol.replace(':', '') as 'http' | 'https',
        }
      : {}),
  });
}

/** The admin self-test's check: one authenticated call that changes nothing; the key's mode. */
export async function checkStripeAccount(
  settings: StripeSettings,
  timeoutMs: number,
): Promise<'live' | 'test'> {
  const stripe = await createStripeClient(settings);
  const balance = await stripe.balance.retrieve(undefined, {
    timeout: timeoutMs,
    maxNetworkRetries: 0,
  });
  return balance.livemode ? 'live' : 'test';
}

export async function createStripeProvider(settings: StripeSettings) {
  const stripe = await createStripeClient(settings);

  async function subscriptionOf(id: string): Promise<ProviderSubscription> {
    return readSubscription(await stripe.subscriptions.retrieve(id));
  }

  /** What a completed, paid session means for fulfillment (fetches the subscription's period). */
  async function paidCheckout(session: StripeCheckoutSession): Promise<PaidCheckout> {
    return {
      sessionId: session.id,
      paymentIntentId: session.paymentIntentId,
      invoiceId: session.invoiceId,
      subscription: session.subscriptionId ? await subscriptionOf(session.subscriptionId) : null,
      amountPaidCents: session.amountTotalCents,
      discountCents: session.discountCents,
      promotionCodeId: session.promotionCodeId,
    };
  }

  async function retrieveSession(id: string): Promise<ProviderSessionState> {
    const session = await stripe.checkout.sessions.retrieve(id);
    if (session.status === 'expired') return { status: 'expired' };
    const checkout = readCheckoutSession(session);
    if (session.status === 'complete' && checkout.paid) {
      return { status: 'paid', paid: await paidCheckout(checkout) };
    }
    return { status: 'open' };
  }

  const provider: CheckoutProvider & {
    createPortalSession(request: {
      customerId: string;
      returnUrl: string;
      locale: string;
    }): Promise<string>;
    verifyEvent(payload: Buffer, signature: string): Stripe.Event;
    readEvent(event: Stripe.Event): Promise<StripeEvent>;
  } = {
    name: 'stripe',

    async createCustomer({ userId, email }) {
      // Keyed by user and address: a retry after a lost answer gets the same customer back.
      const emailKey = createHash('sha256').update(email).digest('hex').slice(0, 16);
      const customer = await stripe.customers.create(
        { email, metadata: { userId } },
        { idempotencyKey: `customer-${userId}-${emailKey}` },
      );
      return customer.id;
    },

    async createSession(request) {
      const metadata: Record<string, string> = {
        userId: request.userId,
        kind: request.kind,
        itemId: request.itemId,
        ...(request.billingCycle ? { billingCycle: request.billingCycle } : {}),
      };
      const session = await stripe.checkout.sessions.create({
        mode: request.kind === 'subscription' ? 'subscription' : 'payment',
        client_reference_id: request.userId,
        ...(request.customerId
          ? { customer: request.customerId }
          : { customer_email: request.email }),
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: request.currency,
              // The list price: Stripe takes a promotion code's discount off it (`discounts`).
              unit_amount: request.amountCents + (request.discount?.cents ?? 0),
              product_data: {
                name: request.itemName,
                description: `${request.credits.toLocaleString('en-US')} credits`,
              },
              ...(request.kind === 'subscription'
                ? { recurring: { interval: request.billingCycle === 'yearly' ? 'year' : 'month' } }
                : {}),
            },
          },
        ],
        metadata,
        ...(request.kind === 'subscription'
          ? {
              subscription_data: {
                metadata: {
                  userId: request.userId,
                  planId: request.itemId,
                  billingCycle: request.billingCycle ?? 'monthly',
                },
              },
            }
          : { payment_intent_data: { metadata } }),
        // A code entered on our page is applied; else Stripe's own field takes one (never both).
        ...(request.discount?.providerCodeId
          ? { discounts: [{ promotion_code: request.discount.providerCodeId }] }
          : { allow_promotion_codes: true }),
        locale: request.locale === 'zh-CN' ? 'zh' : 'en',
        success_url: request.successUrl,
        cancel_url: request.cancelUrl,
      });
      if (!session.url)
        throw new Error(`Stripe returned checkout session ${session.id} without a url`);
      return { id: session.id, url: session.url, expiresAt: new Date(session.expires_at * 1000) };
    },

    retrieveSession,

    async expireSession(id) {
      try {
        await stripe.checkout.sessions.expire(id);
        return { status: 'expired' };
      } catch (error) {
        // Stripe expires open sessions only; any other answers what the session is now.
        if (!(error instanceof stripe.errors.StripeInvalidRequestError)) throw error;
        return retrieveSession(id);
      }
    },

    async cancelSubscription(id) {
      try {
        await stripe.subscriptions.cancel(id);
      } catch (error) {
        // Already canceled at Stripe (e.g. from the dashboard): our side still records it.
        if ((error as { code?: string }).code !== 'resource_missing') throw error;
      }
    },

    async refundSubscription(id) {
      const sub = await stripe.subscriptions.retrieve(id);
      const invoice =
        typeof sub.latest_invoice === 'string' ? sub.latest_invoice : sub.latest_invoice?.id;
      if (!invoice) return;
      // Since API 2025-03-31 an invoice names its payments through InvoicePayment objects.
      const payments = await stripe.invoicePayments.list({ invoice, status: 'paid' });
      for (const { payment } of payments.data) {
        const intent = payment.payment_intent;
        const paymentIntent = typeof intent === 'string' ? intent : intent?.id;
        if (!paymentIntent) continue;
        try {
          await stripe.refunds.create(
            {
              payment_intent: paymentIntent,
              reason: 'duplicate',
              metadata: { subscriptionId: id },
            },
            { idempotencyKey: `refund-duplicate-${id}-${paymentIntent}` },
          );
        } catch (error) {
          // Refunded already (a retry after Stripe's 24 h idempotency window) or charged back:
          // the money is back with the buyer either way.
          const code = (error as { code?: string }).code;
          if (code !== 'charge_already_refunded' && code !== 'charge_disputed') throw error;
        }
      }
    },

    async createPromotion(promotion) {
      // Keyed by our code's id: a retry after a lost answer gets the same objects back.
      const coupon = await stripe.coupons.create(
        {
          duration: 'once',
          name: promotion.code,
          ...(promotion.percentOff !== null
            ? { percent_off: promotion.percentOff }
            : { amount_off: promotion.amountOffCents ?? 0, currency: promotion.currency }),
          metadata: { promotionId: promotion.id },
        },
        { idempotencyKey: `coupon-${promotion.id}` },
      );
      const code = await stripe.promotionCodes.create(
        {
          promotion: { type: 'coupon', coupon: coupon.id },
          code: promotion.code,
          ...(promotion.maxRedemptions !== null
            ? { max_redemptions: promotion.maxRedemptions }
            : {}),
          ...(promotion.expiresAt
            ? { expires_at: Math.floor(promotion.expiresAt.getTime() / 1000) }
            : {}),
          ...(promotion.firstPurchaseOnly
            ? { restrictions: { first_time_transaction: true } }
            : {}),
          metadata: { promotionId: promotion.id },
        },
        { idempotencyKey: `promotion-code-${promotion.id}` },
      );
      return { couponId: coupon.id, promotionCodeId: code.id };
    },

    async setPromotionActive(promotionCodeId, active) {
      await stripe.promotionCodes.update(promotionCodeId, { active });
    },

    /**
     * A customer portal session (issue 37, item 2: invoices, receipts, card, plan and cancel at
     * Stripe); its url is good for one visit. The portal's options are set in Stripe's dashboard.
     */
    async createPortalSession(request: { customerId: string; returnUrl: string; locale: string }) {
      const session = await stripe.billingPortal.sessions.create({
        customer: request.customerId,
        return_url: request.returnUrl,
        locale: request.locale,
      });
      return session.url;
    },

    /** Checks the signature and its age (throws when invalid or too old). */
    verifyEvent(payload, signature) {
      return stripe.webhooks.constructEvent(
        payload,
        signature,
        settings.webhookSecret,
        WEBHOOK_TOLERANCE_SECONDS,
      );
    },

    /** A verified event as typed values; a paid checkout's subscription is fetched here. */
    readEvent: (event) =>
      readEvent(event, {
        paidCheckout,
        invoicePayment: (invoice) => paymentOfInvoice(stripe, invoice),
      }),
  };
  return provider;
}

export type StripeProvider = Awaited<ReturnType<typeof createStripeProvider>>;
